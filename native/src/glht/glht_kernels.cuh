// Host-side launchers of the GLHT kernels (glht_kernels.cu). All run on the given stream and
// return at once; the caller reads the Counters afterwards.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "glht/glht_ops.cuh"

namespace wx {
namespace glht {

enum class Mode { insert, assign, erase, find, contains, mixed };

template <class Tr>
struct Args {
  const typename Tr::Key* keys = nullptr;
  const typename Tr::Val* values_in = nullptr;  // may be null: value 0
  typename Tr::Val* values_out = nullptr;       // find / mixed
  const uint8_t* ops = nullptr;         // mixed
  uint8_t* outcomes = nullptr;          // required for insert/assign/erase/mixed/contains
  uint64_t n = 0;
  typename Tr::Val not_found = 0;
  int pass = 0;            // 0: every element; > 0: only those marked NONE (pending) ...
  bool rerun_full = false;  // ... or FULL (after a grow)
  int group = 0;  // mixed: rounds of 32 elements per warp chunk (run_grouped); 0 = by batch size
};

// Instantiated for Narrow and Wide (glht_kernels.cu).
template <class Tr>
void launch_batch(Mode mode, const View<Tr>& t, const Args<Tr>& a, cudaStream_t st);
// Every slot empty, every meta word 0.
template <class Tr>
void launch_init(const View<Tr>& t, cudaStream_t st);
// Inserts every key of `src` (src_ns slots, stash included) into t (rehash into a new table).
template <class Tr>
void launch_rehash(const View<Tr>& t, const typename Tr::SlotT* src, uint64_t src_ns, cudaStream_t st);
// Compacts all pairs into keys/values; t.c->count must be 0 before.
template <class Tr>
void launch_retrieve(const View<Tr>& t, typename Tr::Key* keys, typename Tr::Val* values, cudaStream_t st);
// Checks the hopscotch invariants (DESIGN.md); adds each violation to t.c->errors and the number of
// keys found to t.c->count (which must be 0 before).
template <class Tr>
void launch_check(const View<Tr>& t, cudaStream_t st);
// Adds the number of outcomes equal to `which` to *counter.
void launch_count_outcome(const uint8_t* outcomes, uint64_t n, uint8_t which, unsigned long long* counter,
                          cudaStream_t st);

}  // namespace glht
}  // namespace wx
