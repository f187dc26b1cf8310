// Phase 2 of a Hive insert: bounded cuckoo eviction, run between launches when phase 1 found no
// EMPTY slot in b0, b1 or the stash (and to drain the stash). Only phase-2 jobs run, so the one
// writer discipline is simple: every bucket write happens under that bucket's lock bit, and the stash
// is written only by CAS on free slots (or by the owner of a live entry).
//  1. search (no locks): free slot in b0/b1? else a cuckoo path of at most kDepth victims: at each
//     level every lane checks its victim's other bucket for a free slot (kSlots candidates per level),
//     else one victim is chosen pseudo-randomly and the walk continues from its other bucket;
//  2. lock b0, b1 and every path bucket with try-locks, one per lane at once (a conflict releases all
//     and the job is retried in the next round: no deadlock, no spinning);
//  3. under the locks: key present -> PRESENT / ASSIGNED; free slot in b0/b1 -> write; else verify
//     the path is unchanged and move the victims from the far end backwards (each key is always in at
//     least one slot; no reader runs meanwhile); else claim a free stash slot; else no room (FULL).
// The same-key jobs of one batch all lock their b0, so they are serialised: never two copies.
#include <algorithm>

#include "hive/hive_device.cuh"
#include "hive/hive_kernels.cuh"
#include "common/cuda_util.cuh"
#include "wixlib.h"

