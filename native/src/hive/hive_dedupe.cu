// Two sorts that reshape a batch's work (phase 1's op grouping, phase 2's job dedupe).
//
// Op grouping: in a mixed batch the 4 tiles of a warp would each run a different op's code path one
// after the other (divergence); processing the elements in op order (through ElemArgs::index) keeps a
// warp's tiles on one path. All ops still run in one launch, so the batch stays truly concurrent.
//
// Phase-2 job dedupe for hot keys. When many pending inserts share a key (a mixed batch over a few
// hundred keys leaves millions of them), phase 2 would run them one lock round each. A batch's ops on
// one key may take effect in any order, so only the first pending job of a key needs phase 2: later
// plain inserts of that key are linearized after it and only need its result (resolved by a lookup
// once phase 2 is over: present -> PRESENT, absent -> FULL). insert_or_assign jobs stay jobs (their
// values must be written).
#include <cub/device/device_radix_sort.cuh>

#include "common/cuda_util.cuh"
#include "hive/hive_device.cuh"
#include "hive/hive_kernels.cuh"
#include "wixlib.h"

namespace wx::hive {
namespace {

template <class K>
__global__ void gather_keys_kernel(const K* keys, const uint32_t* jobs, uint32_t n, K* out) {
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x)
    out[j] = keys[jobs[j]];
}

// Sorted (key, job): the first job of each key and every insert_or_assign stay jobs; the other
// plain inserts become followers.
template <class K>
__global__ void split_kernel(const K* skeys, const uint32_t* sjobs, uint32_t n, Mode mode,
                             const uint8_t* ops, uint32_t* jobs, unsigned* njobs, uint32_t* followers,
                             unsigned* nfollowers) {
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) {
    const uint32_t job = sjobs[j];
    const bool first = j == 0 || skeys[j - 1] != skeys[j];
    const bool plain = mode == Mode::Insert || (mode == Mode::Mixed && ops[job] == WX_OP_INSERT);
    if (first || !plain) append(jobs, njobs, job);
    else append(followers, nfollowers, job);
  }
}

__global__ void iota_kernel(uint32_t* p, uint32_t n) {
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) p[j] = j;
}

}  // namespace

size_t group_by_op_temp_bytes(uint32_t n) {
  size_t bytes = 0;
  WX_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, static_cast<const uint8_t*>(nullptr),
                                          static_cast<uint8_t*>(nullptr), static_cast<const uint32_t*>(nullptr),
                                          static_cast<uint32_t*>(nullptr), n, 0, 2));
  return bytes;
}

void launch_group_by_op(const uint8_t* ops, uint32_t n, uint32_t* index, uint32_t* scratch, void* temp,
                        size_t temp_bytes, cudaStream_t s) {
  if (n == 0) return;
  uint8_t* sorted_ops = reinterpret_cast<uint8_t*>(scratch + n);
  const int grid = static_cast<int>(std::min<uint64_t>((n + kBlock - 1) / kBlock, 65535));
  iota_kernel<<<grid, kBlock, 0, s>>>(scratch, n);
  WX_CUDA_LAUNCHED("hive iota_kernel");
  // op codes are 0..3: two bits, one radix pass; stable, so each op's elements keep their order
  WX_CUDA(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, ops, sorted_ops, scratch, index, n, 0, 2, s));
}

template <class S>
size_t dedupe_temp_bytes(uint32_t n) {
  using K = typename S::Key;
  size_t bytes = 0;
  WX_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, static_cast<const K*>(nullptr), static_cast<K*>(nullptr),
                                          static_cast<const uint32_t*>(nullptr), static_cast<uint32_t*>(nullptr), n));
  return bytes;
}

template <class S>
void launch_dedupe(const ElemArgsT<S>& a, Mode mode, uint32_t* jobs, uint32_t n, uint32_t* scratch, void* temp,
                   size_t temp_bytes, uint32_t* followers, unsigned* lens, cudaStream_t s) {
  using K = typename S::Key;
  if (n == 0) return;
  K* kin = reinterpret_cast<K*>(scratch);
  K* kout = kin + n;
  uint32_t* jout = reinterpret_cast<uint32_t*>(kout + n);
  const int grid = static_cast<int>(std::min<uint64_t>((n + kBlock - 1) / kBlock, 65535));
  gather_keys_kernel<K><<<grid, kBlock, 0, s>>>(a.keys, jobs, n, kin);
  WX_CUDA_LAUNCHED("hive gather_keys_kernel");
  WX_CUDA(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, kin, kout, jobs, jout, n, 0, int(8 * sizeof(K)), s));
  WX_CUDA(cudaMemsetAsync(lens, 0, 2 * sizeof(unsigned), s));
  split_kernel<K><<<grid, kBlock, 0, s>>>(kout, jout, n, mode, a.ops, jobs, lens, followers, lens + 1);
  WX_CUDA_LAUNCHED("hive split_kernel");
}

template size_t dedupe_temp_bytes<Kv32>(uint32_t);
template size_t dedupe_temp_bytes<Kv64>(uint32_t);
template void launch_dedupe<Kv32>(const ElemArgsT<Kv32>&, Mode, uint32_t*, uint32_t, uint32_t*, void*, size_t,
                                  uint32_t*, unsigned*, cudaStream_t);
template void launch_dedupe<Kv64>(const ElemArgsT<Kv64>&, Mode, uint32_t*, uint32_t, uint32_t*, void*, size_t,
                                  uint32_t*, unsigned*, cudaStream_t);

}  // namespace wx::hive
