// A CPU table whose growth fails for lack of memory: the call returns WX_ERR_OUT_OF_MEMORY, the
// elements it could not place are WX_OUT_FULL, everything else is applied and the table stays
// complete and usable; once memory is back the same keys go in. Memory is capped with RLIMIT_AS
// (skipped under sanitizers, whose shadow memory needs the address space).
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <vector>

#include "check.hpp"
#include "wixlib.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WX_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define WX_TEST_SANITIZED 1
#endif
#endif

namespace {

uint64_t address_space_bytes() {
  std::ifstream f("/proc/self/statm");
  uint64_t pages = 0;
  f >> pages;
  return pages * 4096;
}

}  // namespace

int main() {
#ifdef WX_TEST_SANITIZED
  std::fprintf(stderr, "SKIP: address-space limits do not work under sanitizers\n");
  return wxtest::kSkip;
#else
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  c.capacity = 1 << 20;
  c.max_load_factor = 0.8;
  c.threads = 1;
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  uint64_t cap0 = 0;
  CHECK_OK(wx_capacity(t, &cap0));
  const uint64_t first = uint64_t(0.75 * double(cap0)), second = cap0 / 2;
  std::vector<uint32_t> keys(first + second), got(first + second);
  for (uint64_t i = 0; i < keys.size(); ++i) keys[i] = uint32_t(i * 2654435761u) >> 1;
  std::vector<uint8_t> out(second, 0);
  CHECK_OK(wx_insert(t, keys.data(), keys.data(), first, nullptr, WX_MEM_HOST, nullptr));

  rlimit old{};
  CHECK(getrlimit(RLIMIT_AS, &old) == 0);
  rlimit cap = old;
  cap.rlim_cur = address_space_bytes() + (uint64_t(16) << 20);  // far less than a doubled table
  CHECK(setrlimit(RLIMIT_AS, &cap) == 0);
  const int32_t st = wx_insert(t, keys.data() + first, keys.data() + first, second, out.data(), WX_MEM_HOST, nullptr);
  CHECK(setrlimit(RLIMIT_AS, &old) == 0);
  CHECK_STATUS(st, WX_ERR_OUT_OF_MEMORY);

  uint64_t placed = 0, full = 0;
  for (uint64_t i = 0; i < second; ++i) {
    CHECK(out[i] == WX_OUT_INSERTED || out[i] == WX_OUT_FULL);
    placed += out[i] == WX_OUT_INSERTED;
    full += out[i] == WX_OUT_FULL;
  }
  uint64_t size = 0, capacity = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK_OK(wx_capacity(t, &capacity));
  CHECK_MSG(full > 0 && capacity == cap0 && size == first + placed, "full %llu, capacity %llu, size %llu",
            (unsigned long long)full, (unsigned long long)capacity, (unsigned long long)size);
  CHECK_OK(wx_find(t, keys.data(), got.data(), keys.size(), 1, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < keys.size(); ++i) {
    const bool present = i < first || out[i - first] == WX_OUT_INSERTED;
    CHECK(got[i] == (present ? keys[i] : 1u));
  }
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  CHECK(s.failed_inserts == full);
  // Memory is back: the same call places everything.
  CHECK_OK(wx_insert(t, keys.data() + first, keys.data() + first, second, out.data(), WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < second; ++i) CHECK(out[i] == (got[first + i] == 1u ? WX_OUT_INSERTED : WX_OUT_PRESENT));
  CHECK_OK(wx_size(t, &size));
  CHECK(size == keys.size());
  CHECK_OK(wx_table_destroy(t));
  std::printf("test_cpu_oom: OK (%llu placed, %llu FULL while memory was capped)\n", (unsigned long long)placed,
              (unsigned long long)full);
  return 0;
#endif
}
