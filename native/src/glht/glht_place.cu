// Sorted placement (glht_place.cuh).
#include "glht/glht_place.cuh"

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/cuda_util.cuh"

namespace wx {
namespace glht {
namespace {

constexpr int kBlock = 256;
static_assert(kWindow == kH, "the window scan's window is the hop neighbourhood");

// The window scan's step of sorted element i (glht_window_scan.hpp).
struct StepOf {
  const uint32_t* home;
  __host__ __device__ WindowStep operator()(int i) const {
    return window_step(i ? static_cast<long long>(home[i]) - home[i - 1] : 0);
  }
};
using StepIter = thrust::transform_iterator<StepOf, thrust::counting_iterator<int>>;

// The probing scan's input: home_i - i; its inclusive max gives slot p_i = i + max_{j<=i}(home_j - j).
// 32 bits: n < 2^31 and nb < 2^31.
struct HomeMinusIndex {
  const uint32_t* home;
  __host__ __device__ int operator()(int i) const { return static_cast<int>(home[i]) - i; }
};
struct Max {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
using QIter = thrust::transform_iterator<HomeMinusIndex, thrust::counting_iterator<int>>;

// Offset past its home of sorted element i (0..31: its slot; >= 32: it overflows).
__device__ __forceinline__ long long offset_of(const uint32_t* home, const uint32_t* scan, bool windowed, uint64_t i,
                                               unsigned long long h) {
  if (!windowed) return static_cast<long long>(i) + static_cast<int>(scan[i]) - static_cast<long long>(h);
  return i ? window_offset(WindowState{}(scan[i - 1]), static_cast<long long>(h) - home[i - 1]) : 0;
}

// Puts kv into home h's stash bucket (an element whose window overflowed); false if it is full.
__device__ __forceinline__ bool stash_claim(const View<Narrow>& t, unsigned long long h, unsigned long long kv) {
  const unsigned long long base = stash_base(t, h);
  for (int q = 0; q < kH; ++q)
    if (atomicCAS(&t.s[base + q].kv, kEmptyKv, kv) == kEmptyKv) return true;
  return false;
}
// Wide: the key word claims the slot, then its owner writes the value (no reader runs in a build).
__device__ __forceinline__ bool stash_claim(const View<Wide>& t, unsigned long long h, unsigned long long k,
                                            unsigned long long v) {
  const unsigned long long base = stash_base(t, h);
  for (int q = 0; q < kH; ++q)
    if (atomicCAS(&t.s[base + q].kv, Wide::kEmpty, k) == Wide::kEmpty) {
      t.s[base + q].val = v;
      return true;
    }
  return false;
}

// What an exception writes (Place): Narrow batches their key, a table's keys their sorted index;
// Wide batches their sorted index (their keys are 8 bytes; the index leads to the key).
template <class Tr, Place P>
__device__ __forceinline__ uint32_t exc_record(typename Tr::Key k, uint64_t i) {
  if constexpr (P == Place::batch && !Tr::kWide) return k;
  else return static_cast<uint32_t>(i);
}

// One warp per 32 consecutive sorted elements (all lanes loop together: the meta bits of a home's
// run are OR-ed across lanes). `scan`: the inclusive window scan, or the probing scan (`windowed`).
// Wide elements (Sorted<Wide>) carry their batch index through the sort and read key and value here.
template <class Tr, Place P>
__global__ void k_place(View<Tr> t, const uint32_t* __restrict__ home, Sorted<Tr> el,
                        const uint32_t* __restrict__ scan, bool windowed, uint32_t* __restrict__ exc,
                        unsigned long long* nexc, uint64_t n) {
  using Key = typename Tr::Key;
  const int lane = threadIdx.x & 31;
  const uint64_t nwarps = (uint64_t(gridDim.x) * blockDim.x) >> 5;
  int placed = 0, stashed = 0;
  for (uint64_t w = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; w * 32 < n; w += nwarps) {
    const uint64_t i = w * 32 + lane;
    unsigned long long h = ~0ull;  // past the batch: a home no element has
    unsigned long long kv = kEmptyKv;  // Narrow: key|value; Wide: the value
    Key k = Tr::kWide ? Key(Wide::kEmpty) : Key(kEmptyKv);
    long long d = 0;
    if (i < n) {
      h = home[i];
      if constexpr (Tr::kWide) {
        const uint32_t src = __ldg(el.idx + i);
        k = __ldg(el.keys + src);
        kv = el.values ? __ldg(el.values + src) : 0ull;
      } else {
        kv = el.word(i);
      }
      d = offset_of(home, scan, windowed, i, h);
    }
    if constexpr (!Tr::kWide) k = kv_key(kv);
    const bool user = Tr::is_user(k);
    const bool overflow = user && d >= kH;  // goes to the stash
    // Look back along the home's run for an earlier copy of k: lanes of this warp by shuffles, earlier
    // elements from memory. A placed element's run has at most d earlier elements (they occupy slots
    // h .. h+d-1); an overflowing element looks at most kLookBack back and is an exception beyond that.
    constexpr int kLookBack = 64;
    bool exception = false;
    bool looking = user && P == Place::batch;
    for (int off = 1; off < 32 && __any_sync(kFull, looking); ++off) {
      const unsigned long long ho = __shfl_up_sync(kFull, h, off);
      const Key ko = __shfl_up_sync(kFull, k, off);
      if (!looking) continue;
      if (lane >= off) {
        if (ho != h) looking = false;
        else if (ko == k) exception = true, looking = false;
      } else {  // the run began before this warp's elements
        uint64_t j = i - off + 1;
        for (int seen = off - 1; j > 0;) {
          --j;
          if (home[j] != h) break;
          if (el.key(j) == k || (overflow && ++seen >= kLookBack)) {
            exception = true;
            break;
          }
        }
        looking = false;
      }
    }
    bool in_stash = false;
    if (user && (exception || overflow)) {
      bool claimed = false;
      if constexpr (Tr::kWide) claimed = !exception && stash_claim(t, h, k, kv);
      else claimed = !exception && stash_claim(t, h, kv);
      if (claimed) in_stash = true, ++stashed;
      else exc[atomicAdd(nexc, 1ull)] = exc_record<Tr, P>(k, i);  // stash bucket full
    }
    // Above kWindowScanFill, trades within the warp, in home order: an element not at its home takes
    // the home slot from the element holding it (a key of an earlier home g, so an earlier lane) when
    // that one stays in its window at the slot given up. Sorted placement keeps 9 % of the keys at
    // home at LF 0.95 (31 % at 0.8); a key at home is found in its home's sector. Slots and homes fit
    // in 32 bits (nb < 2^31).
    constexpr uint32_t kNoSlot = 0xFFFFFFFFu;
    uint32_t pos = user && !exception && !overflow ? static_cast<uint32_t>(h + d) : kNoSlot;
    const uint32_t h32 = static_cast<uint32_t>(h);
    if (windowed) {
      for (unsigned away = __ballot_sync(kFull, pos != kNoSlot && pos != h32); away; away &= away - 1) {
        const int l = __ffs(away) - 1;
        const uint32_t hl = __shfl_sync(kFull, h32, l);
        const uint32_t pl = __shfl_sync(kFull, pos, l);
        const unsigned holder = __ballot_sync(kFull, pos == hl);
        const int j = __ffs(holder) - 1;
        const uint32_t hj = __shfl_sync(kFull, h32, j < 0 ? 0 : j);
        if (holder && hj != hl && pl - hj < static_cast<uint32_t>(kH)) {
          if (lane == l) pos = hl;
          else if (lane == j) pos = pl;
        }
      }
    }
    unsigned long long bits = in_stash ? kStash : 0;  // this element's contribution to its home's meta word
    if (pos != kNoSlot) {
      if constexpr (Tr::kWide) {
        t.s[pos].kv = k;
        t.s[pos].val = kv;
      } else {
        t.s[pos].kv = kv;
      }
      bits = 1ull << (pos - h32);
      ++placed;
    }
    for (int off = 1; off < 32; off <<= 1) {  // segmented OR over the lanes of one home (contiguous)
      const unsigned long long ho = __shfl_up_sync(kFull, h, off);
      const unsigned long long bo = __shfl_up_sync(kFull, bits, off);
      if (lane >= off && ho == h) bits |= bo;
    }
    const unsigned long long next = __shfl_down_sync(kFull, h, 1);
    const unsigned long long first = __shfl_sync(kFull, h, 0);
    if (bits && (lane == 31 || next != h)) {  // the last lane of the home's run in this warp
      unsigned long long* m = &t.s[h].meta;
      if (lane == 31 || h == first) {
        atomicOr(m, bits);  // the run may go on in the next/previous warp
      } else {
        // The whole run is in this warp, so nobody else writes this word. The table is empty (no
        // bit, lock or STASH): the word becomes the bitmap; its version restarting is harmless, as
        // no reader of an earlier call is still running.
        *m = bits;
      }
    }
  }
  placed = __reduce_add_sync(kFull, placed);
  stashed = __reduce_add_sync(kFull, stashed);
  if (lane == 0 && placed + stashed) atomicAdd(&t.c->size, static_cast<unsigned long long>(placed + stashed));
  if (lane == 0 && stashed) atomicAdd(&t.c->stashed, static_cast<unsigned long long>(stashed));
}

}  // namespace

size_t placement_scan_bytes(uint64_t n) {
  size_t window = 0, probing = 0;
  WX_CUDA(cub::DeviceScan::InclusiveScan(nullptr, window, StepIter(thrust::counting_iterator<int>(0), StepOf{nullptr}),
                                         static_cast<WindowStep*>(nullptr), WindowCompose{}, static_cast<int>(n)));
  WX_CUDA(cub::DeviceScan::InclusiveScan(nullptr, probing, QIter(thrust::counting_iterator<int>(0), HomeMinusIndex{nullptr}),
                                         static_cast<int*>(nullptr), Max{}, static_cast<int>(n)));
  return window > probing ? window : probing;
}

void launch_placement_scan(const uint32_t* home, uint32_t* scan, uint64_t n, bool windowed, void* temp,
                           size_t temp_bytes, cudaStream_t st) {
  if (windowed) {
    WX_CUDA(cub::DeviceScan::InclusiveScan(temp, temp_bytes, StepIter(thrust::counting_iterator<int>(0), StepOf{home}),
                                           scan, WindowCompose{}, static_cast<int>(n), st));
  } else {
    WX_CUDA(cub::DeviceScan::InclusiveScan(temp, temp_bytes,
                                           QIter(thrust::counting_iterator<int>(0), HomeMinusIndex{home}),
                                           reinterpret_cast<int*>(scan), Max{}, static_cast<int>(n), st));
  }
}

template <class Tr, Place P>
void launch_place(const View<Tr>& t, const uint32_t* home, const Sorted<Tr>& el, const uint32_t* scan, bool windowed,
                  uint32_t* exc, unsigned long long* nexc, uint64_t n, cudaStream_t st) {
  k_place<Tr, P><<<wave_grid(k_place<Tr, P>, kBlock, n, kBlock), kBlock, 0, st>>>(t, home, el, scan, windowed, exc,
                                                                                   nexc, n);
  WX_CUDA_LAUNCHED("glht place kernel");
}

unsigned long long placement_exceptions(const unsigned long long* nexc, cudaStream_t st) {
  unsigned long long ne = 0;
  WX_CUDA(cudaMemcpyAsync(&ne, nexc, sizeof ne, cudaMemcpyDeviceToHost, st));
  WX_CUDA(cudaStreamSynchronize(st));
  return ne;
}

template void launch_place<Narrow, Place::batch>(const View<Narrow>&, const uint32_t*, const Sorted<Narrow>&,
                                                 const uint32_t*, bool, uint32_t*, unsigned long long*, uint64_t,
                                                 cudaStream_t);
template void launch_place<Narrow, Place::unique>(const View<Narrow>&, const uint32_t*, const Sorted<Narrow>&,
                                                  const uint32_t*, bool, uint32_t*, unsigned long long*, uint64_t,
                                                  cudaStream_t);
template void launch_place<Wide, Place::batch>(const View<Wide>&, const uint32_t*, const Sorted<Wide>&,
                                               const uint32_t*, bool, uint32_t*, unsigned long long*, uint64_t,
                                               cudaStream_t);

}  // namespace glht
}  // namespace wx
