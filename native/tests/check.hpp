// Minimal test helpers for the native tests: CHECK aborts the test with file:line and a message.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "suite/env.hpp"
#include "wixlib.h"

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

#define CHECK_MSG(cond, ...)                                                         \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);  \
      std::fprintf(stderr, __VA_ARGS__);                                             \
      std::fprintf(stderr, "\n");                                                    \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

// Asserts a wixlib call returned the expected status, printing the thread message if not.
#define CHECK_STATUS(call, expected)                                                        \
  do {                                                                                      \
    int32_t st_ = (call);                                                                   \
    if (st_ != (expected)) {                                                                \
      std::fprintf(stderr, "%s:%d: %s returned %s (%d), expected %s: %s\n", __FILE__,       \
                   __LINE__, #call, wx_status_name(st_), st_, wx_status_name(expected),     \
                   wx_last_error());                                                        \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, WX_OK)

namespace wxtest {

constexpr int kSkip = 77;

// The process's resident set size in bytes (Linux /proc/self/statm).
inline int64_t rss_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  CHECK(f != nullptr);
  long long size = 0, resident = 0;
  CHECK(std::fscanf(f, "%lld %lld", &size, &resident) == 2);
  std::fclose(f);
  return int64_t(resident) * sysconf(_SC_PAGESIZE);
}

// A GPU test found no device: exits 77 (CTest "skipped"), or 1 under WIXLIB_REQUIRE_GPU=1.
[[noreturn]] inline void skip_without_gpu(const std::string& why) {
  if (wxsuite::require_gpu()) {
    std::fprintf(stderr, "FAIL: WIXLIB_REQUIRE_GPU=1 but %s\n", why.c_str());
    std::exit(1);
  }
  std::fprintf(stderr, "SKIP: %s\n", why.c_str());
  std::exit(kSkip);
}

// GPU tests call this first: exits 77 (skipped) when no device, or fails under WIXLIB_REQUIRE_GPU=1.
inline void require_gpu_or_skip(int32_t kind) {
  int32_t avail = 0;
  wx_kind_available(kind, &avail);
  if (avail) return;
  skip_without_gpu("kind " + std::to_string(kind) + " is not available here (no CUDA build or no device): " +
                   wx_last_error());
}

}  // namespace wxtest
