// Leak check of CPU tables: 10^5 create/insert/destroy cycles (10^3 of them with a worker thread) and
// 10^3 grow/shrink cycles (inserts grow the table, then clear or erase + wx_resize shrink it).
// Under the ASan build (scripts/sanitize.sh) LeakSanitizer proves at exit that nothing leaked; in a
// plain build the process RSS after the cycles must stay within kToleranceBytes of the RSS before.
// WIXLIB_SMALL=1 runs a tenth of the cycles.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <unistd.h>

#include "check.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define WX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WX_ASAN 1
#endif
#endif

namespace {

// A leak of one small table per cycle is 10^5 x ~2 KiB = 200 MiB; one leaked 64-byte block per cycle
// is 6 MiB. Steady-state allocator noise stays far below this.
constexpr int64_t kToleranceBytes = 4 << 20;

using wxtest::rss_bytes;

wx_table* make_table(uint64_t capacity, int32_t threads) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  c.capacity = capacity;
  c.threads = threads;
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  return t;
}

// One short life of a table: create, insert 16 keys (one reserved: the error path too), find, destroy.
void create_cycle(uint32_t round, int32_t threads) {
  wx_table* t = make_table(64, threads);
  uint32_t keys[16], vals[16], got[16];
  for (uint32_t i = 0; i < 16; ++i) keys[i] = round * 16 + i, vals[i] = i;
  keys[15] = WX_KEY32_EMPTY;
  uint8_t out[16];
  CHECK_STATUS(wx_insert(t, keys, vals, 16, out, WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK_STATUS(wx_find(t, keys, got, 15, 0, WX_MEM_HOST, nullptr), WX_OK);
  CHECK_MSG(got[7] == 7, "round %u: found %u", round, got[7]);
  CHECK_OK(wx_table_destroy(t));
}

void create_destroy(int cycles, int32_t threads) {
  for (int i = 0; i < 16; ++i) create_cycle(i, threads);  // warm the allocator and thread caches
  const int64_t before = rss_bytes();
  for (int i = 0; i < cycles; ++i) create_cycle(uint32_t(i), threads);
  const int64_t after = rss_bytes();
  std::printf("create/destroy: %d cycles (threads=%d): RSS before %lld KiB, after %lld KiB (%+lld KiB)\n", cycles,
              threads, (long long)before >> 10, (long long)after >> 10, (long long)(after - before) / 1024);
#ifndef WX_ASAN
  CHECK_MSG(after - before <= kToleranceBytes, "RSS grew by %lld bytes over %d create/destroy cycles",
            (long long)(after - before), cycles);
#endif
}

// Grows a table to ~8k keys and shrinks it back, alternately by clear and by erase + wx_resize.
void grow_shrink(int cycles) {
  wx_table* t = make_table(64, 1);
  const uint32_t n = 8192;
  std::vector<uint32_t> keys(n), vals(n);
  for (uint32_t i = 0; i < n; ++i) keys[i] = i * 2654435761u % 0xFFFF0000u, vals[i] = i;
  auto cycle = [&](int i) {
    CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, nullptr, WX_MEM_HOST, nullptr));
    uint64_t size = 0;
    CHECK_OK(wx_size(t, &size));
    CHECK_MSG(size == n, "cycle %d: size %llu", i, (unsigned long long)size);
    if (i % 2) {
      CHECK_OK(wx_clear(t));
    } else {
      CHECK_OK(wx_erase(t, keys.data(), n, nullptr, WX_MEM_HOST, nullptr));
    }
    CHECK_OK(wx_resize(t, 64));
    uint64_t cap = 0;
    CHECK_OK(wx_capacity(t, &cap));
    CHECK_MSG(cap <= 1024, "cycle %d: capacity %llu after wx_resize(64)", i, (unsigned long long)cap);
  };
  for (int i = 0; i < 4; ++i) cycle(i);
  const int64_t before = rss_bytes();
  for (int i = 0; i < cycles; ++i) cycle(i);
  const int64_t after = rss_bytes();
  std::printf("grow/shrink: %d cycles of %u inserts: RSS before %lld KiB, after %lld KiB (%+lld KiB)\n", cycles, n,
              (long long)before >> 10, (long long)after >> 10, (long long)(after - before) / 1024);
#ifndef WX_ASAN
  CHECK_MSG(after - before <= kToleranceBytes, "RSS grew by %lld bytes over %d grow/shrink cycles",
            (long long)(after - before), cycles);
#endif
  CHECK_OK(wx_table_destroy(t));
}

}  // namespace

int main() {
#ifdef WX_ASAN
  std::printf("ASan build: LeakSanitizer checks for leaks at exit (RSS is not compared)\n");
#endif
  // WIXLIB_SMALL=1 (sanitizer runs, where LeakSanitizer needs no repetitions to see a leak): 10x fewer.
  const int scale = wxsuite::small_run() ? 10 : 1;
  create_destroy(100000 / scale, 1);
  create_destroy(1000 / scale, 2);  // with a worker thread per table
  grow_shrink(1000 / scale);
  std::printf("test_leaks_cpu: OK\n");
  return 0;
}
