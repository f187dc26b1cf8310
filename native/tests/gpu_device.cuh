// Device helpers shared by the design tests that drive a backend directly (gpu_glht_*.cu,
// gpu_hive_*.cu): CUDA_OK, device buffers, a stream, and the skip when no device exists.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.hpp"

#define CUDA_OK(call)                                                                             \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

namespace wxtest {

// Exits 77 (skipped) where no CUDA device exists, or fails under WIXLIB_REQUIRE_GPU=1.
inline void require_cuda_device() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) skip_without_gpu("no CUDA device");
}

// A device array of n elements; put/get copy whole host vectors.
template <typename T>
struct Dev {
  T* p = nullptr;
  size_t n = 0;
  explicit Dev(size_t count) : n(count) { CUDA_OK(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T))); }
  explicit Dev(const std::vector<T>& h) : Dev(h.size()) { put(h); }
  ~Dev() { cudaFree(p); }
  Dev(const Dev&) = delete;
  Dev& operator=(const Dev&) = delete;
  void put(const std::vector<T>& h) {
    if (!h.empty()) CUDA_OK(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> get() const {
    std::vector<T> h(n);
    if (n > 0) CUDA_OK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { CUDA_OK(cudaStreamCreate(&s)); }
  ~Stream() { cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};

}  // namespace wxtest
