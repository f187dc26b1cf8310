// atomic_probe — the card's rates for the memory operations our tables are built from, on random
// 16-byte slots of a table much larger than L2: 8- and 16-byte loads, 8-byte CAS (mostly failing: no
// write-back), 16-byte CAS, the read-then-CAS pair of an insert, an 8-byte exchange (always writes),
// Hive's insert (a 64-byte bucket read, then a CAS that succeeds) against chains of atomics walking
// the bucket's words, and whole-bucket reads by a tile of lanes (8 B per lane: 32, 64 and 128-byte
// buckets). Tells what bounds an insert, erase or bucket probe (DESIGN.md).
// Usage: atomic_probe [log2 slots = 27] [log2 ops = 26] [L2 fetch granularity in bytes: 0 = as is]
//                     [log2 regions = 0]
// (the third sets cudaLimitMaxL2FetchGranularity first: how many bytes L2 asks DRAM for per miss; the
// fourth splits the table into 2^r regions and sends op i to region i * 2^r / ops: the ops running at
// once touch one region, as in a batch ordered by region, so a region that fits L2 is read from DRAM
// about once).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

struct alignas(16) Slot {
  unsigned long long a, b;
};

__constant__ int c_log2_ops;
__constant__ int c_log2_regions;

__device__ __forceinline__ uint64_t mix(uint64_t i) {
  uint64_t x = i * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 32);
}

// Random slot under mask (mask + 1 a power of two); with regions, op i's region's slots only.
__device__ __forceinline__ uint64_t slot_of(uint64_t i, uint64_t mask) {
  const uint64_t x = mix(i);
  const int r = c_log2_regions;
  const uint64_t in_region = mask >> r;
  return ((i >> (c_log2_ops - r)) << (__popcll(mask) - r)) | (x & in_region);
}

// A strong 16-byte load (not cached in L1), as the tables' coherent reads.
__device__ __forceinline__ void ld16(const Slot* p, unsigned long long& x, unsigned long long& y) {
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(x), "=l"(y) : "l"(p) : "memory");
}

__device__ __forceinline__ bool cas128(Slot* p, unsigned long long e0, unsigned long long e1,
                                       unsigned long long n0, unsigned long long n1) {
  unsigned long long o0, o1;
  asm volatile(
      "{\n\t.reg .b128 c, v, o;\n\tmov.b128 c, {%2, %3};\n\tmov.b128 v, {%4, %5};\n\t"
      "atom.relaxed.gpu.global.cas.b128 o, [%6], c, v;\n\tmov.b128 {%0, %1}, o;\n\t}"
      : "=l"(o0), "=l"(o1)
      : "l"(e0), "l"(e1), "l"(n0), "l"(n1), "l"(p)
      : "memory");
  return o0 == e0 && o1 == e1;
}

template <int kOp>
__global__ void probe(Slot* s, uint64_t mask, uint64_t n, unsigned long long* sink) {
  unsigned long long acc = 0;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    Slot* p = s + slot_of(i, mask);
    if (kOp == 0) {  // 8-byte load
      unsigned long long x;
      asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(x) : "l"(&p->a) : "memory");
      acc += x;
    } else if (kOp == 1) {  // 16-byte load
      unsigned long long x, y;
      ld16(p, x, y);
      acc += x ^ y;
    } else if (kOp == 2) {  // 8-byte CAS (performed whether or not it matches)
      acc += atomicCAS(&p->a, i, i + 1);
    } else if (kOp == 3) {  // 16-byte CAS
      acc += cas128(p, i, 0, i + 1, 1);
    } else if (kOp == 4) {  // read 16 bytes, then a 16-byte CAS expecting what was read (an insert's pair)
      unsigned long long x, y;
      ld16(p, x, y);
      acc += cas128(p, x, y, x + 1, y);
    } else if (kOp == 5) {  // 8-byte exchange: always writes (a CAS that succeeds, without the read)
      acc += atomicExch(&p->a, i);
    } else if (kOp == 9) {  // 1-byte store to a random byte of the first n bytes (outcomes by index)
      reinterpret_cast<unsigned char*>(s)[mix(i ^ 0x2545F4914F6CDD1Dull) & (n - 1)] = static_cast<unsigned char>(i);
    } else {  // 64-byte buckets (4 slots): kOp 6 = read it (4 x 16 B), then an 8-byte CAS expecting
              // what was read (Hive's insert); kOp 7 / 8 = 1 / 3 CAS that fail, then an exchange,
              // each after the last (a claim that walks the bucket's words instead of reading it)
      Slot* b = s + (slot_of(i, mask >> 2) << 2);
      auto* w = reinterpret_cast<unsigned long long*>(b);
      if (kOp == 6) {
        unsigned long long x[8];
        for (int q = 0; q < 4; ++q) ld16(b + q, x[2 * q], x[2 * q + 1]);
        const int j = int(i & 7);
        acc += atomicCAS(w + j, x[j], x[j] + 1);
      } else {
        const int fails = kOp == 7 ? 1 : 3;
        unsigned long long last = 0;
        for (int j = 0; j < fails; ++j) last = atomicCAS(w + j, ~last, last);  // never matches
        acc += atomicExch(w + fails, last + i);
      }
    }
  }
  if (acc == 0x123456789ull) *sink = acc;  // keeps the loads alive
}

