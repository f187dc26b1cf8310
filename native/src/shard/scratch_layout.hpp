// The scratch of one piece of a sharded bulk call (host_path, device_path): which of the call's arrays
// are moved and where each region starts. Regions: keys | values (in and out) | ops | hashes (in or out)
// | outcomes | index (uint32: the element's place in the piece), each `piece` elements, 64-byte aligned.
#pragma once
#include <cstdint>

#include "common/table.hpp"
#include "wixlib.h"

namespace wx::shard {

inline uint64_t align_up64(uint64_t x) { return (x + 63) & ~uint64_t(63); }

struct ScratchLayout {
  bool values_in = false, values_out = false, ops = false, hashes_in = false, hashes_out = false;
  bool outcomes = false;  // scratch outcomes: the caller's, or a batch's (its FIND results need them)
  uint64_t keys = 0, values = 0, op = 0, hashes = 0, outcome = 0, index = 0, bytes = 0;

  ScratchLayout(Call c, const Batch& b, uint64_t piece, uint64_t kb) {
    values_in = b.values_in && (c == Call::insert || c == Call::insert_or_assign || c == Call::batch ||
                                c == Call::insert_hashed);
    values_out = c == Call::find || c == Call::find_hashed || c == Call::batch;
    ops = c == Call::batch;
    hashes_in = c == Call::find_hashed || c == Call::insert_hashed;
    hashes_out = c == Call::hash_keys;
    outcomes = b.outcomes != nullptr || c == Call::batch;
    uint64_t at = 0;
    auto region = [&](bool used, uint64_t width) {
      const uint64_t r = at;
      if (used) at = align_up64(at + piece * width);
      return r;
    };
    keys = region(true, kb);
    values = region(values_in || values_out, kb);
    op = region(ops, 1);
    hashes = region(hashes_in || hashes_out, 8);
    outcome = region(outcomes, 1);
    index = region(true, 4);
    bytes = at;
  }

  // The batch of the run [at, at + n) of a scratch starting at `base` (keys and values kb bytes wide).
  Batch run(char* base, uint64_t at, uint64_t n, uint64_t kb, uint64_t not_found) const {
    Batch u;
    u.n = n;
    u.not_found = not_found;
    u.keys = base + keys + at * kb;
    if (values_in) u.values_in = base + values + at * kb;
    if (values_out) u.values_out = base + values + at * kb;
    if (ops) u.ops = reinterpret_cast<uint8_t*>(base + op) + at;
    if (outcomes) u.outcomes = reinterpret_cast<uint8_t*>(base + outcome) + at;
    if (hashes_in) u.hashes = reinterpret_cast<uint64_t*>(base + hashes) + at;
    if (hashes_out) u.hashes_out = reinterpret_cast<uint64_t*>(base + hashes) + at;
    return u;
  }
};

}  // namespace wx::shard
