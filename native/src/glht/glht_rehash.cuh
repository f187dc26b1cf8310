// Ordered rehash of a 32-bit GLHT table (DESIGN.md "Growth"): the keys of the old table's windows,
// enumerated home by home through the hop bitmaps, are already in the order of their new homes up to
// a sort within each home (home = mulhi(hash, nb) is monotone in the hash for every nb), so the new
// table is laid out by sorted placement (glht_place.cuh) without sorting the keys.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/cuda_util.cuh"
#include "glht/glht_ops.cuh"

namespace wx {
namespace glht {

// Scratch of an ordered rehash: per old home its first output index (then the exceptions' records),
// the keys' new homes and key|value words, and the window scan. About 16 bytes per key and 4 per
// old home, held only during the rehash.
struct RehashBuffers {
  DeviceArray<uint32_t> off;
  DeviceArray<uint32_t> home;
  DeviceArray<unsigned long long> kv;
  DeviceArray<uint32_t> scan;
  DeviceArray<uint8_t> temp;
  size_t temp_bytes = 0;
  explicit operator bool() const { return temp_bytes != 0; }
};

// Allocates the scratch for up to `keys` keys of a table of nb homes; false (nothing held) when
// device memory is short or the sizes are beyond it (nb >= 2^31 - 64).
bool alloc_rehash(RehashBuffers& b, uint64_t keys, uint64_t nb);

// Places every key of `from`'s windows into the empty table `to` (any number of homes); the old
// stash is not read (the caller inserts its slots the normal way). Returns how many keys it could
// not place: their window overflowed into a full stash bucket. Sorted placement puts the most keys
// into their windows, so the protocol would find no room for them either: the caller tries a
// larger table.
uint64_t rehash_in_order(const View<Narrow>& from, const View<Narrow>& to, RehashBuffers& b, cudaStream_t st);

}  // namespace glht
}  // namespace wx
