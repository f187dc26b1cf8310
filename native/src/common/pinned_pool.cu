// The process's pool of page-locked staging buffers (see pinned_pool.cuh).
#include "common/pinned_pool.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>

namespace wx::dev {

namespace {

// Idle buffers kept for the next calls, in bytes; a buffer given back beyond it is freed.
constexpr uint64_t kKeepIdle = uint64_t(1) << 30;

class Pool {
 public:
  // Never destroyed: the process's exit may run after the CUDA runtime is gone.

  // The smallest idle buffer of `bytes` to twice that, else a new one; {nullptr, 0} when the OS
  // refuses. A larger idle buffer stays for the calls that need it: a lease kept for good (the join
  // transfer slots) would otherwise hold it.
  PinnedLease::Buffer take(uint64_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto best = idle_.end();
      for (auto it = idle_.begin(); it != idle_.end(); ++it)
        if (it->bytes >= bytes && it->bytes / 2 <= bytes && (best == idle_.end() || it->bytes < best->bytes)) best = it;
      if (best != idle_.end()) {
        const PinnedLease::Buffer b = *best;
        idle_.erase(best);
        idle_bytes_ -= b.bytes;
        return b;
      }
      if (bytes >= refused_at_) return {nullptr, 0};  // asking again would cost each call the refusal
    }
    void* p = nullptr;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
      cudaGetLastError();
      std::lock_guard<std::mutex> lock(mu_);
      refused_at_ = std::min(refused_at_, bytes);
      return {nullptr, 0};
    }
    return {static_cast<char*>(p), bytes};
  }

  void give(const PinnedLease::Buffer& b) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (idle_bytes_ + b.bytes <= kKeepIdle) {
        idle_.push_back(b);
        idle_bytes_ += b.bytes;
        return;
      }
    }
    cudaFreeHost(b.p);
  }

 private:
  std::mutex mu_;
  std::vector<PinnedLease::Buffer> idle_;
  uint64_t idle_bytes_ = 0;
  uint64_t refused_at_ = ~uint64_t(0);  // the smallest size the OS would not lock
};

Pool& pool() {
  static auto* p = new Pool();  // never freed, like the buffers it keeps
  return *p;
}

}  // namespace

PinnedLease::PinnedLease(unsigned count, uint64_t bytes) {
  buffers_.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    const Buffer b = pool().take(bytes);
    if (!b.p) {
      give_back();
      return;
    }
    buffers_.push_back(b);
  }
}

PinnedLease::~PinnedLease() { give_back(); }

PinnedLease& PinnedLease::operator=(PinnedLease&& o) noexcept {
  if (this != &o) {
    give_back();
    buffers_ = std::move(o.buffers_);
    o.buffers_.clear();
  }
  return *this;
}

void PinnedLease::give_back() {
  for (const Buffer& b : buffers_) pool().give(b);
  buffers_.clear();
}

}  // namespace wx::dev
