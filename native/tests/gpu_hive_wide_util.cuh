// Helpers of the 64-bit Hive tests (gpu_hive_wide*.cu): configs, 64-bit key streams that cover the
// tricky families, bulk calls with device arrays on a HiveTable64, a host oracle.
#pragma once
#include <cstring>
#include <unordered_set>

#include "gpu_hive_util.cuh"

namespace hivetest {

using wx::hive::HiveTable64;

// WIXLIB_SMALL=1 (sanitizer runs): small sizes.
inline bool small_run() {
  const char* s = std::getenv("WIXLIB_SMALL");
  return s && std::strcmp(s, "1") == 0;
}

inline wx_config config64(uint64_t capacity, double max_lf, double min_lf = 0.0, int grow = WX_GROW_AUTO) {
  wx_config c = config(capacity, max_lf, min_lf, grow);
  c.key_bits = 64;
  c.value_bits = 64;
  return c;
}

// A bijection of uint64 (splitmix finalizer): distinct indices give distinct keys.
inline uint64_t scramble(uint64_t z) {
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

using Oracle = std::unordered_map<uint64_t, uint64_t>;

// Bulk calls with device arrays, host vectors out.
struct Ops64 {
  HiveTable64& t;
  cudaStream_t s;

  wx::BatchResult insert(const Dev<uint64_t>& k, const Dev<uint64_t>* v, Dev<uint8_t>* out, bool assign = false) {
    wx::Batch b;
    b.keys = k.p;
    b.values_in = v ? v->p : nullptr;
    b.outcomes = out ? out->p : nullptr;
    b.n = k.n;
    b.stream = s;
    return assign ? t.insert_or_assign(b) : t.insert(b);
  }
  std::vector<uint64_t> find(const Dev<uint64_t>& k, uint64_t not_found = 0xFEDCBA9876543210ull) {
    Dev<uint64_t> v(k.n);
    wx::Batch b;
    b.keys = k.p;
    b.values_out = v.p;
    b.n = k.n;
    b.not_found = not_found;
    b.stream = s;
    t.find(b);
    return v.get();
  }
  std::vector<uint8_t> contains(const Dev<uint64_t>& k) {
    Dev<uint8_t> o(k.n);
    wx::Batch b;
    b.keys = k.p;
    b.outcomes = o.p;
    b.n = k.n;
    b.stream = s;
    t.contains(b);
    return o.get();
  }
  std::vector<uint8_t> erase(const Dev<uint64_t>& k) {
    Dev<uint8_t> o(k.n);
    wx::Batch b;
    b.keys = k.p;
    b.outcomes = o.p;
    b.n = k.n;
    b.stream = s;
    t.erase(b);
    return o.get();
  }
  std::vector<uint8_t> mixed(const Dev<uint8_t>& ops, const Dev<uint64_t>& k, Dev<uint64_t>& v) {
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
  Oracle dump() {
    const uint64_t n = t.size();
    Dev<uint64_t> k(n), v(n);
    const uint64_t got = t.retrieve_all(k.p, v.p, s);
    CHECK_MSG(got == n, "retrieve_all returned %llu of %llu", (unsigned long long)got, (unsigned long long)n);
    Oracle m;
    if (n == 0) return m;  // no zero-byte copies
    auto hk = k.get(), hv = v.get();
    for (uint64_t i = 0; i < n; ++i)
      CHECK_MSG(m.emplace(hk[i], hv[i]).second, "retrieve_all returned key %llx twice", (unsigned long long)hk[i]);
    return m;
  }
};

inline void same_contents(Ops64& o, const Oracle& oracle, const char* where) {
  auto m = o.dump();
  CHECK_MSG(m.size() == oracle.size(), "%s: table has %zu keys, oracle %zu", where, m.size(), oracle.size());
  for (auto& [k, v] : oracle) {
    auto it = m.find(k);
    CHECK_MSG(it != m.end(), "%s: key %llx missing", where, (unsigned long long)k);
    CHECK_MSG(it->second == v, "%s: key %llx value %llx, oracle %llx", where, (unsigned long long)k,
              (unsigned long long)it->second, (unsigned long long)v);
  }
}

// Every key of the oracle found with its value through find (the read-only kernel).
inline void finds_match(Ops64& o, const Oracle& oracle, const char* where) {
  std::vector<uint64_t> k, v;
  for (auto& [a, b] : oracle) {
    k.push_back(a);
    v.push_back(b);
  }
  if (k.empty()) return;
  Dev<uint64_t> dk(k);
  auto f = o.find(dk);
  for (size_t i = 0; i < k.size(); ++i)
    CHECK_MSG(f[i] == v[i], "%s: find(%llx) = %llx, want %llx", where, (unsigned long long)k[i],
              (unsigned long long)f[i], (unsigned long long)v[i]);
}

}  // namespace hivetest
