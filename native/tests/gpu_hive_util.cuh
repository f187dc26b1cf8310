// Helpers of the Hive design tests (gpu_hive_invariants.cu, gpu_hive_resize.cu), for 32- and 64-bit
// keys: configs, key streams (64-bit ones cover the tricky families), bulk calls with device arrays on
// a HiveTable / HiveTable64, a host oracle. The tests use the backend directly (no C API).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "check.hpp"
#include "gpu_device.cuh"
#include "hive/hive_table.cuh"
#include "suite/env.hpp"

#ifndef WX_TEST_KEY_BITS
#define WX_TEST_KEY_BITS 32
#endif

namespace hivetest {

using wx::hive::HiveTable;
using wx::hive::HiveTable64;
using wxtest::Dev;
using wxtest::Stream;
using wxsuite::small_run;

#define VALID(table)                                                          \
  do {                                                                        \
    std::string v_ = (table).validate();                                      \
    CHECK_MSG(v_.empty(), "validate: %s", v_.c_str());                        \
  } while (0)

inline void require_gpu() { wxtest::require_cuda_device(); }

// key_bits: 32 (32-bit values) or 64 (64-bit values).
inline wx_config config(uint64_t capacity, double max_lf = 0.9, double min_lf = 0.0, int grow = WX_GROW_AUTO,
                        int key_bits = 32) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_HIVE));
  c.key_bits = key_bits;
  c.value_bits = key_bits;
  c.device = 0;
  c.capacity = capacity;
  c.max_load_factor = max_lf;
  c.min_load_factor = min_lf;
  c.grow = grow;
  return c;
}
inline wx_config config64(uint64_t capacity, double max_lf, double min_lf = 0.0, int grow = WX_GROW_AUTO) {
  return config(capacity, max_lf, min_lf, grow, 64);
}

// Unique non-reserved keys (a 32-bit bijection of seed-shifted indices).
__host__ __device__ inline uint32_t key_of_index(uint64_t i, uint32_t seed) {
  uint32_t x = static_cast<uint32_t>(i) + seed * 0x9E3779B9u;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}
inline std::vector<uint32_t> unique_keys(uint64_t n, uint32_t seed) {
  std::vector<uint32_t> k;
  k.reserve(n);
  for (uint64_t i = 0; k.size() < n; ++i) {
    const uint32_t x = key_of_index(i, seed);
    if (x < WX_KEY32_TOMBSTONE) k.push_back(x);
  }
  return k;
}

