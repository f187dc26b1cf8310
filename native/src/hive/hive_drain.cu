// The lock-free first pass of a stash drain: one thread per stash slot, one cuckoo move at most.
// Runs between launches like phase 2 (no reader, no phase-1 writer), so the only concurrency is
// between drain jobs; each moves its stash entry k into b0/b1, making room by moving one victim v of
// that bucket B to v's other bucket A:
//   a. CAS A[e]: EMPTY -> RESERVED (the TOMBSTONE word: this pass neither claims nor moves it);
//   b. CAS B[i]: v -> k (fails if another job took v: undo a, A[e] = EMPTY, as it was);
//   c. A[e] = v, then k's stash slot = EMPTY (only this job writes a slot it reserved or owns).
// Between b and c, v lives in this thread's registers with a reserved slot waiting for it, and k is in
// two places; no reader runs meanwhile, and every reservation is resolved before the thread ends.
// Bucket slots never become EMPTY (an undo restores an EMPTY that was there at the start, so it is not
// in the b0/b1 of any stash entry), hence "stash entry => its b0 and b1 have no EMPTY slot" holds.
// What this pass leaves (no victim with room, a lost race) it lists for the locked eviction (hive_evict.cu).
// Why: the locked drain runs a tile per entry through lock atomics and fences (0.7 G entries/s).
#include "hive/hive_device.cuh"
#include "hive/hive_kernels.cuh"
#include "common/cuda_util.cuh"

namespace wx::hive {
namespace {

// Moves stash entry kv (at *sp) into bucket B (b0 or b1 of its key) by one victim move. True when done.
template <class S>
__device__ bool move_in(const ViewT<S>& v, typename S::Word* sp, typename S::Word kv, const Place& p, uint32_t B,
                        Tally& tl) {
  using W = typename S::Word;
  W* const base = v.buckets[B].w;
  W x[kSlots];
  load_bucket_rx(base, x);
  // No EMPTY slot in B (the invariant above); tombstones are left to the locked eviction.
  for (int s = 0; s < kSlots; ++s) {
    const W vw = x[s];
    if (!is_live(vw)) continue;
    const Place q = place_of(key_of(vw), v.geo, v.stash_mask);
    const uint32_t A = q.b0 == B ? q.b1 : q.b0;
    if (A == B) continue;
    W* const abase = v.buckets[A].w;
    const int e = lowest_open<false>(abase);
    if (e < 0) continue;
    if (cas_slot<false>(abase + e, S::empty(), S::tomb()) != S::empty()) continue;  // a. reserve
    if (cas_slot<false>(base + s, vw, kv) != vw) {                                  // b. take v's slot
      store_rx(abase + e, S::empty());                                              //    undo a
      return false;
    }
    if (A == q.b1) ovf_set(v.ovf, q.b0);  // v leaves its b0
    if (B != p.b0) ovf_set(v.ovf, p.b0);  // k lands in its b1
    store_rx(abase + e, vw);              // c.
    *sp = S::empty();
    ++tl.displacements();
    return true;
  }
  return false;
}

template <class S>
__global__ void __launch_bounds__(kBlock) drain_swap_kernel(ViewT<S> v, uint32_t* left, unsigned* left_len,
                                                            Counters* c) {
  using W = typename S::Word;
  Tally tl;
  const uint64_t n = uint64_t(v.stash_mask + 1) * kSlots;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    W* const sp = v.stash[i / kSlots].w + i % kSlots;
    const W kv = load_rx(sp);  // only this thread writes this live slot
    if (!is_live(kv)) continue;
    const Place p = place_of(key_of(kv), v.geo, v.stash_mask);
    const bool b1_first = (i >> 3) & 1;  // spread the first choice over both buckets
    bool done = move_in(v, sp, kv, p, b1_first ? p.b1 : p.b0, tl);
    if (!done && p.b1 != p.b0) done = move_in(v, sp, kv, p, b1_first ? p.b0 : p.b1, tl);
    if (done) ++tl.stash_out();
    else append(left, left_len, static_cast<uint32_t>(i));  // for the locked rounds
  }
  flush_tally(tl, c);
}

}  // namespace

template <class S>
void launch_drain_swap(const ViewT<S>& v, uint32_t* left, unsigned* left_len, Counters* c, cudaStream_t s) {
  const uint64_t n = uint64_t(v.stash_mask + 1) * kSlots;
  const uint64_t need = (n + kBlock - 1) / kBlock, cap = uint64_t(current_sms()) * 8;
  drain_swap_kernel<S><<<static_cast<int>(need < cap ? need : cap), kBlock, 0, s>>>(v, left, left_len, c);
  WX_CUDA_LAUNCHED("hive drain_swap_kernel");
}

template void launch_drain_swap<Kv32>(const ViewT<Kv32>&, uint32_t*, unsigned*, Counters*, cudaStream_t);
template void launch_drain_swap<Kv64>(const ViewT<Kv64>&, uint32_t*, unsigned*, Counters*, cudaStream_t);

}  // namespace wx::hive
