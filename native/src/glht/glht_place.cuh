// Sorted placement into an empty GLHT table, shared by the bulk build (an insert batch, glht_build.cu)
// and the ordered rehash (a 32-bit table's keys, glht_rehash.cu); DESIGN.md "Bulk build". Elements
// come as homes sorted with their payloads (Sorted); a prefix scan gives each its slot, and one warp
// per 32 elements writes slots and meta words with plain stores.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "glht/glht_ops.cuh"
#include "glht/glht_window_scan.hpp"

namespace wx {
namespace glht {

// The scan that gives every sorted element its slot, by the fill (keys / homes) of the table:
// - up to kWindowScanFill, the probing scan: the inclusive max of home_i - i, slot i + max_{j<=i}
//   (linear probing in home order, where an overflowing element still takes a slot: 0.13 % of the
//   keys overflow at 0.9, 3.9 % at 0.95); cheaper to compute;
// - above, the window scan (glht_window_scan.hpp), where an overflowing element takes no slot
//   (0.2 % overflow at 0.95).
constexpr double kWindowScanFill = 0.9;
inline bool windowed_fill(uint64_t keys, uint64_t nb) {
  return static_cast<double>(keys) > kWindowScanFill * static_cast<double>(nb);
}
// CUB temporary bytes of either scan over n elements (n < 2^31).
size_t placement_scan_bytes(uint64_t n);
// scan[i] for elements 0..n-1 of `home` (sorted): the window scan's composed steps, or the probing
// scan's running maximum (an int).
void launch_placement_scan(const uint32_t* home, uint32_t* scan, uint64_t n, bool windowed, void* temp,
                           size_t temp_bytes, cudaStream_t st);

// The sorted elements beside their homes: 32-bit tables sort key|value words with the homes; wide
// tables sort batch indices (4 bytes instead of 16) and read keys and values from the batch.
template <class Tr>
struct Sorted;
// Read-only while placing: loads take the non-coherent path.
template <>
struct Sorted<Narrow> {
  const unsigned long long* kv;
  __device__ unsigned long long word(uint64_t j) const { return __ldg(kv + j); }
  __device__ uint32_t key(uint64_t j) const { return kv_key(word(j)); }
};
template <>
struct Sorted<Wide> {
  const uint32_t* idx;
  const unsigned long long* keys;
  const unsigned long long* values;  // may be null: value 0
  __device__ unsigned long long key(uint64_t j) const { return __ldg(keys + __ldg(idx + j)); }
};

// What the placement does with a key it cannot settle, and whether keys may repeat.
enum class Place {
  batch,   // keys may repeat (a later copy is found by looking back along its home's run); an
           // exception writes its key (Wide: its sorted index)
  unique,  // keys are distinct (a table's); an exception writes its sorted index
};

// Places the n sorted elements into the empty table t (all meta words 0) at the slots `scan` gives
// (`windowed`: which scan; with the window scan, slots are first traded within each warp to bring
// keys home, glht_place.cu). Elements whose window overflowed go to their home's stash bucket; an
// element whose bucket is full, or (Place::batch) a key with an earlier copy in the batch or a
// look-back too long, is an exception: written to exc[atomicAdd(nexc, 1)] and not placed. Adds the
// placed and stashed keys to t.c->size and t.c->stashed. Reserved keys (sorted last, home = nb) are
// skipped. Instantiated for Narrow (batch, unique) and Wide (batch).
template <class Tr, Place P>
void launch_place(const View<Tr>& t, const uint32_t* home, const Sorted<Tr>& el, const uint32_t* scan, bool windowed,
                  uint32_t* exc, unsigned long long* nexc, uint64_t n, cudaStream_t st);

// The exception count a placement wrote to nexc (waits for the stream).
unsigned long long placement_exceptions(const unsigned long long* nexc, cudaStream_t st);

}  // namespace glht
}  // namespace wx