// A bijection of uint64 (splitmix finalizer): distinct indices give distinct keys.
__host__ __device__ inline uint64_t scramble(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Key number i of stream `seed`: mostly full-width keys, every 4th one of the tricky families
// (low half 0xFFFFFFFF / 0xFFFFFFFE with any high half, below 2^32, high half all ones). Distinct
// for distinct (i, seed) within a family; reserved keys never come out.
inline uint64_t key_at(uint64_t i, uint32_t seed) {
  const uint64_t x = scramble(i * 0x9E3779B97F4A7C15ull + seed);
  const uint64_t hi = (i << 8) | seed;  // unique per (i, seed) for seed < 256
  switch (i % 8) {
    case 1: return (hi << 32) | 0xFFFFFFFFull;
    case 3: return (hi << 32) | 0xFFFFFFFEull;
    case 5: return 0xFFFFFFFF00000000ull | (hi & 0xFFFFFFFDull);  // high half all ones, low not reserved
    default: {
      const uint64_t k = (i % 8 == 7) ? (x & 0xFFFFFFFFull) : x;
      return k >= WX_KEY64_TOMBSTONE ? 0x1234ull : k;
    }
  }
}

inline std::vector<uint64_t> unique_keys64(uint64_t n, uint32_t seed) {
  std::unordered_set<uint64_t> seen;
  std::vector<uint64_t> k;
  k.reserve(n);
  for (uint64_t i = 0; k.size() < n; ++i) {
    const uint64_t x = key_at(i, seed);
    if (seen.insert(x).second) k.push_back(x);
  }
  return k;
}

// `n` distinct non-reserved keys of stream `seed` at width K (unique_keys / unique_keys64).
template <class K>
std::vector<K> keys_of(uint64_t n, uint32_t seed) {
  if constexpr (sizeof(K) == 4) return unique_keys(n, seed);
  else return unique_keys64(n, seed);
}

// The reserved keys of width K (EMPTY, TOMBSTONE) and the largest ordinary one.
template <class K>
constexpr K kEmptyKey = ~K(0);
template <class K>
constexpr K kTombKey = ~K(0) - 1;

template <class K>
using OracleT = std::unordered_map<K, K>;
using Oracle = OracleT<uint64_t>;

// The table of key width K (uint32_t: HiveTable, uint64_t: HiveTable64).
// The key (and value) type of this build of a width-templated test (WX_TEST_KEY_BITS, CMakeLists.txt).
using TestKey = std::conditional_t<WX_TEST_KEY_BITS == 64, uint64_t, uint32_t>;

template <class K>
using TableOf = std::conditional_t<sizeof(K) == 4, HiveTable, HiveTable64>;

// printf-able form of a key or value.
inline unsigned long long ull(uint64_t x) { return x; }

// Thin wrappers: device arrays in, host vectors out.
template <class K>
struct OpsT {
  TableOf<K>& t;
  cudaStream_t s;
  // find's default not_found value: all bits of the width used.
  static constexpr K kNotFound = sizeof(K) == 4 ? K(0xDEADBEEFu) : K(0xFEDCBA9876543210ull);

  wx::BatchResult insert(const Dev<K>& k, const Dev<K>* v, Dev<uint8_t>* out, bool assign = false) {
    wx::Batch b;
    b.keys = k.p;
    b.values_in = v ? v->p : nullptr;
    b.outcomes = out ? out->p : nullptr;
    b.n = k.n;
    b.stream = s;
    return assign ? t.insert_or_assign(b) : t.insert(b);
  }
  std::vector<K> find(const Dev<K>& k, K not_found = kNotFound) {
    Dev<K> v(k.n);
    wx::Batch b;
    b.keys = k.p;
    b.values_out = v.p;
    b.n = k.n;
    b.not_found = not_found;
    b.stream = s;
    t.find(b);
    return v.get();
  }
  std::vector<uint8_t> contains(const Dev<K>& k) { return outcomes_of(&TableOf<K>::contains, k); }
  std::vector<uint8_t> erase(const Dev<K>& k) { return outcomes_of(&TableOf<K>::erase, k); }
  // A keys-only call (contains, erase): its outcomes.
  std::vector<uint8_t> outcomes_of(wx::BatchResult (TableOf<K>::*call)(const wx::Batch&), const Dev<K>& k) {
    Dev<uint8_t> o(k.n);
    wx::Batch b;
    b.keys = k.p;
    b.outcomes = o.p;
    b.n = k.n;
    b.stream = s;
    (t.*call)(b);
    return o.get();
  }
  // Mixed batch; values in/out in place.
  std::vector<uint8_t> mixed(const Dev<uint8_t>& ops, const Dev<K>& k, Dev<K>& v) {
    Dev<uint8_t> o(k.n);
    wx::Batch b;
    b.ops = ops.p;
    b.keys = k.p;
    b.values_in = v.p;
    b.values_out = v.p;
    b.outcomes = o.p;
    b.n = k.n;
    b.stream = s;
    t.batch(b);
    return o.get();
  }
  OracleT<K> dump() {
    const uint64_t n = t.size();
    Dev<K> k(n), v(n);
    const uint64_t got = t.retrieve_all(k.p, v.p, s);
    CHECK_MSG(got == n, "retrieve_all returned %llu of %llu", ull(got), ull(n));
    OracleT<K> m;
    if (n == 0) return m;
    auto hk = k.get(), hv = v.get();
    for (uint64_t i = 0; i < n; ++i)
      CHECK_MSG(m.emplace(hk[i], hv[i]).second, "retrieve_all returned key %llx twice", ull(hk[i]));
    return m;
  }
};
using Ops64 = OpsT<uint64_t>;

// retrieve_all holds exactly the oracle's pairs.
template <class K>
void same_contents(OpsT<K>& o, const OracleT<K>& oracle, const char* where) {
  auto m = o.dump();
  CHECK_MSG(m.size() == oracle.size(), "%s: table has %zu keys, oracle %zu", where, m.size(), oracle.size());
  for (auto& [k, v] : oracle) {
    auto it = m.find(k);
    CHECK_MSG(it != m.end(), "%s: key %llx missing", where, ull(k));
    CHECK_MSG(it->second == v, "%s: key %llx value %llx, oracle %llx", where, ull(k), ull(it->second), ull(v));
  }
}

// Every key of the oracle found with its value through find (the read-only kernel).
template <class K>
void finds_match(OpsT<K>& o, const OracleT<K>& oracle, const char* where) {
  std::vector<K> k, v;
  for (auto& [a, b] : oracle) {
    k.push_back(a);
    v.push_back(b);
  }
  if (k.empty()) return;
  Dev<K> dk(k);
  auto f = o.find(dk);
  for (size_t i = 0; i < k.size(); ++i)
    CHECK_MSG(f[i] == v[i], "%s: find(%llx) = %llx, want %llx", where, ull(k[i]), ull(f[i]), ull(v[i]));
}

}  // namespace hivetest
