// Device helpers of the Hive kernels: tiles, slot loads/CAS, counters, list appends.
#pragma once
#include <cooperative_groups.h>

#include <type_traits>

#include "hive/hive_layout.cuh"
#include "wixlib.h"

namespace wx::hive {

namespace cg = cooperative_groups;
using Tile = cg::thread_block_tile<kSlots, cg::thread_block>;

constexpr int kBlock = 256;                     // threads per block of every Hive kernel
// Resident blocks per SM asked of the compiler for the phase-1 writers (p1_kernel's inserts and
// erases, p1_insert_kernel). 5 = 48 registers: inserts 11.5 G/s against 11.1-11.3 at 4 (56
// registers), 12.3 against 10.7 at 6 (40).
constexpr int kWriteMinBlocks = 5;
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
// 16 bytes = two single-copy-atomic 8-byte words (as two lanes of a tile would read them); read-only
// kernels (no writer running) take the non-coherent path. A bucket in four such loads costs half the
// L2 requests of eight 8-byte loads.
template <bool kReadOnly>
__device__ __forceinline__ void load_pair(const uint64_t* p, uint64_t& a, uint64_t& b) {
  if constexpr (kReadOnly)
    asm volatile("ld.global.nc.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p));
  else
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
template <bool kReadOnly>
__device__ __forceinline__ void load_bucket(const uint64_t* b, uint64_t (&x)[kSlots]) {
#pragma unroll
  for (int q = 0; q < kSlots; q += 2) load_pair<kReadOnly>(b + q, x[q], x[q + 1]);
}
__device__ __forceinline__ void store_rx(uint64_t* p, uint64_t v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
// An 8-byte word is single-copy atomic: no ordering needed for its readers (kRelease unused).
template <bool kRelease = true>
__device__ __forceinline__ uint64_t cas_slot(uint64_t* p, uint64_t expect, uint64_t desired) {
  return atomicCAS(reinterpret_cast<unsigned long long*>(p), expect, desired);
}

// Assign inside phase 2 (owner of a live slot under its bucket lock).
__device__ __forceinline__ void put_live(uint64_t* p, uint64_t w) {
  atomicExch(reinterpret_cast<unsigned long long*>(p), w);
}
// Erase of a slot seen holding the key: one exchange; returns the key that was there.
__device__ __forceinline__ uint32_t erase_slot(uint64_t* p, bool to_empty) {
  return key_of(atomicExch(reinterpret_cast<unsigned long long*>(p), to_empty ? kEmptyWord : kTombWord));
}
template <class T>
__device__ __forceinline__ uint64_t shfl_word(const T& t, uint64_t w, int lane) { return t.shfl(w, lane); }

// ---- 16-byte slots (Kv64). Atomicity argument: DESIGN.md "64-bit keys". ----
// Read-only kernels (no writer running): any 16-byte load is consistent.
__device__ __forceinline__ Pair64 load_ro(const Pair64* p) {
  Pair64 w;
  asm volatile("ld.global.nc.v2.u64 {%0, %1}, [%2];" : "=l"(w.k), "=l"(w.v) : "l"(p));
  return w;
}
// With writers: may be torn between the halves; only the key half is trusted (see value_fresh).
__device__ __forceinline__ Pair64 load_rx(const Pair64* p) {
  Pair64 w;
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(w.k), "=l"(w.v) : "l"(p) : "memory");
  return w;
}
template <bool kReadOnly>
__device__ __forceinline__ Pair64 load_slot(const Pair64* p) {
  if constexpr (kReadOnly) return load_ro(p);
  else return load_rx(p);
}
__device__ __forceinline__ void store_rx(Pair64* p, Pair64 w) {
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(w.k), "l"(w.v) : "memory");
}
// 16-byte CAS (sm_90); returns the old pair. Release (kRelease): a reader that sees the new key and
// then fences reads this value or a later one (value_fresh) — needed only where values are read while
// writers run (mixed batches); a pure insert batch has no such reader and skips the fence.
template <bool kRelease = true>
__device__ __forceinline__ Pair64 cas_slot(Pair64* p, Pair64 expect, Pair64 desired) {
  Pair64 old;
  if constexpr (kRelease) {
    asm volatile(
        "{\n\t.reg .b128 e, d, o;\n\t"
        "mov.b128 e, {%2, %3};\n\t"
        "mov.b128 d, {%4, %5};\n\t"
        "atom.release.gpu.global.cas.b128 o, [%6], e, d;\n\t"
        "mov.b128 {%0, %1}, o;\n\t}"
        : "=l"(old.k), "=l"(old.v)
        : "l"(expect.k), "l"(expect.v), "l"(desired.k), "l"(desired.v), "l"(p)
        : "memory");
  } else {
    asm volatile(
        "{\n\t.reg .b128 e, d, o;\n\t"
        "mov.b128 e, {%2, %3};\n\t"
        "mov.b128 d, {%4, %5};\n\t"
        "atom.relaxed.gpu.global.cas.b128 o, [%6], e, d;\n\t"
        "mov.b128 {%0, %1}, o;\n\t}"
        : "=l"(old.k), "=l"(old.v)
        : "l"(expect.k), "l"(expect.v), "l"(desired.k), "l"(desired.v), "l"(p)
        : "memory");
  }
  return old;
}
__device__ __forceinline__ void put_live(Pair64* p, Pair64 w) { store_rx(p, w); }
// Only the key word changes: the value of a free slot is never read.
__device__ __forceinline__ uint64_t erase_slot(Pair64* p, bool to_empty) {
  return atomicExch(reinterpret_cast<unsigned long long*>(&p->k), to_empty ? kEmptyKey64 : kTombKey64);
}
template <class T>
__device__ __forceinline__ Pair64 shfl_word(const T& t, Pair64 w, int lane) {
  return Pair64{t.shfl(w.k, lane), t.shfl(w.v, lane)};
}
// The value of a slot whose key word was just read as k while writers run. The relaxed key read +
// fence form an acquire pattern: the claim CAS (release) that wrote k happens before the value load,
// which therefore reads that CAS's value or a later one, and in phase 1 later values of a slot
// holding k are only insert_or_assign values of k (erases rewrite the key word only).
__device__ __forceinline__ uint64_t value_fresh(const Pair64* p) {
  uint64_t v;
  asm volatile("fence.acq_rel.gpu;\n\tld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(&p->v) : "memory");
  return v;
}

// Per-thread tallies, added into the global Counters once per block at kernel end. 32 bits each (a
// thread counts fewer than 2^32 events in one launch): ten 64-bit tallies held 20 registers.
struct Tally {
  uint32_t v[kCounterFields] = {};
  __device__ uint32_t& inserted() { return v[0]; }
  __device__ uint32_t& erased() { return v[1]; }
  __device__ uint32_t& invalid() { return v[2]; }
  __device__ uint32_t& full() { return v[3]; }
  __device__ uint32_t& stash_in() { return v[4]; }
  __device__ uint32_t& stash_out() { return v[5]; }
  __device__ uint32_t& tombs() { return v[6]; }
  __device__ uint32_t& displacements() { return v[7]; }
  __device__ uint32_t& errors() { return v[8]; }
  __device__ uint32_t& pending() { return v[9]; }
};

// Element i is left to phase 2 (which writes its outcome): its pending bit.
__device__ __forceinline__ void mark_pending(uint32_t* pending_bits, uint64_t i, Tally& tl) {
  ++tl.pending();
  atomicOr(&pending_bits[i >> 5], 1u << (i & 31));
}
// The tallies of an insert's decided outcome (tier 2: the key went to the stash).
__device__ __forceinline__ void count_insert(uint8_t outcome, int tier, Tally& tl) {
  if (outcome == WX_OUT_INSERTED) {
    ++tl.inserted();
    if (tier == 2) ++tl.stash_in();
  }
}

// Block-wide reduction of the tallies, then one atomic per non-zero counter per block.
// Every thread of the block must call it (it has __syncthreads). blockDim.x is a multiple of 32
// or smaller than 32 (the serial eviction launch).
__device__ inline void flush_tally(const Tally& t, Counters* c) {
  __shared__ unsigned long long sh[kCounterFields];
  for (int i = threadIdx.x; i < kCounterFields; i += blockDim.x) sh[i] = 0;
  __syncthreads();
  if (blockDim.x < 32) {
    for (int i = 0; i < kCounterFields; ++i)
      if (t.v[i]) atomicAdd(&sh[i], static_cast<unsigned long long>(t.v[i]));
  } else {
#pragma unroll
    for (int i = 0; i < kCounterFields; ++i) {
      unsigned long long x = t.v[i];  // widened before the sum
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
// Sets bucket b's overflow bit (before a key of b0 = b is placed elsewhere). No fence: in phase 1 a
// reader that misses a fresh bit skips only b1 and the stash, a result that orders that reader before
// the placement the bit announces (per-key linearizability; inserts do not need the bit to stay unique:
// a b0 with no EMPTY slot sends them to b1, where the lowest-EMPTY race decides); phase 2 and the
// resize kernels have no concurrent reader of the bits, and a launch boundary publishes them.
__device__ __forceinline__ void ovf_set(uint32_t* ovf, uint32_t b) {
  const uint32_t bit = 1u << (b & 31);
  uint32_t w;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(w) : "l"(ovf + (b >> 5)));
  if (!(w & bit)) atomicOr(ovf + (b >> 5), bit);
}

// A whole bucket with writers running: 16-byte loads for 8-byte slots (the drain's probes are bound
// by L2 requests), one load per 16-byte slot.
template <class W>
__device__ __forceinline__ void load_bucket_rx(const W* b, W (&x)[kSlots]) {
  if constexpr (std::is_same_v<W, uint64_t>) {
    load_bucket<false>(b, x);
  } else {
#pragma unroll
    for (int s = 0; s < kSlots; ++s) x[s] = load_rx(b + s);
  }
}

// Lowest EMPTY slot (kAnyFree: EMPTY or TOMBSTONE) of the bucket at b, or -1, for the kernels that run
// between launches (eviction, drain). All slots are read at once (independent loads, one memory
// latency), not one after another until a free one shows up.
template <bool kAnyFree, class W>
__device__ __forceinline__ int lowest_open(const W* b) {
  W x[kSlots];
  load_bucket_rx(b, x);
  int fs = -1;
#pragma unroll
  for (int s = kSlots - 1; s >= 0; --s)
    if (kAnyFree ? is_free(x[s]) : is_empty(x[s])) fs = s;
  return fs;
}

// The slots of a key's tier: 0 = b0, 1 = b1, 2 = its stash bucket.
template <class S>
__device__ __forceinline__ typename S::Word* tier_base(const ViewT<S>& v, int tier, const Place& p) {
  return tier == 0 ? v.buckets[p.b0].w : tier == 1 ? v.buckets[p.b1].w : v.stash[p.s].w;
}

// Lowest set bit of a tile ballot as a lane index.
__device__ __forceinline__ int first_lane(unsigned m) { return __ffs(m) - 1; }

}  // namespace wx::hive
