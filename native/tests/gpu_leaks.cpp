// Device-memory leak and out-of-memory checks of the GPU kinds (GLHT, Hive), through the C API:
//  1. create/destroy cycles, every 10th with insert/find (10^5 per kind; WIXLIB_SMALL=1: 200;
//     WIXLIB_LEAK_CYCLES=n overrides): the device's free memory (and the process RSS, for pinned host
//     memory) must come back to the baseline;
//  2. grow/shrink cycles (10^3; small: 20): 2^16 inserts grow a 1024-key table, clear or erase +
//     wx_resize shrink it; free device memory and the process RSS must come back to the baseline;
//  3. out of memory (not with WIXLIB_SMALL=1): with all but 256 MiB of the device taken by our own
//     block, inserts into a growing table must end in WX_ERR_OUT_OF_MEMORY or WX_ERR_FULL; every key
//     placed before stays found, and once the block is freed the table is usable again.
// Skips (77) where no device exists. Must run alone on the device (CTest RUN_SERIAL): it measures
// free device memory and takes nearly all of it.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

#include "check.hpp"

namespace {

constexpr int64_t kDeviceTolerance = 2 << 20;  // cudaMemGetInfo moves in 2 MiB pages
constexpr int64_t kRssTolerance = 32 << 20;    // host side: CUDA runtime caches, pinned counters
constexpr uint64_t kHeadroom = uint64_t(256) << 20;

bool small() { return wxsuite::small_run(); }

const char* kind_name(int32_t kind) { return kind == WX_KIND_GLHT ? "GLHT" : "Hive"; }

int64_t device_free() {
  uint64_t free_b = 0, total = 0;
  CHECK_OK(wx_device_memory(0, &free_b, &total));
  return int64_t(free_b);
}

using wxtest::rss_bytes;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

wx_table* make_table(int32_t kind, uint64_t capacity) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, kind));
  c.capacity = capacity;
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  return t;
}

// One table's life. Every 10th also inserts and finds 64 keys through host staging (the other cycles
// create and destroy only, so 10^5 cycles stay within a device run's time).
void create_cycle(int32_t kind, uint32_t round) {
  wx_table* t = make_table(kind, 1024);
  if (round % 10 != 0) {
    uint64_t size = 1;
    CHECK_OK(wx_size(t, &size));
    CHECK(size == 0);
    CHECK_OK(wx_table_destroy(t));
    return;
  }
  uint32_t keys[64], vals[64], got[64];
  for (uint32_t i = 0; i < 64; ++i) keys[i] = round * 64 + i, vals[i] = i + 1;
  CHECK_OK(wx_insert(t, keys, vals, 64, nullptr, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_find(t, keys, got, 64, 0, WX_MEM_HOST, nullptr));
  CHECK_MSG(got[63] == 64, "%s round %u: found %u", kind_name(kind), round, got[63]);
  CHECK_OK(wx_table_destroy(t));
}

void create_destroy(int32_t kind, int cycles) {
  for (int i = 0; i < 20; ++i) create_cycle(kind, i);  // context, streams, allocator caches
  const int64_t dev0 = device_free(), rss0 = rss_bytes();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < cycles; ++i) create_cycle(kind, uint32_t(i));
  const double s = seconds_since(t0);
  const int64_t dev1 = device_free(), rss1 = rss_bytes();
  std::printf("%s create/destroy: %d cycles in %.1f s: device free before %lld, after %lld (%+lld bytes); "
              "RSS %lld -> %lld KiB\n",
              kind_name(kind), cycles, s, (long long)dev0, (long long)dev1, (long long)(dev1 - dev0),
              (long long)rss0 >> 10, (long long)rss1 >> 10);
  CHECK_MSG(dev0 - dev1 <= kDeviceTolerance, "%s: %lld bytes of device memory lost over %d cycles", kind_name(kind),
            (long long)(dev0 - dev1), cycles);
  CHECK_MSG(rss1 - rss0 <= kRssTolerance, "%s: RSS grew by %lld bytes over %d cycles", kind_name(kind),
            (long long)(rss1 - rss0), cycles);
}

