// GLHT pre-hashed kernels (wx_hash_keys, wx_find_hashed), 32-bit tables only; the table members that
// drive them are in glht_table.cu. The hash is mix64(key), which does not depend on the table's size;
// the home is its multiply-high reduction, exactly as home_of() computes it, so a pre-hashed find
// visits the same slots as find. Reuses lookup_ro (glht_ops.cuh) unchanged.
#include "common/cuda_util.cuh"
#include "glht/glht_table.cuh"

namespace wx {
namespace glht {
namespace {

constexpr int kBlock = 256;

unsigned grid_for(uint64_t n) { return unsigned(n ? (n + kBlock - 1) / kBlock : 1); }

__global__ void k_hash(const uint32_t* keys, unsigned long long* hashes, uint64_t n) {
  const uint64_t e = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < n) hashes[e] = mix64(keys[e]);
}

// One thread per key; no writer runs during a find (calls on a table are serialised).
__global__ void __launch_bounds__(kBlock) k_find_hashed(View<Narrow> t, const uint32_t* keys, const unsigned long long* hashes,
                                                        uint32_t* values, uint32_t not_found, uint64_t n) {
  const uint64_t e = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  bool invalid = false;
  if (e < n) {
    const uint32_t k = keys[e];
    uint32_t v = 0;
    bool hit = false;
    if (!is_user_key(k)) invalid = true;
    else hit = lookup_ro(t, k, __umul64hi(hashes[e], t.nb), v);
    values[e] = hit ? v : not_found;
  }
  // Warp-aggregated count of reserved keys (every lane of the warp reaches this ballot).
  const unsigned mask = __ballot_sync(0xFFFFFFFFu, invalid);
  if ((threadIdx.x & 31) == 0 && mask) atomicAdd(&t.c->invalid, (unsigned long long)__popc(mask));
}

}  // namespace

void launch_hash_keys(const uint32_t* keys, unsigned long long* hashes, uint64_t n, cudaStream_t st) {
  k_hash<<<grid_for(n), kBlock, 0, st>>>(keys, hashes, n);
  WX_CUDA_LAUNCHED("k_hash");
}

void launch_find_hashed(const View<Narrow>& t, const uint32_t* keys, const unsigned long long* hashes,
                        uint32_t* values, uint32_t not_found, uint64_t n, cudaStream_t st) {
  k_find_hashed<<<grid_for(n), kBlock, 0, st>>>(t, keys, hashes, values, not_found, n);
  WX_CUDA_LAUNCHED("k_find_hashed");
}

}  // namespace glht
}  // namespace wx
