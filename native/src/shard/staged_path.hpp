// Bulk calls of a sharded GPU table with host arrays. The call is cut into one contiguous part per
// device, and each part goes through that device's staging pipeline (common/device_staging.cuh) over
// that device's own link: its chunks are packed into page-locked buffers and copied to the device, each
// chunk runs there as a device-array call with that device as the source (device_path: routed by
// kernels, peer copies to the shards on other devices), and its results come back the same way. The
// parts run on threads of their own; their chunks' device calls take turns (they share the shards and
// the routing scratch), while the host copies and transfers of all parts overlap.
#pragma once
#include <cstdint>
#include <mutex>
#include <vector>

#include "common/device.hpp"
#include "common/table.hpp"
#include "shard/device_path.hpp"

namespace wx::shard {

class ShardSet;

class StagedPath {
 public:
  explicit StagedPath(size_t devices) : stagers_(devices) {}

  // Runs the call; per-shard counts go to each unit's last().
  BatchResult run(ShardSet& set, DevicePath& path, Call call, const Batch& b);

 private:
  std::vector<dev::StagerPtr> stagers_;  // one per device of the set, made on its first call
  std::mutex turn_;                      // one chunk's device call at a time
};

}  // namespace wx::shard
