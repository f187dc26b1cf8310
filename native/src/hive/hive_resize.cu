// Hive linear-hashing resize and maintenance kernels. All run between bulk calls (nothing else
// touches the table meanwhile), one tile per bucket, so they rewrite buckets with plain stores.
//  - split p -> (p, p + half): an entry stays if one of its two addresses under the new geometry is
//    p, else it moves to p + half (its hash that pointed at p now points there). Tombstones vanish.
//  - merge (p, p + half) -> p: only for pairs whose live entries fit one bucket (checked first), so a
//    merge never overflows and a shrink that cannot proceed stops cleanly.
//  - settle: stash entries whose b0/b1 gained a free slot move there (keeps "stash entry => b0 and
//    b1 have no EMPTY slot", which lets lookups skip the stash otherwise).
#include "hive/hive_device.cuh"
#include "hive/hive_kernels.cuh"
#include "common/cuda_util.cuh"

namespace wx::hive {
namespace {

int grid_of(uint64_t items, int per_block) {
  const uint64_t need = (items + per_block - 1) / per_block;
  return static_cast<int>(need < 65535 * 8 ? (need > 0 ? need : 1) : 65535 * 8);
}

// Writes the entries of lanes in `mask` compacted to the front of dst, EMPTY after them.
template <class S>
__device__ __forceinline__ void write_compacted(const Tile& t, typename S::Word* dst, unsigned mask,
                                                typename S::Word w) {
  const int l = t.thread_rank();
  const unsigned below = mask & ((1u << l) - 1u);
  const int cnt = __popc(mask);
  if (mask & (1u << l)) dst[__popc(below)] = w;
  if (l >= cnt) dst[l] = S::empty();
}

template <class S>
__global__ void split_kernel(ViewT<S> v, uint32_t p_begin, uint32_t count, uint32_t half, Counters* c) {
  const Tile t = this_tile();
  const int l = t.thread_rank();
  Tally tl;
  const uint32_t tiles = gridDim.x * (blockDim.x / kSlots);
  for (uint32_t j = blockIdx.x * (blockDim.x / kSlots) + threadIdx.x / kSlots; j < count; j += tiles) {
    const uint32_t p = p_begin + j, q = p + half;
    const typename S::Word w = v.buckets[p].w[l];
    bool stay = false, move = false, away_from_q = false;
    if (is_live(w)) {
      const Place a = place_of(key_of(w), v.geo, v.stash_mask);
      stay = a.b0 == p || a.b1 == p;
      away_from_q = stay && a.b0 == q;  // its b0 is now q, it stays in p (its b1)
      move = !stay && (a.b0 == q || a.b1 == q);
      if (!stay && !move) {  // cannot happen with a consistent table: keep it, count an error
        stay = true;
        ++tl.errors();
      }
    }
    const unsigned ms = t.ballot(stay), mm = t.ballot(move);
    const bool mark_q = t.ballot(away_from_q) != 0;
    // q inherits p's overflow bit (keys of b0 = q used to have b0 = p), and gets one of its own
    // when a key whose b0 became q stays behind in p.
    if (l == 0 && (mark_q || ovf_test<false>(v.ovf, p))) atomicOr(v.ovf + (q >> 5), 1u << (q & 31));
    t.sync();
    write_compacted<S>(t, v.buckets[p].w, ms, w);
    write_compacted<S>(t, v.buckets[q].w, mm, w);
  }
  flush_tally(tl, c);
}

template <class S>
__global__ void fit_kernel(ViewT<S> v, uint32_t p_begin, uint32_t count, uint32_t half, unsigned* unfit) {
  const Tile t = this_tile();
  const int l = t.thread_rank();
  const uint32_t tiles = gridDim.x * (blockDim.x / kSlots);
  for (uint32_t j = blockIdx.x * (blockDim.x / kSlots) + threadIdx.x / kSlots; j < count; j += tiles) {
    const uint32_t p = p_begin + j;
    const int live = __popc(t.ballot(is_live(v.buckets[p].w[l]))) + __popc(t.ballot(is_live(v.buckets[p + half].w[l])));
    if (l == 0 && live > kSlots) atomicMax(unfit, p + 1);
  }
}

template <class S>
__global__ void merge_kernel(ViewT<S> v, uint32_t p_begin, uint32_t count, uint32_t half) {
  const Tile t = this_tile();
  const int l = t.thread_rank();
  const uint32_t tiles = gridDim.x * (blockDim.x / kSlots);
  for (uint32_t j = blockIdx.x * (blockDim.x / kSlots) + threadIdx.x / kSlots; j < count; j += tiles) {
    const uint32_t p = p_begin + j, q = p + half;
    const typename S::Word wp = v.buckets[p].w[l], wq = v.buckets[q].w[l];
    const unsigned mp = t.ballot(is_live(wp)), mq = t.ballot(is_live(wq));
    if (l == 0 && ovf_test<false>(v.ovf, q)) {  // p inherits q's overflow bit; q goes inactive
      atomicOr(v.ovf + (p >> 5), 1u << (p & 31));
      atomicAnd(v.ovf + (q >> 5), ~(1u << (q & 31)));
    }
    t.sync();
    const unsigned below = (1u << l) - 1u;
    const int np = __popc(mp);
    typename S::Word* dst = v.buckets[p].w;
    if (mp & (1u << l)) dst[__popc(mp & below)] = wp;
    if (mq & (1u << l)) dst[np + __popc(mq & below)] = wq;
    if (l >= np + __popc(mq)) dst[l] = S::empty();
    v.buckets[q].w[l] = S::empty();
  }
}

template <class S>
__global__ void sweep_kernel(typename S::Word* words, uint64_t n) {
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    if (key_of(words[i]) == S::kTomb) words[i] = S::empty();
}

// One thread per stash slot (the stash is small; settling is rare).
template <class S>
__global__ void settle_kernel(ViewT<S> v, Counters* c) {
  using W = typename S::Word;
  Tally tl;
  const uint64_t n = uint64_t(v.stash_mask + 1) * kSlots;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    W* sp = v.stash[i / kSlots].w + i % kSlots;
    const W kv = *sp;  // only this thread touches this stash slot
    if (!is_live(kv)) continue;
    const Place p = place_of(key_of(kv), v.geo, v.stash_mask);
    bool placed = false;
    for (int b = 0; b < 2 && !placed; ++b) {
      W* base = v.buckets[b == 0 ? p.b0 : p.b1].w;
      for (int s = 0; s < kSlots && !placed; ++s) {
        const W x = load_rx(base + s);  // Kv64: a torn x only fails the CAS
        if (is_free(x) && cas_slot(base + s, x, kv) == x) placed = true;
      }
    }
    if (placed) {
      *sp = S::empty();
      ++tl.stash_out();
    }
  }
  flush_tally(tl, c);
}

// Rebuild of the overflow bits (cleared before): every key outside its b0 marks its b0.
template <class S>
__global__ void ovf_rebuild_kernel(ViewT<S> v) {
  const uint64_t nb = uint64_t(v.geo.n) * kSlots, ns = uint64_t(v.stash_mask + 1) * kSlots;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < nb + ns; i += uint64_t(gridDim.x) * blockDim.x) {
    const bool in_stash = i >= nb;
    const typename S::Word w = in_stash ? v.stash[(i - nb) / kSlots].w[(i - nb) % kSlots] : v.buckets[i / kSlots].w[i % kSlots];
    if (!is_live(w)) continue;
    const uint32_t b0 = place_of(key_of(w), v.geo, v.stash_mask).b0;
    if (in_stash || b0 != i / kSlots) atomicOr(v.ovf + (b0 >> 5), 1u << (b0 & 31));
  }
}

