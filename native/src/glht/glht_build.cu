// Bulk build of an empty 32-bit GLHT table (DESIGN.md "Bulk build").
//
// Sorted by home, the batch can be laid out the way linear probing in home order would place it: the
// i-th element goes to slot p_i = i + max_{j<=i}(home_j - j), the first slot at or after its home
// that the elements before it left free. That is one prefix-max scan, and every element is placed
// with a plain store: no CAS, no contention, slots and meta words written in address order.
// An element whose slot would be 32 or more past its home (its window overflowed: 47 of 2^26 keys at
// LF 0.8) goes to its home's stash bucket, as the normal insert would end up doing (sorted placement
// is linear probing in home order, which minimises the longest displacement, so no hopscotch move
// could bring it into its window). A second copy of a key in the batch is not placed (it sits in the
// same home's run as the first, found by looking back along the run); the outcomes of such keys
// are settled afterwards against what the table holds. Elements it cannot settle (a full stash
// bucket, a look-back too long) are left NONE for the normal passes.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "glht/glht_build.cuh"
#include "glht/glht_kernels.cuh"

namespace wx {
namespace glht {
namespace {

constexpr int kBlock = 256;
constexpr uint32_t kNoKey = 0xFFFFFFFFu;  // empty entry of the exception set (never a user key)

// q_i = home_i - i: the slot p_i = i + max_{j<=i} q_j (inclusive max-scan). 32 bits: n < 2^31 and
// nb < 2^31 (alloc_build).
struct HomeMinusIndex {
  const uint32_t* home;
  __host__ __device__ int operator()(int i) const { return static_cast<int>(home[i]) - i; }
};
struct Max {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
using QIter = thrust::transform_iterator<HomeMinusIndex, thrust::counting_iterator<int>>;

__device__ __forceinline__ uint32_t set_slot(uint32_t k, uint32_t mask) {
  return static_cast<uint32_t>(mix64(k)) & mask;
}

__global__ void k_build_prepare(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ values,
                                unsigned long long nb, uint32_t* __restrict__ home,
                                unsigned long long* __restrict__ kv, uint64_t n) {
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const uint32_t k = keys[i];
    home[i] = is_user_key(k) ? static_cast<uint32_t>(home_of(k, nb)) : static_cast<uint32_t>(nb);  // reserved: last
    kv[i] = make_kv(k, values ? values[i] : 0u);
  }
}

// Puts kv into home h's stash bucket (an element whose window overflowed); false if it is full.
__device__ __forceinline__ bool stash_claim(const View<Narrow>& t, unsigned long long h, unsigned long long kv) {
  const unsigned long long base = stash_base(t, h);
  for (int q = 0; q < kH; ++q)
    if (atomicCAS(&t.s[base + q].kv, kEmptyKv, kv) == kEmptyKv) return true;
  return false;
}

// One warp per 32 consecutive sorted elements (all lanes loop together: the meta bits of a home's
// run are OR-ed across lanes). `mx` is the inclusive max-scan of home_j - j.
__global__ void k_build_place(View<Narrow> t, const uint32_t* __restrict__ home,
                              const unsigned long long* __restrict__ kvs, const int* __restrict__ mx,
                              uint32_t* __restrict__ exc, unsigned long long* nexc, uint64_t n) {
  const int lane = threadIdx.x & 31;
  const uint64_t nwarps = (uint64_t(gridDim.x) * blockDim.x) >> 5;
  int placed = 0, stashed = 0;
  for (uint64_t w = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; w * 32 < n; w += nwarps) {
    const uint64_t i = w * 32 + lane;
    unsigned long long h = ~0ull;  // past the batch: a home no element has
    unsigned long long kv = kEmptyKv;
    long long d = 0;
    if (i < n) {
      h = home[i];
      kv = kvs[i];
      d = static_cast<long long>(i) + mx[i] - static_cast<long long>(h);  // >= 0
    }
    const uint32_t k = kv_key(kv);
    const bool user = is_user_key(k);
    const bool overflow = user && d >= kH;  // goes to the stash
    // Look back along the home's run for an earlier copy of k: lanes of this warp by shuffles, earlier
    // elements from memory. A window's run has at most d earlier elements (they occupy slots h ..
    // h+d-1); an overflowing element looks at most kLookBack back and is an exception beyond that.
    constexpr int kLookBack = 64;
    bool exception = false;
    bool looking = user;
    for (int off = 1; off < 32 && __any_sync(kFull, looking); ++off) {
      const unsigned long long ho = __shfl_up_sync(kFull, h, off);
      const uint32_t ko = __shfl_up_sync(kFull, k, off);
      if (!looking) continue;
      if (lane >= off) {
        if (ho != h) looking = false;
        else if (ko == k) exception = true, looking = false;
      } else {  // the run began before this warp's elements
        uint64_t j = i - off + 1;
        for (int seen = off - 1; j > 0;) {
          --j;
          if (home[j] != h) break;
          if (kv_key(kvs[j]) == k || (overflow && ++seen >= kLookBack)) {
            exception = true;
            break;
          }
        }
        looking = false;
      }
    }
    unsigned long long bits = 0;  // this element's contribution to its home's meta word
    if (user) {
      if (exception) {
        exc[atomicAdd(nexc, 1ull)] = k;
      } else if (!overflow) {
        t.s[h + d].kv = kv;
        bits = 1ull << d;
        ++placed;
      } else if (stash_claim(t, h, kv)) {
        bits = kStash;
        ++stashed;
      } else {
        exc[atomicAdd(nexc, 1ull)] = k;  // stash bucket full: the normal passes decide
      }
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

__global__ void k_build_set(const uint32_t* __restrict__ exc, uint64_t ne, uint32_t* skeys, uint32_t mask) {
  for (uint64_t e = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < ne; e += uint64_t(gridDim.x) * blockDim.x) {
    const uint32_t k = exc[e];
    for (uint32_t s = set_slot(k, mask);; s = (s + 1) & mask) {  // the set is at most half full
      const uint32_t old = atomicCAS(&skeys[s], kNoKey, k);
      if (old == kNoKey || old == k) break;
    }
  }
}

// Outcomes in batch order. A key in the exception set is looked up in the built table: absent (every
// copy overflowed) -> NONE for the normal passes; present -> one copy carrying the stored value is
// INSERTED (elected by the set entry's claim word), every other copy PRESENT.
__global__ void k_build_outcomes(View<Narrow> t, const uint32_t* __restrict__ keys,
                                 const uint32_t* __restrict__ values, uint8_t* __restrict__ outcomes, uint64_t n,
                                 const uint32_t* __restrict__ skeys, uint32_t* claims, uint32_t mask, bool any_exc) {
  unsigned pending = 0, invalid = 0;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const uint32_t k = keys[i];
    uint8_t o = WX_OUT_INSERTED;
    if (!is_user_key(k)) {
      o = WX_OUT_INVALID_KEY;
      ++invalid;
    } else if (any_exc) {
      for (uint32_t s = set_slot(k, mask); skeys[s] != kNoKey; s = (s + 1) & mask) {
        if (skeys[s] != k) continue;
        uint32_t stored = 0;
        if (!lookup_ro(t, k, home_of(k, t.nb), stored)) {
          o = WX_OUT_NONE;
          ++pending;
        } else {
          const uint32_t v = values ? values[i] : 0u;
          o = v == stored && atomicCAS(&claims[s], kNoKey, 0u) == kNoKey ? WX_OUT_INSERTED : WX_OUT_PRESENT;
        }
        break;
      }
    }
    outcomes[i] = o;
  }
  pending = __reduce_add_sync(kFull, pending);
  invalid = __reduce_add_sync(kFull, invalid);
  if ((threadIdx.x & 31) == 0) {
    if (pending) atomicAdd(&t.c->pending, static_cast<unsigned long long>(pending));
    if (invalid) atomicAdd(&t.c->invalid, static_cast<unsigned long long>(invalid));
  }
}

int home_bits(uint64_t nb) {
  int b = 1;
  while (b < 32 && (uint64_t{1} << b) < nb) ++b;
  return b;
}

}  // namespace

bool alloc_build(BuildBuffers& b, uint64_t n, uint64_t nb) {
  if (n == 0 || n >= (uint64_t{1} << 31) || nb >= (uint64_t{1} << 31)) return false;
  const int items = static_cast<int>(n);
  size_t sort_bytes = 0, scan_bytes = 0;
  cub::DoubleBuffer<uint32_t> hk(nullptr, nullptr);
  cub::DoubleBuffer<unsigned long long> kv(nullptr, nullptr);
  WX_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, hk, kv, items, 0, home_bits(nb + 1)));
  WX_CUDA(cub::DeviceScan::InclusiveScan(nullptr, scan_bytes, QIter(thrust::counting_iterator<int>(0), HomeMinusIndex{nullptr}),
                                         static_cast<int*>(nullptr), Max{}, items));
  try {
    b.home[0] = DeviceArray<uint32_t>(n);
    b.home[1] = DeviceArray<uint32_t>(n);
    b.kv[0] = DeviceArray<unsigned long long>(n);
    b.kv[1] = DeviceArray<unsigned long long>(n);
    b.temp_bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
    b.temp = DeviceArray<uint8_t>(b.temp_bytes);
  } catch (const Error& e) {
    if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
    b = BuildBuffers{};
    return false;
  }
  return true;
}

bool run_build(const View<Narrow>& t, BuildBuffers& b, const uint32_t* keys, const uint32_t* values,
               uint8_t* outcomes, uint64_t n, cudaStream_t st) {
  const int items = static_cast<int>(n);
  // One wave of blocks each (wave_grid): the kernels stride over the batch.
  k_build_prepare<<<wave_grid(k_build_prepare, kBlock, n, kBlock), kBlock, 0, st>>>(keys, values, t.nb,
                                                                                    b.home[0].get(), b.kv[0].get(), n);
  WX_CUDA_LAUNCHED("glht build prepare kernel");
  cub::DoubleBuffer<uint32_t> hk(b.home[0].get(), b.home[1].get());
  cub::DoubleBuffer<unsigned long long> kv(b.kv[0].get(), b.kv[1].get());
  size_t bytes = b.temp_bytes;
  WX_CUDA(cub::DeviceRadixSort::SortPairs(b.temp.get(), bytes, hk, kv, items, 0, home_bits(t.nb + 1), st));
  // Free after the sort: the alternate buffers. The scan goes to kv's, the exception keys to hk's.
  int* mx = reinterpret_cast<int*>(kv.Alternate());
  uint32_t* exc = hk.Alternate();
  bytes = b.temp_bytes;
  WX_CUDA(cub::DeviceScan::InclusiveScan(b.temp.get(), bytes,
                                         QIter(thrust::counting_iterator<int>(0), HomeMinusIndex{hk.Current()}),
                                         mx, Max{}, items, st));
  WX_CUDA(cudaMemsetAsync(&t.c->count, 0, sizeof(unsigned long long), st));
  k_build_place<<<wave_grid(k_build_place, kBlock, n, kBlock), kBlock, 0, st>>>(t, hk.Current(), kv.Current(), mx, exc,
                                                                                &t.c->count, n);
  WX_CUDA_LAUNCHED("glht build place kernel");
  unsigned long long ne = 0;
  WX_CUDA(cudaMemcpyAsync(&ne, &t.c->count, sizeof ne, cudaMemcpyDeviceToHost, st));
  WX_CUDA(cudaStreamSynchronize(st));

  // The exception set: its keys in kv's current buffer and its claim words in kv's alternate one
  // (the scan's), both free after placing: P entries, P a power of two <= 2n, at most half full
  // (a quarter where there is room, so that a probe is one read).
  uint32_t* skeys = reinterpret_cast<uint32_t*>(kv.Current());
  uint32_t* claims = reinterpret_cast<uint32_t*>(kv.Alternate());
  uint64_t p = 0;
  if (ne > 0) {
    p = 1;
    while (p < 4 * ne && p * 2 <= 2 * n) p *= 2;
    if (2 * ne > p) {  // too many duplicates or overflows to track: give the table back empty
      launch_init(t, st);
      WX_CUDA(cudaMemsetAsync(&t.c->size, 0, sizeof(unsigned long long), st));
      return false;
    }
    WX_CUDA(cudaMemsetAsync(skeys, 0xFF, p * sizeof(uint32_t), st));
    WX_CUDA(cudaMemsetAsync(claims, 0xFF, p * sizeof(uint32_t), st));
    k_build_set<<<wave_grid(k_build_set, kBlock, ne, kBlock), kBlock, 0, st>>>(exc, ne, skeys,
                                                                            static_cast<uint32_t>(p - 1));
    WX_CUDA_LAUNCHED("glht build set kernel");
  }
  k_build_outcomes<<<wave_grid(k_build_outcomes, kBlock, n, kBlock), kBlock, 0, st>>>(
      t, keys, values, outcomes, n, skeys, claims, static_cast<uint32_t>(p ? p - 1 : 0), ne > 0);
  WX_CUDA_LAUNCHED("glht build outcomes kernel");
  return true;
}

}  // namespace glht
}  // namespace wx
