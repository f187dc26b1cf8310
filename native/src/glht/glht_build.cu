// Bulk build of an empty GLHT table (DESIGN.md "Bulk build").
//
// Sorted by home, the batch is laid out the way linear probing in home order would place it: one
// prefix scan gives every element its slot (glht_place.cuh), and one warp per 32 elements places
// them with plain stores (no CAS, no contention, slots and meta words written in address order),
// trading slots within the warp to bring keys home. An element whose window overflowed goes to its
// home's stash bucket, where the normal insert would end too. A second copy of a key in the batch is
// not placed (it sits in the same home's run as the first, found by looking back along the run); the
// outcomes of such keys are settled afterwards against what the table holds. Elements it cannot
// settle (a full stash bucket, a look-back too long) are left NONE for the normal passes. Wide tables
// sort batch indices with the homes (4 bytes instead of 16) and read keys and values when placing.
#include <cub/device/device_radix_sort.cuh>
#include <type_traits>

#include "glht/glht_build.cuh"
#include "glht/glht_kernels.cuh"
#include "glht/glht_place.cuh"

namespace wx {
namespace glht {
namespace {

constexpr int kBlock = 256;
template <class K>
constexpr K kNoKey = ~K(0);  // empty entry of the exception set (EMPTY: never a user key)

template <class K>
__device__ __forceinline__ uint32_t set_slot(K k, uint32_t mask) {
  return static_cast<uint32_t>(mix64(k)) & mask;
}
// Adds k to the exception set (at most half full: the probe ends).
template <class K>
__device__ __forceinline__ void set_add(K* skeys, K k, uint32_t mask) {
  for (uint32_t s = set_slot(k, mask);; s = (s + 1) & mask) {
    const K old = atomicCAS(&skeys[s], kNoKey<K>, k);
    if (old == kNoKey<K> || old == k) break;
  }
}

// The sort's payload: key|value words (32-bit tables) or batch indices (wide: 4 bytes, not 16).
template <class Tr>
using Payload = std::conditional_t<Tr::kWide, uint32_t, unsigned long long>;

template <class Tr>
__global__ void k_build_prepare(const typename Tr::Key* __restrict__ keys, const typename Tr::Val* __restrict__ values,
                                unsigned long long nb, uint32_t* __restrict__ home, Payload<Tr>* __restrict__ pay,
                                uint64_t n) {
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const typename Tr::Key k = keys[i];
    home[i] = Tr::is_user(k) ? static_cast<uint32_t>(home_of(k, nb)) : static_cast<uint32_t>(nb);  // reserved: last
    if constexpr (Tr::kWide) pay[i] = static_cast<uint32_t>(i);
    else pay[i] = make_kv(k, values ? values[i] : 0u);
  }
}

// The exception set from the placement's records: keys (32-bit batches) or sorted indices (wide).
template <class Tr>
__global__ void k_build_set(const uint32_t* __restrict__ exc, uint64_t ne, Sorted<Tr> el, typename Tr::Key* skeys,
                            uint32_t mask) {
  for (uint64_t e = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < ne; e += uint64_t(gridDim.x) * blockDim.x) {
    if constexpr (Tr::kWide) set_add(skeys, el.key(exc[e]), mask);
    else set_add(skeys, exc[e], mask);
  }
}

// Outcomes in batch order. A key in the exception set is looked up in the built table: absent (every
// copy overflowed) -> NONE for the normal passes; present -> one copy carrying the stored value is
// INSERTED (elected by the set entry's claim word), every other copy PRESENT.
template <class Tr>
__global__ void k_build_outcomes(View<Tr> t, const typename Tr::Key* __restrict__ keys,
                                 const typename Tr::Val* __restrict__ values, uint8_t* __restrict__ outcomes,
                                 uint64_t n, const typename Tr::Key* __restrict__ skeys, uint32_t* claims,
                                 uint32_t mask, bool any_exc) {
  using Key = typename Tr::Key;
  using Val = typename Tr::Val;
  unsigned pending = 0, invalid = 0;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const Key k = keys[i];
    uint8_t o = WX_OUT_INSERTED;
    if (!Tr::is_user(k)) {
      o = WX_OUT_INVALID_KEY;
      ++invalid;
    } else if (any_exc) {
      for (uint32_t s = set_slot(k, mask); skeys[s] != kNoKey<Key>; s = (s + 1) & mask) {
        if (skeys[s] != k) continue;
        Val stored = 0;
        if (!lookup_ro_any(t, k, Tr::home(k, t.nb), stored)) {
          o = WX_OUT_NONE;
          ++pending;
        } else {
          const Val v = values ? values[i] : Val(0);
          o = v == stored && atomicCAS(&claims[s], kNoKey<uint32_t>, 0u) == kNoKey<uint32_t> ? WX_OUT_INSERTED
                                                                                            : WX_OUT_PRESENT;
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

// CUB's temporary bytes for sorting items homes of a table of nb homes with payloads P.
template <class P>
size_t sort_temp_bytes(int items, uint64_t nb) {
  size_t bytes = 0;
  cub::DoubleBuffer<uint32_t> hk(nullptr, nullptr);
  cub::DoubleBuffer<P> pl(nullptr, nullptr);
  WX_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, hk, pl, items, 0, home_bits(nb + 1)));
  return bytes;
}

// Entries of the exception set for ne exceptional keys: P, a power of two <= 2n, at most half full
// (a quarter where there is room, so that a probe is one read); 0 when none; above 2n: too many to
// track.
uint64_t set_entries(uint64_t ne, uint64_t n) {
  if (ne == 0) return 0;
  uint64_t p = 1;
  while (p < 4 * ne && p * 2 <= 2 * n) p *= 2;
  return 2 * ne > p ? 2 * n + 1 : p;
}

// Gives the table back empty; the caller runs the normal passes over the whole batch.
template <class Tr>
void give_back(const View<Tr>& t, cudaStream_t st) {
  launch_init(t, st);
  WX_CUDA(cudaMemsetAsync(&t.c->size, 0, sizeof(unsigned long long), st));
  WX_CUDA(cudaMemsetAsync(&t.c->stashed, 0, sizeof(unsigned long long), st));
}

}  // namespace

bool alloc_build(BuildBuffers& b, uint64_t n, uint64_t nb, bool wide) {
  if (n == 0 || n >= (uint64_t{1} << 31) || nb >= (uint64_t{1} << 31)) return false;
  const int items = static_cast<int>(n);
  const size_t sort_bytes = wide ? sort_temp_bytes<uint32_t>(items, nb) : sort_temp_bytes<unsigned long long>(items, nb);
  const size_t scan_bytes = placement_scan_bytes(n);
  try {
    b.home[0] = DeviceArray<uint32_t>(n);
    b.home[1] = DeviceArray<uint32_t>(n);
    if (wide) {
      b.idx[0] = DeviceArray<uint32_t>(n);
      b.idx[1] = DeviceArray<uint32_t>(n);
    } else {
      b.kv[0] = DeviceArray<unsigned long long>(n);
      b.kv[1] = DeviceArray<unsigned long long>(n);
    }
    b.temp_bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
    b.temp = DeviceArray<uint8_t>(b.temp_bytes);
  } catch (const Error& e) {
    if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
    b = BuildBuffers{};
    return false;
  }
  return true;
}

namespace {

template <class Tr>
Payload<Tr>* payload(BuildBuffers& b, int i) {
  if constexpr (Tr::kWide) return b.idx[i].get();
  else return b.kv[i].get();
}

// Where the exception set of p entries lives: 32-bit tables in the payload buffers, both free after
// placing (keys in the current one, claim words in the alternate one, the scan's); wide tables
// allocate it, as 8-byte keys have no free buffer of their size. False: out of memory.
template <class Tr>
bool exception_set(BuildBuffers& b, cub::DoubleBuffer<Payload<Tr>>& pl, uint64_t p, typename Tr::Key*& skeys,
                   uint32_t*& claims) {
  if constexpr (Tr::kWide) {
    try {
      b.wide_set = DeviceArray<unsigned long long>(p);
      b.wide_claims = DeviceArray<uint32_t>(p);
    } catch (const Error& e) {
      if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
      return false;
    }
    skeys = b.wide_set.get();
    claims = b.wide_claims.get();
  } else {
    skeys = reinterpret_cast<uint32_t*>(pl.Current());
    claims = reinterpret_cast<uint32_t*>(pl.Alternate());
  }
  return true;
}

template <class Tr>
bool build(const View<Tr>& t, BuildBuffers& b, const typename Tr::Key* keys, const typename Tr::Val* values,
           uint8_t* outcomes, uint64_t n, cudaStream_t st) {
  using Key = typename Tr::Key;
  const int items = static_cast<int>(n);
  // One wave of blocks each (wave_grid): the kernels stride over the batch.
  k_build_prepare<Tr><<<wave_grid(k_build_prepare<Tr>, kBlock, n, kBlock), kBlock, 0, st>>>(
      keys, values, t.nb, b.home[0].get(), payload<Tr>(b, 0), n);
  WX_CUDA_LAUNCHED("glht build prepare kernel");
  cub::DoubleBuffer<uint32_t> hk(b.home[0].get(), b.home[1].get());
  cub::DoubleBuffer<Payload<Tr>> pl(payload<Tr>(b, 0), payload<Tr>(b, 1));
  size_t bytes = b.temp_bytes;
  WX_CUDA(cub::DeviceRadixSort::SortPairs(b.temp.get(), bytes, hk, pl, items, 0, home_bits(t.nb + 1), st));
  // Free after the sort: the alternate buffers. The scan goes to the payload's, the exception
  // records to the homes'.
  uint32_t* scan = reinterpret_cast<uint32_t*>(pl.Alternate());
  uint32_t* exc = hk.Alternate();
  const bool windowed = windowed_fill(n, t.nb);
  launch_placement_scan(hk.Current(), scan, n, windowed, b.temp.get(), b.temp_bytes, st);
  WX_CUDA(cudaMemsetAsync(&t.c->count, 0, sizeof(unsigned long long), st));
  Sorted<Tr> el;
  if constexpr (Tr::kWide) el = Sorted<Wide>{pl.Current(), keys, values};
  else el = Sorted<Narrow>{pl.Current()};
  launch_place<Tr, Place::batch>(t, hk.Current(), el, scan, windowed, exc, &t.c->count, n, st);
  const unsigned long long ne = placement_exceptions(&t.c->count, st);

  const uint64_t p = set_entries(ne, n);
  Key* skeys = nullptr;
  uint32_t* claims = nullptr;
  if (p > 2 * n || (p > 0 && !exception_set<Tr>(b, pl, p, skeys, claims))) {  // too many to track, or no room
    give_back(t, st);
    return false;
  }
  if (p > 0) {
    WX_CUDA(cudaMemsetAsync(skeys, 0xFF, p * sizeof(Key), st));
    WX_CUDA(cudaMemsetAsync(claims, 0xFF, p * sizeof(uint32_t), st));
    k_build_set<Tr><<<wave_grid(k_build_set<Tr>, kBlock, ne, kBlock), kBlock, 0, st>>>(exc, ne, el, skeys,
                                                                                    static_cast<uint32_t>(p - 1));
    WX_CUDA_LAUNCHED("glht build set kernel");
  }
  k_build_outcomes<Tr><<<wave_grid(k_build_outcomes<Tr>, kBlock, n, kBlock), kBlock, 0, st>>>(
      t, keys, values, outcomes, n, skeys, claims, static_cast<uint32_t>(p ? p - 1 : 0), p > 0);
  WX_CUDA_LAUNCHED("glht build outcomes kernel");
  return true;
}

}  // namespace

bool run_build(const View<Narrow>& t, BuildBuffers& b, const uint32_t* keys, const uint32_t* values,
               uint8_t* outcomes, uint64_t n, cudaStream_t st) {
  return build(t, b, keys, values, outcomes, n, st);
}

bool run_build(const View<Wide>& t, BuildBuffers& b, const unsigned long long* keys, const unsigned long long* values,
               uint8_t* outcomes, uint64_t n, cudaStream_t st) {
  return build(t, b, keys, values, outcomes, n, st);
}

}  // namespace glht
}  // namespace wx
