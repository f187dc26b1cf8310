// Host memcpy spread over a thread pool: the staging copies into and out of page-locked buffers.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu/thread_pool.hpp"

namespace wx::cpu {

struct Copy {
  char* dst;
  const char* src;
  uint64_t bytes;
};

// Runs every copy, cut into pieces of `grain` bytes, on the pool's threads in one job (one wake-up of
// the pool); on the calling thread alone when there is a single piece or a single thread.
inline void parallel_copy(ThreadPool& pool, const std::vector<Copy>& copies, uint64_t grain) {
  std::vector<Copy> pieces;
  for (const Copy& c : copies)
    for (uint64_t at = 0; at < c.bytes; at += grain) pieces.push_back({c.dst + at, c.src + at, std::min(grain, c.bytes - at)});
  if (pieces.size() < 2 || pool.size() == 1) {
    for (const Copy& p : pieces) std::memcpy(p.dst, p.src, p.bytes);
    return;
  }
  pool.parallel_for(pieces.size(), 1, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t i = b; i < e; ++i) std::memcpy(pieces[i].dst, pieces[i].src, pieces[i].bytes);
  });
}

}  // namespace wx::cpu
