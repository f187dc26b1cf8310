// Host <-> device copies through page-locked slots kept per device (see host_transfer.cuh).
#include "common/host_transfer.cuh"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "common/cuda_util.cuh"
#include "common/device.hpp"
#include "common/pinned_pool.cuh"
#include "cpu/parallel_copy.hpp"
#include "cpu/thread_pool.hpp"

namespace wx::dev {

namespace {

constexpr uint64_t kDirectBelow = uint64_t(1) << 20;  // the driver's own staging is as fast here

class Slots {
 public:
  explicit Slots(int device) : device_(device) {}
  // Never destroyed: the process's exit may run after the CUDA runtime is gone.

  // False when the OS would not lock the slots' memory (the caller then copies directly).
  bool usable() {
    std::lock_guard<std::mutex> lock(mu_);
    return ensure();
  }

  // The copy threads of the next transfer (the pool is made again when the count changes).
  void use_threads(unsigned threads) {
    if (!pool_ || pool_->size() != threads) pool_ = std::make_unique<cpu::ThreadPool>(threads);
  }

  void upload(char* dst, const char* src, uint64_t bytes, cudaStream_t st, unsigned threads) {
    std::lock_guard<std::mutex> lock(mu_);
    use_threads(threads);
    for (uint64_t at = 0, k = 0; at < bytes; at += kTransferSlotBytes, ++k) {
      const unsigned s = unsigned(k % kTransferSlots);
      const uint64_t len = std::min(kTransferSlotBytes, bytes - at);
      WX_CUDA(cudaEventSynchronize(done_[s]));  // the slot's earlier copy has left it
      copy(lease_[s], src + at, len);
      WX_CUDA(cudaMemcpyAsync(dst + at, lease_[s], len, cudaMemcpyHostToDevice, st));
      WX_CUDA(cudaEventRecord(done_[s], st));
    }
  }

  void download(char* dst, const char* src, uint64_t bytes, cudaStream_t st, unsigned threads) {
    std::lock_guard<std::mutex> lock(mu_);
    use_threads(threads);
    const uint64_t chunks = (bytes + kTransferSlotBytes - 1) / kTransferSlotBytes;
    auto len = [&](uint64_t k) { return std::min(kTransferSlotBytes, bytes - k * kTransferSlotBytes); };
    auto queue = [&](uint64_t k) {
      const unsigned s = unsigned(k % kTransferSlots);
      WX_CUDA(cudaEventSynchronize(done_[s]));
      WX_CUDA(cudaMemcpyAsync(lease_[s], src + k * kTransferSlotBytes, len(k), cudaMemcpyDeviceToHost, st));
      WX_CUDA(cudaEventRecord(done_[s], st));
    };
    for (uint64_t k = 0; k < std::min<uint64_t>(chunks, kTransferSlots); ++k) queue(k);
    for (uint64_t k = 0; k < chunks; ++k) {
      const unsigned s = unsigned(k % kTransferSlots);
      WX_CUDA(cudaEventSynchronize(done_[s]));
      copy(dst + k * kTransferSlotBytes, lease_[s], len(k));
      if (k + kTransferSlots < chunks) queue(k + kTransferSlots);
    }
  }

 private:
  // The slots come from the process's pinned pool and are kept for good; a refusal is remembered by
  // the pool, so asking again costs no call its refusal.
  bool ensure() {
    if (ready_) return true;
    DeviceScope scope(device_);
    lease_ = PinnedLease(kTransferSlots, kTransferSlotBytes);
    if (lease_.empty()) return false;
    for (unsigned s = 0; s < kTransferSlots; ++s) {
      if (!done_[s]) WX_CUDA(cudaEventCreateWithFlags(&done_[s], cudaEventDisableTiming));
    }
    ready_ = true;
    return true;
  }

  void copy(char* dst, const char* src, uint64_t bytes) { cpu::parallel_copy(*pool_, {{dst, src, bytes}}, kTransferCopyGrain); }

  const int device_;
  std::mutex mu_;
  bool ready_ = false;
  PinnedLease lease_;  // the slots' page-locked memory
  cudaEvent_t done_[kTransferSlots] = {};
  std::unique_ptr<cpu::ThreadPool> pool_;
};

Slots& slots_of(int device) {
  static std::mutex mu;
  static auto* all = new std::map<int, Slots*>();  // never freed, like the slots
  std::lock_guard<std::mutex> lock(mu);
  Slots*& s = (*all)[device];
  if (!s) s = new Slots(device);
  return *s;
}

}  // namespace

void upload(int device, void* dst, const void* src, uint64_t bytes, cudaStream_t st, unsigned threads) {
  if (bytes == 0) return;
  if (bytes < kDirectBelow || is_page_locked(src, bytes) || !slots_of(device).usable()) {
    WX_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, st));
    return;
  }
  slots_of(device).upload(static_cast<char*>(dst), static_cast<const char*>(src), bytes, st, threads);
}

void download(int device, void* dst, const void* src, uint64_t bytes, cudaStream_t st, unsigned threads) {
  if (bytes == 0) return;
  if (bytes < kDirectBelow || is_page_locked(dst, bytes) || !slots_of(device).usable()) {
    WX_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, st));
    WX_CUDA(cudaStreamSynchronize(st));
    return;
  }
  slots_of(device).download(static_cast<char*>(dst), static_cast<const char*>(src), bytes, st, threads);
}

}  // namespace wx::dev
