#!/usr/bin/env python3
"""Writes the hand-made seed inputs of fuzz_capi into native/fuzz/corpus/ (see the format at the top
of fuzz_capi.cpp). Each seed is one short scenario; libFuzzer mutates from there."""
import os
import struct

OPS = dict(create=0, destroy=1, insert=2, assign=3, find=4, contains=5, erase=6, batch=7, resize=8,
           clear=9, retrieve=10, stats=11, bulk=12, null=13, verify=14)


def op(name, slot=0, *rest):
    return bytes([OPS[name] | (slot << 4)]) + b"".join(bytes(r) if isinstance(r, (bytes, list)) else bytes([r]) for r in rest)


def create(slot=0, lf=0, grow=0, threads=0, cap=100, kind=None):
    f = 0x0F if kind is not None else 0x00
    body = [f] + ([kind] if kind is not None else [])
    # g=0 (32-bit widths), lf index, min index 0, grow byte, threads index, device byte, capacity
    body += [0x00, lf, 0, grow, threads, 2, 8] + list(struct.pack("<H", cap))
    return op("create", slot, body)


def bulk_call(name, slot, keys, shape=0x00, seed=7):
    return op(name, slot, [shape, len(keys)] + keys + list(struct.pack("<H", seed)))


def keys_call(name, slot, keys, shape=0x00, extra=()):
    return op(name, slot, [shape, len(keys)] + keys + list(extra))


seeds = {
    # create, insert, find, contains, erase, stats, retrieve_all, destroy
    "basic": create() + bulk_call("insert", 0, [1, 2, 3, 4, 5, 6, 7, 8]) + keys_call("find", 0, [1, 2, 9, 10], extra=[0])
    + keys_call("contains", 0, [3, 11]) + keys_call("erase", 0, [2, 2, 12]) + op("stats", 0, 0)
    + op("retrieve", 0, [0, 4]) + op("verify", 0) + op("destroy", 0),
    # reserved and near-reserved keys in every call
    "reserved": create() + bulk_call("insert", 0, [250, 251, 248, 249, 1]) + bulk_call("assign", 0, [251, 1, 248])
    + keys_call("find", 0, [250, 248, 249], extra=[200] + [0xFF] * 8) + keys_call("erase", 0, [250, 249]),
    # a full table that may not grow, then mixed batches and a retrieve into too-small arrays
    # (fills the 64 buckets and the overflow slots: capacity must still be >= size)
    "grow_never": create(lf=2, grow=200, cap=4) + bulk_call("insert", 0, list(range(0, 32)))
    + bulk_call("insert", 0, list(range(32, 48)) + list(range(200, 216))) + bulk_call("insert", 0, list(range(216, 248)))
    + op("stats", 0, 0)
    + op("batch", 0, [0x00, 6, 1, 2, 60, 61, 250, 3, 0, 1, 2, 3, 0, 3, 0x34, 0x12, 0])
    + op("retrieve", 0, [0, 0]) + op("stats", 0, 0),
    # grow through a bulk insert, shrink below size (refused), clear, resize down
    "resize": create(cap=16, threads=5) + op("bulk", 0, list(struct.pack("<H", 1500)) + [5] + list(struct.pack("<I", 99)) + [1])
    + op("resize", 0, [2]) + op("resize", 0, [0x13]) + op("clear", 0) + op("resize", 0, [0]) + op("verify", 0),
    # bad arguments: NULL arrays, device flag on host memory, junk flag, NULL table, bad configs
    "bad_args": create() + keys_call("insert", 0, [1, 2], shape=0x07) + keys_call("find", 0, [1], shape=0x38, extra=[0])
    + keys_call("erase", 0, [1], shape=0x80, extra=[0]) + keys_call("contains", 0, [1], shape=0xC0, extra=[240])
    + op("null", 0, 1) + op("resize", 0, [4]) + op("resize", 0, [6])
    + create(1, lf=8) + create(1, lf=12) + create(1, kind=1) + create(1, kind=200) + op("create", 1, [0, 0, 0, 0, 0, 0, 2, 5]),
    # two tables side by side, one single-threaded
    "two_tables": create(0, threads=4) + create(1, threads=5, cap=0)
    + bulk_call("insert", 0, [1, 2, 3]) + bulk_call("assign", 1, [1, 2, 3], seed=9) + keys_call("find", 1, [1, 2], extra=[0])
    + op("destroy", 0) + op("verify", 1),
}

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
os.makedirs(here, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes")