void grow_shrink(int32_t kind, int cycles) {
  const uint32_t n = 1 << 16;
  std::vector<uint32_t> keys(n), vals(n);
  for (uint32_t i = 0; i < n; ++i) keys[i] = i * 2654435761u % 0xFFFF0000u, vals[i] = i;
  wx_table* t = make_table(kind, 1024);
  auto cycle = [&](int i) {
    CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, nullptr, WX_MEM_HOST, nullptr));
    uint64_t size = 0;
    CHECK_OK(wx_size(t, &size));
    CHECK_MSG(size == n, "%s cycle %d: size %llu", kind_name(kind), i, (unsigned long long)size);
    if (i % 2) CHECK_OK(wx_clear(t));
    else CHECK_OK(wx_erase(t, keys.data(), n, nullptr, WX_MEM_HOST, nullptr));
    CHECK_OK(wx_resize(t, 1024));
  };
  for (int i = 0; i < 2; ++i) cycle(i);
  CHECK_OK(wx_table_destroy(t));
  const int64_t dev0 = device_free(), rss0 = rss_bytes();
  const auto t0 = std::chrono::steady_clock::now();
  t = make_table(kind, 1024);
  uint64_t cap_small = 0;
  CHECK_OK(wx_capacity(t, &cap_small));
  for (int i = 0; i < cycles; ++i) cycle(i);
  uint64_t cap_end = 0;
  CHECK_OK(wx_capacity(t, &cap_end));
  CHECK_OK(wx_table_destroy(t));
  const int64_t dev1 = device_free(), rss1 = rss_bytes();
  std::printf("%s grow/shrink: %d cycles of %u inserts in %.1f s: capacity %llu -> %llu slots after shrinking; "
              "device free before %lld, after %lld (%+lld bytes); RSS %lld -> %lld KiB\n",
              kind_name(kind), cycles, n, seconds_since(t0), (unsigned long long)cap_small,
              (unsigned long long)cap_end, (long long)dev0, (long long)dev1, (long long)(dev1 - dev0),
              (long long)rss0 >> 10, (long long)rss1 >> 10);
  CHECK_MSG(rss1 - rss0 <= kRssTolerance, "%s: RSS grew by %lld bytes over %d grow/shrink cycles", kind_name(kind),
            (long long)(rss1 - rss0), cycles);
  CHECK_MSG(cap_end <= 4 * cap_small, "%s: capacity %llu after wx_resize(1024), new table had %llu", kind_name(kind),
            (unsigned long long)cap_end, (unsigned long long)cap_small);
  CHECK_MSG(dev0 - dev1 <= kDeviceTolerance, "%s: %lld bytes of device memory lost over %d grow/shrink cycles",
            kind_name(kind), (long long)(dev0 - dev1), cycles);
}

// Finds keys [base, base + n) (value = key ^ 0x5555) in the table; returns how many are present.
uint64_t count_found(wx_table* t, uint32_t base, uint32_t n, const std::vector<uint8_t>* must) {
  std::vector<uint32_t> keys(n), got(n);
  for (uint32_t i = 0; i < n; ++i) keys[i] = base + i;
  CHECK_OK(wx_find(t, keys.data(), got.data(), n, 0xFFFFFFFFull, WX_MEM_HOST, nullptr));
  uint64_t found = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const bool present = got[i] != 0xFFFFFFFFu;
    if (present) CHECK_MSG(got[i] == (keys[i] ^ 0x5555u), "key %u has value %u", keys[i], got[i]);
    if (!must || (*must)[i] == WX_OUT_INSERTED)
      CHECK_MSG(present, "key %u was inserted before the failure and is lost", keys[i]);
    found += present;
  }
  return found;
}