// A tile of kLanes lanes reads one random kLanes*8-byte aligned bucket, 8 bytes per lane (a Hive probe).
template <int kLanes>
__global__ void bucket_probe(const unsigned long long* w, uint64_t buckets_mask, uint64_t n,
                             unsigned long long* sink) {
  unsigned long long acc = 0;
  const uint64_t t0 = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) / kLanes;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x / kLanes;
  for (uint64_t i = t0; i < n; i += stride) {
    const unsigned long long* p = w + slot_of(i, buckets_mask) * kLanes + threadIdx.x % kLanes;
    unsigned long long x;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(x) : "l"(p) : "memory");
    acc += x;
  }
  if (acc == 0x123456789ull) *sink = acc;
}

template <class F>
double timed(F launch, uint64_t n) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  launch();  // warm-up
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (ms < best) best = ms;
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return n / (best * 1e6);
}

int grid_size() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  return sms * 16;
}

template <int kLanes>
double run_buckets(Slot* s, uint64_t slots, uint64_t n, unsigned long long* sink) {
  const uint64_t buckets = slots * 2 / kLanes;  // 16-byte slots = 2 words
  const auto* w = reinterpret_cast<const unsigned long long*>(s);
  return timed([&] { bucket_probe<kLanes><<<grid_size(), 256>>>(w, buckets - 1, n, sink); }, n);
}

template <int kOp>
double run(Slot* s, uint64_t mask, uint64_t n, unsigned long long* sink) {
  return timed([&] { probe<kOp><<<grid_size(), 256>>>(s, mask, n, sink); }, n);
}

}  // namespace

int main(int argc, char** argv) {
  const int log2s = argc > 1 ? std::atoi(argv[1]) : 27, log2n = argc > 2 ? std::atoi(argv[2]) : 26;
  const int log2r = argc > 4 ? std::atoi(argv[4]) : 0;
  if (log2r < 0 || log2r > log2n || log2r > log2s - 3 || log2n > log2s + 4) {
    std::fprintf(stderr, "atomic_probe: need 0 <= log2 regions <= min(log2 ops, log2 slots - 3), ops <= 16 x slots\n");
    return 2;
  }
  cudaMemcpyToSymbol(c_log2_ops, &log2n, sizeof log2n);
  cudaMemcpyToSymbol(c_log2_regions, &log2r, sizeof log2r);
  const uint64_t slots = 1ull << log2s, n = 1ull << log2n;
  Slot* s = nullptr;
  unsigned long long* sink = nullptr;
  if (cudaMalloc(&s, slots * sizeof(Slot)) != cudaSuccess || cudaMalloc(&sink, 8) != cudaSuccess) {
    std::fprintf(stderr, "atomic_probe: no device memory\n");
    return 1;
  }
  cudaMemset(s, 0, slots * sizeof(Slot));
  if (argc > 3 && std::atoi(argv[3]) > 0 &&
      cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, std::atoi(argv[3])) != cudaSuccess) {
    std::fprintf(stderr, "atomic_probe: cannot set the L2 fetch granularity to %s\n", argv[3]);
    return 1;
  }
  size_t fetch = 0;
  cudaDeviceGetLimit(&fetch, cudaLimitMaxL2FetchGranularity);
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  std::printf("atomic_probe  device: %s  L2: %d MiB  slots: 2^%d x 16 B (%.1f GiB)  ops: 2^%d random, best of 5  "
              "L2 fetch: %zu B  regions: 2^%d\n",
              p.name, p.l2CacheSize >> 20, log2s, slots * 16.0 / (1ull << 30), log2n, fetch, log2r);
  std::printf("load 8 B             %6.2f G/s\n", run<0>(s, slots - 1, n, sink));
  std::printf("load 16 B            %6.2f G/s\n", run<1>(s, slots - 1, n, sink));
  std::printf("CAS 8 B              %6.2f G/s\n", run<2>(s, slots - 1, n, sink));
  std::printf("CAS 16 B             %6.2f G/s\n", run<3>(s, slots - 1, n, sink));
  std::printf("load 16 B + CAS 16 B %6.2f G/s (pairs)\n", run<4>(s, slots - 1, n, sink));
  std::printf("exchange 8 B         %6.2f G/s\n", run<5>(s, slots - 1, n, sink));
  std::printf("load 64 B + CAS 8 B  %6.2f G/s (pairs on a 64-byte bucket)\n", run<6>(s, slots - 1, n, sink));
  std::printf("store 1 B scattered  %6.2f G/s (over 2^%d bytes: outcomes written by element index)\n",
              run<9>(s, slots - 1, n, sink), log2n);
  std::printf("CAS + exchange       %6.2f G/s (chains of 2 on a 64-byte bucket)\n", run<7>(s, slots - 1, n, sink));
  std::printf("3 CAS + exchange     %6.2f G/s (chains of 4 on a 64-byte bucket)\n", run<8>(s, slots - 1, n, sink));
  std::printf("bucket 32 B, 4 lanes %6.2f G/s\n", run_buckets<4>(s, slots, n, sink));
  std::printf("bucket 64 B, 8 lanes %6.2f G/s\n", run_buckets<8>(s, slots, n, sink));
  std::printf("bucket 128 B, 16 ln  %6.2f G/s\n", run_buckets<16>(s, slots, n, sink));
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "atomic_probe: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
