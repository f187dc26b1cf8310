// The one-thread-per-op fast path of phase 1: a thread takes one element and does what a tile would
// do with one lane — the same WCME/WABC rules (match, claim the LOWEST EMPTY slot with one CAS, erase
// with one exchange), so the phase-1 arguments of hive_ops.cu hold unchanged.
// An assign of a present key whose one CAS lost returns kSlow: the element's tile runs its CAS loop
// (DESIGN.md "One thread per op").
// Why: a tile per op leaves 8 lanes waiting on one bucket read; Little's law then caps a find near
// 11 G/s, while one 64-byte bucket read costs the GPU no more than one 32-byte read (atomic_probe).
// A bucket as a thread holds it is eight 8-byte words: the slot words of Kv32, the key words of Kv64
// (16-byte slots; a value is read apart where one is returned, so a bucket costs 16 registers, not 32).
// Kv64 takes this path for finds, contains, erases and inserts; its assigns and mixed batches keep
// the tile path (hive_ops.cu).
#pragma once
#include "hive/hive_device.cuh"
#include "hive/hive_kernels.cuh"
#include "wixlib.h"

namespace wx::hive {

constexpr uint8_t kSlow = 0xFF;   // thread path: not decided, the tile takes it
constexpr uint8_t kRetry = 0xFE;  // thread_step: the insert protocol in full (thread_insert)
constexpr uint8_t kPending = 0;   // no EMPTY slot in b0, b1 or the stash: phase 2
constexpr unsigned kWarp = 0xFFFFFFFFu;

// Lowest slot holding key k / the EMPTY word, or -1. x: slot words (Kv32, uint32_t keys) or key
// words (Kv64, uint64_t keys). The EMPTY word of Kv32 and the EMPTY key of Kv64 are both all ones.
template <class K>
__device__ __forceinline__ int slot_of_key(const uint64_t (&x)[kSlots], K k) {
  static_assert(sizeof(K) == 4 || sizeof(K) == 8, "32- or 64-bit keys");
  int s = -1;
#pragma unroll
  for (int q = kSlots - 1; q >= 0; --q)
    if ((sizeof(K) == 4 ? key_of(x[q]) : x[q]) == k) s = q;
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

// A bucket as the thread path holds it: Kv32 its slot words (four 16-byte loads), Kv64 its key words.
template <bool kRO>
__device__ __forceinline__ void load_view(const uint64_t* b, uint64_t (&x)[kSlots]) {
  load_bucket<kRO>(b, x);
}
template <bool kRO>
__device__ __forceinline__ void load_view(const Pair64* b, uint64_t (&x)[kSlots]) {
#pragma unroll
  for (int s = 0; s < kSlots; ++s) x[s] = load_slot<kRO>(&b[s].k);
}

// What an element needs of its b0: the lowest slot holding its key (-1: none) and the word there, the
// lowest EMPTY slot (-1: none). Read before the op branches, so a warp of mixed ops waits on one
// bucket read, not one per op kind.
struct B0 {
  int hit = -1;
  int empty = -1;
  uint64_t word = 0;  // Kv32 only
};

// One thread reads its own bucket (four 16-byte loads).
template <bool kRO>
__device__ __forceinline__ B0 thread_b0(const uint64_t* b, uint32_t k) {
  uint64_t x[kSlots];
  load_bucket<kRO>(b, x);
  B0 r;
  r.hit = slot_of_key(x, k);
  r.empty = lowest_empty(x);
  r.word = pick(x, r.hit);
  return r;
}

// The b0 of the warp's 32 elements, read together: in round q, lane l loads the 16-byte chunk l & 3
// of the bucket of lane 8q + (l >> 2), so the two lanes that read one 32-byte sector do it in one
// instruction — one sector request where a thread's own four loads make two, and 8 lines per
// instruction where they touch 32 (L1 wavefronts). The lanes of a chunk group then OR their match /
// EMPTY bits together and each element's lane takes its bucket's summary, and the word at its hit.
// Every lane of the warp calls it (a lane without an element passes any bucket, ignores the result).
template <bool kRO>
__device__ __forceinline__ B0 warp_b0(const uint64_t* mine, uint32_t k) {
  const int l = threadIdx.x & 31, c = l & 3, owner_round = l >> 3;
  uint64_t lo[4], hi[4];
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const auto* b = reinterpret_cast<const uint64_t*>(
        __shfl_sync(kWarp, reinterpret_cast<unsigned long long>(mine), 8 * q + (l >> 2)));
    load_pair<kRO>(b + 2 * c, lo[q], hi[q]);
  }
  unsigned bits = 0;  // of this lane's bucket: slot 2c+j holds k -> bit 4c+j, is EMPTY -> bit 4c+2+j
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const uint32_t kq = __shfl_sync(kWarp, k, 8 * q + (l >> 2));
    unsigned m = unsigned(key_of(lo[q]) == kq) | unsigned(key_of(hi[q]) == kq) << 1 | unsigned(is_empty(lo[q])) << 2 |
                 unsigned(is_empty(hi[q])) << 3;
    m <<= 4 * c;
    m |= __shfl_xor_sync(kWarp, m, 1);
    m |= __shfl_xor_sync(kWarp, m, 2);
    const unsigned got = __shfl_sync(kWarp, m, 4 * (l & 7));
    if (owner_round == q) bits = got;
  }
  // Bit position p = 4c + j (+2 for EMPTY) is slot 2c + j; the lowest set position is the lowest slot.
  const unsigned hits = bits & 0x3333u, empties = (bits >> 2) & 0x3333u;
  B0 r;
  if (hits) {
    const int p = __ffs(hits) - 1;
    r.hit = (p >> 2) * 2 + (p & 1);
  }
  if (empties) {
    const int p = __ffs(empties) - 1;
    r.empty = (p >> 2) * 2 + (p & 1);
  }
  const int src = 4 * (l & 7) + (r.hit >= 0 ? r.hit >> 1 : 0);
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const uint64_t a = __shfl_sync(kWarp, lo[q], src), b = __shfl_sync(kWarp, hi[q], src);
    if (owner_round == q) r.word = (r.hit & 1) ? b : a;
  }
  return r;
}