void out_of_memory(int32_t kind) {
  const int64_t free0 = device_free();
  if (free0 < int64_t(2 * kHeadroom)) {
    std::printf("%s out-of-memory test: only %lld bytes free, skipped\n", kind_name(kind), (long long)free0);
    return;
  }
  void* block = nullptr;
  const uint64_t block_bytes = uint64_t(free0) - kHeadroom;
  CHECK_OK(wx_device_alloc(0, block_bytes, &block));
  const int64_t left = device_free();
  wx_table* t = make_table(kind, 1 << 20);
  const uint32_t batch = 1 << 20;
  std::vector<uint32_t> keys(batch), vals(batch);
  std::vector<uint8_t> out(batch);
  int32_t st = WX_OK;
  uint32_t b = 0;
  for (; b < 64; ++b) {  // 64 M keys need far more than 256 MiB
    for (uint32_t i = 0; i < batch; ++i) keys[i] = b * batch + i, vals[i] = keys[i] ^ 0x5555u;
    std::fill(out.begin(), out.end(), uint8_t(WX_OUT_NONE));
    st = wx_insert(t, keys.data(), vals.data(), batch, out.data(), WX_MEM_HOST, nullptr);
    if (st != WX_OK) break;
  }
  CHECK_MSG(st == WX_ERR_OUT_OF_MEMORY || st == WX_ERR_FULL,
            "%s: inserting %u M keys with %lld bytes free ended with %s: %s", kind_name(kind), b, (long long)left,
            wx_status_name(st), wx_last_error());
  std::string msg = wx_last_error();
  uint64_t cap = 0, size = 0, hist[16] = {};
  CHECK_OK(wx_capacity(t, &cap));
  CHECK_OK(wx_size(t, &size));
  for (uint8_t o : out) ++hist[o < 16 ? o : 15];
  std::printf("%s out-of-memory: block of %llu bytes leaves %lld free; batch %u of %u keys failed with %s (%s); "
              "table: %llu keys in %llu slots; outcomes of that batch: %llu inserted, %llu full, %llu none\n",
              kind_name(kind), (unsigned long long)block_bytes, (long long)left, b, batch, wx_status_name(st),
              msg.c_str(), (unsigned long long)size, (unsigned long long)cap, (unsigned long long)hist[WX_OUT_INSERTED],
              (unsigned long long)hist[WX_OUT_FULL], (unsigned long long)hist[WX_OUT_NONE]);
  // Every key of the earlier batches, and every key the failed batch reported inserted, is there.
  uint64_t found = 0;
  for (uint32_t e = 0; e < b; ++e) found += count_found(t, e * batch, batch, nullptr);
  const uint64_t found_failed = count_found(t, b * batch, batch, &out);
  CHECK_MSG(found == uint64_t(b) * batch, "%s: %llu of %llu earlier keys found", kind_name(kind),
            (unsigned long long)found, (unsigned long long)uint64_t(b) * batch);
  CHECK_MSG(size == found + found_failed, "%s: size %llu but %llu keys found", kind_name(kind),
            (unsigned long long)size, (unsigned long long)(found + found_failed));
  // With the memory back, the table grows and takes the failed batch.
  CHECK_OK(wx_device_free(block));
  CHECK_OK(wx_insert(t, keys.data(), vals.data(), batch, out.data(), WX_MEM_HOST, nullptr));
  for (uint8_t o : out) CHECK_MSG(o == WX_OUT_INSERTED || o == WX_OUT_PRESENT, "outcome %u after freeing", o);
  CHECK(count_found(t, b * batch, batch, nullptr) == batch);
  CHECK_OK(wx_size(t, &size));
  CHECK_MSG(size == uint64_t(b + 1) * batch, "%s: size %llu after the retry", kind_name(kind),
            (unsigned long long)size);
  CHECK_OK(wx_table_destroy(t));
  const int64_t free1 = device_free();
  std::printf("%s out-of-memory: after freeing the block the failed batch went in (%llu keys); device free before "
              "%lld, after destroying %lld (%+lld bytes)\n",
              kind_name(kind), (unsigned long long)size, (long long)free0, (long long)free1,
              (long long)(free1 - free0));
  CHECK_MSG(free0 - free1 <= kDeviceTolerance, "%s: %lld bytes of device memory lost", kind_name(kind),
            (long long)(free0 - free1));
}

}  // namespace

int main() {
  // Load every kernel when the context is made: with the default lazy loading, the first launch of a
  // kernel takes device memory for its module, which would read as a leak of the call that did it.
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);
  wxtest::require_gpu_or_skip(WX_KIND_GLHT);
  wxtest::require_gpu_or_skip(WX_KIND_HIVE);
  // WIXLIB_SMALL=1 is the compute-sanitizer run: fewer cycles, and no out-of-memory test (the tools
  // report the intended failed cudaMalloc as an API error).
  const int cycles = static_cast<int>(wxsuite::leak_cycles(small() ? 200 : 100000));
  const int grow_cycles = small() ? 20 : 1000;
  for (int32_t kind : {WX_KIND_GLHT, WX_KIND_HIVE}) {
    create_destroy(kind, cycles);
    grow_shrink(kind, grow_cycles);
    if (!small()) out_of_memory(kind);
  }
  std::printf("gpu_leaks: OK\n");
  return 0;
}