namespace wx::hive {
namespace {

constexpr int kDepth = kSlots >= 8 ? 4 : 2;  // victims per path (lock set = kDepth + 2 buckets)
constexpr int kLockList = kDepth + 2;  // b0, b1, path buckets after the first, target: one per lane
static_assert(kLockList <= kSlots, "one lock per lane");
constexpr int kAttempts = 3;  // random walks tried per job before the stash

enum Result : int { kInserted, kPresent, kAssigned, kRetry, kNoRoom, kMoved };

__device__ __forceinline__ bool try_lock(uint32_t* locks, uint32_t b) {
  const uint32_t bit = 1u << (b & 31);
  return (atomicOr(&locks[b >> 5], bit) & bit) == 0;
}
__device__ __forceinline__ void unlock(uint32_t* locks, uint32_t b) {
  atomicAnd(&locks[b >> 5], ~(1u << (b & 31)));
}

template <class S>
__device__ __forceinline__ uint32_t other_bucket(typename S::Key k, uint32_t here, const ViewT<S>& v) {
  const Place q = place_of(k, v.geo, v.stash_mask);
  return q.b0 == here ? q.b1 : q.b0;
}

// One job on one tile. stash_slot >= 0: the job is the stash entry at that slot (drain).
// Kv64: loads here may be torn between the halves; every decision reads key halves only, path words
// are compared again under the locks (where no one else writes them), and words are moved whole by
// the lock holder.
template <class S>
__device__ int evict_one(const Tile& t, const ViewT<S>& v, uint32_t* locks, typename S::Key k, typename S::Word kv,
                         bool assign, int64_t stash_slot, uint32_t seed, unsigned long long& moves) {
  using W = typename S::Word;
  const int l = t.thread_rank();
  const Place p = place_of(k, v.geo, v.stash_mask);

  // ---- 1. search, no locks ----
  uint32_t pb[kDepth];  // path: victim bucket, slot, word
  int ps[kDepth];
  W pw[kDepth];
  int depth = 0;        // victims on the path
  uint32_t tb = 0;      // target bucket of the last victim
  int ts = -1;          // its free slot (-1: no path)
  bool direct = false;  // b0 or b1 had a free slot at search time
  {
    const W x0 = load_rx(&v.buckets[p.b0].w[l]);
    const W x1 = load_rx(&v.buckets[p.b1].w[l]);
    direct = t.ballot(is_free(x0)) || t.ballot(is_free(x1));
    if (!direct && stash_slot < 0) {  // already present (same-key jobs): no path needed, just b0/b1
      const W xs = load_rx(v.stash[p.s].w + l);
      direct = t.ballot(key_of(x0) == k || key_of(x1) == k || key_of(xs) == k) != 0;
    }
    // Up to kAttempts random walks (alternating the start bucket) before giving up on a path.
    for (int attempt = 0; !direct && ts < 0 && attempt < kAttempts; ++attempt, seed += 0x3C6EF372u + 1u) {
      uint32_t B = ((seed + attempt) & 1) ? p.b1 : p.b0;
      W vw = ((seed + attempt) & 1) ? x1 : x0;
      depth = 0;
      for (int d = 0; d < kDepth; ++d) {
        if (d > 0) vw = load_rx(&v.buckets[B].w[l]);
        bool ok = is_live(vw);
        uint32_t alt = B;
        if (ok) {
          alt = other_bucket(key_of(vw), B, v);
          ok = alt != B && alt != p.b0 && alt != p.b1;
          for (int j = 0; j < d; ++j) ok = ok && alt != pb[j];
        }
        const int fs = ok ? lowest_open<true>(v.buckets[alt].w) : -1;
        const unsigned hit = t.ballot(fs >= 0);
        const unsigned okm = t.ballot(ok);
        int pick;
        if (hit) {
          pick = first_lane(hit);
        } else {
          if (!okm) break;  // dead end: no path
          const int r0 = static_cast<int>((seed * 0x9E3779B1u + d * 0x85EBCA6Bu) >> 27) & (kSlots - 1);
          const uint64_t m2 = (uint64_t(okm) << kSlots) | okm;  // rotate within kSlots bits
          pick = (first_lane(static_cast<unsigned>((m2 >> r0) & kSlotMask)) + r0) & (kSlots - 1);
        }
        pb[d] = B;
        ps[d] = pick;
        pw[d] = shfl_word(t, vw, pick);
        const uint32_t next = t.shfl(alt, pick);
        depth = d + 1;
        if (hit) {
          tb = next;
          ts = t.shfl(fs, pick);
          break;
        }
        B = next;
      }
    }
  }

  // ---- 2. lock b0, b1 and the path buckets: lane i tries lock i (all at once) ----
  // Try-locks never wait, so any order is deadlock-free; a job that misses one releases the rest
  // and runs again next round. Every lane builds the same list (the path is tile-uniform).
  // List position j: 0 = b0, 1 = b1, 2..kDepth = path buckets 1..kDepth-1, kDepth+1 = the target.
  auto lock_at = [&](int j, uint32_t& b) {
    if (j == 0) b = p.b0;
    else if (j == 1) b = p.b1;
    else if (j <= kDepth) b = pb[j - 1];
    else b = tb;
    return j <= 1 || (ts >= 0 && (j > kDepth || j - 1 < depth));
  };
  uint32_t mine = 0;
  bool listed = false, dup = false;  // a bucket listed twice is locked by its first lane only
#pragma unroll
  for (int j = 0; j < kLockList; ++j) {
    uint32_t b = 0;
    const bool valid = lock_at(j, b);
    if (j == l) mine = b, listed = valid;
  }
#pragma unroll
  for (int j = 0; j < kLockList; ++j) {
    uint32_t b = 0;
    if (lock_at(j, b) && j < l && b == mine) dup = true;
  }
  const bool locker = listed && !dup;
  const bool took = locker && try_lock(locks, mine);
  const bool got = t.ballot(locker && !took) == 0;
  if (!got) {
    if (took) unlock(locks, mine);
    return kRetry;
  }
  if (took) __threadfence();  // acquire: what the last holder wrote is visible from here on
  t.sync();

  // ---- 3. under the locks ----
  int result = kNoRoom;
  W* const sbase = v.stash[p.s].w;
  const W y0 = load_rx(&v.buckets[p.b0].w[l]);
  const W y1 = load_rx(&v.buckets[p.b1].w[l]);
  const W ys = load_rx(sbase + l);
  if (stash_slot < 0) {
    // Present already (an earlier job of the same key, or a phase-1 insert)?
    const unsigned m0 = t.ballot(key_of(y0) == k), m1 = t.ballot(key_of(y1) == k);
    const unsigned ms = t.ballot(key_of(ys) == k);
    if (m0 || m1 || ms) {
      result = kPresent;
      if (assign) {
        W* sp = m0 ? &v.buckets[p.b0].w[first_lane(m0)]
                     : m1 ? &v.buckets[p.b1].w[first_lane(m1)]
                          : sbase + first_lane(ms);
        if (l == 0) put_live(sp, kv);  // owner of a live slot
        result = kAssigned;
      }
    }
  }
  if (result == kNoRoom) {
    const unsigned f0 = t.ballot(is_free(y0)), f1 = t.ballot(is_free(y1));
    if (f0 || f1) {
      W* sp = f0 ? &v.buckets[p.b0].w[first_lane(f0)] : &v.buckets[p.b1].w[first_lane(f1)];
      if (l == 0) {
        if (!f0) ovf_set(v.ovf, p.b0);  // k goes to its b1
        store_rx(sp, kv);
      }
      result = stash_slot >= 0 ? kMoved : kInserted;
    } else if (ts >= 0) {
      // The path as searched? Lane j < depth checks victim j's slot, lane depth the target (at once).
      bool ok = true;
#pragma unroll
      for (int j = 0; j < kDepth; ++j)
        if (j == l && j < depth) ok = load_rx(&v.buckets[pb[j]].w[ps[j]]) == pw[j];
      if (l == depth) ok = is_free(load_rx(&v.buckets[tb].w[ts]));
      const bool same = t.ballot(!ok) == 0;
      if (same && l == 0) {  // far end first: every key stays in some slot throughout
        // overflow bits: a victim leaving its b0, and k landing in its b1
        for (int j = 0; j < depth; ++j)
          if (place_of(key_of(pw[j]), v.geo, v.stash_mask).b0 == pb[j]) ovf_set(v.ovf, pb[j]);
        if (pb[0] != p.b0) ovf_set(v.ovf, p.b0);
        store_rx(&v.buckets[tb].w[ts], pw[depth - 1]);
        for (int j = depth - 1; j > 0; --j) store_rx(&v.buckets[pb[j]].w[ps[j]], pw[j - 1]);
        store_rx(&v.buckets[pb[0]].w[ps[0]], kv);
        moves += depth;
      }
      result = same ? (stash_slot >= 0 ? kMoved : kInserted) : kRetry;
    } else if (direct) {
      result = kRetry;  // the free slot seen by the search is gone: search again
    } else if (stash_slot < 0) {
      // No path: a free stash slot (CAS: other jobs claim stash slots concurrently).
      W x = ys;
      if (l == 0) ovf_set(v.ovf, p.b0);
      t.sync();
      for (int r = 0; r <= kSlots && result == kNoRoom; ++r) {
        const unsigned e = t.ballot(is_free(x));
        if (!e) break;
        const int ln = first_lane(e);
        const W seen = shfl_word(t, x, ln);
        W old = seen;
        if (l == ln) old = cas_slot(sbase + ln, seen, kv);
        old = shfl_word(t, old, ln);
        if (old == seen) result = kInserted + 16;  // marks "into the stash"
        else x = load_rx(sbase + l);
      }
    }
  }
  if (result == kMoved && l == 0) store_rx(v.stash[stash_slot / kSlots].w + stash_slot % kSlots, S::empty());

  // ---- release ---- the barrier orders the writes above (lane 0's) before every lane's fence,
  // and each fence orders them before that lane's unlock (release, cumulative).
  t.sync();
  if (took) {
    __threadfence();
    unlock(locks, mine);
  }
  return result;
}

template <class S>
__global__ void __launch_bounds__(kBlock) evict_kernel(ViewT<S> v, uint32_t* locks, Mode mode, ElemArgsT<S> a,
                                                       const uint32_t* jobs, uint32_t njobs, bool from_stash,
                                                       uint32_t* retry, unsigned* retry_len, uint32_t* full,
                                                       unsigned* full_len, uint32_t seed, Counters* c) {
  const Tile t = this_tile();
  const int l = t.thread_rank();
  Tally tl;
  const uint32_t tiles = gridDim.x * (blockDim.x / kSlots);
  for (uint32_t j = blockIdx.x * (blockDim.x / kSlots) + threadIdx.x / kSlots; j < njobs; j += tiles) {
    const uint32_t job = jobs[j];
    typename S::Key k;
    typename S::Word kv;
    bool assign = false;
    if (from_stash) {
      // One view for the tile; only this job writes a live stash slot, so it is stable (Kv64 too).
      kv = shfl_word(t, load_rx(v.stash[job / kSlots].w + job % kSlots), 0);
      k = key_of(kv);
      if (!is_live(kv)) continue;
    } else {
      k = a.keys[job];
      kv = pack(k, a.vin ? a.vin[job] : 0u);
      assign = mode == Mode::Assign || (mode == Mode::Mixed && a.ops[job] == WX_OP_INSERT_OR_ASSIGN);
    }
    unsigned long long moves = 0;
    const int r = evict_one(t, v, locks, k, kv, assign, from_stash ? int64_t(job) : -1,
                            seed ^ (job * 0x27D4EB2Fu), moves);
    if (l != 0) continue;
    tl.displacements() += moves;
    switch (r) {
      case kRetry: append(retry, retry_len, job); break;
      case kNoRoom:
        if (!from_stash) append(full, full_len, job);
        break;
      case kMoved: ++tl.stash_out(); break;
      case kPresent:
        if (a.outcomes) a.outcomes[job] = WX_OUT_PRESENT;
        break;
      case kAssigned:
        if (a.outcomes) a.outcomes[job] = WX_OUT_ASSIGNED;
        break;
      default:  // kInserted, or kInserted + 16 (into the stash)
        ++tl.inserted();
        if (r != kInserted) ++tl.stash_in();
        if (a.outcomes) a.outcomes[job] = WX_OUT_INSERTED;
        break;
    }
  }
  flush_tally(tl, c);
}

__global__ void mark_full_kernel(uint8_t* outcomes, const uint32_t* list, uint32_t n) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    outcomes[list[i]] = WX_OUT_FULL;
}

// Blocks for a grid-stride walk over a short list of n items: one per kBlock items, at most 1024.
int list_grid(uint64_t n) { return static_cast<int>(std::min<uint64_t>((n + kBlock - 1) / kBlock, 1024)); }

// The kSlots slots of the stash bucket of each listed job's key.
template <class S>
__global__ void stash_slots_kernel(ViewT<S> v, ElemArgsT<S> a, const uint32_t* jobs, uint32_t n, uint32_t* slots) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n * kSlots; i += gridDim.x * blockDim.x)
    slots[i] = place_of(a.keys[jobs[i / kSlots]], v.geo, v.stash_mask).s * kSlots + i % kSlots;
}

}  // namespace

