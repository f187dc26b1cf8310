// Kernel-level throughput probe of the Hive backend (device-resident keys, CUDA-event kernel time
// from stats().last_kernel_ms), on the table class itself (no C API).
// Usage: hive_bench [log2 keys = 26] [all | mixed | wide]  (mixed: only the [20,20,60] batches, 2^(log-2)
// ops; wide: insert / find present / find absent of 64/64 next to 32/32 at LF 0.8 and 0.95)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "hive/hive_table.cuh"

using wx::hive::HiveTable;
using wx::hive::HiveTable64;

namespace {

#define CK(call)                                                                        \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                  \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

__device__ __host__ inline uint32_t bij(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}
// keys[i] = bij(i + base): unique across [base, base+n); reserved values are pushed out of range.
__global__ void gen(uint32_t* k, uint32_t* v, uint64_t n, uint32_t base) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    uint32_t x = bij(static_cast<uint32_t>(i) + base);
    if (x >= 0xFFFFFFFEu) x = bij(0x80000000u + static_cast<uint32_t>(i));
    k[i] = x;
    if (v) v[i] = static_cast<uint32_t>(i) * 3u + 1u;
  }
}
__global__ void gen_ops(uint8_t* ops, uint32_t* k, const uint32_t* present, uint64_t npresent, uint64_t n,
                        uint32_t fresh_base) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const uint32_t r = bij(static_cast<uint32_t>(i) * 2654435761u + 17u);
    const uint32_t pct = r % 100;
    if (pct < 20) {  // insert a new key
      ops[i] = WX_OP_INSERT;
      k[i] = bij(fresh_base + static_cast<uint32_t>(i));
      if (k[i] >= 0xFFFFFFFEu) k[i] = 1;
    } else if (pct < 40) {
      ops[i] = WX_OP_ERASE;
      k[i] = present[(r >> 7) % npresent];
    } else {
      ops[i] = WX_OP_FIND;
      k[i] = present[(r >> 9) % npresent];
    }
  }
}

// 64-bit keys: a bijection of i + base (splitmix finalizer) spread over the whole 64-bit domain.
__device__ __host__ inline uint64_t bij64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__global__ void gen64(uint64_t* k, uint64_t* v, uint64_t n, uint64_t base) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t x = bij64(i + base);
    if (x >= 0xFFFFFFFFFFFFFFFEull) x = bij64(i + base + (1ull << 62));
    k[i] = x;
    if (v) v[i] = i * 3u + 1u;
  }
}

struct Buf {
  void* p = nullptr;
  explicit Buf(size_t bytes) { CK(cudaMalloc(&p, bytes)); }
  ~Buf() { cudaFree(p); }
  template <typename T>
  T* as() const { return static_cast<T*>(p); }
};

wx_config cfg(uint64_t cap, double lf, int grow = WX_GROW_AUTO) {
  wx_config c{};
  c.kind = WX_KIND_HIVE;
  c.key_bits = c.value_bits = 32;
  c.capacity = cap;
  c.max_load_factor = lf;
  c.grow = grow;
  return c;
}

template <class T>
double kernel_ms(T& t) {
  wx_stats s{};
  t.stats(&s);
  return s.last_kernel_ms;
}

