// Bulk build: an insert batch into an empty GLHT table, placed by sorting instead of by the lock-free
// protocol (DESIGN.md "Bulk build"). No other call runs on the table meanwhile (calls on a table are
// serialised), so the elements can be laid out in home order without atomics.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "common/cuda_util.cuh"
#include "glht/glht_ops.cuh"

namespace wx {
namespace glht {

// Largest fill (keys / homes) a build is tried at: windows overflow for 0.2 % of the keys at 0.95,
// at most 25 into one stash bucket of 32 (2^26 keys, host simulation); at 0.97 buckets overflow and
// the normal passes insert the rest one by one into nearly full windows.
constexpr double kBuildMaxFill = 0.955;
// 64-bit tables build only above this fill: below it the protocol's inserts keep up and its layout
// answers finds faster (DESIGN.md, Decisions).
constexpr double kWideBuildMinFill = 0.85;

// The build's scratch: sort keys (homes) and payloads, each double-buffered, and CUB's temporary
// storage, held only during the call. Payloads: key|value words for 32-bit tables (about 24 bytes
// per element in all), batch indices for wide ones (about 16; keys and values are read from the
// batch when placed), whose exception set is allocated when a batch has exceptions.
struct BuildBuffers {
  DeviceArray<uint32_t> home[2];
  DeviceArray<unsigned long long> kv[2];  // 32-bit tables
  DeviceArray<uint32_t> idx[2];           // wide tables
  DeviceArray<uint8_t> temp;
  size_t temp_bytes = 0;
  DeviceArray<unsigned long long> wide_set;  // wide tables: the exception set's keys ...
  DeviceArray<uint32_t> wide_claims;         // ... and claim words
};

// Allocates the scratch for n elements on a table of nb homes (wide: 64-bit keys); false (nothing
// held) when device memory is short or the sizes are beyond the build (n or nb >= 2^31).
bool alloc_build(BuildBuffers& b, uint64_t n, uint64_t nb, bool wide);

// Builds the batch into the empty table t. Every element gets its outcome: INSERTED, PRESENT (a
// duplicate of a key placed from the same batch), INVALID_KEY (counted in t.c->invalid) or NONE
// (counted in t.c->pending: its window overflowed; the normal passes insert it). Returns false, with
// the table cleared back to empty and no outcome written, when the batch has more exceptional keys
// than the scratch can track; the caller then runs the normal passes over the whole batch.
bool run_build(const View<Narrow>& t, BuildBuffers& b, const uint32_t* keys, const uint32_t* values,
               uint8_t* outcomes, uint64_t n, cudaStream_t st);
bool run_build(const View<Wide>& t, BuildBuffers& b, const unsigned long long* keys, const unsigned long long* values,
               uint8_t* outcomes, uint64_t n, cudaStream_t st);

}  // namespace glht
}  // namespace wx
