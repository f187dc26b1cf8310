// Cache-line aligned host array that reports allocation failure as WX_ERR_OUT_OF_MEMORY instead of
// letting the OS overcommit memory it cannot back (a later page fault would kill the process).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include <sys/mman.h>
#include <unistd.h>

#include "common/error.hpp"

namespace wx::cpu {

// Physical memory of the machine; requests larger than this are refused up front.
inline uint64_t physical_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return UINT64_MAX;
  return uint64_t(pages) * uint64_t(page);
}

template <typename T>
class HostBuffer {
  static constexpr uint64_t kHugePage = uint64_t(2) << 20;
  static constexpr uint64_t kHugeFrom = uint64_t(4) << 20;

 public:
  HostBuffer() = default;
  explicit HostBuffer(uint64_t count) : count_(count) {
    if (count == 0) return;
    if (count > (UINT64_MAX / 2) / sizeof(T) || count * sizeof(T) > physical_memory_bytes())
      fail(WX_ERR_OUT_OF_MEMORY, "cannot allocate " + std::to_string(count) + " table entries: more than the machine's memory");
    // Large arrays are aligned to 2 MiB and asked to use transparent huge pages: random probes into
    // a big table otherwise miss the TLB on nearly every access.
    const uint64_t align = count * sizeof(T) >= kHugeFrom ? kHugePage : 64;
    const uint64_t bytes = (count * sizeof(T) + align - 1) & ~(align - 1);
    data_ = static_cast<T*>(std::aligned_alloc(align, bytes));
    if (!data_) fail(WX_ERR_OUT_OF_MEMORY, "host allocation of " + std::to_string(bytes) + " bytes failed");
#ifdef MADV_HUGEPAGE
    if (align == kHugePage) madvise(data_, bytes, MADV_HUGEPAGE);  // advice only: failure is harmless
#endif
  }
  ~HostBuffer() { std::free(data_); }
  HostBuffer(HostBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(count_, o.count_);
    return *this;
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  T* data() const { return data_; }
  uint64_t size() const { return count_; }
  uint64_t bytes() const { return count_ * sizeof(T); }
  T& operator[](uint64_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  uint64_t count_ = 0;
};

}  // namespace wx::cpu