template <class S>
void launch_stash_slots(const ViewT<S>& v, const ElemArgsT<S>& a, const uint32_t* jobs, uint32_t n, uint32_t* slots,
                        cudaStream_t s) {
  if (n == 0) return;
  stash_slots_kernel<S><<<list_grid(uint64_t(n) * kSlots), kBlock, 0, s>>>(v, a, jobs, n, slots);
  WX_CUDA_LAUNCHED("hive stash_slots_kernel");
}
template void launch_stash_slots<Kv32>(const ViewT<Kv32>&, const ElemArgsT<Kv32>&, const uint32_t*, uint32_t,
                                       uint32_t*, cudaStream_t);
template void launch_stash_slots<Kv64>(const ViewT<Kv64>&, const ElemArgsT<Kv64>&, const uint32_t*, uint32_t,
                                       uint32_t*, cudaStream_t);

template <class S>
void launch_evict(const ViewT<S>& v, uint32_t* locks, Mode mode, const ElemArgsT<S>& a, const uint32_t* jobs,
                  uint32_t njobs, bool from_stash, uint32_t* retry, unsigned* retry_len, uint32_t* full,
                  unsigned* full_len, uint32_t seed, bool serial, Counters* c, cudaStream_t s) {
  if (njobs == 0) return;
  int grid = 1, block = kSlots;
  if (!serial) {
    block = kBlock;
    // As many tiles as can be resident (each job is a chain of dependent reads and lock atomics:
    // latency-bound); lock conflicts only send a job to the next round.
    const uint64_t cap = uint64_t(current_sms()) * 64;
    const uint64_t need = (uint64_t(njobs) + kTilesPerBlock - 1) / kTilesPerBlock;
    grid = static_cast<int>(need < cap ? need : cap);
  }
  evict_kernel<S><<<grid, block, 0, s>>>(v, locks, mode, a, jobs, njobs, from_stash, retry, retry_len, full,
                                       full_len, seed, c);
  WX_CUDA_LAUNCHED("hive evict_kernel");
}

template void launch_evict<Kv32>(const ViewT<Kv32>&, uint32_t*, Mode, const ElemArgsT<Kv32>&, const uint32_t*,
                                 uint32_t, bool, uint32_t*, unsigned*, uint32_t*, unsigned*, uint32_t, bool,
                                 Counters*, cudaStream_t);
template void launch_evict<Kv64>(const ViewT<Kv64>&, uint32_t*, Mode, const ElemArgsT<Kv64>&, const uint32_t*,
                                 uint32_t, bool, uint32_t*, unsigned*, uint32_t*, unsigned*, uint32_t, bool,
                                 Counters*, cudaStream_t);

void launch_mark_full(uint8_t* outcomes, const uint32_t* list, uint32_t n, cudaStream_t s) {
  if (n == 0 || outcomes == nullptr) return;
  mark_full_kernel<<<list_grid(n), kBlock, 0, s>>>(outcomes, list, n);
  WX_CUDA_LAUNCHED("hive mark_full_kernel");
}

}  // namespace wx::hive
