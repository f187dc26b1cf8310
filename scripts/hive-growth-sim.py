#!/usr/bin/env python3
"""How much of each insert batch Hive's growth sends to the stash, under three pre-grow policies.

Models wixbench's growth benchmark at 1/64 scale (a table made for 2^14 keys, 2^20 keys inserted in
batches of 2^16 at max load factor 0.8, 8-slot buckets) with the roots geometry of hive_layout.cuh
(N = n0·2^m + split, n0 in [128, 256); a split moves a bucket's keys only to bucket + n0·2^m). Each
batch: pre-grow (the policy), then phase 1 in arrival order with first_tier (b1 first when b0 is an
unsplit bucket of the level and b1 is not; then the other; then the stash), then the lock-free drain
pass (a stash key moves into b0 or b1 by moving one victim to its other bucket, if that has room).
Prints per policy: stash entries per batch (what the drain moves), what the pass leaves to the
locked rounds, and the final bucket count (memory).
Policies: fit = room for size + batch at the max load factor (hive_table.cu until s7);
levels = the same rounded up to a whole level n0·2^k (no mid-level table while inserting; what
hive_table.cu does since s7 — the H200 trace then showed 2.9 % of the keys through the stash, 2.8 % here);
half-levels = rounded up to a multiple of half a level.
Usage: scripts/hive-growth-sim.py [log2 keys = 20] [log2 batch = 16] [log2 initial keys = 14]
"""
import math
import sys

import numpy as np

SLOTS, LF = 8, 0.8


def roots_for(nb):
    if nb < 256:
        return nb, nb
    m = 0
    while (nb >> m) >= 256:
        m += 1
    n0 = (nb + (1 << m) - 1) >> m
    if n0 == 256:
        n0, m = 128, m + 1
    return n0, n0 << m


def geometry(n, n0):
    lev = 1
    while n0 * lev * 2 <= n:
        lev <<= 1
    return lev - 1, n0 * lev, n - n0 * lev  # mask, half, split


def address(x, n, n0):
    mask, half, split = geometry(n, n0)
    r = (x * n0) >> 32
    a = r + n0 * (x & mask)
    return np.where(a < split, r + n0 * (x & (2 * mask + 1)), a)


def buckets_for(keys):
    return max(1, math.ceil(math.ceil(keys / LF) / SLOTS))


def target(policy, keys, n0):
    nb = buckets_for(keys)
    if policy == "fit":
        return nb
    step = n0
    while step * 2 <= nb:
        step *= 2
    if step < nb:
        step *= 2  # the smallest whole level >= nb
    if policy == "levels":
        return step
    unit = max(step // 4, 1)  # half of the level below step
    return -(-nb // unit) * unit


def simulate(policy, total, batch, initial, seed=3):
    rng = np.random.default_rng(seed)
    h0 = rng.integers(0, 1 << 32, total, dtype=np.uint64)
    h1 = rng.integers(0, 1 << 32, total, dtype=np.uint64)
    n0, n = roots_for(buckets_for(initial))
    where = np.full(total, -2, np.int64)  # -2 not inserted, -1 stash, else bucket
    in_b1 = np.zeros(total, bool)
    count = np.zeros(0, np.int64)
    rows = []
    for start in range(0, total, batch):
        size = start
        n_new = max(n, target(policy, size + batch, n0))
        if len(count) < n_new:
            count = np.concatenate([count, np.zeros(n_new - len(count), np.int64)])
        if n_new > n:  # splits: every placed key goes where its address under the new geometry says
            live = np.nonzero(where >= 0)[0]
            dest = np.where(in_b1[live], address(h1[live], n_new, n0), address(h0[live], n_new, n0))
            np.subtract.at(count, where[live], 1)
            np.add.at(count, dest, 1)
            where[live] = dest
            n = n_new
        b0 = address(h0[start:start + batch], n, n0)
        b1 = address(h1[start:start + batch], n, n0)
        _, half, split = geometry(n, n0)
        stash = []
        for j in range(len(b0)):
            a, b = int(b0[j]), int(b1[j])
            heavy_a, heavy_b = split <= a < half, split <= b < half
            order = (b, a) if split and heavy_a and not heavy_b else (a, b)
            i = start + j
            for c in order:
                if count[c] < SLOTS:
                    count[c] += 1
                    where[i] = c
                    in_b1[i] = c != a
                    break
            else:
                where[i] = -1
                stash.append(i)
        left = 0
        placed = np.nonzero(where >= 0)[0]  # bucket -> keys, as the batch left them
        by_bucket = placed[np.argsort(where[placed], kind="stable")]
        starts = np.searchsorted(where[by_bucket], np.arange(n + 1))
        a0, a1 = address(h0, n, n0), address(h1, n, n0)
        for i in stash:  # the lock-free drain pass: one victim move
            done = False
            for side in (0, 1):
                B = int(a0[i] if side == 0 else a1[i])
                for v in by_bucket[starts[B]:starts[B + 1]]:
                    if where[v] != B:
                        continue  # moved by an earlier drain job
                    vb0, vb1 = int(a0[v]), int(a1[v])
                    A = vb1 if vb0 == B else vb0
                    if A != B and count[A] < SLOTS:
                        count[A] += 1
                        where[v], in_b1[v] = A, A == vb1
                        where[i], in_b1[i] = B, side == 1
                        done = True
                        break
                if done:
                    break
            left += not done
        rows.append((start // batch, n, len(stash), left))
    return rows, n


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    total, batch, initial = (1 << (args[i] if len(args) > i else d) for i, d in enumerate((20, 16, 14)))
    print(f"{total} keys in batches of {batch}, table made for {initial}, max LF {LF}, {SLOTS}-slot buckets")
    for policy in ("fit", "half-levels", "levels"):
        rows, n = simulate(policy, total, batch, initial)
        stashed = sum(r[2] for r in rows)
        left = sum(r[3] for r in rows)
        worst = max(r[2] for r in rows) / batch
        print(f"{policy:12s} stash entries {stashed / total:6.2%} of all keys (worst batch {worst:6.2%}), "
              f"left to the locked rounds {left}, final buckets {n} (LF {total / (n * SLOTS):.2f})")
