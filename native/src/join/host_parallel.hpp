// Static split of [0, n) over a few host threads, for the join's count/scan/write passes (they are
// memory-bound streams; the table lookups themselves run in the CPU table's own pool).
#pragma once
#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace wx::join {

// Parts for n elements: one per 64 Ki elements, at most the machine's cores.
inline unsigned parts_for(uint64_t n) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return unsigned(std::clamp<uint64_t>(n >> 16, 1, cores));
}

// Runs f(part, lo, hi) for each of `parts` contiguous ranges of [0, n), the first on this thread.
template <typename F>
void for_parts(uint64_t n, unsigned parts, F&& f) {
  auto range = [&](unsigned p, uint64_t& lo, uint64_t& hi) {
    lo = n * p / parts;
    hi = n * (p + 1) / parts;
  };
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(parts);
  for (unsigned p = 1; p < parts; ++p) {
    threads.emplace_back([&, p] {
      try {
        uint64_t lo, hi;
        range(p, lo, hi);
        f(p, lo, hi);
      } catch (...) {
        errors[p] = std::current_exception();
      }
    });
  }
  try {
    uint64_t lo, hi;
    range(0, lo, hi);
    f(0u, lo, hi);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace wx::join
