// Bulk calls of a sharded GPU table whose arrays lie in device memory on one of its devices (the
// source): a kernel there routes each element to its shard and scatters the call's inputs into
// per-shard runs of scratch (with each element's index in the call); a shard on the source runs on its
// run in place, a shard on another device gets its run by a peer copy and sends its results back the
// same way; a second kernel puts the results in the caller's order. The order of elements within a
// shard is not kept (a bulk call runs its elements concurrently anyway). CUDA builds only.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "common/table.hpp"

namespace wx::shard {

class ShardSet;
class DevicePath;
struct DevicePathDelete {
  void operator()(DevicePath* p) const;
};
using DevicePathPtr = std::unique_ptr<DevicePath, DevicePathDelete>;

// The scratch and streams of one set's device calls; enables peer access between its devices where
// the hardware allows (copies between the others go through the host, done by the driver).
DevicePathPtr make_device_path(const std::vector<int>& devices);
// Each shard's counts of a call.
using PerShard = std::vector<BatchResult>;
// A bulk call with device arrays on `source` (a stream there, or NULL: the path's own). Each shard's
// counts go to its unit, or, when per_shard is given, are added to it (the caller records them).
BatchResult run_on_device(DevicePath& path, ShardSet& set, Call call, const Batch& b, int source, void* stream,
                          PerShard* per_shard = nullptr);
// The path's own stream on `device` (made on first use, kept with the path).
void* source_stream(DevicePath& path, int device);
// Every shard's pairs into keys/values on `source`, shard after shard; returns the count.
uint64_t retrieve_all_on_device(DevicePath& path, ShardSet& set, void* keys, void* values, int source, void* stream);

}  // namespace wx::shard