double med(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void row(const char* what, double lf, uint64_t n, double ms) {
  std::printf("%-28s LF %.2f  n=%-10llu %8.3f ms  %6.2f G ops/s\n", what, lf, (unsigned long long)n, ms, n / ms / 1e6);
}

// Fill a table made for n keys at lf, then find present and absent keys: medians of 3 tables x 3 finds.
template <class T>
void static_rows(const char* tag, int bits, uint64_t n, double lf, const void* keys, const void* vals,
                 const void* absent, void* out, cudaStream_t s) {
  std::vector<double> ins, fp, fa;
  for (int rep = 0; rep < 3; ++rep) {
    wx_config c = cfg(n, lf);
    c.key_bits = c.value_bits = bits;
    T t(c);
    wx::Batch b;
    b.keys = keys;
    b.values_in = vals;
    b.n = n;
    b.stream = s;
    auto r = t.insert(b);
    if (r.full || t.size() != n) std::printf("  !! insert: full %llu size %llu\n", (unsigned long long)r.full, (unsigned long long)t.size());
    ins.push_back(kernel_ms(t));
    wx::Batch f;
    f.keys = keys;
    f.values_out = out;
    f.n = n;
    f.stream = s;
    for (int i = 0; i < 3; ++i) {
      t.find(f);
      fp.push_back(kernel_ms(t));
    }
    f.keys = absent;
    for (int i = 0; i < 3; ++i) {
      t.find(f);
      fa.push_back(kernel_ms(t));
    }
  }
  std::string w = std::string(tag) + " insert (fill)";
  row(w.c_str(), lf, n, med(ins));
  w = std::string(tag) + " find present";
  row(w.c_str(), lf, n, med(fp));
  w = std::string(tag) + " find absent";
  row(w.c_str(), lf, n, med(fa));
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // a crash must not swallow the rows printed so far
  const int log = argc > 1 ? std::atoi(argv[1]) : 26;
  const uint64_t n = 1ull << log;
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  Buf keys(n * 4), vals(n * 4), absent(n * 4), out(n * 4);
  gen<<<2048, 256>>>(keys.as<uint32_t>(), vals.as<uint32_t>(), n, 0);
  gen<<<2048, 256>>>(absent.as<uint32_t>(), nullptr, n, 0x40000000u);
  CK(cudaDeviceSynchronize());
  std::printf("Hive bench: %d slots/bucket, 2^%d keys\n", wx::hive::kSlots, log);
  if (argc > 2 && std::string(argv[2]) == "wide") {  // 64/64 next to 32/32, same key count
    Buf k64(n * 8), v64(n * 8), a64(n * 8), o64(n * 8);
    gen64<<<2048, 256>>>(k64.as<uint64_t>(), v64.as<uint64_t>(), n, 0);
    gen64<<<2048, 256>>>(a64.as<uint64_t>(), nullptr, n, 1ull << 40);  // disjoint index range
    CK(cudaDeviceSynchronize());
    for (double lf : {0.8, 0.95}) {
      static_rows<HiveTable>("32/32", 32, n, lf, keys.p, vals.p, absent.p, out.p, s);
      static_rows<HiveTable64>("64/64", 64, n, lf, k64.p, v64.p, a64.p, o64.p, s);
    }
    return 0;
  }
  const bool mixed_only = argc > 2 && std::string(argv[2]) == "mixed";
  if (mixed_only) {  // diagnostic: LF 0.8 table, then the mixed batches only
    HiveTable t(cfg(n, 0.8));
    wx::Batch b;
    b.keys = keys.p;
    b.values_in = vals.p;
    b.n = n;
    b.stream = s;
    t.insert(b);
    std::printf("  inserted, %.3f ms\n", kernel_ms(t));
    const uint64_t m = n / 4;
    Buf ops(m), mk(m * 4), mv(m * 4);
    for (int i = 0; i < 3; ++i) {
      gen_ops<<<2048, 256>>>(ops.as<uint8_t>(), mk.as<uint32_t>(), keys.as<uint32_t>(), n, m, 0x60000000u + i * 0x01000000u);
      CK(cudaMemset(mv.p, 0, m * 4));
      CK(cudaDeviceSynchronize());
      wx::Batch mb;
      mb.ops = ops.as<uint8_t>();
      mb.keys = mk.p;
      mb.values_in = mv.p;
      mb.values_out = mv.p;
      mb.n = m;
      mb.stream = s;
      t.batch(mb);
      wx_stats st{};
      t.stats(&st);
      std::printf("  mixed %d: %.3f ms, size %llu, buckets %u, stash %llu\n", i, kernel_ms(t),
                  (unsigned long long)t.size(), t.active_buckets(), (unsigned long long)st.stash_used);
    }
    std::string v = t.validate();
    std::printf("  validate: %s\n", v.empty() ? "ok" : v.c_str());
    return 0;
  }

  for (double lf : {0.8, 0.95}) {
    std::vector<double> ins, fp, fa;
    for (int rep = 0; rep < 3; ++rep) {
      HiveTable t(cfg(n, lf));
      wx::Batch b;
      b.keys = keys.p;
      b.values_in = vals.p;
      b.n = n;
      b.stream = s;
      auto r = t.insert(b);
      if (r.full || t.size() != n) std::printf("  !! insert: full %llu size %llu\n", (unsigned long long)r.full, (unsigned long long)t.size());
      ins.push_back(kernel_ms(t));
      wx_stats st{};
      t.stats(&st);
      if (rep == 0)
        std::printf("  table: LF %.4f, stash %llu, displacements %llu, resizes %llu, %llu MB\n",
                    double(t.size()) / t.capacity(), (unsigned long long)st.stash_used,
                    (unsigned long long)st.displacements, (unsigned long long)st.resizes,
                    (unsigned long long)(st.bytes >> 20));
      wx::Batch f;
      f.keys = keys.p;
      f.values_out = out.p;
      f.n = n;
      f.stream = s;
      for (int i = 0; i < 3; ++i) {
        t.find(f);
        fp.push_back(kernel_ms(t));
      }
      f.keys = absent.p;
      for (int i = 0; i < 3; ++i) {
        t.find(f);
        fa.push_back(kernel_ms(t));
      }
      if (lf == 0.8 && rep == 0 && argc > 2 && std::string(argv[2]) == "all") {  // mixed [20,20,60]
        const uint64_t m = n / 4;
        Buf ops(m), mk(m * 4), mv(m * 4);
        std::vector<double> mx;
        for (int i = 0; i < 3; ++i) {
          gen_ops<<<2048, 256>>>(ops.as<uint8_t>(), mk.as<uint32_t>(), keys.as<uint32_t>(), n, m,
                                 0x60000000u + i * 0x01000000u);
          CK(cudaMemset(mv.p, 0, m * 4));
          CK(cudaDeviceSynchronize());
          wx::Batch mb;
          mb.ops = ops.as<uint8_t>();
          mb.keys = mk.p;
          mb.values_in = mv.p;
          mb.values_out = mv.p;
          mb.n = m;
          mb.stream = s;
          t.batch(mb);
          mx.push_back(kernel_ms(t));
        }
        row("mixed [20,20,60]", lf, m, med(mx));
      }
    }
    row("insert (fill)", lf, n, med(ins));
    row("find present", lf, n, med(fp));
    row("find absent", lf, n, med(fa));
  }
  // Growth: table made for n/64 keys, n inserts (one batch; then 64 batches), resizes included.
  for (int batches : {1, 64}) {
    std::vector<double> g;
    for (int rep = 0; rep < 3; ++rep) {
      HiveTable t(cfg(n / 64, 0.9));
      double ms = 0;
      const uint64_t step = n / batches;
      for (int i = 0; i < batches; ++i) {
        wx::Batch b;
        b.keys = keys.as<uint32_t>() + i * step;
        b.values_in = vals.as<uint32_t>() + i * step;
        b.n = step;
        b.stream = s;
        t.insert(b);
        ms += kernel_ms(t);
      }
      if (t.size() != n) std::printf("  !! growth size %llu\n", (unsigned long long)t.size());
      g.push_back(ms);
    }
    row(batches == 1 ? "grow n/64 -> n (1 batch)" : "grow n/64 -> n (64 batches)", 0.9, n, med(g));
  }
  return 0;
}
