// Phase 1 of a pure insert batch (Kv32), one thread per element, with the uncommon paths queued.
// Every element of a warp reads its b0 together (warp_b0); one whose key is absent there, whose b0
// has an EMPTY slot and whose overflow bit is clear claims that slot with one CAS, as thread_insert
// would. The rest — b0 full, the bit set, b1 first, a lost CAS: ~8 % of the elements at LF 0.8 —
// go to a per-warp queue in shared memory and run thread_insert 32 at a time, all lanes busy.
// Why: inline, one lane's b1 or stash read and CAS held its 31 neighbours; at LF 0.8 most warp
// iterations have such a lane (1 - 0.94^32), so a warp waited on four dependent accesses, not two.
// A queued element is a slow thread: thread_insert takes the b0 view it had (its lowest EMPTY slot,
// which a lost CAS re-reads) and re-reads b1 and the stash itself, so every phase-1 argument of
// hive_ops.cu holds unchanged (EMPTY never comes back within the phase).
// On a tidy table (ViewT::tidy) a b0 that shows an EMPTY slot has no key of its own elsewhere, so the
// fast path reads no overflow bit: only queued elements read it (LF 0.8 inserts 13.05 / 12.96 G/s
// against 12.86 / 13.00 with the bit read for all: within the spread, the same sign twice).
#include "common/cuda_util.cuh"
#include "hive/hive_device.cuh"
#include "hive/hive_kernels.cuh"
#include "hive/hive_thread.cuh"
#include "wixlib.h"