template <class S>
__global__ void collect_kernel(const typename S::Word* words, uint64_t n, typename S::Key* keys,
                               typename S::Val* values, unsigned long long* count) {
  const int lane = threadIdx.x & 31;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t base = uint64_t(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); base < n; base += stride) {
    const uint64_t i = base + lane;
    const typename S::Word w = i < n ? words[i] : S::empty();
    const unsigned m = __ballot_sync(0xFFFFFFFFu, is_live(w));
    if (!m) continue;
    unsigned long long start = 0;
    if (lane == 0) start = atomicAdd(count, static_cast<unsigned long long>(__popc(m)));
    start = __shfl_sync(0xFFFFFFFFu, start, 0);
    if (m & (1u << lane)) {
      const unsigned long long pos = start + __popc(m & ((1u << lane) - 1u));
      keys[pos] = key_of(w);
      values[pos] = value_of(w);
    }
  }
}

}  // namespace

template <class S>
void launch_split(const ViewT<S>& v_after, uint32_t p_begin, uint32_t count, uint32_t half, Counters* c,
                  cudaStream_t s) {
  if (count == 0) return;
  split_kernel<S><<<grid_of(count, kTilesPerBlock), kBlock, 0, s>>>(v_after, p_begin, count, half, c);
  WX_CUDA_LAUNCHED("hive split_kernel");
}

