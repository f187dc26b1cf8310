// Settings read from the environment, each parsed in one place.
#pragma once
#include <cstdint>
#include <cstdlib>

namespace wx {

// WIXLIB_TRACE set: GPU tables print where each bulk call's time goes (diagnosis only). Read once.
inline bool trace_on() {
  static const bool on = std::getenv("WIXLIB_TRACE") != nullptr;
  return on;
}

// An unsigned setting (decimal or 0x-hex) in [lo, hi]; fallback when unset, malformed or out of range.
inline uint64_t env_u64(const char* name, uint64_t fallback, uint64_t lo, uint64_t hi) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v, &end, 0);
  if (end == v || *end || x < lo || x > hi) return fallback;
  return x;
}

}  // namespace wx
