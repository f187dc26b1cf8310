// Run-time knobs shared by every suite executable, read once from the environment:
//   WIXLIB_SMALL=1  shrink every size to ~2^16 keys (compute-sanitizer runs)
//   WIXLIB_BIG=1    also run the 2^28-element batch (GPU kinds)
//   WIXLIB_SEED=n   fix the random seed (else one is drawn and printed, so a failure can be replayed)
//   WIXLIB_PARTS=a,b  run only these parts of the suite: edge, oracle, mixed (default: all)
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace wxsuite {

inline bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && std::string(v) == "1";
}

struct Env {
  bool small = false;
  bool big = false;
  uint64_t seed = 0;
  std::string parts;  // empty: all
  bool wants(const char* part) const {
    if (parts.empty()) return true;
    return ("," + parts + ",").find("," + std::string(part) + ",") != std::string::npos;
  }
};

// Seconds since the first call (progress lines show where device time goes).
inline double elapsed_s() {
  static const auto t0 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

inline Env read_env(const char* program) {
  Env e;
  e.small = env_flag("WIXLIB_SMALL");
  e.big = env_flag("WIXLIB_BIG");
  elapsed_s();
  if (const char* parts = std::getenv("WIXLIB_PARTS")) e.parts = parts;
  const char* s = std::getenv("WIXLIB_SEED");
  if (s && *s) {
    e.seed = std::strtoull(s, nullptr, 0);
  } else {
    e.seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
             0x9E3779B97F4A7C15ull;
  }
  std::printf("%s: seed=%llu (replay with WIXLIB_SEED=%llu)%s%s%s%s\n", program,
              static_cast<unsigned long long>(e.seed), static_cast<unsigned long long>(e.seed),
              e.small ? " small" : "", e.big ? " big" : "", e.parts.empty() ? "" : " parts=",
              e.parts.c_str());
  std::fflush(stdout);
  return e;
}

// splitmix64: small, fast, good enough for test data; one instance per test step so steps stay
// reproducible from the seed whatever runs before them.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t u32() { return static_cast<uint32_t>(next() >> 32); }
  // Uniform in [0, bound), bound > 0 (multiply-shift; the bias is negligible for tests).
  uint64_t below(uint64_t bound) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
  }
  // A key that is never reserved (0xFFFFFFFE / 0xFFFFFFFF).
  uint32_t key() {
    for (;;) {
      uint32_t k = u32();
      if (k < 0xFFFFFFFEu) return k;
    }
  }

 private:
  uint64_t s_;
};

// Derives an independent seed for a named step from the run seed.
inline uint64_t sub_seed(uint64_t seed, uint64_t step) {
  Rng r(seed ^ (step * 0xD1B54A32D192ED03ull));
  return r.next();
}

}  // namespace wxsuite
