// Phase 1 of every Hive bulk call: one tile of kSlots lanes per element, lock-free, all elements
// concurrent (mixed batches included). Keys never move during this phase, slots only go
// EMPTY -> key, key -> key (new value) and key -> TOMBSTONE, so:
//  - WCME: a tile loads a bucket (one slot per lane), ballots on the key, one elected lane acts;
//  - WABC: an insert claims the LOWEST EMPTY slot of b0, else of b1, else of its stash bucket, with
//    one CAS; since no slot returns to EMPTY, two inserts of one key always race for the same slot
//    (never two copies);
//  - b1 is read only when b0's overflow bit is set (a key leaves its b0 only after setting it), the
//    stash only when b0 and b1 show no EMPTY slot (a key enters the stash only then).
#include <utility>

#include "hive/hive_device.cuh"
#include "hive/hive_kernels.cuh"
#include "hive/hive_thread.cuh"
#include "common/cuda_util.cuh"
#include "wixlib.h"

namespace wx::hive {
namespace {

constexpr int kMaxRestarts = 64;  // op restarts (key erased under an assign); then phase 2 takes it
constexpr int kMaxCas = 256;      // CAS retries on one slot whose value keeps changing

template <class S>
struct Hit {
  using W = typename S::Word;
  int tier = -1;  // -1 miss, 0 b0, 1 b1, 2 stash
  int lane = 0;
  W word{};  // Kv64 with writers: only its key half is trusted (value_fresh)
};

// WCME search: b0 first (its overflow bit is read alongside); b1 only when that bit is set; the
// stash only when b0 and b1 show no EMPTY slot. w[] keeps what each tier's lane loaded,
// loaded1 says whether b1 was read; full = b0 and b1 showed no EMPTY slot.
// search_from: the same, given this lane's slot of b0 (x0) and b0's overflow bit (tile-uniform), both
// read earlier in the kernel — any view taken after the batch started is a valid one (all ops of a
// batch are concurrent; in phase 1 EMPTY never comes back, so a stale EMPTY only fails a CAS).
template <bool kRO, class S>
__device__ __forceinline__ Hit<S> search_from(const Tile& t, const ViewT<S>& v, const Place& p, typename S::Key k,
                                              bool stash_possible, typename S::Word x0, bool ovf,
                                              typename S::Word (&w)[3], bool& loaded1, bool& full) {
  using W = typename S::Word;
  const int l = t.thread_rank();
  Hit<S> h;
  loaded1 = false;
  w[0] = x0;
  unsigned m = t.ballot(key_of(x0) == k);
  if (m) {
    h.tier = 0;
    h.lane = first_lane(m);
    h.word = shfl_word(t, x0, h.lane);
    return h;
  }
  full = t.ballot(is_empty(x0)) == 0;
  if (!ovf) return h;  // no key of this b0 lives anywhere else
  if (p.b1 != p.b0) {
    const W x1 = load_slot<kRO>(tier_base(v, 1, p) + l);
    w[1] = x1;
    loaded1 = true;
    m = t.ballot(key_of(x1) == k);
    if (m) {
      h.tier = 1;
      h.lane = first_lane(m);
      h.word = shfl_word(t, x1, h.lane);
      return h;
    }
    full = full && t.ballot(is_empty(x1)) == 0;
  }
  if (stash_possible && full) {
    const W xs = load_slot<kRO>(tier_base(v, 2, p) + l);
    w[2] = xs;
    m = t.ballot(key_of(xs) == k);
    if (m) {
      h.tier = 2;
      h.lane = first_lane(m);
      h.word = shfl_word(t, xs, h.lane);
    }
  }
  return h;
}

template <bool kRO, class S>
__device__ __forceinline__ Hit<S> search(const Tile& t, const ViewT<S>& v, const Place& p, typename S::Key k,
                                         bool stash_possible, typename S::Word (&w)[3], bool& loaded1, bool& full) {
  // Tile-uniform (a concurrent insert may set the bit between two lanes' reads: every branch
  // below must be taken by all lanes of the tile, or the tile collectives break).
  const bool ovf = t.ballot(ovf_test<kRO>(v.ovf, p.b0)) != 0;
  const auto x0 = load_slot<kRO>(tier_base(v, 0, p) + t.thread_rank());
  return search_from<kRO>(t, v, p, k, stash_possible, x0, ovf, w, loaded1, full);
}

struct InsertResult {
  uint8_t outcome;  // WX_OUT_INSERTED / PRESENT / ASSIGNED, or 0 = pending
  int tier;         // where it went (stash accounting)
};

// kOrdered: values may be read while this kernel writes them (mixed batch): release CASes (Kv64).
template <bool kOrdered, class S>
__device__ InsertResult insert_one(const Tile& t, const ViewT<S>& v, const Place& p, typename S::Key k,
                                   typename S::Val val, bool assign, typename S::Word x0, bool ovf0) {
  using W = typename S::Word;
  const W kv = pack(k, val);
  const int l = t.thread_rank();
  for (int attempt = 0; attempt < kMaxRestarts; ++attempt) {
    W w[3] = {S::empty(), S::empty(), S::empty()};
    bool full = true, loaded1 = false, marked = false;
    // The first attempt uses the view of b0 read with the batch; a restart reads afresh.
    Hit<S> h = attempt == 0 ? search_from<false>(t, v, p, k, true, x0, ovf0, w, loaded1, full)
                            : search<false>(t, v, p, k, true, w, loaded1, full);
    bool claimed = false;
    // Claim: lowest EMPTY of b0, then b1 (b1 first when first_tier says so), then the stash (each
    // tier reached only when the previous one has no EMPTY slot left). Any past view of a tier in
    // which the key was checked absent is good enough: a stale EMPTY slot makes the CAS fail, never
    // a second copy.
    const int first = first_tier(p, v.geo);
    for (int step = 0; step < 3 && h.tier < 0; ++step) {
      const int c = step == 2 ? 2 : step == 0 ? first : 1 - first;
      if (c == 1 && p.b1 == p.b0) continue;
      if (c > 0 && !marked) {  // announce "a key of b0 lives elsewhere" before placing it there
        if (l == 0) ovf_set(v.ovf, p.b0);
        t.sync();
        marked = true;
      }
      W* base = tier_base(v, c, p);
      W x = w[c];
      if (c == 2 || (c == 1 && !loaded1)) {  // fresh view of this tier, checked for the key first
        x = load_rx(base + l);
        const unsigned m = t.ballot(key_of(x) == k);
        if (m) {
          h.tier = c;
          h.lane = first_lane(m);
          h.word = shfl_word(t, x, h.lane);
          break;
        }
      }
      for (int r = 0; r <= kSlots; ++r) {  // each failed CAS fills one more slot: bounded
        const unsigned e = t.ballot(is_empty(x));
        if (!e) break;
        const int ln = first_lane(e);
        // Kv64: expect the EMPTY pair as seen (the value half of an EMPTY slot may be stale); a
        // mismatch there only fails this CAS. Kv32: the EMPTY word is exact.
        W seen = S::empty();
        if constexpr (S::kWide) seen = shfl_word(t, x, ln);
        W old = seen;
        if (l == ln) old = cas_slot<kOrdered>(base + ln, seen, kv);
        old = shfl_word(t, old, ln);
        if (old == seen) {
          h.tier = c;
          h.lane = ln;
          claimed = true;
          break;
        }
        x = load_rx(base + l);
        const unsigned m = t.ballot(key_of(x) == k);
        if (m) {  // another element inserted the same key first
          h.tier = c;
          h.lane = first_lane(m);
          h.word = shfl_word(t, x, h.lane);
          break;
        }
      }
    }
    if (claimed) return {WX_OUT_INSERTED, h.tier};
    if (h.tier < 0) return {0, -1};  // no EMPTY slot anywhere: phase 2
    if (!assign) return {WX_OUT_PRESENT, h.tier};
    // insert_or_assign of a present key: CAS the slot word to the new value (WCME elected lane 0).
    W* sp = tier_base(v, h.tier, p) + h.lane;
    W cur = h.word;  // Kv64: a torn value half only makes the first CAS fail
    bool restart = false;
    for (int r = 0; r < kMaxCas; ++r) {
      if (key_of(cur) != k) {  // erased meanwhile: run the insert again
        restart = true;
        break;
      }
      if (cur == kv) return {WX_OUT_ASSIGNED, h.tier};
      W old = cur;
      if (l == 0) old = cas_slot<kOrdered>(sp, cur, kv);
      old = shfl_word(t, old, 0);
      if (old == cur) return {WX_OUT_ASSIGNED, h.tier};
      cur = old;
    }
    if (!restart) return {0, -1};
  }
  return {0, -1};  // bounds exhausted: phase 2 (locked, quiescent) finishes it
}

struct EraseResult {
  bool erased;
  int tier;
};

template <class S>
__device__ EraseResult erase_one(const Tile& t, const ViewT<S>& v, const Place& p, typename S::Key k,
                                 bool stash_possible, bool to_empty, typename S::Word x0, bool ovf0) {
  const int l = t.thread_rank();
  typename S::Word w[3];
  bool full, loaded1;
  Hit<S> h = search_from<false>(t, v, p, k, stash_possible, x0, ovf0, w, loaded1, full);
  if (h.tier < 0) return {false, -1};
  // In phase 1 a slot that held k can only change to k with another value or to a dead word (no
  // claims of tombstones, no moves), so one exchange erases it: wait-free, no CAS loop.
  auto* sp = tier_base(v, h.tier, p) + h.lane;
  typename S::Key old = 0;
  if (l == 0) old = erase_slot(sp, to_empty);
  old = t.shfl(old, 0);
  if (old == k) return {true, h.tier};
  return {false, -1};  // a concurrent erase of k came first
}

template <class S, Mode kMode>
__device__ __forceinline__ void p1_one(const Tile& t, const ViewT<S>& v, const ElemArgsT<S>& a, uint64_t i,
                                       typename S::Key k, Mode op, typename S::Val val, const Place& p,
                                       typename S::Word x0, bool ovf, uint32_t* pending_bits, bool stash_possible,
                                       bool erase_to_empty, Tally& tl) {
  const int l = t.thread_rank();
  if (op == Mode::Find || op == Mode::Contains) {
    typename S::Word w[3];
    bool full, loaded1;
    constexpr bool kRO = kMode != Mode::Mixed;
    const Hit<S> h = search_from<kRO>(t, v, p, k, kRO ? stash_possible : true, x0, ovf, w, loaded1, full);
    if (l == 0) {
      typename S::Val found = h.tier >= 0 ? value_of(h.word) : a.not_found;
      // Kv64 with writers: the value half of the hit may be torn; read it again behind the key.
      if constexpr (S::kWide && kMode == Mode::Mixed)
        if (h.tier >= 0 && op == Mode::Find) found = value_fresh(tier_base(v, h.tier, p) + h.lane);
      if (op == Mode::Contains) {
        if (a.outcomes) a.outcomes[i] = h.tier >= 0 ? 1 : 0;
      } else {
        if (kMode != Mode::Mixed || h.tier >= 0) a.vout[i] = found;
        if (a.outcomes) a.outcomes[i] = h.tier >= 0 ? WX_OUT_FOUND : WX_OUT_NOT_FOUND;
      }
    }
  } else if (op == Mode::Erase) {
    const EraseResult r =
        erase_one(t, v, p, k, stash_possible || kMode == Mode::Mixed, erase_to_empty, x0, ovf);
    if (l == 0) {
      if (r.erased) {
        ++tl.erased();
        if (!erase_to_empty) ++tl.tombs();
        if (r.tier == 2) ++tl.stash_out();
      }
      if (a.outcomes) a.outcomes[i] = r.erased ? WX_OUT_ERASED : WX_OUT_NOT_FOUND;
    }
  } else {  // Insert / Assign
    const InsertResult r = insert_one<kMode == Mode::Mixed>(t, v, p, k, val, op == Mode::Assign, x0, ovf);
    if (l == 0) {
      if (r.outcome == 0) {
        mark_pending(pending_bits, i, tl);
      } else {
        count_insert(r.outcome, r.tier, tl);
        if (a.outcomes) a.outcomes[i] = r.outcome;
      }
    }
  }
}

// Which elements take the tile path in p1_kernel: Kv64 assigns and mixed batches (their values are
// read and rewritten while writers run: the tile path's value_fresh and CAS loops). Every other
// element takes the thread path.
template <class S, Mode kMode>
constexpr bool kByTile = S::kWide && (kMode == Mode::Assign || kMode == Mode::Mixed);

// The thread path (hive_thread.cuh) for one element, given its b0 summary: true when it decided the
// element and wrote its outputs (or marked it pending); false leaves it to the tile (p1_slow_kernel).
// Finds and contains of a read-only batch take thread_find, assigns thread_insert, Kv32 erases and
// mixed batches thread_step, Kv64 erases thread_erase and Kv64 inserts thread_insert (pure Kv32
// inserts run p1_insert_kernel, hive_insert.cu). ovf is read only when b0 missed (kOvfWithB0): every
// path that uses it starts from a miss in b0.
template <class S, Mode kMode>
__device__ __forceinline__ bool p1_thread(const ViewT<S>& v, const ElemArgsT<S>& a, uint64_t i, typename S::Key k,
                                          Mode op, typename S::Val val, const Place& p, bool ovf, const B0& b0,
                                          uint32_t* pending_bits, bool stash_possible, bool erase_to_empty, Tally& tl) {
  static_assert(S::kWide || kMode != Mode::Insert, "pure Kv32 inserts run p1_insert_kernel");
  static_assert(!kByTile<S, kMode>, "Kv64 assigns and mixed batches run the tile path");
  typename S::Val found = a.not_found;
  uint8_t r;
  int tier = 0;
  if constexpr (kMode == Mode::Find || kMode == Mode::Contains)
    r = thread_find<true>(v, p, k, ovf, stash_possible, b0, &found);
  else if constexpr (kMode == Mode::Insert)  // Kv64: relaxed claims (no value is read in this batch)
    r = thread_insert<false>(v, p, k, val, false, ovf, b0, &tier);
  else if constexpr (kMode == Mode::Assign)  // one op kind: no divergence to spare
    r = thread_insert(v, p, k, val, true, ovf, b0, &tier);
  else if constexpr (S::kWide)
    r = thread_erase(v, p, k, ovf, stash_possible, erase_to_empty, b0, &tier);
  else
    r = thread_step<kMode>(v, p, k, op, val, ovf, stash_possible, erase_to_empty, b0, &found, &tier);
  if (r == kSlow) return false;
  if (op == Mode::Find || op == Mode::Contains) {
    if (op == Mode::Contains) {
      if (a.outcomes) a.outcomes[i] = r == WX_OUT_FOUND ? 1 : 0;
    } else {
      if (kMode != Mode::Mixed || r == WX_OUT_FOUND) a.vout[i] = found;  // a miss left a.not_found
      if (a.outcomes) a.outcomes[i] = r;
    }
    return true;
  }
  if (r == kPending) {
    mark_pending(pending_bits, i, tl);
    return true;
  }
  if (r == WX_OUT_ERASED) {
    ++tl.erased();
    if (!erase_to_empty) ++tl.tombs();
    if (tier == 2) ++tl.stash_out();
  } else {
    count_insert(r, tier, tl);
  }
  if (a.outcomes) a.outcomes[i] = r;
  return true;
}

// b0 of a thread-path element, read by the whole warp together (warp_b0, a warp collective): every
// lane calls it, with an element or not (active, unused). Calling warp_b0 directly compiles the Kv32
// phase-1 kernels differently (spill stores: find 40 bytes instead of 32, erase 0 instead of 32), not
// measured on a GPU: the rates in DESIGN.md "Decisions" come from this form.
template <bool kRO>
__device__ __forceinline__ B0 b0_of(const uint64_t* b, uint32_t k, bool /*active*/) {
  return warp_b0<kRO>(b, k);
}
template <bool kRO>
__device__ __forceinline__ B0 b0_of(const Pair64* b, uint64_t k, bool /*active*/) {
  return warp_b0<kRO>(b, k);
}

// Resident blocks asked of the compiler (a register budget): finds fit 40 registers at 6 blocks,
// inserts / erases 48 at 5 (kWriteMinBlocks, hive_device.cuh). The mixed kernel at 5 (48 registers,
// ~100 bytes spilled) ran [20,20,60] / [40,40,20] 13.3 / 12.0 and 12.2 / 12.7 G ops/s in two
// interleaved rounds, against 12.8 / 11.6 and 11.0 / 11.9 at 3.
// Kv64 finds at 5: their eight key words in flight spilled 68-82 bytes at 6 blocks (40 registers).
constexpr int kMixedMinBlocks = 5;
template <class S, Mode kMode>
constexpr int kP1MinBlocks = kMode == Mode::Find || kMode == Mode::Contains ? (S::kWide ? 5 : 6)
                             : kMode == Mode::Mixed                         ? kMixedMinBlocks
                                                                            : kWriteMinBlocks;

// When a thread-path element reads b0's overflow bit: in mixed batches only after b0 missed (a hit
// never needs it: one L2 request less per hit in a kernel bound by requests), elsewhere alongside b0
// (a pure find waits on the two reads at once: read after a miss, finds fell 33.1 -> 29.1 G/s).
template <Mode kMode>
constexpr bool kOvfWithB0 = kMode != Mode::Mixed;

__device__ __forceinline__ Mode mode_of(uint8_t o) {
  return o == WX_OP_INSERT ? Mode::Insert : o == WX_OP_ERASE ? Mode::Erase : o == WX_OP_FIND ? Mode::Find : Mode::Assign;
}

// The tile path for the elements of one warp iteration marked slow: each tile runs its lanes'
// elements one by one with the cooperative protocol. Warp-uniform: every lane of a tile calls it.
template <class S, Mode kMode>
__device__ __forceinline__ void p1_tiles(const Tile& t, const ViewT<S>& v, const ElemArgsT<S>& a, bool slow,
                                         uint64_t i, typename S::Key k, Mode op, typename S::Val val, const Place& p,
                                         bool ovf, uint32_t* pending_bits, bool stash_possible, bool erase_to_empty,
                                         Tally& tl) {
  constexpr bool kRO = kMode == Mode::Find || kMode == Mode::Contains;
  for (unsigned m = t.ballot(slow); m; m &= m - 1) {
    const int r = first_lane(m);
    const Place pr{t.shfl(p.b0, r), t.shfl(p.b1, r), t.shfl(p.s, r)};
    const auto x0 = load_slot<kRO>(v.buckets[pr.b0].w + t.thread_rank());  // a fresh view of b0
    const Mode opr = kMode == Mode::Mixed ? Mode(t.shfl(int(op), r)) : kMode;
    p1_one<S, kMode>(t, v, a, t.shfl(i, r), t.shfl(k, r), opr, t.shfl(val, r), pr, x0, t.shfl(ovf, r), pending_bits,
                     stash_possible, erase_to_empty, tl);
  }
}

// Phase 1: one thread per element; the elements it leaves (a Kv32 assign of a present key) get their
// bit in slow_bits for p1_slow_kernel. Kv64 assigns and mixed batches: every element through the tile
// path here (kByTile). The loop is warp-uniform: every lane of a tile (and of the warp, for warp_b0)
// reaches the collectives together.
template <class S, Mode kMode>
__global__ void __launch_bounds__(kBlock, kP1MinBlocks<S, kMode>)
    p1_kernel(ViewT<S> v, ElemArgsT<S> a, uint32_t* pending_bits, uint32_t* slow_bits, bool stash_possible,
              bool erase_to_empty, Counters* c) {
  using Key = typename S::Key;
  using Val = typename S::Val;
  constexpr bool kRO = kMode == Mode::Find || kMode == Mode::Contains;
  const Tile t = this_tile();
  Tally tl;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t j0 = uint64_t(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); j0 < a.n; j0 += stride) {
    const uint64_t j = j0 + (threadIdx.x & 31u);
    uint64_t i = 0;
    Key k = S::kTomb;
    Mode op = kMode;
    Val val = 0;
    Place p{0, 0, 0};
    bool ovf = false, active = false;  // active: a valid element for the thread path / tiles
    if (j < a.n) {
      i = a.index ? a.index[j] : j;
      k = a.keys[i];
      bool valid_op = true;
      if constexpr (kMode == Mode::Mixed) {
        const uint8_t o = a.ops[i];
        valid_op = o <= WX_OP_INSERT_OR_ASSIGN;  // api.cpp rejects the others; never act on them
        op = mode_of(o);
      }
      if constexpr (kMode == Mode::Insert || kMode == Mode::Assign || kMode == Mode::Mixed)
        if (a.vin) val = a.vin[i];
      if (!valid_op) {
        // an op code api.cpp rejects: no outcome written
      } else if (k >= S::kTomb) {
        ++tl.invalid();
        if (kMode == Mode::Find) a.vout[i] = a.not_found;
        // Every op of a mixed batch, finds included, reports the reserved key in its outcome.
        if (a.outcomes) a.outcomes[i] = op == Mode::Contains ? 0 : WX_OUT_INVALID_KEY;
      } else {
        p = place_of(k, v.geo, v.stash_mask);
        if (kByTile<S, kMode> || kOvfWithB0<kMode>) ovf = ovf_test<kRO>(v.ovf, p.b0);
        active = true;
      }
    }
    if constexpr (kByTile<S, kMode>) {
      p1_tiles<S, kMode>(t, v, a, active, i, k, op, val, p, ovf, pending_bits, stash_possible, erase_to_empty, tl);
    } else {
      const B0 b0 = b0_of<kRO>(v.buckets[p.b0].w, k, active);  // inactive lanes: p = {0, 0, 0}
      if (!kOvfWithB0<kMode> && active && b0.hit < 0) ovf = ovf_test<kRO>(v.ovf, p.b0);
      if (active &&
          !p1_thread<S, kMode>(v, a, i, k, op, val, p, ovf, b0, pending_bits, stash_possible, erase_to_empty, tl)) {
        if constexpr (kMode == Mode::Assign || kMode == Mode::Mixed) atomicOr(&slow_bits[i >> 5], 1u << (i & 31));
      }
    }
  }
  flush_tally(tl, c);
}

// The tile path for the elements p1_kernel left (Kv32: assigns of present keys — every one of an
// assign batch, those whose one CAS lost in a mixed batch), after it. They are
// linearized after every other op of the batch, as pending inserts are (DESIGN.md "One thread per
// op"); EMPTY is still never re-created, so the phase-1 arguments hold across the two launches.
template <Mode kMode>
__global__ void __launch_bounds__(kBlock)
    p1_slow_kernel(View v, ElemArgs a, uint32_t* pending_bits, const uint32_t* slow_bits, Counters* c) {
  const Tile t = this_tile();
  Tally tl;
  const uint64_t words = (a.n + 31) / 32, warps = uint64_t(gridDim.x) * (blockDim.x / 32);
  for (uint64_t w = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; w < words; w += warps) {
    const uint32_t bits = slow_bits[w];  // warp-uniform
    if (!bits) continue;
    const uint64_t i = w * 32 + (threadIdx.x & 31u);
    const bool slow = (bits >> (threadIdx.x & 31u)) & 1u;
    uint32_t k = 0, val = 0;
    Mode op = kMode;
    Place p{0, 0, 0};
    bool ovf = false;
    if (slow) {
      k = a.keys[i];
      if constexpr (kMode == Mode::Mixed) op = mode_of(a.ops[i]);
      if (a.vin) val = a.vin[i];
      p = place_of(k, v.geo, v.stash_mask);
      ovf = ovf_test<false>(v.ovf, p.b0);
    }
    p1_tiles<Kv32, kMode>(t, v, a, slow, i, k, op, val, p, ovf, pending_bits, true, false, tl);
  }
  flush_tally(tl, c);
}

__global__ void compact_kernel(const uint32_t* bits, uint64_t nwords, uint64_t nbits, uint32_t* list,
                               uint32_t cap, unsigned* len) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = uint64_t(gridDim.x) * (blockDim.x / 32);
  for (uint64_t base = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32 * 32; base < nwords;
       base += warps * 32) {
    const uint64_t wi = base + lane;
    uint32_t word = wi < nwords ? bits[wi] : 0u;
    if (wi == nwords - 1 && (nbits & 31)) word &= (1u << (nbits & 31)) - 1u;
    const unsigned cnt = __popc(word);
    unsigned incl = cnt;
    for (int off = 1; off < 32; off <<= 1) {
      const unsigned y = __shfl_up_sync(0xFFFFFFFFu, incl, off);
      if (lane >= off) incl += y;
    }
    const unsigned total = __shfl_sync(0xFFFFFFFFu, incl, 31);
    unsigned start = 0;
    if (lane == 31 && total) start = atomicAdd(len, total);
    start = __shfl_sync(0xFFFFFFFFu, start, 31) + incl - cnt;
    while (word) {
      const int b = __ffs(word) - 1;
      word &= word - 1;
      if (start < cap) list[start] = static_cast<uint32_t>(wi * 32 + b);
      ++start;
    }
  }
}

