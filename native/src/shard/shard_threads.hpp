// The host threads of a sharded table or join: one per shard while the shards run (each shard's calls
// are synchronous), and all of them for the passes that split a column and gather results.
#pragma once
#include <cstdint>
#include <exception>
#include <functional>
#include <vector>

#include "cpu/thread_pool.hpp"

namespace wx::shard {

class ShardThreads {
 public:
  // At least `shards` threads (the caller counts as one), more when `split` asks for more.
  ShardThreads(uint32_t shards, unsigned split) : pool_(shards > split ? shards : split) {}

  unsigned size() const { return pool_.size(); }

  // Runs fn(shard) for shards 0 .. n-1 concurrently; after all have run rethrows the first failure.
  void for_each_shard(uint32_t n, const std::function<void(uint32_t)>& fn) {
    std::vector<std::exception_ptr> errors(n);
    const unsigned step = pool_.size();
    pool_.run([&](unsigned p) {
      for (uint32_t s = p; s < n; s += step) {
        try {
          fn(s);
        } catch (...) {
          errors[s] = std::current_exception();
        }
      }
    });
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
  }

  // Runs fn(part, lo, hi) over `parts` (<= size()) contiguous ranges of [0, n).
  void for_parts(uint64_t n, unsigned parts, const std::function<void(unsigned, uint64_t, uint64_t)>& fn) {
    if (parts <= 1) {
      fn(0, 0, n);
      return;
    }
    pool_.run([&](unsigned p) {
      if (p < parts) fn(p, n * p / parts, n * (p + 1) / parts);
    });
  }

  // Parts for a pass over n elements: one per `grain` elements, at most one per thread.
  unsigned parts_for(uint64_t n, uint64_t grain) const {
    const uint64_t p = n / grain;
    return unsigned(p < 1 ? 1 : p > size() ? size() : p);
  }

 private:
  cpu::ThreadPool pool_;
};

}  // namespace wx::shard
