// Stable split of a key column over shards on host threads: each part of the column counts its keys
// per shard, a prefix sum gives every (part, shard) its place, and each part scatters its elements in
// order, so within a shard the elements keep the column's order (joins rely on it).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "shard/shard_route.hpp"

namespace wx::shard {

// Splits keys[0, n) over `shards` shards with `parts` parts run by for_parts(n, parts, fn(part, lo, hi))
// (parts may be fewer when n is small). sid: scratch of n shard ids (uint8_t: at most 256 shards). On
// return base[s] .. base[s + 1] is shard s's run (base has shards + 1 entries) and scatter(i, d) was
// called once per element: element i goes to position d. starts, when given, gets each part's first
// position in each shard's run (parts * shards entries, part-major): part p's elements of shard s lie
// in [starts[p * shards + s], the next part's start, or base[s + 1] for the last part).
template <typename K, typename ForParts, typename Scatter>
void stable_split(const K* keys, uint64_t n, uint32_t shards, unsigned parts, ForParts&& for_parts, uint8_t* sid,
                  std::vector<uint64_t>& base, Scatter&& scatter, std::vector<uint64_t>* starts = nullptr) {
  std::vector<uint64_t> at(uint64_t(parts) * shards, 0);  // counts, then each (part, shard)'s next position
  // Each part counts and scatters through its own local cursors: parts' entries of `at` share cache
  // lines, and incrementing them in place from several threads costs a cache-line transfer per element.
  for_parts(n, parts, [&](unsigned p, uint64_t lo, uint64_t hi) {
    std::vector<uint64_t> c(shards, 0);
    for (uint64_t i = lo; i < hi; ++i) {
      const uint32_t s = shard_of(uint64_t(keys[i]), shards);
      sid[i] = uint8_t(s);
      ++c[s];
    }
    std::copy(c.begin(), c.end(), at.begin() + uint64_t(p) * shards);
  });
  base.assign(shards + 1, 0);
  uint64_t next = 0;
  for (uint32_t s = 0; s < shards; ++s) {
    base[s] = next;
    for (unsigned p = 0; p < parts; ++p) {
      const uint64_t c = at[uint64_t(p) * shards + s];
      at[uint64_t(p) * shards + s] = next;
      next += c;
    }
  }
  base[shards] = next;
  if (starts) *starts = at;
  for_parts(n, parts, [&](unsigned p, uint64_t lo, uint64_t hi) {
    std::vector<uint64_t> d(at.begin() + uint64_t(p) * shards, at.begin() + uint64_t(p + 1) * shards);
    for (uint64_t i = lo; i < hi; ++i) scatter(i, d[sid[i]]++);
  });
}

}  // namespace wx::shard