namespace wx::hive {
namespace {

constexpr int kWarps = kBlock / 32;
constexpr int kQueue = 64;  // < 32 left after each drain + 32 new at most

// Outcomes of the warp's last kRing iterations are held back in shared memory until the queued
// elements among them are decided, then written 32 at a time: a queued element decided ~100 µs
// later would otherwise write one byte into a sector L2 has long written back — a partial-sector
// write, which we read as a read-modify-write of ECC memory (outcome bytes cost 4.5 % of an insert,
// 13.0 against 13.6 G/s without them; held, 13.5). Outcomes by index (a.index) are written at once.
constexpr int kRing = 8;

struct Queue {
  uint64_t i[kQueue];
  uint32_t k[kQueue], val[kQueue];
  int8_t b0[kQueue];    // lowest EMPTY slot of b0 as read (-1: none), | 0x10: overflow bit set
  uint8_t cell[kQueue];  // where its outcome waits: ring slot * 32 + lane
  uint8_t ring[kRing][32];
  uint64_t base[kRing];  // first element of the iteration held in each ring slot
  int open[kRing];       // its queued elements not decided yet
};

// Tallies, the pending bit, and the outcome: into the ring (held) or straight to memory.
struct Out {
  const ElemArgs& a;
  uint32_t* pending_bits;
  Tally& tl;
  __device__ void operator()(uint64_t i, uint8_t r, int tier, uint8_t* held) const {
    if (r == kPending) {  // phase 2 writes its outcome; a held byte is overwritten then
      mark_pending(pending_bits, i, tl);
      return;
    }
    count_insert(r, tier, tl);
    if (held) *held = r;
    else if (a.outcomes) a.outcomes[i] = r;
  }
};

// The warp's held outcomes: iterations head .. head + count - 1 (mod kRing). Warp-uniform.
struct Ring {
  bool on;
  unsigned head = 0, count = 0;
};

// Lanes below `take` run the last `take` queued elements; warp-uniform.
__device__ __forceinline__ void run_queued(const View& v, Queue& q, const Ring& ring, unsigned& queued, unsigned take,
                                           const Out& out) {
  const unsigned l = threadIdx.x & 31;
  if (l < take) {
    const unsigned at = queued - take + l;
    const uint32_t k = q.k[at];
    const int8_t e = q.b0[at];
    B0 b0;
    b0.empty = (e & 0xF) == 0xF ? -1 : (e & 0xF);
    int tier = 0;
    const uint8_t r = thread_insert(v, place_of(k, v.geo, v.stash_mask), k, q.val[at], false, (e & 0x10) != 0, b0, &tier);
    const unsigned cell = q.cell[at];
    out(q.i[at], r, tier, ring.on ? &q.ring[cell >> 5][cell & 31] : nullptr);
    if (ring.on) atomicSub(&q.open[cell >> 5], 1);
  }
  queued -= take;
  __syncwarp();
}

// Writes the oldest held iterations whose elements are all decided (all of them: every queued
// element first). Warp-uniform.
__device__ __forceinline__ void flush_ring(const View& v, const ElemArgs& a, Queue& q, Ring& ring, unsigned& queued,
                                           bool all, const Out& out) {
  if (all && queued) run_queued(v, q, ring, queued, queued, out);
  const unsigned l = threadIdx.x & 31;
  while (ring.count && q.open[ring.head] == 0) {
    const uint64_t j = q.base[ring.head] + l;
    if (j < a.n) a.outcomes[j] = q.ring[ring.head][l];
    ring.head = (ring.head + 1) % kRing;
    --ring.count;
  }
  __syncwarp();
}

__global__ void __launch_bounds__(kBlock, kWriteMinBlocks)
    p1_insert_kernel(View v, ElemArgs a, uint32_t* pending_bits, Counters* c) {
  __shared__ Queue queues[kWarps];
  Queue& q = queues[threadIdx.x >> 5];
  const unsigned l = threadIdx.x & 31;
  Tally tl;
  const Out out{a, pending_bits, tl};
  unsigned queued = 0;  // warp-uniform
  Ring ring{a.outcomes && !a.index};  // held outcomes go to outcomes[j]
  const bool tidy = v.tidy != 0;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t j0 = uint64_t(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); j0 < a.n; j0 += stride) {
    const uint64_t j = j0 + l;
    uint64_t i = 0;
    uint32_t k = Kv32::kTomb, val = 0;
    Place p{0, 0, 0};
    bool ovf = false, active = false;
    if (ring.on && ring.count == kRing) flush_ring(v, a, q, ring, queued, true, out);
    const unsigned slot = (ring.head + ring.count) % kRing;
    uint8_t* held = ring.on ? &q.ring[slot][l] : nullptr;
    if (j < a.n) {
      i = a.index ? a.index[j] : j;
      k = a.keys[i];
      if (a.vin) val = a.vin[i];
      if (k >= Kv32::kTomb) {
        ++tl.invalid();
        if (held) *held = WX_OUT_INVALID_KEY;
        else if (a.outcomes) a.outcomes[i] = WX_OUT_INVALID_KEY;
      } else {
        p = place_of(k, v.geo, v.stash_mask);
        if (!tidy) ovf = ovf_test<false>(v.ovf, p.b0);
        active = true;
      }
    }
    const B0 b0 = warp_b0<false>(v.buckets[p.b0].w, k);  // inactive lanes: p = {0, 0, 0}
    bool queue = false;
    if (active) {
      if (b0.hit >= 0) {
        out(i, WX_OUT_PRESENT, 0, held);
      } else if ((tidy || !ovf) && b0.empty >= 0 && first_tier(p, v.geo) == 0 &&
                 cas_slot(v.buckets[p.b0].w + b0.empty, kEmptyWord, pack(k, val)) == kEmptyWord) {
        out(i, WX_OUT_INSERTED, 0, held);
      } else {
        queue = true;
      }
    }
    const unsigned m = __ballot_sync(kWarp, queue);
    if (queue) {
      if (tidy) ovf = ovf_test<false>(v.ovf, p.b0);
      const unsigned at = queued + __popc(m & ((1u << l) - 1));
      q.i[at] = i, q.k[at] = k, q.val[at] = val;
      q.b0[at] = static_cast<int8_t>((b0.empty & 0xF) | (ovf ? 0x10 : 0));
      q.cell[at] = static_cast<uint8_t>(slot * 32 + l);
    }
    queued += __popc(m);
    if (ring.on) {
      if (l == 0) q.open[slot] = __popc(m), q.base[slot] = j0;
      ++ring.count;
    }
    __syncwarp();
    if (queued >= 32) run_queued(v, q, ring, queued, 32, out);
    if (ring.on) flush_ring(v, a, q, ring, queued, false, out);
  }
  if (ring.on) flush_ring(v, a, q, ring, queued, true, out);
  else if (queued) run_queued(v, q, ring, queued, queued, out);
  flush_tally(tl, c);
}

}  // namespace

void launch_p1_insert(const View& v, const ElemArgs& a, uint32_t* pending_bits, Counters* c, cudaStream_t s) {
  if (a.n == 0) return;
  const int grid = wave_grid(p1_insert_kernel, kBlock, a.n, kBlock);
  p1_insert_kernel<<<grid, kBlock, 0, s>>>(v, a, pending_bits, c);
  WX_CUDA_LAUNCHED("hive p1_insert_kernel");
}

}  // namespace wx::hive
