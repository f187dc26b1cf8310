// Copies between a caller's host array and device memory at the link's rate when the host array is
// ordinary (pageable) memory: the bytes pass through a few page-locked slots that copy threads fill
// (or empty) while the DMA of the slot before runs. Page-locked arrays and small copies go directly.
// The slots belong to the device for the life of the process, made on first use: page-locking
// costs about 0.5 ms per MiB, far more than copying through memory locked once.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace wx::dev {

// The page-locked slots of a transfer, and the bytes per copy-thread task that fills or empties them
// (wx_link_measure times its host copy the same way).
constexpr uint64_t kTransferSlotBytes = uint64_t(16) << 20;  // 0.3 ms of DMA: a pipeline step
constexpr unsigned kTransferSlots = 3;                        // fill one, DMA one, one spare
constexpr uint64_t kTransferCopyGrain = uint64_t(1) << 20;

// Copies bytes from host src to device dst, ordered on stream st, with `threads` copy threads
// (staging_threads of wx_config threads). Returns once src may be reused; the device side may still be
// in flight on st.
void upload(int device, void* dst, const void* src, uint64_t bytes, cudaStream_t st, unsigned threads);

// Copies bytes from device src (after the work queued on st) to host dst; returns when dst holds them.
void download(int device, void* dst, const void* src, uint64_t bytes, cudaStream_t st, unsigned threads);

}  // namespace wx::dev
