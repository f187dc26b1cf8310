// Bulk build of an empty 32-bit GLHT table (DESIGN.md "Bulk build").
//
// Sorted by home, the batch is laid out the way linear probing in home order would place it: one
// prefix scan gives every element its slot (glht_place.cuh), and one warp per 32 elements places
// them with plain stores (no CAS, no contention, slots and meta words written in address order),
// trading slots within the warp to bring keys home. An element whose window overflowed goes to its
// home's stash bucket, where the normal insert would end too. A second copy of a key in the batch is
// not placed (it sits in the same home's run as the first, found by looking back along the run); the
// outcomes of such keys are settled afterwards against what the table holds. Elements it cannot
// settle (a full stash bucket, a look-back too long) are left NONE for the normal passes.
#include <cub/device/device_radix_sort.cuh>

#include "glht/glht_build.cuh"
#include "glht/glht_kernels.cuh"
#include "glht/glht_place.cuh"

namespace wx {
namespace glht {
namespace {

constexpr int kBlock = 256;
constexpr uint32_t kNoKey = 0xFFFFFFFFu;  // empty entry of the exception set (never a user key)

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
  size_t sort_bytes = 0;
  cub::DoubleBuffer<uint32_t> hk(nullptr, nullptr);
  cub::DoubleBuffer<unsigned long long> kv(nullptr, nullptr);
  WX_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, hk, kv, items, 0, home_bits(nb + 1)));
  const size_t scan_bytes = placement_scan_bytes(n);
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
  uint32_t* scan = reinterpret_cast<uint32_t*>(kv.Alternate());
  uint32_t* exc = hk.Alternate();
  const bool windowed = windowed_fill(n, t.nb);
  launch_placement_scan(hk.Current(), scan, n, windowed, b.temp.get(), b.temp_bytes, st);
  WX_CUDA(cudaMemsetAsync(&t.c->count, 0, sizeof(unsigned long long), st));
  launch_place<Place::batch>(t, hk.Current(), kv.Current(), scan, windowed, exc, &t.c->count, n, st);
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
