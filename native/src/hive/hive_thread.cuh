// The one-thread-per-op fast path of phase 1 for 8-byte slots (Kv32): a thread reads a whole bucket
// (kSlots words, 16-byte loads) and does what a tile would do with one lane — the same WCME/WABC
// rules (match, claim the LOWEST EMPTY slot with one CAS, erase with one exchange), so the phase-1
// arguments of hive_ops.cu hold unchanged. Only an assign of a present key (a CAS loop on its value)
// returns kSlow: the element's tile runs it (DESIGN.md "One thread per op").
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
  int tier = -1;  // -1 miss, 0 b0, 1 b1, 2 stash
  int slot = 0;
  uint64_t word = 0;
};

// search() of hive_ops.cu for one thread: b0; b1 when b0's overflow bit is set; the stash when b0 and
// b1 show no EMPTY slot and the stash may hold keys.
// x0 = b0 as this thread read it (read before the op branches, so a warp of mixed ops waits on one
// bucket read, not one per op kind).
template <bool kRO>
__device__ __forceinline__ ThreadHit thread_search(const View& v, const Place& p, uint32_t k, bool ovf,
                                                   bool stash_possible, const uint64_t (&x0)[kSlots]) {
  ThreadHit h;
  int s = slot_of_key(x0, k);
  if (s >= 0) {
    h.tier = 0, h.slot = s, h.word = pick(x0, s);
    return h;
  }
  if (!ovf) return h;  // no key of this b0 lives anywhere else
  bool full = lowest_empty(x0) < 0;
  uint64_t x[kSlots];
  if (p.b1 != p.b0) {
    load_bucket<kRO>(v.buckets[p.b1].w, x);
    s = slot_of_key(x, k);
    if (s >= 0) {
      h.tier = 1, h.slot = s, h.word = pick(x, s);
      return h;
    }
    full = full && lowest_empty(x) < 0;
  }
  if (stash_possible && full) {
    load_bucket<kRO>(v.stash[p.s].w, x);
    s = slot_of_key(x, k);
    if (s >= 0) h.tier = 2, h.slot = s, h.word = pick(x, s);
  }
  return h;
}

// Find / contains: WX_OUT_FOUND (value in *val) or WX_OUT_NOT_FOUND.
template <bool kRO>
__device__ __forceinline__ uint8_t thread_find(const View& v, const Place& p, uint32_t k, bool ovf,
                                               bool stash_possible, const uint64_t (&x0)[kSlots], uint32_t* val) {
  const ThreadHit h = thread_search<kRO>(v, p, k, ovf, stash_possible, x0);
  if (h.tier < 0) return WX_OUT_NOT_FOUND;
  *val = value_of(h.word);
  return WX_OUT_FOUND;
}

// Erase: one exchange on the slot seen holding k (erase_one of hive_ops.cu). *tier = where it was.
__device__ __forceinline__ uint8_t thread_erase(const View& v, const Place& p, uint32_t k, bool ovf,
                                                bool stash_possible, bool to_empty, const uint64_t (&x0)[kSlots],
                                                int* tier) {
  const ThreadHit h = thread_search<false>(v, p, k, ovf, stash_possible, x0);
  if (h.tier < 0) return WX_OUT_NOT_FOUND;
  *tier = h.tier;
  return erase_slot(tier_base(v, h.tier, p) + h.slot, to_empty) == k ? WX_OUT_ERASED : WX_OUT_NOT_FOUND;
}

constexpr uint8_t kPending = 0;  // no EMPTY slot in b0, b1 or the stash: phase 2

// Insert / insert_or_assign (insert_one of hive_ops.cu for one thread): search b0 (b1 and the stash
// when b0's overflow bit is set), then claim the lowest EMPTY slot of b0, else of b1 (b1 first when
// first_tier says so), else of the stash bucket (the bit is set before leaving b0); a lost CAS
// re-reads that bucket (bounded: each loss means one more slot filled). A present key: PRESENT, or
// kSlow for an assign (the tile's loop).
__device__ __forceinline__ uint8_t thread_insert(const View& v, const Place& p, uint32_t k, uint32_t val,
                                                 bool assign, bool ovf, const uint64_t (&x0)[kSlots], int* tier) {
  const uint8_t present = assign ? kSlow : WX_OUT_PRESENT;
  uint64_t x[kSlots];
#pragma unroll
  for (int q = 0; q < kSlots; ++q) x[q] = x0[q];
  if (slot_of_key(x, k) >= 0) return present;
  if (ovf) {  // k may live in b1 or the stash
    uint64_t y[kSlots];
    bool full = lowest_empty(x) < 0;
    if (p.b1 != p.b0) {
      load_bucket<false>(v.buckets[p.b1].w, y);
      if (slot_of_key(y, k) >= 0) return present;
      full = full && lowest_empty(y) < 0;
    }
    if (full) {
      load_bucket<false>(v.stash[p.s].w, y);
      if (slot_of_key(y, k) >= 0) return present;
    }
  }
  const uint64_t kv = pack(k, val);
  bool marked = ovf;  // the bit is set already: nothing to announce
  const int first = first_tier(p, v.geo);
  for (int step = 0; step < 3; ++step) {
    const int c = step == 2 ? 2 : step == 0 ? first : 1 - first;
    if (c == 1 && p.b1 == p.b0) continue;
    uint64_t* base = tier_base(v, c, p);
    if (c == 0) {
#pragma unroll
      for (int q = 0; q < kSlots; ++q) x[q] = x0[q];  // b0 as read with the batch (k checked absent)
    } else {
      if (!marked) {  // announce "a key of b0 lives elsewhere" before placing it there
        ovf_set(v.ovf, p.b0);
        marked = true;
      }
      load_bucket<false>(base, x);  // a fresh view of this tier, checked for the key first
      if (slot_of_key(x, k) >= 0) return present;
    }
    for (int r = 0; r <= kSlots; ++r) {
      const int e = lowest_empty(x);
      if (e < 0) break;
      if (cas_slot(base + e, kEmptyWord, kv) == kEmptyWord) {
        *tier = c;
        return WX_OUT_INSERTED;
      }
      load_bucket<false>(base, x);
      if (slot_of_key(x, k) >= 0) return present;  // another element inserted k first
    }
  }
  return kPending;
}

}  // namespace wx::hive