// Followers of deduplicated pending inserts (hive_dedupe.cu), once phase 2 is over.
template <class S>
__global__ void __launch_bounds__(kBlock) follow_kernel(ViewT<S> v, ElemArgsT<S> a, const uint32_t* followers,
                                                        uint32_t n, Counters* c) {
  const Tile t = this_tile();
  Tally tl;
  const uint32_t tiles = gridDim.x * (blockDim.x / kSlots);
  for (uint32_t j = blockIdx.x * (blockDim.x / kSlots) + threadIdx.x / kSlots; j < n; j += tiles) {
    const uint32_t i = followers[j];
    const typename S::Key k = t.shfl(a.keys[i], 0);
    const Place p = place_of(k, v.geo, v.stash_mask);
    typename S::Word w[3];
    bool full, loaded1;
    const Hit<S> h = search<false>(t, v, p, k, true, w, loaded1, full);
    if (t.thread_rank() == 0) {
      if (h.tier < 0) ++tl.full();
      if (a.outcomes) a.outcomes[i] = h.tier >= 0 ? WX_OUT_PRESENT : WX_OUT_FULL;
    }
  }
  flush_tally(tl, c);
}

}  // namespace

template <class S>
void launch_follow(const ViewT<S>& v, const ElemArgsT<S>& a, const uint32_t* followers, uint32_t n, Counters* c,
                   cudaStream_t s) {
  if (n == 0) return;
  const int grid = wave_grid(follow_kernel<S>, kBlock, n, kTilesPerBlock);
  follow_kernel<S><<<grid, kBlock, 0, s>>>(v, a, followers, n, c);
  WX_CUDA_LAUNCHED("hive follow_kernel");
}

