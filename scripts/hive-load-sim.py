#!/usr/bin/env python3
"""Where Hive's first-fit placement puts keys (b0, b1, stash) at a given bucket count, on the host.

Models phase 1 of an insert batch (keys arrive in random order; b0 if it has room, else b1, else the
stash) with the linear-hashing address rule of native/src/hive/hive_layout.cuh, so the share of keys
that the stash drain must move can be read off for any table size before spending GPU time.
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


def place(n_buckets, load, slots=8, seed=2):
    rng = np.random.default_rng(seed)
    n = int(n_buckets * slots * load)
    b0 = lh_address(rng.integers(0, 1 << 32, n, dtype=np.uint64), n_buckets)
    b1 = lh_address(rng.integers(0, 1 << 32, n, dtype=np.uint64), n_buckets)
    count = np.zeros(n_buckets, int)
    ovf = np.zeros(n_buckets, bool)
    where = np.zeros(n, int)
    for i in range(n):
        a = b0[i]
        if count[a] < slots:
            count[a] += 1
            continue
        ovf[a] = True
        b = b1[i]
        if count[b] < slots:
            count[b] += 1
            where[i] = 1
        else:
            where[i] = 2
    return (where == 1).mean(), (where == 2).mean(), ovf.mean()


if __name__ == "__main__":
    base = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 18)
    load = float(sys.argv[2]) if len(sys.argv) > 2 else 0.8
    print(f"load {load}, 8-slot buckets; N = buckets, 2^m = the level's power of two")
    for f in (1.0, 1.25, 1.5, 1.75):
        in_b1, stash, ovf = place(int(f * base), load)
        print(f"N/2^m = {f:.2f}: in b1 {in_b1:.3f}  in the stash {stash:.3f}  overflow bits set {ovf:.3f}")