template <class S>
void launch_fit(const ViewT<S>& v, uint32_t p_begin, uint32_t count, uint32_t half, unsigned* unfit, cudaStream_t s) {
  if (count == 0) return;
  fit_kernel<S><<<grid_of(count, kTilesPerBlock), kBlock, 0, s>>>(v, p_begin, count, half, unfit);
  WX_CUDA_LAUNCHED("hive fit_kernel");
}

template <class S>
void launch_merge(const ViewT<S>& v_after, uint32_t p_begin, uint32_t count, uint32_t half, cudaStream_t s) {
  if (count == 0) return;
  merge_kernel<S><<<grid_of(count, kTilesPerBlock), kBlock, 0, s>>>(v_after, p_begin, count, half);
  WX_CUDA_LAUNCHED("hive merge_kernel");
}

template <class S>
void launch_sweep(const ViewT<S>& v, cudaStream_t s) {
  const uint64_t nb = uint64_t(v.geo.n) * kSlots, ns = uint64_t(v.stash_mask + 1) * kSlots;
  sweep_kernel<S><<<grid_of(nb, kBlock), kBlock, 0, s>>>(v.buckets[0].w, nb);
  WX_CUDA_LAUNCHED("hive sweep_kernel");
  sweep_kernel<S><<<grid_of(ns, kBlock), kBlock, 0, s>>>(v.stash[0].w, ns);
  WX_CUDA_LAUNCHED("hive sweep_kernel");
}

template <class S>
void launch_settle(const ViewT<S>& v, Counters* c, cudaStream_t s) {
  const uint64_t ns = uint64_t(v.stash_mask + 1) * kSlots;
  settle_kernel<S><<<grid_of(ns, kBlock), kBlock, 0, s>>>(v, c);
  WX_CUDA_LAUNCHED("hive settle_kernel");
}

template <class S>
void launch_ovf_rebuild(const ViewT<S>& v, uint64_t ovf_words, cudaStream_t s) {
  WX_CUDA(cudaMemsetAsync(v.ovf, 0, ovf_words * sizeof(uint32_t), s));
  const uint64_t n = uint64_t(v.geo.n) * kSlots + uint64_t(v.stash_mask + 1) * kSlots;
  ovf_rebuild_kernel<S><<<grid_of(n, kBlock), kBlock, 0, s>>>(v);
  WX_CUDA_LAUNCHED("hive ovf_rebuild_kernel");
}

template <class S>
void launch_collect(const typename S::Word* words, uint64_t nwords, typename S::Key* keys, typename S::Val* values,
                    unsigned long long* count, cudaStream_t s) {
  if (nwords == 0) return;
  collect_kernel<S><<<grid_of(nwords, kBlock), kBlock, 0, s>>>(words, nwords, keys, values, count);
  WX_CUDA_LAUNCHED("hive collect_kernel");
}

#define WX_HIVE_RESIZE_INSTANTIATE(S)                                                                     \
  template void launch_split<S>(const ViewT<S>&, uint32_t, uint32_t, uint32_t, Counters*, cudaStream_t);  \
  template void launch_fit<S>(const ViewT<S>&, uint32_t, uint32_t, uint32_t, unsigned*, cudaStream_t);    \
  template void launch_merge<S>(const ViewT<S>&, uint32_t, uint32_t, uint32_t, cudaStream_t);             \
  template void launch_sweep<S>(const ViewT<S>&, cudaStream_t);                                           \
  template void launch_settle<S>(const ViewT<S>&, Counters*, cudaStream_t);                               \
  template void launch_ovf_rebuild<S>(const ViewT<S>&, uint64_t, cudaStream_t);                           \
  template void launch_collect<S>(const S::Word*, uint64_t, S::Key*, S::Val*, unsigned long long*, cudaStream_t);
WX_HIVE_RESIZE_INSTANTIATE(Kv32)
WX_HIVE_RESIZE_INSTANTIATE(Kv64)
#undef WX_HIVE_RESIZE_INSTANTIATE

}  // namespace wx::hive
