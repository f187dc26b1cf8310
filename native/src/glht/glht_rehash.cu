// Ordered rehash (glht_rehash.cuh).
#include "glht/glht_rehash.cuh"

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "glht/glht_place.cuh"

namespace wx {
namespace glht {
namespace {

constexpr int kBlock = 256;

// Keys of home h in its window (0 past the last home: the scan's total lands at off[nb]).
struct KeysOfHome {
  const Slot* s;
  unsigned long long nb;
  __host__ __device__ uint32_t operator()(int h) const {
    if (static_cast<unsigned long long>(h) >= nb) return 0;
#ifdef __CUDA_ARCH__
    return __popc(bitmap_of(s[h].meta));
#else
    return static_cast<uint32_t>(__builtin_popcount(bitmap_of(s[h].meta)));
#endif
  }
};
using KeysIter = thrust::transform_iterator<KeysOfHome, thrust::counting_iterator<int>>;

// One thread per old home: its keys go to off[h].. in the order of their new homes (insertion sort
// of the few keys of one home).
__global__ void k_gather_in_order(View<Narrow> from, unsigned long long new_nb, const uint32_t* __restrict__ off,
                                  uint32_t* __restrict__ home, unsigned long long* __restrict__ kvs) {
  for (uint64_t h = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; h < from.nb; h += uint64_t(gridDim.x) * blockDim.x) {
    uint32_t bm = bitmap_of(from.s[h].meta);
    if (!bm) continue;
    const uint32_t first = off[h];
    uint32_t end = first;
    while (bm) {
      const int i = __ffs(bm) - 1;
      bm &= bm - 1;
      const unsigned long long kv = from.s[h + i].kv;
      const uint32_t nh = static_cast<uint32_t>(home_of(kv_key(kv), new_nb));
      uint32_t p = end++;
      for (; p > first && home[p - 1] > nh; --p) {
        home[p] = home[p - 1];
        kvs[p] = kvs[p - 1];
      }
      home[p] = nh;
      kvs[p] = kv;
    }
  }
}

}  // namespace

bool alloc_rehash(RehashBuffers& b, uint64_t keys, uint64_t nb) {
  if (keys == 0 || nb + kH + 1 >= (uint64_t{1} << 31)) return false;
  const uint64_t homes = nb + kH + 1;  // off[0..nb]; as exceptions it holds every key of the windows
  size_t sum_bytes = 0;
  WX_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, sum_bytes, KeysIter(thrust::counting_iterator<int>(0), KeysOfHome{}),
                                        static_cast<uint32_t*>(nullptr), static_cast<int>(nb + 1)));
  const size_t scan_bytes = placement_scan_bytes(keys);
  try {
    b.off = DeviceArray<uint32_t>(homes);
    b.home = DeviceArray<uint32_t>(keys);
    b.kv = DeviceArray<unsigned long long>(keys);
    b.scan = DeviceArray<uint32_t>(keys);
    b.temp_bytes = sum_bytes > scan_bytes ? sum_bytes : scan_bytes;
    b.temp = DeviceArray<uint8_t>(b.temp_bytes);
  } catch (const Error& e) {
    if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
    b = RehashBuffers{};
    return false;
  }
  return true;
}

uint64_t rehash_in_order(const View<Narrow>& from, const View<Narrow>& to, RehashBuffers& b, cudaStream_t st) {
  size_t bytes = b.temp_bytes;
  WX_CUDA(cub::DeviceScan::ExclusiveSum(b.temp.get(), bytes,
                                        KeysIter(thrust::counting_iterator<int>(0), KeysOfHome{from.s, from.nb}),
                                        b.off.get(), static_cast<int>(from.nb + 1), st));
  uint32_t n = 0;
  WX_CUDA(cudaMemcpyAsync(&n, b.off.get() + from.nb, sizeof n, cudaMemcpyDeviceToHost, st));
  WX_CUDA(cudaStreamSynchronize(st));
  if (n == 0) return 0;
  if (n > b.home.size()) fail(WX_ERR_INTERNAL, "GLHT rehash: more keys in the windows than the table counts");
  k_gather_in_order<<<wave_grid(k_gather_in_order, kBlock, from.nb, kBlock), kBlock, 0, st>>>(
      from, to.nb, b.off.get(), b.home.get(), b.kv.get());
  WX_CUDA_LAUNCHED("glht gather-in-order kernel");
  const bool windowed = windowed_fill(n, to.nb);
  launch_placement_scan(b.home.get(), b.scan.get(), n, windowed, b.temp.get(), b.temp_bytes, st);
  uint32_t* exc = b.off.get();  // the offsets are spent after the gather; only the count is used
  WX_CUDA(cudaMemsetAsync(&to.c->count, 0, sizeof(unsigned long long), st));
  launch_place<Narrow, Place::unique>(to, b.home.get(), Sorted<Narrow>{b.kv.get()}, b.scan.get(), windowed, exc,
                                      &to.c->count, n, st);
  return placement_exceptions(&to.c->count, st);
}

}  // namespace glht
}  // namespace wx
