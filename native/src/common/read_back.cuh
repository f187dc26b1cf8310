// The few counter words a table reads back after each call, written by a one-warp kernel into mapped
// page-locked memory. A cudaMemcpyAsync of them queues on the copy engine behind the staging transfers
// of the chunk before, and into pageable memory it bounces through a driver buffer as well.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

namespace wx {

class ReadBack {
 public:
  static constexpr size_t kBytes = 128;  // room of one ReadBack

  ReadBack() = default;
  ~ReadBack();  // gives the block back to the process-wide pool
  ReadBack(const ReadBack&) = delete;
  ReadBack& operator=(const ReadBack&) = delete;

  // Queues on s the copy of `bytes` (a multiple of 8) of device memory at dev to byte `at` of the block
  // (at + bytes <= kBytes); the words are in place once s has been synchronised.
  void fetch(const void* dev, size_t bytes, size_t at, cudaStream_t s);
  // Copies `bytes` from byte `at` of the block (after the stream of the fetch was synchronised).
  void copy_to(void* dst, size_t bytes, size_t at = 0) const { std::memcpy(dst, words() + at, bytes); }

 private:
  const char* words() const { return block_ ? block_ : local_; }

  char* block_ = nullptr;     // kBytes of mapped page-locked memory, taken on the first fetch
  char* device_ = nullptr;    // block_ as kernels address it
  bool unpinned_ = false;     // no page-locked memory to be had: copies into local_ instead
  alignas(8) char local_[kBytes] = {};
};

}  // namespace wx
