// The one place the native tests read the environment (`grep -rn getenv native/tests` hits only here):
//   WIXLIB_SMALL=1        shrink every size to ~2^16 keys (compute-sanitizer and sanitizer runs)
//   WIXLIB_BIG=1          also run the 2^28-element batch (GPU kinds)
//   WIXLIB_SEED=n         fix the random seed (else one is drawn and printed, so a failure can be replayed)
//   WIXLIB_PARTS=a,b      run only these parts of a test (suite: edge, oracle, mixed; GLHT: build, core)
//   WIXLIB_REQUIRE_GPU=1  a GPU test fails instead of skipping (exit 77) where no device exists
//   WIXLIB_STRESS_OPS=n   total operations of the stress tests (gpu_stress_*, test_stress_cpu)
//   WIXLIB_LEAK_CYCLES=n  create/destroy cycles of gpu_leaks
//   GLHT_PERF_LOG2=k      gpu_glht_invariants also runs its throughput probe with 2^k keys
//   GLHT_ONLY_PERF=1      gpu_glht_invariants runs only the probe (2^GLHT_PERF_LOG2 keys, default 2^26)
//   GLHT_SKIP_OOM=1       gpu_glht_invariants skips its out-of-memory test (it holds nearly all free
//                         device memory: set it when GPU tests share one device)
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

// The variable's value as an unsigned number (decimal, 0x hex), or `fallback` when unset or empty.
inline uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

inline bool small_run() { return env_flag("WIXLIB_SMALL"); }
inline bool require_gpu() { return env_flag("WIXLIB_REQUIRE_GPU"); }
inline uint64_t stress_ops(uint64_t fallback) { return env_u64("WIXLIB_STRESS_OPS", fallback); }
inline uint64_t leak_cycles(uint64_t fallback) { return env_u64("WIXLIB_LEAK_CYCLES", fallback); }
// GLHT throughput probe: log2 of its key count, 0 when not asked for.
inline int glht_perf_log2() { return static_cast<int>(env_u64("GLHT_PERF_LOG2", 0)); }
inline bool glht_only_perf() { return env_flag("GLHT_ONLY_PERF"); }
inline bool glht_skip_oom() { return env_flag("GLHT_SKIP_OOM"); }

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
  e.small = small_run();
  e.big = env_flag("WIXLIB_BIG");
  elapsed_s();
  if (const char* parts = std::getenv("WIXLIB_PARTS")) e.parts = parts;
  const char* s = std::getenv("WIXLIB_SEED");
  if (s && *s) {
    e.seed = env_u64("WIXLIB_SEED", 0);
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
