// Read-back blocks (read_back.cuh): page-locked, mapped and portable, so a kernel on any device writes
// them. Blocks come from pages of a process-wide pool that is never unlocked: a page-locking call costs
// far more than a table creation, and the pool holds one block per live table.
#include "common/read_back.cuh"

#include <mutex>
#include <string>
#include <vector>

#include "common/cuda_util.cuh"

namespace wx {

namespace {

constexpr size_t kPage = 64 * 1024;

struct Pool {
  std::mutex mu;
  std::vector<char*> free;

  // A block, or nullptr when the OS locks no more memory.
  char* take() {
    std::lock_guard<std::mutex> lock(mu);
    if (free.empty()) {
      char* page = nullptr;
      if (cudaHostAlloc(reinterpret_cast<void**>(&page), kPage, cudaHostAllocMapped | cudaHostAllocPortable) !=
          cudaSuccess) {
        cudaGetLastError();
        return nullptr;
      }
      for (size_t at = kPage; at > 0; at -= ReadBack::kBytes) free.push_back(page + at - ReadBack::kBytes);
    }
    char* b = free.back();
    free.pop_back();
    return b;
  }
  void give(char* b) {
    std::lock_guard<std::mutex> lock(mu);
    free.push_back(b);
  }
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: tables may be destroyed during static destruction
  return *p;
}

__global__ void copy_words(const unsigned long long* __restrict__ src, unsigned long long* dst, unsigned n) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
}

}  // namespace

ReadBack::~ReadBack() {
  if (block_) pool().give(block_);
}

void ReadBack::fetch(const void* dev, size_t bytes, size_t at, cudaStream_t s) {
  if (at + bytes > kBytes || bytes % 8 != 0 || at % 8 != 0)
    fail(WX_ERR_INTERNAL, "read-back of " + std::to_string(bytes) + " bytes at " + std::to_string(at));
  if (!block_ && !unpinned_) {
    block_ = pool().take();
    void* d = nullptr;  // with unified addressing the host address itself
    if (block_ && cudaHostGetDevicePointer(&d, block_, 0) != cudaSuccess) {
      cudaGetLastError();
      pool().give(block_);
      block_ = nullptr;
    }
    device_ = static_cast<char*>(d);
    unpinned_ = !block_;
  }
  if (unpinned_) {
    WX_CUDA(cudaMemcpyAsync(local_ + at, dev, bytes, cudaMemcpyDeviceToHost, s));
    return;
  }
  copy_words<<<1, 32, 0, s>>>(static_cast<const unsigned long long*>(dev),
                              reinterpret_cast<unsigned long long*>(device_ + at), unsigned(bytes / 8));
  WX_CUDA_LAUNCHED("copy_words");
}

}  // namespace wx