template <class S>
void launch_p1(Mode mode, const ViewT<S>& v, const ElemArgsT<S>& a, uint32_t* pending_bits, bool stash_possible,
               bool erase_to_empty, Counters* c, cudaStream_t s) {
  if (a.n == 0) return;
  // Writers: pending bits, then the slow bits (Kv32 assigns of present keys, p1_slow_kernel) behind them.
  uint32_t* slow_bits = pending_bits ? pending_bits + (a.n + 31) / 32 : nullptr;
  auto go = [&](auto kernel) {
    const int grid = wave_grid(kernel, kBlock, a.n, kBlock);
    kernel<<<grid, kBlock, 0, s>>>(v, a, pending_bits, slow_bits, stash_possible, erase_to_empty, c);
    WX_CUDA_LAUNCHED("hive p1_kernel");
  };
  auto slow = [&](auto kernel) {
    if constexpr (!S::kWide) {
      const int grid = wave_grid(kernel, kBlock, (a.n + 31) / 32 * 32, kBlock);
      kernel<<<grid, kBlock, 0, s>>>(v, a, pending_bits, slow_bits, c);
      WX_CUDA_LAUNCHED("hive p1_slow_kernel");
    }
  };
  switch (mode) {
    case Mode::Find: go(p1_kernel<S, Mode::Find>); break;
    case Mode::Contains: go(p1_kernel<S, Mode::Contains>); break;
    case Mode::Insert:
      // Kv32: p1_insert_kernel (hive_insert.cu: the uncommon paths queued per warp; LF 0.8 inserts
      // 12.8-13.1 G/s against 12.4-12.6 through p1_kernel).
      if constexpr (!S::kWide) launch_p1_insert(v, a, pending_bits, c, s);
      else go(p1_kernel<S, Mode::Insert>);
      break;
    case Mode::Assign:
      go(p1_kernel<S, Mode::Assign>);
      slow(p1_slow_kernel<Mode::Assign>);
      break;
    case Mode::Erase: go(p1_kernel<S, Mode::Erase>); break;
    case Mode::Mixed:
      go(p1_kernel<S, Mode::Mixed>);
      slow(p1_slow_kernel<Mode::Mixed>);
      break;
  }
}

#define WX_HIVE_OPS_INSTANTIATE(S)                                                                        \
  template void launch_p1<S>(Mode, const ViewT<S>&, const ElemArgsT<S>&, uint32_t*, bool, bool, Counters*, \
                             cudaStream_t);                                                              \
  template void launch_follow<S>(const ViewT<S>&, const ElemArgsT<S>&, const uint32_t*, uint32_t, Counters*, \
                                 cudaStream_t);
WX_HIVE_OPS_INSTANTIATE(Kv32)
WX_HIVE_OPS_INSTANTIATE(Kv64)
#undef WX_HIVE_OPS_INSTANTIATE

void launch_compact(const uint32_t* bits, uint64_t nbits, uint32_t* list, uint32_t cap, unsigned* len,
                    cudaStream_t s) {
  const uint64_t nwords = (nbits + 31) / 32;
  if (nwords == 0) return;
  const int grid = wave_grid(compact_kernel, kBlock, nwords, kBlock);
  compact_kernel<<<grid, kBlock, 0, s>>>(bits, nwords, nbits, list, cap, len);
  WX_CUDA_LAUNCHED("hive compact_kernel");
}

}  // namespace wx::hive
