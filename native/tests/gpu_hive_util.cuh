// Helpers of the Hive design tests (gpu_hive_*.cu): device buffers, calls on a HiveTable with
// device arrays, key generation, a host oracle. The tests use the backend directly (no C API).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "check.hpp"
#include "hive/hive_table.cuh"

namespace hivetest {

using wx::hive::HiveTable;

#define CUDA_OK(call)                                                                        \
  do {                                                                                       \
    cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

#define VALID(table)                                                          \
  do {                                                                        \
    std::string v_ = (table).validate();                                      \
    CHECK_MSG(v_.empty(), "validate: %s", v_.c_str());                        \
  } while (0)

inline void require_gpu() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    const char* req = std::getenv("WIXLIB_REQUIRE_GPU");
    if (req && std::string(req) == "1") {
      std::fprintf(stderr, "FAIL: WIXLIB_REQUIRE_GPU=1 but no CUDA device\n");
      std::exit(1);
    }
    std::fprintf(stderr, "SKIP: no CUDA device\n");
    std::exit(wxtest::kSkip);
  }
}

template <typename T>
struct Dev {
  T* p = nullptr;
  size_t n = 0;
  explicit Dev(size_t count) : n(count) { CUDA_OK(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T))); }
  explicit Dev(const std::vector<T>& h) : Dev(h.size()) { put(h); }
  ~Dev() { cudaFree(p); }
  Dev(const Dev&) = delete;
  void put(const std::vector<T>& h) { CUDA_OK(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); }
  std::vector<T> get() const {
    std::vector<T> h(n);
    CUDA_OK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

inline wx_config config(uint64_t capacity, double max_lf = 0.9, double min_lf = 0.0, int grow = WX_GROW_AUTO) {
  wx_config c{};
  c.kind = WX_KIND_HIVE;
  c.key_bits = 32;
  c.value_bits = 32;
  c.device = 0;
  c.capacity = capacity;
  c.max_load_factor = max_lf;
  c.min_load_factor = min_lf;
  c.grow = grow;
  return c;
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

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { CUDA_OK(cudaStreamCreate(&s)); }
  ~Stream() { cudaStreamDestroy(s); }
};

// Thin wrappers: device arrays in, host vectors out.
struct Ops {
  HiveTable& t;
  cudaStream_t s;

  wx::BatchResult insert(const Dev<uint32_t>& k, const Dev<uint32_t>* v, Dev<uint8_t>* out, bool assign = false) {
    wx::Batch b;
    b.keys = k.p;
    b.values_in = v ? v->p : nullptr;
    b.outcomes = out ? out->p : nullptr;
    b.n = k.n;
    b.stream = s;
    return assign ? t.insert_or_assign(b) : t.insert(b);
  }
  std::vector<uint32_t> find(const Dev<uint32_t>& k, uint32_t not_found = 0xDEADBEEFu) {
    Dev<uint32_t> v(k.n);
    wx::Batch b;
    b.keys = k.p;
    b.values_out = v.p;
    b.n = k.n;
    b.not_found = not_found;
    b.stream = s;
    t.find(b);
    return v.get();
  }
  std::vector<uint8_t> contains(const Dev<uint32_t>& k) {
    Dev<uint8_t> o(k.n);
    wx::Batch b;
    b.keys = k.p;
    b.outcomes = o.p;
    b.n = k.n;
    b.stream = s;
    t.contains(b);
    return o.get();
  }
  std::vector<uint8_t> erase(const Dev<uint32_t>& k) {
    Dev<uint8_t> o(k.n);
    wx::Batch b;
    b.keys = k.p;
    b.outcomes = o.p;
    b.n = k.n;
    b.stream = s;
    t.erase(b);
    return o.get();
  }
  // Mixed batch; values in/out in place.
  std::vector<uint8_t> mixed(const Dev<uint8_t>& ops, const Dev<uint32_t>& k, Dev<uint32_t>& v) {
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
  std::unordered_map<uint32_t, uint32_t> dump() {
    const uint64_t n = t.size();
    Dev<uint32_t> k(n), v(n);
    const uint64_t got = t.retrieve_all(k.p, v.p, s);
    CHECK_MSG(got == n, "retrieve_all returned %llu of %llu", (unsigned long long)got, (unsigned long long)n);
    auto hk = k.get(), hv = v.get();
    std::unordered_map<uint32_t, uint32_t> m;
    for (uint64_t i = 0; i < n; ++i) {
      CHECK_MSG(m.emplace(hk[i], hv[i]).second, "retrieve_all returned key %u twice", hk[i]);
    }
    return m;
  }
};

inline void same_contents(Ops& o, const std::unordered_map<uint32_t, uint32_t>& oracle, const char* where) {
  auto m = o.dump();
  CHECK_MSG(m.size() == oracle.size(), "%s: table has %zu keys, oracle %zu", where, m.size(), oracle.size());
  for (auto& [k, v] : oracle) {
    auto it = m.find(k);
    CHECK_MSG(it != m.end(), "%s: key %u missing", where, k);
    CHECK_MSG(it->second == v, "%s: key %u value %u, oracle %u", where, k, it->second, v);
  }
}

}  // namespace hivetest
