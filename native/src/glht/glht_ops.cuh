// GLHT per-operation protocols (device code). Thread paths handle the common cases with one op per
// thread; the warp path (one warp per op, lane i reads slot home+i) handles the inserts that need a
// far empty slot and hopscotch displacement. Every loop is bounded; an op that runs out of attempts
// returns PENDING and the host re-runs it in a later launch. Protocol and proofs: DESIGN.md.
#pragma once
#include <cstdint>

#include "glht/glht_traits.cuh"
#include "wixlib.h"

namespace wx {
namespace glht {

// Device counters of one table (one 64-byte struct).
struct Counters {
  unsigned long long size;           // live keys (exact)
  unsigned long long displacements;  // hopscotch moves since creation
  unsigned long long errors;         // broken invariants (must stay 0)
  unsigned long long count;          // scratch: retrieve_all / invariant checks
  unsigned long long stashed;        // keys in the overflow stash
  unsigned long long pending;        // ops of the last pass that ran out of attempts
  unsigned long long full;           // inserts of the last pass that found no room
  unsigned long long invalid;        // reserved keys seen in the last pass
};

// A table's work cursors follow its Counters in the same allocation, each on its own 128-byte line:
// the writing kernels' warps take their elements from them (k_batch). Zeroed with the call counters.
constexpr int kCursors = 16;
constexpr int kCursorStride = 16;                  // unsigned long longs from one cursor to the next
constexpr int kCursorOffset = 16;                  // unsigned long longs from the Counters to cursor 0
constexpr int kCounterWords = kCursorOffset + kCursors * kCursorStride;  // the allocation, in words
__device__ __forceinline__ unsigned long long* cursor_of(void* counters, int k) {
  return static_cast<unsigned long long*>(counters) + kCursorOffset + k * kCursorStride;
}

// Slots 0 .. ns-1 (ns = nb + kH) are the hopscotch array (homes 0..nb-1, the last kH slots only
// extend the last neighbourhoods); slots ns .. nt-1 are the overflow stash: sb buckets of kH slots.
// A key that no displacement can bring near its home goes to bucket (home mod sb) and its home's
// meta word gets the STASH bit; lookups scan that bucket only when the bit is set. Stash slots use
// only their kv word and follow the same rules (changed only under the home's lock).
template <class Tr>
struct View {
  typename Tr::SlotT* s;
  unsigned long long nb;
  unsigned long long ns;
  unsigned long long sb;
  unsigned long long nt;
  Counters* c;
};

template <class Tr>
__device__ __forceinline__ unsigned long long stash_base(const View<Tr>& t, unsigned long long h) {
  return t.ns + (h % t.sb) * kH;
}

// Internal outcome beyond wx_outcome: the thread path hands the op to the warp path.
constexpr int kSlow = 100;
constexpr int kPending = WX_OUT_NONE;  // not finished; re-run by the host

constexpr int kThreadAttempts = 32;  // thread-path retries (validation / lock contention)
constexpr int kWarpAttempts = 8;     // warp-path retries of the lock on the home
constexpr int kFarWindows = 16;      // empty-slot search: 16 windows of 32 slots past the home's
constexpr int kMaxMoves = 64;        // displacement steps per insert
constexpr unsigned kFull = 0xFFFFFFFFu;

__device__ __forceinline__ void backoff(int attempt) {
  __nanosleep(32u << (attempt < 6 ? attempt : 6));
}

// Meta-word writes by width. Narrow: relaxed (DESIGN.md "Memory ordering"). Wide: every RMW of a
// meta word is acq_rel and every store a release, so each meta value a reader acquires carries every
// earlier value write of that home (DESIGN.md "Wide tables").
template <class Tr>
__device__ __forceinline__ unsigned long long meta_cas(unsigned long long* p, unsigned long long expect,
                                                       unsigned long long desired) {
  if constexpr (Tr::kWide) {
    return cas64_acq_rel(p, expect, desired);
  } else {
    return cas64(p, expect, desired);
  }
}
// An unlock that wrote nothing (narrow: relaxed, the word is restored).
template <class Tr>
__device__ __forceinline__ void meta_restore(unsigned long long* p, unsigned long long v) {
  if constexpr (Tr::kWide) {
    st_release(p, v);
  } else {
    st_relaxed(p, v);
  }
}
template <class Tr, class S>
__device__ __forceinline__ bool slot_cas(S* p, unsigned long long kv_expect, unsigned long long meta_expect,
                                         unsigned long long kv_new, unsigned long long meta_new) {
  if constexpr (Tr::kWide) {
    return cas128_acq_rel(head(p), kv_expect, meta_expect, kv_new, meta_new);
  } else {
    return cas128(head(p), kv_expect, meta_expect, kv_new, meta_new);
  }
}

enum Loc { kFound, kAbsent, kRetry };

// Coherent lookup with miss validation. FOUND needs no validation (a key seen in a kv word was
// present at that moment); ABSENT is returned only when the home was unlocked and its meta word
// unchanged across all kv reads, i.e. the home's key set was frozen while we looked.
// kValidate = false (inserts): ABSENT only says "unlocked and not seen"; the CAS that follows expects
// the same meta word m1 and so performs the validation itself.
// kvh: the home slot's kv word as read with m1 (a CAS expectation only).
template <bool kValidate>
__device__ __forceinline__ Loc locate(const View<Narrow>& t, uint32_t k, unsigned long long h, unsigned long long& m1,
                                      unsigned long long& pos, unsigned long long& kvv, unsigned long long& kvh) {
  ld_slot(t.s + h, kvh, m1);
  uint32_t b = bitmap_of(m1);
  // A hit in the paired read is always true; a miss there may be a stale element, re-read after the
  // other bits: a key found elsewhere then costs no second read of slot h (erase and mixed rates
  // unchanged within noise either way).
  const bool home_unsure = (b & 1u) && kv_key(kvh) != k;
  if ((b & 1u) && !home_unsure) {
    pos = h;
    kvv = kvh;
    return kFound;
  }
  b &= ~1u;
  while (b) {
    int i = __ffs(b) - 1;
    b &= b - 1;
    unsigned long long x = ld_relaxed(&t.s[h + i].kv);
    if (kv_key(x) == k) {
      pos = h + i;
      kvv = x;
      return kFound;
    }
  }
  if (home_unsure) {
    const unsigned long long x = ld_relaxed(&t.s[h].kv);
    if (kv_key(x) == k) {
      pos = h;
      kvv = x;
      return kFound;
    }
  }
  if (stashed(m1)) {
    const unsigned long long sbase = stash_base(t, h);
    for (int q0 = 0; q0 < kH; q0 += 4) {
      unsigned long long x[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) x[q] = ld_relaxed(&t.s[sbase + q0 + q].kv);
#pragma unroll
      for (int q = 0; q < 4; ++q)
        if (kv_key(x[q]) == k) {
          pos = sbase + q0 + q;
          kvv = x[q];
          return kFound;
        }
    }
  }
  if (locked(m1)) return kRetry;
  if (!kValidate) return kAbsent;
  // The kv reads above come before the re-read of the meta word: the miss validation needs this
  // order (its price: ~3 % on mixed batches).
  fence_acq_rel();
  return ld_relaxed(&t.s[h].meta) == m1 ? kAbsent : kRetry;
}

// Read-only lookup (no writer runs during the kernel): one 16-byte read of the home slot, then only
// the slots its bitmap names. A lock bit seen here is a leaked flag: counted as an error.
__device__ __forceinline__ bool lookup_ro(const View<Narrow>& t, uint32_t k, unsigned long long h, uint32_t& v) {
  unsigned long long kvh, m;
  ld_slot_nc(t.s + h, kvh, m);
  if (locked(m)) atomicAdd(&t.c->errors, 1ull);
  uint32_t b = bitmap_of(m);
  if ((b & 1u) && kv_key(kvh) == k) {
    v = kv_value(kvh);
    return true;
  }
  b &= ~1u;
  while (b) {
    int i = __ffs(b) - 1;
    b &= b - 1;
    unsigned long long x = ld_kv_nc(t.s + h + i);
    if (kv_key(x) == k) {
      v = kv_value(x);
      return true;
    }
  }
  if (stashed(m)) {
    const unsigned long long sbase = stash_base(t, h);
    for (int q = 0; q < kH; ++q) {
      unsigned long long x = ld_kv_nc(t.s + sbase + q);
      if (kv_key(x) == k) {
        v = kv_value(x);
        return true;
      }
    }
  }
  return false;
}
// ---- Wide tables (64-bit keys in the kv word, values in the slot's val word). A value is not in the
// word that names the key, so a lookup that returns a value validates its hit like a miss: the home's
// meta word read with acquire, unlocked, and re-read unchanged after the value (DESIGN.md "Wide
// tables": every value write to a slot holding a key of h happens under h's LOCK and its unlock
// bumps the version, or before the key is linked by a releasing unlock).
// kValidate = false (inserts): no value is read; ABSENT/FOUND as locate<false>. kvv = k on FOUND.
// kCheckHits = false (erases): only a miss is validated; a hit needs no value, and the CAS that
// follows expects m1, which validates it as in 32-bit tables.
template <bool kValidate, bool kCheckHits = kValidate>
__device__ __forceinline__ Loc locate_wide(const View<Wide>& t, unsigned long long k, unsigned long long h,
                                           unsigned long long& m1, unsigned long long& pos, unsigned long long& kvv,
                                           unsigned long long& kvh, unsigned long long& val) {
  WideSlot* s = t.s;
  ld_slot_acquire(head(s + h), kvh, m1);
  if (locked(m1)) return kRetry;  // an insert of this home may have a claimed slot whose value is unwritten
  uint32_t b = bitmap_of(m1);
  bool found = false;
  if (b & 1u) {
    const unsigned long long x = kvh == k ? kvh : ld_relaxed(&s[h].kv);
    if (x == k) {
      pos = h;
      found = true;
    }
    b &= ~1u;
  }
  while (b && !found) {
    const int i = __ffs(b) - 1;
    b &= b - 1;
    if (ld_relaxed(&s[h + i].kv) == k) {
      pos = h + i;
      found = true;
    }
  }
  if (!found && stashed(m1)) {
    const unsigned long long sbase = stash_base(t, h);
    for (int q0 = 0; q0 < kH && !found; q0 += 4) {
      unsigned long long x[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) x[q] = ld_relaxed(&s[sbase + q0 + q].kv);
#pragma unroll
      for (int q = 0; q < 4; ++q)
        if (!found && x[q] == k) {
          pos = sbase + q0 + q;
          found = true;
        }
    }
  }
  if (found) kvv = k;
  if (!kValidate || (found && !kCheckHits)) return found ? kFound : kAbsent;
  if (found) val = ld_relaxed(&s[pos].val);
  fence_acq_rel();  // the key and value reads above come before the re-read of the home slot
  unsigned long long kh2, m2;
  ld_slot(head(s + h), kh2, m2);
  if (m2 != m1) return kRetry;
  // The paired key element of the first read may be older than m1: trust a home-slot hit only when
  // a read after the fence still shows k (the key set was frozen in between).
  if (found && pos == h && kh2 != k) return kRetry;
  return found ? kFound : kAbsent;
}

// Read-only lookup of a wide table (no writer runs): as lookup_ro, the value from the hit's val word.
__device__ __forceinline__ bool lookup_ro_wide(const View<Wide>& t, unsigned long long k, unsigned long long h,
                                               unsigned long long& v) {
  const WideSlot* s = t.s;
  unsigned long long kvh, m;
  ld_slot_nc(head(s + h), kvh, m);
  if (locked(m)) atomicAdd(&t.c->errors, 1ull);
  uint32_t b = bitmap_of(m);
  if ((b & 1u) && kvh == k) {
    v = __ldg(&s[h].val);
    return true;
  }
  b &= ~1u;
  while (b) {
    const int i = __ffs(b) - 1;
    b &= b - 1;
    if (ld_kv_nc(head(s + h + i)) == k) {
      v = __ldg(&s[h + i].val);
      return true;
    }
  }
  if (stashed(m)) {
    const unsigned long long sbase = stash_base(t, h);
    for (int q = 0; q < kH; ++q) {
      if (ld_kv_nc(head(s + sbase + q)) == k) {
        v = __ldg(&s[sbase + q].val);
        return true;
      }
    }
  }
  return false;
}

// Either width's read-only lookup (no writer runs): the value of k's slot into v.
template <class Tr>
__device__ __forceinline__ bool lookup_ro_any(const View<Tr>& t, typename Tr::Key k, unsigned long long h,
                                              typename Tr::Val& v) {
  if constexpr (Tr::kWide) return lookup_ro_wide(t, k, h, v);
  else return lookup_ro(t, k, h, v);
}

// Coherent find for mixed batches: WX_OUT_FOUND (value in v) / WX_OUT_NOT_FOUND / kPending.
template <class Tr>
__device__ __forceinline__ int thread_find(const View<Tr>& t, typename Tr::Key k, unsigned long long h,
                                           typename Tr::Val& v) {
  for (int a = 0; a < kThreadAttempts; ++a) {
    if (a) backoff(a);
    unsigned long long m1, pos, kvv, kvh;
    if constexpr (Tr::kWide) {
      unsigned long long val = 0;
      const Loc r = locate_wide<true>(t, k, h, m1, pos, kvv, kvh, val);
      if (r == kFound) {
        v = val;
        return WX_OUT_FOUND;
      }
      if (r == kAbsent) return WX_OUT_NOT_FOUND;
    } else {
      const Loc r = locate<true>(t, k, h, m1, pos, kvv, kvh);
      if (r == kFound) {
        v = kv_value(kvv);
        return WX_OUT_FOUND;
      }
      if (r == kAbsent) return WX_OUT_NOT_FOUND;
    }
  }
  return kPending;
}

// Either width's coherent lookup for the writers below: they need no value and their CAS expects m1,
// so only a miss is validated (kValidate), at both widths.
template <class Tr, bool kValidate>
__device__ __forceinline__ Loc locate_any(const View<Tr>& t, typename Tr::Key k, unsigned long long h,
                                          unsigned long long& m1, unsigned long long& pos, unsigned long long& kvv,
                                          unsigned long long& kvh) {
  if constexpr (Tr::kWide) {
    unsigned long long val;
    return locate_wide<kValidate, false>(t, k, h, m1, pos, kvv, kvh, val);
  } else {
    return locate<kValidate>(t, k, h, m1, pos, kvv, kvh);
  }
}

// The kv word an insert writes: key|value (narrow) or the key alone (wide: the value goes to val first).
template <class Tr>
__device__ __forceinline__ unsigned long long kv_word(typename Tr::Key k, typename Tr::Val v) {
  if constexpr (Tr::kWide) {
    return k;
  } else {
    return make_kv(k, v);
  }
}

// Claims the first EMPTY slot of h's neighbourhood with a CAS that writes kv, four reads in flight at a
// time: its offset from h, or -1 when none was EMPTY.
template <class Tr>
__device__ __forceinline__ int claim_first_empty(const View<Tr>& t, unsigned long long h, unsigned long long kv) {
  for (int j0 = 0; j0 < kH; j0 += 4) {
    unsigned long long x[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) x[q] = ld_relaxed(&t.s[h + j0 + q].kv);
#pragma unroll
    for (int q = 0; q < 4; ++q)
      if (x[q] == Tr::kEmpty && cas64(&t.s[h + j0 + q].kv, Tr::kEmpty, kv) == Tr::kEmpty) return j0 + q;
  }
  return -1;
}

// Narrow insert of a key absent under m1 (unlocked) whose home slot is taken, in a launch that runs no
// erase (insert, insert_or_assign, rehash): claim the first EMPTY slot of the neighbourhood with a CAS
// that writes key+value, then link it with one CAS of the home's meta word (bit + version) from the
// word the absence was seen under: the linearization point (m unchanged => no lock was taken and the
// key set of h did not change, so k is still absent). No lock: until linked the slot is ours alone —
// no bitmap names it, not even a stale one a reader still holds (no erase empties a named slot during
// the launch, and a slot a move vacates stays RESERVED for the mover), so no reader sees the claim; a
// move re-checks the bit under the owner's lock and turns it down; claims need EMPTY. With erases
// running (mixed batches) a reader holding a bitmap from before an erase could read the freed slot
// after our claim and return a key that may never be linked: those take the locked claim.
// A failed link looks k up again under the new word and links from that one; k found (a concurrent
// insert of k linked first) or the attempts spent => the slot is given back EMPTY and the caller runs
// its attempt loop again.
constexpr int kLinkLost = -2;
__device__ __forceinline__ int claim_then_link(const View<Narrow>& t, uint32_t k, unsigned long long kv_new,
                                               unsigned long long h, unsigned long long m1) {
  auto* s = t.s;
  const int j = claim_first_empty(t, h, kv_new);
  if (j < 0) return kSlow;  // no EMPTY slot in the window: the warp path (it locks the home)
  unsigned long long m = m1;
  for (int a = 0; a < kThreadAttempts; ++a) {
    // the claim was an awaited CAS, performed at L2 before the link is issued
    if (!locked(m) && cas64(&s[h].meta, m, bumped(m, bitmap_of(m) | (1u << j))) == m) return WX_OUT_INSERTED;
    backoff(a);
    unsigned long long pos, kvv, kvh;
    if (locate<false>(t, k, h, m, pos, kvv, kvh) == kFound) break;  // a concurrent insert of k linked first
  }
  st_relaxed(&s[h + j].kv, Narrow::kEmpty);  // give the slot back: nobody else writes it while unlinked
  return kLinkLost;
}

// Insert / insert_or_assign, thread path. Home slot empty: one 16-byte CAS writes key+value and sets
// bit 0 (the linearization point). Otherwise, narrow without concurrent erases: claim_then_link.
// Else lock the home (CAS on meta from the validated snapshot, so the miss is still true), claim the
// first empty slot of the neighbourhood with a CAS, publish the bit with a store that unlocks (a
// claim made under the lock is always linked, so a reader may see it first). No empty: kSlow.
// Wide: the home CAS also locks the home; the value is stored after each claim and published by the
// releasing unlock that links the slot; an assign stores the value under the lock and bumps the version.
template <class Tr, bool kNoErase>  // kNoErase: no erase runs in this launch (claim_then_link)
__device__ __forceinline__ int thread_upsert(const View<Tr>& t, typename Tr::Key k, typename Tr::Val v, bool assign,
                                             unsigned long long h) {
  auto* s = t.s;
  const unsigned long long kv_new = kv_word<Tr>(k, v);
  for (int a = 0; a < kThreadAttempts; ++a) {
    if (a) backoff(a);
    unsigned long long m1, pos, kvv, kvh;
    Loc r = locate_any<Tr, false>(t, k, h, m1, pos, kvv, kvh);
    if (r == kRetry) continue;
    if (r == kFound) {
      if (!assign) return WX_OUT_PRESENT;
      if (locked(m1)) continue;
      if constexpr (Tr::kWide) {
        if (meta_cas<Tr>(&s[h].meta, m1, m1 | kLock) != m1) continue;
        if (ld_relaxed(&s[pos].kv) != k) {  // a stale paired read of the home slot: nothing written
          meta_restore<Tr>(&s[h].meta, m1);
          continue;
        }
        st_relaxed(&s[pos].val, v);
        st_release(&s[h].meta, bumped(m1, bitmap_of(m1)));  // new version: validated readers retry
        return WX_OUT_ASSIGNED;
      } else {
        if (pos == h) {
          if (cas128(s + h, kvv, m1, kv_new, m1)) return WX_OUT_ASSIGNED;
          continue;
        }
        if (cas64(&s[h].meta, m1, m1 | kLock) != m1) continue;
        st_relaxed(&s[pos].kv, kv_new);  // the key cannot have moved: we hold its home
        st_release(&s[h].meta, m1);      // key set unchanged: restore the word
        return WX_OUT_ASSIGNED;
      }
    }
    const uint32_t bm = bitmap_of(m1);
    if (!(bm & 1u) && kvh == Tr::kEmpty) {  // CAS checks both words: a stale kvh only fails it
      if constexpr (Tr::kWide) {
        if (slot_cas<Tr>(s + h, Tr::kEmpty, m1, kv_new, m1 | kLock)) {  // key in, home locked, not linked
          st_relaxed(&s[h].val, v);
          st_release(&s[h].meta, bumped(m1, bm | 1u));
          return WX_OUT_INSERTED;
        }
      } else {
        if (cas128(s + h, kEmptyKv, m1, kv_new, bumped(m1, bm | 1u))) return WX_OUT_INSERTED;
      }
      continue;
    }
    // Narrow, no erase running: no lock (inserts 7.7 G/s against 6.5 with the locked claim below).
    if constexpr (!Tr::kWide && kNoErase) {
      const int r2 = claim_then_link(t, k, kv_new, h, m1);
      if (r2 == kLinkLost) continue;  // the next attempt sees k (PRESENT / assign) or tries again
      return r2;
    }
    if (meta_cas<Tr>(&s[h].meta, m1, m1 | kLock) != m1) continue;
    const int j = claim_first_empty(t, h, kv_new);  // holding the home
    if (j < 0) {
      meta_restore<Tr>(&s[h].meta, m1);  // nothing written: unlock with the same word
      return kSlow;
    }
    if constexpr (Tr::kWide) {
      st_relaxed(&s[h + j].val, v);
      st_release(&s[h].meta, bumped(m1, bm | (1u << j)));
    } else {
      st_relaxed(&s[h].meta, bumped(m1, bm | (1u << j)));  // the fill was an awaited CAS, performed at L2
    }
    return WX_OUT_INSERTED;
  }
  return kPending;
}

// Erase, thread path: key in its home slot → one 16-byte CAS; elsewhere in the neighbourhood → one
// CAS on the home's meta (unlink) then a store of EMPTY; in the stash → lock, empty, unlock.
template <class Tr>
__device__ __forceinline__ int thread_erase(const View<Tr>& t, typename Tr::Key k, unsigned long long h) {
  auto* s = t.s;
  for (int a = 0; a < kThreadAttempts; ++a) {
    if (a) backoff(a);
    unsigned long long m1, pos, kvv, kvh;
    Loc r = locate_any<Tr, true>(t, k, h, m1, pos, kvv, kvh);
    if (r == kRetry) continue;
    if (r == kAbsent) return WX_OUT_NOT_FOUND;
    if (locked(m1)) continue;
    const uint32_t bm = bitmap_of(m1);
    if (pos == h) {
      if (slot_cas<Tr>(s + h, kvv, m1, Tr::kEmpty, bumped(m1, bm & ~1u))) return WX_OUT_ERASED;
      continue;
    }
    if (pos < t.ns) {
      // Unlink first: one CAS clears the bit (the linearization point); the slot still holds the
      // key until the store below, but no op treats an unlinked slot as holding a key of h (moves
      // check the bit, claims need EMPTY), and a reader that still has the old bitmap began before
      // the erase, so its hit is linearized before it.
      if (meta_cas<Tr>(&s[h].meta, m1, bumped(m1, bm & ~(1u << (pos - h)))) != m1) continue;
      st_relaxed(&s[pos].kv, Tr::kEmpty);
      return WX_OUT_ERASED;
    }
    if (meta_cas<Tr>(&s[h].meta, m1, m1 | kLock) != m1) continue;
    st_relaxed(&s[pos].kv, Tr::kEmpty);
    {  // stash: keep the STASH bit only while another key of h is in the bucket
      const unsigned long long sbase = stash_base(t, h);
      bool more = false;
      for (int q = 0; q < kH && !more; ++q) {
        const typename Tr::Key kq = Tr::key(ld_relaxed(&s[sbase + q].kv));
        more = Tr::is_user(kq) && Tr::home(kq, t.nb) == h;
      }
      atomicAdd(&t.c->stashed, ~0ull);
      st_release(&s[h].meta, bumped(with_stash(m1, more), bm));
      return WX_OUT_ERASED;
    }
  }
  return kPending;
}

// Holding home h (meta m1 before locking): put the key in the home's stash bucket, set STASH and
// unlock; FULL (and unlock unchanged) when the bucket has no empty slot.
template <class Tr>
__device__ __forceinline__ int stash_insert(const View<Tr>& t, unsigned long long h, unsigned long long m1,
                                            unsigned long long kv_new, typename Tr::Val v, unsigned long long sbase) {
  auto* s = t.s;
  const int lane = threadIdx.x & 31;
  uint32_t em = __ballot_sync(kFull, ld_relaxed(&s[sbase + lane].kv) == Tr::kEmpty);
  while (em) {
    const int j = __ffs(em) - 1;
    em &= em - 1;
    int ok = 0;
    if (lane == 0 && cas64(&s[sbase + j].kv, Tr::kEmpty, kv_new) == Tr::kEmpty) {
      if constexpr (Tr::kWide) {
        st_relaxed(&s[sbase + j].val, v);
        st_release(&s[h].meta, bumped(with_stash(m1, true), bitmap_of(m1)));
      } else {
        st_relaxed(&s[h].meta, bumped(with_stash(m1, true), bitmap_of(m1)));  // after an awaited CAS
      }
      atomicAdd(&t.c->stashed, 1ull);
      ok = 1;
    }
    if (__shfl_sync(kFull, ok, 0)) return WX_OUT_INSERTED;
  }
  if (lane == 0) meta_restore<Tr>(&s[h].meta, m1);
  return WX_OUT_FULL;
}

// Warp path of insert / insert_or_assign: the whole warp works on one op (inputs warp-uniform).
// Lanes read the 32 slots of a window in parallel; lane 0 performs every write, so each write is
// ordered by one thread's program order and its acquire/release atomics.
// Returns INSERTED / PRESENT / ASSIGNED / FULL / kPending (same value in every lane).
template <class Tr>
static __device__ __noinline__ int warp_upsert(const View<Tr>& t, typename Tr::Key k, typename Tr::Val v, bool assign,
                                               unsigned long long h) {
  auto* s = t.s;
  const int lane = threadIdx.x & 31;
  const unsigned long long kv_new = kv_word<Tr>(k, v);
  bool contended = false;
  for (int a = 0; a < kWarpAttempts; ++a) {
    if (a) backoff(a + 2);
    unsigned long long m1 = 0;
    if (lane == 0) m1 = ld_relaxed(&s[h].meta);
    m1 = __shfl_sync(kFull, m1, 0);
    if (locked(m1)) continue;
    unsigned long long x = ld_relaxed(&s[h + lane].kv);
    const uint32_t hit = __ballot_sync(kFull, ((bitmap_of(m1) >> lane) & 1u) && Tr::key(x) == k);
    const unsigned long long sbase = stash_base(t, h);
    uint32_t shit = 0;
    if (stashed(m1)) shit = __ballot_sync(kFull, Tr::key(ld_relaxed(&s[sbase + lane].kv)) == k);
    if ((hit || shit) && !assign) return WX_OUT_PRESENT;
    unsigned long long got = 0;
    if (lane == 0) got = meta_cas<Tr>(&s[h].meta, m1, m1 | kLock);
    got = __shfl_sync(kFull, got, 0);
    if (got != m1) continue;
    // ---- holding home h; its key set is what we read.
    if (hit || shit) {
      const unsigned long long at = hit ? h + __ffs(hit) - 1 : sbase + __ffs(shit) - 1;
      if (lane == 0) {
        if constexpr (Tr::kWide) {
          st_relaxed(&s[at].val, v);
          st_release(&s[h].meta, bumped(m1, bitmap_of(m1)));  // new version: validated readers retry
        } else {
          st_relaxed(&s[at].kv, kv_new);
          st_release(&s[h].meta, m1);
        }
      }
      return WX_OUT_ASSIGNED;
    }
    // Phase A: an empty slot in the neighbourhood (others may have freed one since the thread path).
    for (int tries = 0; tries < 4; ++tries) {
      x = ld_relaxed(&s[h + lane].kv);
      uint32_t em = __ballot_sync(kFull, x == Tr::kEmpty);
      if (!em) break;
      while (em) {
        const int j = __ffs(em) - 1;
        em &= em - 1;
        int ok = 0;
        if (lane == 0 && cas64(&s[h + j].kv, Tr::kEmpty, kv_new) == Tr::kEmpty) {
          if constexpr (Tr::kWide) {
            st_relaxed(&s[h + j].val, v);
            st_release(&s[h].meta, bumped(m1, bitmap_of(m1) | (1u << j)));
          } else {
            st_relaxed(&s[h].meta, bumped(m1, bitmap_of(m1) | (1u << j)));  // after an awaited CAS
          }
          ok = 1;
        }
        if (__shfl_sync(kFull, ok, 0)) return WX_OUT_INSERTED;
      }
    }
    // Phase B: reserve the first empty slot past the neighbourhood (bounded search, no wrap).
    unsigned long long e = ~0ull;
    for (int w = 1; w <= kFarWindows && e == ~0ull; ++w) {
      const unsigned long long base = h + 32ull * w;
      if (base >= t.ns) break;
      const unsigned long long idx = base + lane;
      const unsigned long long y = idx < t.ns ? ld_relaxed(&s[idx].kv) : 0ull;
      uint32_t em = __ballot_sync(kFull, y == Tr::kEmpty);
      while (em) {
        const int j = __ffs(em) - 1;
        em &= em - 1;
        int ok = 0;
        if (lane == 0) ok = cas64(&s[base + j].kv, Tr::kEmpty, Tr::kReserved) == Tr::kEmpty;
        if (__shfl_sync(kFull, ok, 0)) {
          e = base + j;
          break;
        }
      }
    }
    if (e == ~0ull) return stash_insert(t, h, m1, kv_new, v, sbase);
    // Phase C: hop the reserved slot e back toward h. Lanes 0..30 read slots e-31 .. e-1; a slot is
    // a candidate when it is empty (reserve it instead) or holds a key whose home s satisfies
    // e - s <= 31 (that key may move to e). Candidates are tried from the farthest-back one.
    for (int step = 0; step < kMaxMoves && e - h >= static_cast<unsigned long long>(kH); ++step) {
      const unsigned long long base = e - (kH - 1);  // > h, so the owner s of a candidate is never h
      const bool valid = lane < kH - 1;
      const unsigned long long y = valid ? ld_relaxed(&s[base + lane].kv) : 0ull;
      const typename Tr::Key yk = Tr::key(y);
      const bool user = valid && Tr::is_user(yk);
      const unsigned long long ys = user ? Tr::home(yk, t.nb) : 0ull;
      if (user && (ys > base + lane || base + lane - ys >= static_cast<unsigned long long>(kH)))
        atomicAdd(&t.c->errors, 1ull);  // a key outside its neighbourhood
      uint32_t cand = __ballot_sync(kFull, (valid && y == Tr::kEmpty) || (user && ys >= base && ys != h));
      bool moved = false;
      while (cand && !moved) {
        const int j = __ffs(cand) - 1;
        cand &= cand - 1;
        const unsigned long long yj = __shfl_sync(kFull, y, j);
        const unsigned long long sj = __shfl_sync(kFull, ys, j);
        const unsigned long long p = base + j;
        int ok = 0, busy = 0;
        if (lane == 0) {
          if (yj == Tr::kEmpty) {
            if (cas64(&s[p].kv, Tr::kEmpty, Tr::kReserved) == Tr::kEmpty) {
              st_relaxed(&s[e].kv, Tr::kEmpty);
              ok = 1;
            }
          } else {
            const unsigned long long ms = ld_relaxed(&s[sj].meta);
            if (locked(ms) || meta_cas<Tr>(&s[sj].meta, ms, ms | kLock) != ms) {
              busy = 1;
            } else {
              const unsigned long long cur = ld_relaxed(&s[p].kv);
              const uint32_t bp = 1u << (p - sj), be = 1u << (e - sj);
              if (Tr::key(cur) == Tr::key(yj) && (bitmap_of(ms) & bp)) {
                const unsigned long long moved_meta = bumped(ms, (bitmap_of(ms) & ~bp) | be);
                if constexpr (Tr::kWide) {
                  st_relaxed(&s[e].val, ld_relaxed(&s[p].val));
                  st_relaxed(&s[e].kv, cur);              // copy first (temporary duplicate) ...
                  st_relaxed(&s[p].kv, Tr::kReserved);    // ... then the old slot becomes our target
                  st_release(&s[sj].meta, moved_meta);
                } else {
                  // Narrow: the copy and the vacating are CASes whose results the unlock waits for, so
                  // both are performed at L2 before it and it needs no fence. Both succeed: e is ours,
                  // and p cannot change while s is locked.
                  const unsigned long long was_e = cas64(&s[e].kv, Tr::kReserved, cur);
                  const unsigned long long was_p = cas64(&s[p].kv, cur, Tr::kReserved);
                  if (was_e == Tr::kReserved && was_p == cur) {
                    st_relaxed(&s[sj].meta, moved_meta);
                  } else {
                    atomicAdd(&t.c->errors, 1ull);  // a slot changed that no one else may write
                    st_release(&s[sj].meta, moved_meta);
                  }
                }
                atomicAdd(&t.c->displacements, 1ull);
                ok = 1;
              } else {
                // moved or erased meanwhile (an erase unlinks the bit before emptying the slot)
                meta_restore<Tr>(&s[sj].meta, ms);  // nothing written: unlock unchanged
              }
            }
          }
        }
        if (__shfl_sync(kFull, busy, 0)) contended = true;
        if (__shfl_sync(kFull, ok, 0)) {
          moved = true;
          e = p;
        }
      }
      if (!moved) break;
    }
    if (e - h >= static_cast<unsigned long long>(kH)) {  // could not bring the target into range
      if (lane == 0) st_relaxed(&s[e].kv, Tr::kEmpty);
      if (contended) {  // a neighbour was busy: retry later rather than use the stash
        if (lane == 0) st_release(&s[h].meta, m1);
        return kPending;
      }
      return stash_insert(t, h, m1, kv_new, v, sbase);
    }
    // Phase D: fill the reserved target and publish it with the unlocking store (narrow: the fill is
    // a CAS the unlock waits for, as in a move).
    if (lane == 0) {
      const unsigned long long linked = bumped(m1, bitmap_of(m1) | (1u << (e - h)));
      if constexpr (Tr::kWide) {
        st_relaxed(&s[e].val, v);
        st_relaxed(&s[e].kv, kv_new);
        st_release(&s[h].meta, linked);
      } else if (cas64(&s[e].kv, Tr::kReserved, kv_new) == Tr::kReserved) {
        st_relaxed(&s[h].meta, linked);
      } else {
        atomicAdd(&t.c->errors, 1ull);  // our reserved target changed
        st_release(&s[h].meta, linked);
      }
    }
    return WX_OUT_INSERTED;
  }
  return kPending;
}

}  // namespace glht
}  // namespace wx
