// Page-locked buffers kept for the whole process and lent to one staged call at a time. A table then
// locks no host memory of its own: page-locking costs 0.6-0.7 ms per MB (a table's 63-113 MB of
// staging slots: 40-80 ms on its first host call), and memory locked per table would grow with the
// number of tables rather than with the number of calls that run at once.
#pragma once
#include <cstdint>
#include <vector>

namespace wx::dev {

// `count` page-locked buffers of at least `bytes` each (portable: any device may copy from them),
// given back when the lease ends. Empty when the OS will not lock that much more memory.
class PinnedLease {
 public:
  PinnedLease() = default;
  PinnedLease(unsigned count, uint64_t bytes);
  ~PinnedLease();
  PinnedLease(PinnedLease&& o) noexcept : buffers_(std::move(o.buffers_)) { o.buffers_.clear(); }
  PinnedLease& operator=(PinnedLease&& o) noexcept;
  PinnedLease(const PinnedLease&) = delete;
  PinnedLease& operator=(const PinnedLease&) = delete;

  bool empty() const { return buffers_.empty(); }
  char* operator[](unsigned i) const { return buffers_[i].p; }

  struct Buffer {
    char* p;
    uint64_t bytes;
  };

 private:
  void give_back();
  std::vector<Buffer> buffers_;
};

}  // namespace wx::dev
