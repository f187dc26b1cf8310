// The one-thread-per-op fast path of phase 1 for 8-byte slots (Kv32): a thread reads a whole bucket
// (kSlots words, 16-byte loads) and does what a tile would do with one lane — the same WCME/WABC
// rules (match, claim the LOWEST EMPTY slot with one CAS, erase with one exchange), so the phase-1
// arguments of hive_ops.cu hold unchanged. Anything beyond the common case (a claim outside b0 that
// needs the overflow bit set first, the stash, an assign of a present key, a lost CAS) returns
// kSlow and the element's tile runs it (DESIGN.md "One thread per op").
// Why: a tile per op leaves 8 lanes waiting on one bucket read; Little's law then caps a find near
// 11 G/s, while one 64-byte bucket read costs the card no more than one 32-byte read (atomic_probe).
#pragma once
#include "hive/hive_device.cuh"
#include "hive/hive_kernels.cuh"
#include "wixlib.h"

namespace wx::hive {

constexpr uint8_t kSlow = 0xFF;  // thread path: not decided, the tile takes it

template <bool kReadOnly>
__device__ __forceinline__ void load_bucket(const uint64_t* b, uint64_t (&x)[kSlots]) {
#pragma unroll
  for (int q = 0; q < kSlots; q += 2) {
    if constexpr (kReadOnly)
      asm volatile("ld.global.nc.v2.u64 {%0, %1}, [%2];" : "=l"(x[q]), "=l"(x[q + 1]) : "l"(b + q));
    else  // two single-copy-atomic 8-byte reads, as two lanes of a tile would do
      asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(x[q]), "=l"(x[q + 1]) : "l"(b + q) : "memory");
  }
}

// Lowest slot holding key k / the EMPTY word, or -1.
__device__ __forceinline__ int slot_of_key(const uint64_t (&x)[kSlots], uint32_t k) {
  int s = -1;
#pragma unroll
  for (int q = kSlots - 1; q >= 0; --q)
    if (key_of(x[q]) == k) s = q;
  return s;
}
__device__ __forceinline__ int lowest_empty(const uint64_t (&x)[kSlots]) {
  int s = -1;
#pragma unroll
  for (int q = kSlots - 1; q >= 0; --q)
    if (is_empty(x[q])) s = q;
  return s;
}
__device__ __forceinline__ uint64_t pick(const uint64_t (&x)[kSlots], int s) {
  uint64_t w = x[0];
#pragma unroll
  for (int q = 1; q < kSlots; ++q)
    if (q == s) w = x[q];  // a select chain: a run-time index would put x in local memory
  return w;
}

struct ThreadHit {
  int tier = -1;  // -1 miss, 0 b0, 1 b1; kSlow-worthy cases are reported through `slow`
  int slot = 0;
  uint64_t word = 0;
  int empty0 = -1, empty1 = -1;  // lowest EMPTY of b0 / b1 (b1 read only when b0's overflow bit is set)
  bool read1 = false;
  bool slow = false;  // the stash would have to be read
};

// search() of hive_ops.cu for one thread: b0, b1 when b0's overflow bit is set, and "slow" where the
// stash would be read (b0 and b1 show no EMPTY slot and the stash may hold keys).
template <bool kRO>
__device__ __forceinline__ ThreadHit thread_search(const View& v, const Place& p, uint32_t k, bool ovf,
                                                   bool stash_possible) {
  ThreadHit h;
  uint64_t x[kSlots];
  load_bucket<kRO>(v.buckets[p.b0].w, x);
  int s = slot_of_key(x, k);
  if (s >= 0) {
    h.tier = 0, h.slot = s, h.word = pick(x, s);
    return h;
  }
  h.empty0 = lowest_empty(x);
  if (!ovf) return h;
  bool full = h.empty0 < 0;
  if (p.b1 != p.b0) {
    load_bucket<kRO>(v.buckets[p.b1].w, x);
    h.read1 = true;
    s = slot_of_key(x, k);
    if (s >= 0) {
      h.tier = 1, h.slot = s, h.word = pick(x, s);
      return h;
    }
    h.empty1 = lowest_empty(x);
    full = full && h.empty1 < 0;
  }
  h.slow = stash_possible && full;
  return h;
}

// Find / contains: WX_OUT_FOUND (value in *val) or WX_OUT_NOT_FOUND, or kSlow.
template <bool kRO>
__device__ __forceinline__ uint8_t thread_find(const View& v, const Place& p, uint32_t k, bool ovf,
                                               bool stash_possible, uint32_t* val) {
  const ThreadHit h = thread_search<kRO>(v, p, k, ovf, stash_possible);
  if (h.slow) return kSlow;
  if (h.tier < 0) return WX_OUT_NOT_FOUND;
  *val = value_of(h.word);
  return WX_OUT_FOUND;
}

// Erase: one exchange on the slot seen holding k (erase_one of hive_ops.cu). tier = where it was.
__device__ __forceinline__ uint8_t thread_erase(const View& v, const Place& p, uint32_t k, bool ovf,
                                                bool stash_possible, bool to_empty) {
  const ThreadHit h = thread_search<false>(v, p, k, ovf, stash_possible);
  if (h.slow) return kSlow;
  if (h.tier < 0) return WX_OUT_NOT_FOUND;
  uint64_t* sp = v.buckets[h.tier == 0 ? p.b0 : p.b1].w + h.slot;
  return erase_slot(sp, to_empty) == k ? WX_OUT_ERASED : WX_OUT_NOT_FOUND;
}

// Insert / insert_or_assign of an absent key: claim the lowest EMPTY slot of b0, or of b1 when b0
// has none and b0's overflow bit is already set (so nothing needs announcing). *tier = the bucket.
__device__ __forceinline__ uint8_t thread_insert(const View& v, const Place& p, uint32_t k, uint32_t val,
                                                 bool assign, bool ovf, int* tier) {
  const ThreadHit h = thread_search<false>(v, p, k, ovf, true);
  if (h.slow) return kSlow;
  if (h.tier >= 0) return assign ? kSlow : WX_OUT_PRESENT;  // an assign CASes the value: the tile's loop
  int c, s;
  if (h.empty0 >= 0) c = 0, s = h.empty0;
  else if (h.read1 && h.empty1 >= 0) c = 1, s = h.empty1;
  else return kSlow;  // the bit must be set before leaving b0: the tile does that
  uint64_t* sp = v.buckets[c == 0 ? p.b0 : p.b1].w + s;
  const uint64_t old = cas_slot(sp, kEmptyWord, pack(k, val));
  if (old == kEmptyWord) {
    *tier = c;
    return WX_OUT_INSERTED;
  }
  if (key_of(old) == k && !assign) return WX_OUT_PRESENT;  // the same key won that slot first
  return kSlow;
}

}  // namespace wx::hive
