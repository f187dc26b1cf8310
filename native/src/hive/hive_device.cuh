// Device helpers of the Hive kernels: tiles, slot loads/CAS, counters, list appends.
#pragma once
#include <cooperative_groups.h>

#include "hive/hive_layout.cuh"

namespace wx::hive {

namespace cg = cooperative_groups;
using Tile = cg::thread_block_tile<kSlots, cg::thread_block>;

constexpr int kBlock = 256;                     // threads per block of every Hive kernel
constexpr int kTilesPerBlock = kBlock / kSlots;

__device__ __forceinline__ Tile this_tile() { return cg::tiled_partition<kSlots>(cg::this_thread_block()); }

// Read-only kernels (find/contains with no writer running) may use the non-coherent path.
__device__ __forceinline__ uint64_t load_ro(const uint64_t* p) {
  return __ldg(reinterpret_cast<const unsigned long long*>(p));
}
// Kernels with writers: a relaxed device-scope load, never cached stale in L1.
__device__ __forceinline__ uint64_t load_rx(const uint64_t* p) {
  uint64_t v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}
template <bool kReadOnly>
__device__ __forceinline__ uint64_t load_slot(const uint64_t* p) {
  if constexpr (kReadOnly) return load_ro(p);
  else return load_rx(p);
}
__device__ __forceinline__ void store_rx(uint64_t* p, uint64_t v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ uint64_t cas_slot(uint64_t* p, uint64_t expect, uint64_t desired) {
  return atomicCAS(reinterpret_cast<unsigned long long*>(p), expect, desired);
}

// Per-thread tallies, added into the global Counters once per block at kernel end.
struct Tally {
  unsigned long long v[kCounterFields] = {};
  __device__ unsigned long long& inserted() { return v[0]; }
  __device__ unsigned long long& erased() { return v[1]; }
  __device__ unsigned long long& invalid() { return v[2]; }
  __device__ unsigned long long& full() { return v[3]; }
  __device__ unsigned long long& stash_in() { return v[4]; }
  __device__ unsigned long long& stash_out() { return v[5]; }
  __device__ unsigned long long& tombs() { return v[6]; }
  __device__ unsigned long long& displacements() { return v[7]; }
  __device__ unsigned long long& errors() { return v[8]; }
  __device__ unsigned long long& pending() { return v[9]; }
};

// Block-wide reduction of the tallies, then one atomic per non-zero counter per block.
// Every thread of the block must call it (it has __syncthreads). blockDim.x is a multiple of 32
// or smaller than 32 (the serial eviction launch).
__device__ inline void flush_tally(const Tally& t, Counters* c) {
  __shared__ unsigned long long sh[kCounterFields];
  for (int i = threadIdx.x; i < kCounterFields; i += blockDim.x) sh[i] = 0;
  __syncthreads();
  if (blockDim.x < 32) {
    for (int i = 0; i < kCounterFields; ++i)
      if (t.v[i]) atomicAdd(&sh[i], t.v[i]);
  } else {
#pragma unroll
    for (int i = 0; i < kCounterFields; ++i) {
      unsigned long long x = t.v[i];
      if (__any_sync(0xFFFFFFFFu, x != 0)) {
        for (int off = 16; off > 0; off >>= 1) x += __shfl_down_sync(0xFFFFFFFFu, x, off);
        if ((threadIdx.x & 31) == 0 && x) atomicAdd(&sh[i], x);
      }
    }
  }
  __syncthreads();
  unsigned long long* dst = reinterpret_cast<unsigned long long*>(c);
  for (int i = threadIdx.x; i < kCounterFields; i += blockDim.x)
    if (sh[i]) atomicAdd(dst + i, sh[i]);
}

// Appends one index to a global list, one atomic per group of threads that append together.
__device__ __forceinline__ void append(uint32_t* list, unsigned int* len, uint32_t value) {
  auto g = cg::coalesced_threads();
  unsigned int base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(len, g.size());
  base = g.shfl(base, 0);
  list[base + g.thread_rank()] = value;
}

template <bool kReadOnly>
__device__ __forceinline__ bool ovf_test(const uint32_t* ovf, uint32_t b) {
  uint32_t w;
  if constexpr (kReadOnly) w = __ldg(ovf + (b >> 5));
  else asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(w) : "l"(ovf + (b >> 5)));
  return (w >> (b & 31)) & 1u;
}
// Marks bucket b as overflowed (before a key of b0 = b is placed elsewhere).
__device__ __forceinline__ void ovf_set(uint32_t* ovf, uint32_t b) {
  const uint32_t bit = 1u << (b & 31);
  uint32_t w;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(w) : "l"(ovf + (b >> 5)));
  if (!(w & bit)) atomicOr(ovf + (b >> 5), bit);
  __threadfence();  // the bit is visible before the placement that it announces
}

// Lowest set bit of a tile ballot as a lane index.
__device__ __forceinline__ int first_lane(unsigned m) { return __ffs(m) - 1; }

}  // namespace wx::hive