// warp_b0 for 16-byte slots: in round q, lane l reads the key word of slot l & 7 of the bucket of lane
// 4q + (l >> 3) — 8 lanes per 128-byte line, 4 lines per instruction — and two ballots give each
// element's lane the match and EMPTY masks of its bucket. Values are not read here (thread_find reads
// the one it returns from the line just fetched): eight 16-byte loads in flight would hold 32 registers.
template <bool kRO>
__device__ __forceinline__ B0 warp_b0(const Pair64* mine, uint64_t k) {
  const int l = threadIdx.x & 31, s = l & 7, g = l >> 3;
  uint64_t key[kSlots];
#pragma unroll
  for (int q = 0; q < kSlots; ++q) {
    const auto* b = reinterpret_cast<const Pair64*>(
        __shfl_sync(kWarp, reinterpret_cast<unsigned long long>(mine), 4 * q + g));
    key[q] = load_slot<kRO>(&b[s].k);
  }
  unsigned hits = 0, empties = 0;
#pragma unroll
  for (int q = 0; q < kSlots; ++q) {
    const uint64_t kq = __shfl_sync(kWarp, static_cast<unsigned long long>(k), 4 * q + g);
    const unsigned hm = __ballot_sync(kWarp, key[q] == kq), em = __ballot_sync(kWarp, is_empty(key[q]));
    if ((l >> 2) == q) {  // this lane's bucket was read by lanes 8 (l & 3) .. 8 (l & 3) + 7 in this round
      hits = (hm >> (8 * (l & 3))) & kSlotMask;
      empties = (em >> (8 * (l & 3))) & kSlotMask;
    }
  }
  B0 r;
  r.hit = hits ? __ffs(hits) - 1 : -1;
  r.empty = empties ? __ffs(empties) - 1 : -1;
  return r;
}

struct ThreadHit {
  int tier = -1;  // -1 miss, 0 b0, 1 b1, 2 stash
  int slot = 0;
  uint64_t word = 0;
};

