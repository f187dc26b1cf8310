// Bulk calls of a sharded table with host arrays. The call is cut into pieces; each piece is split per
// shard (stable_split) into per-shard runs of scratch, with each element's index in the piece; the
// shards run their runs concurrently as host-array calls (a GPU shard's staged call copies the
// page-locked scratch straight to its device), then the results are gathered to the caller's order.
#pragma once
#include <cstdint>
#include <vector>

#include "common/table.hpp"

namespace wx::shard {

class ShardSet;

class HostPath {
 public:
  // page_locked: the scratch is page-locked (GPU kinds; plain memory if the OS refuses).
  explicit HostPath(bool page_locked) : page_locked_(page_locked) {}
  ~HostPath();
  HostPath(const HostPath&) = delete;
  HostPath& operator=(const HostPath&) = delete;

  // Runs the call; per-shard counts go to each unit's last().
  BatchResult run(ShardSet& set, Call call, const Batch& b);

 private:
  // Scratch of `bytes` at least (grown, never shrunk; contents not kept).
  char* reserve(uint64_t bytes);
  void release();
  template <typename K>
  BatchResult run_typed(ShardSet& set, Call call, const Batch& b);

  bool page_locked_;
  bool locked_ = false;  // scratch_ came from the page-locked allocator
  char* scratch_ = nullptr;
  uint64_t bytes_ = 0;
  std::vector<uint8_t> sid_;
};

}  // namespace wx::shard
