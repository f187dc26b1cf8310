// Helpers of the CPU-kind tests that go through the C API: make a table, read all of it back.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "check.hpp"
#include "wixlib.h"

namespace wxtest {

// A CPU table; key_bits 32 or 64 (the values are as wide as the keys).
inline wx_table* make_cpu_table(uint64_t capacity, double lf, int32_t grow = WX_GROW_AUTO, int32_t threads = 4,
                                int32_t key_bits = 32) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  c.key_bits = c.value_bits = key_bits;
  c.capacity = capacity;
  c.max_load_factor = lf;
  c.grow = grow;
  c.threads = threads;
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  return t;
}

inline uint64_t size_of(wx_table* t) {
  uint64_t s = 0;
  CHECK_OK(wx_size(t, &s));
  return s;
}

// Every pair of the table through retrieve_all (K: uint32_t or uint64_t, the table's width); fails
// on a key retrieved twice or a count other than wx_size.
template <class K>
std::map<K, K> dump(wx_table* t) {
  const uint64_t n = size_of(t);
  uint64_t count = 0;
  std::vector<K> k(n + 1), v(n + 1);
  CHECK_OK(wx_retrieve_all(t, k.data(), v.data(), n, &count, WX_MEM_HOST, nullptr));
  CHECK(count == n);
  std::map<K, K> m;
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(m.emplace(k[i], v[i]).second, "key %llx retrieved twice", (unsigned long long)k[i]);
  return m;
}

}  // namespace wxtest
