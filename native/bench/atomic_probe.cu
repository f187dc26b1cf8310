// atomic_probe — the GPU's rates for the memory operations our tables are built from, on random
// 16-byte slots of a table much larger than L2: 8- and 16-byte loads, 8-byte CAS (mostly failing: no
// write-back), 16-byte CAS, the read-then-CAS pair of an insert, an 8-byte exchange (always writes),
// Hive's insert (a 64-byte bucket read, then a CAS that succeeds) against chains of atomics walking
// the bucket's words, and whole-bucket reads by a tile of lanes (8 B per lane: 32, 64 and 128-byte
// buckets); for 8-byte claims: read then CAS, read and exchange issued together (a speculative claim,
// with or without a per-bucket hint naming the word), and Hive's phase-1 read by the warp then its CAS.
// Tells what bounds an insert, erase or bucket probe (glht/DESIGN.md, hive/DESIGN.md "Limits" and
// "Decisions").
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
    } else if (kOp == 10) {  // read 16 bytes, then an 8-byte CAS expecting what was read (8-byte slots)
      unsigned long long x, y;
      ld16(p, x, y);
      acc += atomicCAS(&p->a, x, x + 1);
    } else if (kOp == 11) {  // read 16 bytes and exchange 8 of them, issued together (a speculative claim)
      unsigned long long x, y;
      ld16(p, x, y);
      acc += atomicExch(&p->b, i) ^ x;
    } else if (kOp == 12) {  // a 1-byte fill hint of a 64-byte bucket from a 16 MB array (L2-resident),
                             // then op 11 on the word it names, then the hint stored back (a claim
                             // guided by a per-bucket hint instead of a read of the bucket)
      unsigned char* hints = reinterpret_cast<unsigned char*>(sink + 1);
      const uint64_t bucket = slot_of(i, mask >> 2), hi = bucket & ((1ull << 24) - 1);
      unsigned short c;
      asm volatile("ld.relaxed.gpu.global.u8 %0, [%1];" : "=h"(c) : "l"(hints + hi) : "memory");
      Slot* q = s + bucket * 4 + ((c >> 1) & 3);
      unsigned long long x, y;
      ld16(q, x, y);
      acc += atomicExch((c & 1) ? &q->b : &q->a, i) ^ x;
      hints[hi] = static_cast<unsigned char>(c + 1);
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

// Hive's phase-1 insert as it reads: the warp reads its 32 lanes' 64-byte buckets together (in round
// q lane l loads 16-byte chunk l & 3 of the bucket of lane 8q + (l >> 2), as warp_b0), then each lane
// CASes word i & 7 of its own bucket expecting what was read there.
// kIo: as an insert batch, op i first reads 8 bytes of its own from io (a key and a value) and, after
// its CAS, writes one byte there (its outcome).
template <bool kIo>
__global__ void warp_insert_probe(Slot* s, uint64_t mask, uint64_t n, unsigned long long* sink, uint2* io) {
  unsigned long long acc = 0;
  const int l = threadIdx.x & 31;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i - l < n; i += stride) {
    uint64_t key = i < n ? i : 0;  // a lane past the end reads some bucket with its warp, writes nothing
    if (kIo && i < n) {
      const uint2 kv = io[i];
      key = kv.x | uint64_t(kv.y) << 32;
    }
    Slot* mine = s + ((kIo ? mix(key) & (mask >> 2) : slot_of(key, mask >> 2)) << 2);
    unsigned long long lo[4], hi[4];
    for (int q = 0; q < 4; ++q) {
      const Slot* b = reinterpret_cast<const Slot*>(
          __shfl_sync(~0u, reinterpret_cast<unsigned long long>(mine), 8 * q + (l >> 2)));
      ld16(b + (l & 3), lo[q], hi[q]);
    }
    const int j = int(i & 7), src = 4 * (l & 7) + (j >> 1);
    unsigned long long x = 0;
    for (int q = 0; q < 4; ++q) {
      const unsigned long long a = __shfl_sync(~0u, lo[q], src), b = __shfl_sync(~0u, hi[q], src);
      if ((l >> 3) == q) x = (j & 1) ? b : a;
    }
    if (i < n) {
      const unsigned long long o = atomicCAS(reinterpret_cast<unsigned long long*>(mine) + j, x, x + 1);
      if (kIo) reinterpret_cast<unsigned char*>(io + n)[i] = static_cast<unsigned char>(o == x);
      acc += o;
    }
  }
  if (acc == 0x123456789ull) *sink = acc;
}

__global__ void fill_io(uint2* io, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t x = mix(i ^ 0x5851F42D4C957F2Dull);
    io[i] = make_uint2(uint32_t(x), uint32_t(x >> 32));
  }
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
    if (const cudaError_t e = cudaEventSynchronize(b); e != cudaSuccess) {
      std::fprintf(stderr, "atomic_probe: %s\n", cudaGetErrorString(e));
      std::exit(1);
    }
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

// blocks_per_sm 0: as many as fit (the grid strides in waves); else a grid of that many per SM.
template <bool kIo>
double run_warp_insert(Slot* s, uint64_t mask, uint64_t n, unsigned long long* sink, uint2* io, int blocks_per_sm) {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int grid = blocks_per_sm ? sms * blocks_per_sm : grid_size();
  return timed([&] { warp_insert_probe<kIo><<<grid, 256>>>(s, mask, n, sink, io); }, n);
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
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each figure as it comes, should a later probe fail
  cudaMemcpyToSymbol(c_log2_ops, &log2n, sizeof log2n);
  cudaMemcpyToSymbol(c_log2_regions, &log2r, sizeof log2r);
  const uint64_t slots = 1ull << log2s, n = 1ull << log2n;
  Slot* s = nullptr;
  unsigned long long* sink = nullptr;
  if (cudaMalloc(&s, slots * sizeof(Slot)) != cudaSuccess || cudaMalloc(&sink, 8 + (1ull << 24)) != cudaSuccess) {
    std::fprintf(stderr, "atomic_probe: no device memory\n");
    return 1;
  }
  cudaMemset(s, 0, slots * sizeof(Slot));
  cudaMemset(sink, 0, 8 + (1ull << 24));
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
  std::printf("load 16 B + CAS 8 B   %6.2f G/s (pairs, the CAS expecting what was read)\n", run<10>(s, slots - 1, n, sink));
  std::printf("load 16 B | exch 8 B  %6.2f G/s (issued together: a speculative claim)\n", run<11>(s, slots - 1, n, sink));
  std::printf("hint, load | exch     %6.2f G/s (a 16 MB hint array names the word)\n", run<12>(s, slots - 1, n, sink));
  uint2* io = nullptr;  // an insert batch's keys and values (distinct), then its outcomes
  if (cudaMalloc(&io, n * 9) != cudaSuccess) {
    std::fprintf(stderr, "atomic_probe: no device memory\n");
    return 1;
  }
  fill_io<<<grid_size(), 256>>>(io, n);
  std::printf("warp 64 B + CAS 8 B   %6.2f G/s (Hive's phase-1 read, then its claim)\n",
              run_warp_insert<false>(s, slots - 1, n, sink, io, 0));
  for (int b : {8, 5, 4})
    std::printf("  at %d blocks / SM     %6.2f G/s\n", b, run_warp_insert<false>(s, slots - 1, n, sink, io, b));
  std::printf("  + batch in and out   %6.2f G/s (8 bytes read, 1 written per op)\n",
              run_warp_insert<true>(s, slots - 1, n, sink, io, 0));
  std::printf("    at 5 blocks / SM   %6.2f G/s\n", run_warp_insert<true>(s, slots - 1, n, sink, io, 5));
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
