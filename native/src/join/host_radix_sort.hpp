// Stable LSD radix sort of (key, row) pairs on the host, 8 bits per pass, histograms and scatters
// split over the join's host threads (per-part counts keep it stable). Rows start ascending, so the rows of one
// key stay ascending. Passes whose digit is the same for every key are skipped (TPC-H keys use 3 of
// 4 bytes). std::sort of 60 M pairs takes seconds; this takes a few passes over memory.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "join/host_parallel.hpp"

namespace wx::join {

template <typename K>
void radix_sort_pairs(HostThreads& threads, std::vector<K>& keys, std::vector<uint32_t>& rows) {
  const uint64_t n = keys.size();
  if (n < 2) return;
  std::vector<K> k2(n);
  std::vector<uint32_t> r2(n);
  const unsigned parts = threads.parts_for(n);
  std::vector<std::array<uint64_t, 256>> count(parts);
  for (unsigned shift = 0; shift < sizeof(K) * 8; shift += 8) {
    threads.for_parts(n, parts, [&](unsigned p, uint64_t lo, uint64_t hi) {
      auto& c = count[p];
      c.fill(0);
      for (uint64_t i = lo; i < hi; ++i) ++c[(keys[i] >> shift) & 255];
    });
    // Start of (digit, part): digits in order, parts in order within a digit (stability).
    uint64_t pos = 0;
    bool one_digit = false;
    for (unsigned d = 0; d < 256; ++d) {
      uint64_t digit_total = 0;
      for (unsigned p = 0; p < parts; ++p) {
        const uint64_t c = count[p][d];
        count[p][d] = pos;
        pos += c;
        digit_total += c;
      }
      one_digit |= digit_total == n;
    }
    if (one_digit) continue;  // every key has this digit: the pass would not move anything
    threads.for_parts(n, parts, [&](unsigned p, uint64_t lo, uint64_t hi) {
      auto& at = count[p];
      for (uint64_t i = lo; i < hi; ++i) {
        const uint64_t o = at[(keys[i] >> shift) & 255]++;
        k2[o] = keys[i];
        r2[o] = rows[i];
      }
    });
    keys.swap(k2);
    rows.swap(r2);
  }
}

}  // namespace wx::join
