#!/usr/bin/env python3
"""How full Hive's stash buckets get in a bulk insert, on the host: the share of keys that land in the
stash and the share left pending for phase 2 (b0, b1 and the key's stash bucket all full), for stash
sizes of 1/32 (hive_table.cu) and 1/16 of the table.

Models phase 1 of one insert batch into a uniform table (balanced roots, hive_table.cu): keys arrive in
random order and take b0 if it has room, else b1, else their stash bucket (stash buckets = the table's
buckets / share, rounded up to a power of two, as ensure_alloc does). At LF 0.95 and 1/32 it gives a
stash share of 5.1 % and 0.60 % pending; the H200 traced 5.05 % and 0.56 % for 2^26 keys (s8, run B).
Usage: scripts/hive-stash-sim.py [log2 keys = 20] [load factor = 0.95]
"""
import sys

import numpy as np


def fill(nkeys, load, share, slots=8, seed=3):
    rng = np.random.default_rng(seed)
    nb = int(nkeys / load / slots)
    ns = 1
    while ns < max(1, ((nb + 31) // 32 * 32) // share):
        ns <<= 1
    b0, b1 = rng.integers(0, nb, nkeys), rng.integers(0, nb, nkeys)
    st = rng.integers(0, ns, nkeys)
    count, scount = np.zeros(nb, np.int32), np.zeros(ns, np.int32)
    stash = pending = 0
    for a, b, s in zip(b0, b1, st):
        if count[a] < slots:
            count[a] += 1
        elif count[b] < slots:
            count[b] += 1
        elif scount[s] < slots:
            scount[s] += 1
            stash += 1
        else:
            pending += 1
    return nb, ns, stash / nkeys, pending / nkeys


if __name__ == "__main__":
    n = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 20)
    load = float(sys.argv[2]) if len(sys.argv) > 2 else 0.95
    print(f"{n} keys at load {load}, 8-slot buckets")
    for share in (32, 16):
        nb, ns, stash, pending = fill(n, load, share)
        print(f"  stash 1/{share}: {nb} buckets, {ns} stash buckets: in the stash {100 * stash:.2f} %, "
              f"pending {100 * pending:.3f} %")
