// Minimal test helpers for the native tests: CHECK aborts the test with file:line and a message.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

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

// Sets a table setting read from the environment (WIXLIB_GLHT_*) for the tables made while it lives
// (tables read their settings when they are made).
struct EnvGuard {
  const char* name;
  EnvGuard(const char* n, const std::string& v) : name(n) { setenv(name, v.c_str(), 1); }
  ~EnvGuard() { unsetenv(name); }
};

constexpr int kSkip = 77;

// GPU tests call this first: exits 77 (skipped) when no device, or fails under WIXLIB_REQUIRE_GPU=1.
inline void require_gpu_or_skip(int32_t kind) {
  int32_t avail = 0;
  wx_kind_available(kind, &avail);
  if (avail) return;
  const char* req = std::getenv("WIXLIB_REQUIRE_GPU");
  if (req && std::string(req) == "1") {
    std::fprintf(stderr, "FAIL: WIXLIB_REQUIRE_GPU=1 but kind %d is not available: %s\n", kind,
                 wx_last_error());
    std::exit(1);
  }
  std::fprintf(stderr, "SKIP: kind %d not available here (no CUDA build or no device)\n", kind);
  std::exit(kSkip);
}

}  // namespace wxtest
