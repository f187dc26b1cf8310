// CUDA helpers shared by the GPU backends: error checks that throw wx::Error, grid sizes of
// grid-stride kernels, and an owning device buffer. Out-of-memory becomes WX_ERR_OUT_OF_MEMORY so
// callers can keep the table intact.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "common/error.hpp"

namespace wx {

inline wx_status status_of(cudaError_t e) {
  switch (e) {
    case cudaErrorMemoryAllocation: return WX_ERR_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice: return WX_ERR_NO_DEVICE;
    default: return WX_ERR_CUDA;
  }
}

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear a sticky-free error so the next call starts clean
    fail(status_of(e), std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
  }
}

#define WX_CUDA(call) ::wx::cuda_check((call), #call)
// After a kernel launch: catches bad launch configurations at once.
#define WX_CUDA_LAUNCHED(name) ::wx::cuda_check(cudaGetLastError(), "launch of " name)

// Streaming multiprocessors of the current device (grid sizes of persistent kernels), cached per
// device: phase-2 and drain rounds size a grid on every launch.
inline int current_sms() {
  static std::mutex m;
  static std::map<int, int> cache;
  int dev = 0;
  WX_CUDA(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(dev);
  if (it != cache.end()) return it->second;
  int sms = 0;
  WX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return cache[dev] = sms;
}

// Resident blocks of `threads` threads per SM for a kernel (cached per kernel, size and device).
template <typename K>
int blocks_per_sm(K kernel, int threads) {
  static std::mutex m;
  static std::map<std::tuple<const void*, int, int>, int> cache;
  int dev = 0;
  WX_CUDA(cudaGetDevice(&dev));
  const std::tuple<const void*, int, int> key{reinterpret_cast<const void*>(kernel), threads, dev};
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  int per_sm = 0;
  WX_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return cache[key] = per_sm > 0 ? per_sm : 1;
}

// The grid of a grid-stride kernel: one full wave of resident blocks at most (a partial second wave
// would leave its blocks alone on the GPU at the end), fewer when the work needs fewer; max_per_sm
// > 0 caps the wave below what fits.
template <typename K>
int wave_grid(K kernel, int threads, uint64_t work_items, int items_per_block, int max_per_sm = 0) {
  int per_sm = blocks_per_sm(kernel, threads);
  if (max_per_sm > 0 && per_sm > max_per_sm) per_sm = max_per_sm;
  const uint64_t max_blocks = uint64_t(current_sms()) * per_sm;
  const uint64_t need = (work_items + items_per_block - 1) / items_per_block;
  return static_cast<int>(need < max_blocks ? (need > 0 ? need : 1) : max_blocks);
}

// Owning device allocation of T[n]; move-only. Allocation failure throws WX_ERR_OUT_OF_MEMORY.
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(uint64_t n) : n_(n) {
    if (n > 0) {
      cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(T));
      if (e != cudaSuccess) {
        cudaGetLastError();
        p_ = nullptr;
        fail(status_of(e), "cudaMalloc of " + std::to_string(n * sizeof(T)) + " bytes failed: " +
                               cudaGetErrorString(e));
      }
    }
  }
  ~DeviceArray() { reset(); }
  DeviceArray(DeviceArray&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  void reset() {
    if (p_) cudaFree(p_);
    p_ = nullptr;
    n_ = 0;
  }
  T* get() const { return p_; }
  uint64_t size() const { return n_; }
  uint64_t bytes() const { return n_ * sizeof(T); }

 private:
  T* p_ = nullptr;
  uint64_t n_ = 0;
};

// Makes `device` current for the scope and restores the previous one.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    cudaGetDevice(&prev_);
    if (device != prev_) WX_CUDA(cudaSetDevice(device));
  }
  ~DeviceScope() { cudaSetDevice(prev_); }

 private:
  int prev_ = 0;
};

}  // namespace wx
