// Static split of [0, n) over the host threads of one join, for its count/scan/write passes (they are
// memory-bound streams; the table lookups themselves run in the CPU table's own pool). The threads
// persist with the join, so a pass costs a wake-up, not a thread start. Calls are serialised by the
// join's lock.
#pragma once
#include <algorithm>
#include <cstdint>
#include <thread>

#include "cpu/thread_pool.hpp"

namespace wx::join {

class HostThreads {
 public:
  HostThreads() : pool_(std::max(1u, std::thread::hardware_concurrency())) {}

  // Parts for n elements: one per 64 Ki elements, at most one per thread.
  unsigned parts_for(uint64_t n) const { return unsigned(std::clamp<uint64_t>(n >> 16, 1, pool_.size())); }

  // Runs f(part, lo, hi) for each of `parts` (<= parts_for's bound) contiguous ranges of [0, n), the
  // first on this thread; the first exception is rethrown here.
  template <typename F>
  void for_parts(uint64_t n, unsigned parts, F&& f) {
    pool_.run([&](unsigned p) {
      if (p < parts) f(p, n * p / parts, n * (p + 1) / parts);
    });
  }

 private:
  cpu::ThreadPool pool_;
};

}  // namespace wx::join
