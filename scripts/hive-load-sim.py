#!/usr/bin/env python3
"""Where Hive's first-fit placement puts keys (b0, b1, stash) at a given bucket count, on the host.

Models phase 1 of an insert batch (keys arrive in random order; b0 if it has room, else b1, else the
stash) with the one-root linear-hashing address rule (hive_layout.cuh with n0 = 1: a table N buckets
between two powers of two is mid-level), so the share of keys that the stash drain must move can be
read off before spending GPU time. Two claim orders: first-fit (b0 then b1) and first_tier
(hive_layout.cuh: b1 first when b0 is an unsplit bucket of the level and b1 is not).
Usage: scripts/hive-load-sim.py [log2 base buckets = 18] [load factor = 0.8]
"""
import sys

import numpy as np


def lh_address(x, n):
    half = 1
    while half <= n // 2:
        half <<= 1
    low = half - 1
    split = n - half
    a = x & low
    return np.where(a < split, x & (2 * low + 1), a)


def place(n_buckets, load, by_tier=False, slots=8, seed=2):
    rng = np.random.default_rng(seed)
    n = int(n_buckets * slots * load)
    b0 = lh_address(rng.integers(0, 1 << 32, n, dtype=np.uint64), n_buckets)
    b1 = lh_address(rng.integers(0, 1 << 32, n, dtype=np.uint64), n_buckets)
    count = np.zeros(n_buckets, int)
    ovf = np.zeros(n_buckets, bool)
    where = np.zeros(n, int)
    half = 1
    while half <= n_buckets // 2:
        half <<= 1
    split = n_buckets - half
    heavy = lambda b: split != 0 and split <= b < half
    for i in range(n):
        a, b = int(b0[i]), int(b1[i])
        order = (b, a) if by_tier and heavy(a) and not heavy(b) else (a, b)
        if order[0] == b:
            ovf[a] = True
        for c in order:
            if count[c] < slots:
                count[c] += 1
                where[i] = 0 if c == a else 1
                break
            ovf[a] = True
        else:
            where[i] = 2
    return (where == 1).mean(), (where == 2).mean(), ovf.mean()


if __name__ == "__main__":
    base = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 18)
    load = float(sys.argv[2]) if len(sys.argv) > 2 else 0.8
    print(f"load {load}, 8-slot buckets; N = buckets, 2^m = the level's power of two")
    for by_tier in (False, True):
        print("first_tier order" if by_tier else "first-fit (b0, then b1)")
        for f in (1.0, 1.25, 1.5, 1.75):
            in_b1, stash, ovf = place(int(f * base), load, by_tier)
            print(f"  N/2^m = {f:.2f}: in b1 {in_b1:.3f}  in the stash {stash:.3f}  overflow bits set {ovf:.3f}")
