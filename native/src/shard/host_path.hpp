// Bulk calls of a sharded CPU table. The call is cut into pieces; each piece is split per shard
// (stable_split) into per-shard runs of scratch, with each element's index in the piece; the shards
// run their runs concurrently, then the results are gathered to the caller's order. (GPU kinds take
// staged_path.hpp: routing on the device beats this split on the host.)
#pragma once
#include <cstdint>
#include <vector>

#include "common/table.hpp"

namespace wx::shard {

class ShardSet;

class HostPath {
 public:
  HostPath() = default;
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

  char* scratch_ = nullptr;
  uint64_t bytes_ = 0;
  std::vector<uint8_t> sid_;
};

}  // namespace wx::shard