// search() of hive_ops.cu for one thread: b0 (as summarised); b1 when b0's overflow bit is set; the
// stash when b0 and b1 show no EMPTY slot and the stash may hold keys.
template <bool kRO, class S>
__device__ __forceinline__ ThreadHit thread_search(const ViewT<S>& v, const Place& p, typename S::Key k, bool ovf,
                                                   bool stash_possible, const B0& b0) {
  ThreadHit h;
  if (b0.hit >= 0) {
    h.tier = 0, h.slot = b0.hit, h.word = b0.word;
    return h;
  }
  if (!ovf) return h;  // no key of this b0 lives anywhere else
  bool full = b0.empty < 0;
  uint64_t x[kSlots];
  if (p.b1 != p.b0) {
    load_view<kRO>(tier_base(v, 1, p), x);
    const int s = slot_of_key(x, k);
    if (s >= 0) {
      h.tier = 1, h.slot = s, h.word = pick(x, s);
      return h;
    }
    full = full && lowest_empty(x) < 0;
  }
  if (stash_possible && full) {
    load_view<kRO>(tier_base(v, 2, p), x);
    const int s = slot_of_key(x, k);
    if (s >= 0) h.tier = 2, h.slot = s, h.word = pick(x, s);
  }
  return h;
}

// Find / contains: WX_OUT_FOUND (value in *val) or WX_OUT_NOT_FOUND. Kv64 reads the value word of
// the hit apart, plainly: only read-only batches (no writer running) take this path with 16-byte slots.
template <bool kRO, class S>
__device__ __forceinline__ uint8_t thread_find(const ViewT<S>& v, const Place& p, typename S::Key k, bool ovf,
                                               bool stash_possible, const B0& b0, typename S::Val* val) {
  static_assert(!S::kWide || kRO, "a Kv64 value read beside writers needs value_fresh");
  const ThreadHit h = thread_search<kRO>(v, p, k, ovf, stash_possible, b0);
  if (h.tier < 0) return WX_OUT_NOT_FOUND;
  if constexpr (S::kWide) *val = load_slot<kRO>(&tier_base(v, h.tier, p)[h.slot].v);
  else *val = value_of(h.word);
  return WX_OUT_FOUND;
}

// Insert / insert_or_assign (insert_one of hive_ops.cu for one thread): search b0 (b1 and the stash
// when b0's overflow bit is set), then claim the lowest EMPTY slot of b0, else of b1 (b1 first when
// first_tier says so), else of the stash bucket (the bit is set before leaving b0); a lost CAS
// re-reads that bucket (bounded: each loss means one more slot filled). A present key: PRESENT, or
// kSlow for an assign (the tile's loop). Kv64: the claim expects the EMPTY pair {EMPTY, EMPTY}; an
// EMPTY slot whose value half is stale (erased to EMPTY) fails it once and returns the pair it
// holds, which the next CAS expects. kOrdered: release CASes (values read while this kernel writes).
template <bool kOrdered = true, class S>
__device__ __forceinline__ uint8_t thread_insert(const ViewT<S>& v, const Place& p, typename S::Key k,
                                                 typename S::Val val, bool assign, bool ovf, const B0& b0, int* tier) {
  using W = typename S::Word;
  const uint8_t present = assign ? kSlow : WX_OUT_PRESENT;
  if (thread_search<false>(v, p, k, ovf, true, b0).tier >= 0) return present;
  uint64_t x[kSlots];
  const W kv = pack(k, val);
  bool marked = ovf;  // the bit is set already: nothing to announce
  const int first = first_tier(p, v.geo);
  // Kv64: one more CAS per lost claim at most (the stale value half of that slot)
  constexpr int kClaims = S::kWide ? 2 * kSlots + 1 : kSlots + 1;
  for (int step = 0; step < 3; ++step) {
    const int c = step == 2 ? 2 : step == 0 ? first : 1 - first;
    if (c == 1 && p.b1 == p.b0) continue;
    W* base = tier_base(v, c, p);
    int e = b0.empty;  // b0 as read with the batch (k checked absent)
    if (c != 0) {
      if (!marked) {  // announce "a key of b0 lives elsewhere" before placing it there
        ovf_set(v.ovf, p.b0);
        marked = true;
      }
      load_view<false>(base, x);  // a fresh view of this tier, checked for the key first
      if (slot_of_key(x, k) >= 0) return present;
      e = lowest_empty(x);
    }
    W seen = S::empty();
    for (int r = 0; r < kClaims && e >= 0; ++r) {
      const W old = cas_slot<kOrdered>(base + e, seen, kv);
      if (old == seen) {
        *tier = c;
        return WX_OUT_INSERTED;
      }
      if constexpr (S::kWide) {
        if (is_empty(old)) {  // still EMPTY, another value half: claim it as it is
          seen = old;
          continue;
        }
        seen = S::empty();
      }
      load_view<false>(base, x);
      if (slot_of_key(x, k) >= 0) return present;  // another element inserted k first
      e = lowest_empty(x);
    }
  }
  return kPending;
}

