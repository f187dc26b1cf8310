// GLHT pre-hashed calls (wx_hash_keys, wx_find_hashed): the hash is mix64(key), which does not depend
// on the table's size; the home is its multiply-high reduction, exactly as home_of() computes it, so
// a pre-hashed find visits the same slots as find. Reuses lookup_ro (glht_ops.cuh) unchanged.
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
__global__ void __launch_bounds__(kBlock) k_find_hashed(View t, const uint32_t* keys, const unsigned long long* hashes,
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

void GlhtTable::hash_keys(const void* keys, uint64_t* hashes, uint64_t n, void* stream) {
  DeviceScope scope(device_);
  if (n == 0) return;
  cudaStream_t st = static_cast<cudaStream_t>(stream);
  k_hash<<<grid_for(n), kBlock, 0, st>>>(static_cast<const uint32_t*>(keys), reinterpret_cast<unsigned long long*>(hashes), n);
  WX_CUDA_LAUNCHED("k_hash");
  WX_CUDA(cudaStreamSynchronize(st));
}

BatchResult GlhtTable::find_hashed(const Batch& b, const uint64_t* hashes) {
  DeviceScope scope(device_);
  BatchResult r;
  if (b.n == 0) return r;
  if (!b.keys || !b.values_out || !hashes) fail(WX_ERR_INVALID_ARGUMENT, "GLHT find_hashed: keys, values or hashes is NULL");
  cudaStream_t st = static_cast<cudaStream_t>(b.stream);
  const uint64_t errors_before = read_counters(st).errors;
  reset_call_counters(st);
  WX_CUDA(cudaEventRecord(ev0_, st));
  k_find_hashed<<<grid_for(b.n), kBlock, 0, st>>>(view(), static_cast<const uint32_t*>(b.keys),
                                                  reinterpret_cast<const unsigned long long*>(hashes),
                                                  static_cast<uint32_t*>(b.values_out), uint32_t(b.not_found), b.n);
  WX_CUDA_LAUNCHED("k_find_hashed");
  WX_CUDA(cudaEventRecord(ev1_, st));
  const Counters c = read_counters(st);
  r.invalid = c.invalid;
  WX_CUDA(cudaEventSynchronize(ev1_));
  float ms = 0.f;
  WX_CUDA(cudaEventElapsedTime(&ms, ev0_, ev1_));
  last_ms_ = ms;
  if (c.errors != errors_before)
    fail(WX_ERR_INTERNAL, "GLHT: find_hashed saw " + std::to_string(c.errors - errors_before) + " broken invariants (leaked lock)");
  return r;
}

}  // namespace glht
}  // namespace wx
