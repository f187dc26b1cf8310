// Host-array bulk calls through the C API, copies and staging included (no Java): insert / find /
// erase of 2^24 keys on GLHT and Hive, 32/32 and 64/64, three reps each, after one untimed call that
// sets up the table's staging buffers. The baseline Java's end-to-end figures are compared with.
// Usage: staged_bench (no arguments).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "wixlib.h"

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

template <typename T>
void run(int32_t kind, int bits) {
  const uint64_t n = 1ull << 24;
  std::vector<T> keys(n), values(n), out(n);
  for (uint64_t i = 0; i < n; ++i) {
    keys[i] = T(i * 0x9E3779B97F4A7C15ull) & ~T(3);  // distinct, never a reserved (all-ones) key
    values[i] = T(i);
  }
  wx_config c;
  wx_config_init(&c, kind);
  c.key_bits = c.value_bits = bits;
  c.capacity = n;
  wx_table* t = nullptr;
  if (wx_table_create(&c, &t) != WX_OK) {
    std::printf("kind %d bits %d: %s\n", kind, bits, wx_last_error());
    return;
  }
  std::vector<uint8_t> found(n);
  wx_contains(t, keys.data(), found.data(), n, WX_MEM_HOST, nullptr);
  for (int r = 0; r < 3; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    const int32_t a = wx_insert(t, keys.data(), values.data(), n, nullptr, WX_MEM_HOST, nullptr);
    const double insert_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    const int32_t b = wx_find(t, keys.data(), out.data(), n, 0, WX_MEM_HOST, nullptr);
    const double find_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    const int32_t e = wx_erase(t, keys.data(), n, nullptr, WX_MEM_HOST, nullptr);
    const double erase_ms = ms_since(t0);
    if (a != WX_OK || b != WX_OK || e != WX_OK) std::printf("kind %d bits %d: %s\n", kind, bits, wx_last_error());
    std::printf("kind %d bits %d: insert %.1f ms, find %.1f ms, erase %.1f ms\n", kind, bits, insert_ms, find_ms,
                erase_ms);
  }
  wx_table_destroy(t);
}

}  // namespace

int main() {
  for (int32_t kind : {WX_KIND_GLHT, WX_KIND_HIVE}) {
    run<uint32_t>(kind, 32);
    run<uint64_t>(kind, 64);
  }
  return 0;
}