// Erase (erase_one of hive_ops.cu for one thread): the search, then one exchange of the slot seen
// holding k (in phase 1 it can only have changed to k with another value, or died). Kv64; Kv32 erases
// run thread_step.
template <class S>
__device__ __forceinline__ uint8_t thread_erase(const ViewT<S>& v, const Place& p, typename S::Key k, bool ovf,
                                                bool stash_possible, bool to_empty, const B0& b0, int* tier) {
  const ThreadHit h = thread_search<false>(v, p, k, ovf, stash_possible, b0);
  *tier = h.tier;
  if (h.tier < 0) return WX_OUT_NOT_FOUND;
  return erase_slot(tier_base(v, h.tier, p) + h.slot, to_empty) == k ? WX_OUT_ERASED : WX_OUT_NOT_FOUND;
}

// One step for every op of an erase or mixed batch (Kv32): every lane runs the same instructions —
// the search, then at most one atomic: an erase's exchange, an insert's claim of b0's lowest EMPTY
// slot (its first tier), an assign's CAS of a present key's word. So a warp of mixed ops waits on one
// atomic, where branching by op kind waits on one per kind (ncu: 7 of 32 lanes active in a mixed
// kernel that branched). The same rules as thread_insert / erase_one (hive_ops.cu), so every phase-1 argument
// holds; what the step leaves — no EMPTY slot in b0, b1 first, a lost claim (b0 read again) — runs
// thread_insert, and an assign whose CAS lost returns kSlow. *tier = where the key was found or put.
template <Mode kMode>
__device__ __forceinline__ uint8_t thread_step(const View& v, const Place& p, uint32_t k, Mode op, uint32_t val,
                                               bool ovf, bool stash_possible, bool to_empty, B0 b0, uint32_t* found,
                                               int* tier) {
  const bool sp = kMode == Mode::Erase ? stash_possible : true;  // writers may fill the stash meanwhile
  ThreadHit h = thread_search<false>(v, p, k, ovf, sp, b0);
  const uint64_t kv = pack(k, val);
  uint64_t* at = nullptr;  // the slot of the step's one atomic: an erase's exchange, else a CAS to kv
  uint64_t expect = kEmptyWord;
  uint8_t r;
  if (op == Mode::Find || op == Mode::Contains) {
    r = h.tier >= 0 ? WX_OUT_FOUND : WX_OUT_NOT_FOUND;
    if (h.tier >= 0) *found = value_of(h.word);
  } else if (op == Mode::Erase) {
    r = WX_OUT_NOT_FOUND;
    if (h.tier >= 0) at = tier_base(v, h.tier, p) + h.slot;
  } else if (h.tier >= 0) {
    r = op == Mode::Assign ? WX_OUT_ASSIGNED : WX_OUT_PRESENT;
    if (op == Mode::Assign && h.word != kv) at = tier_base(v, h.tier, p) + h.slot, expect = h.word;
  } else if (b0.empty >= 0 && first_tier(p, v.geo) == 0) {
    r = WX_OUT_INSERTED, h.tier = 0, at = v.buckets[p.b0].w + b0.empty;
  } else {
    r = kRetry;
  }
  if (at) {  // the one atomic of the step
    if (op == Mode::Erase) r = erase_slot(at, to_empty) == k ? WX_OUT_ERASED : WX_OUT_NOT_FOUND;  // else a concurrent erase came first
    else if (cas_slot(at, expect, kv) != expect) r = r == WX_OUT_ASSIGNED ? kSlow : kRetry;
  }
  *tier = h.tier;
  if (kMode != Mode::Erase && r == kRetry) {  // the insert protocol in full; a lost claim re-reads b0 first
    if (at) b0 = thread_b0<false>(v.buckets[p.b0].w, k);
    r = thread_insert(v, p, k, val, op == Mode::Assign, ovf, b0, tier);
  }
  return r;
}

}  // namespace wx::hive
