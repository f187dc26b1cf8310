// One table design instance with what its calls need: the whole of a one-shard table, or one shard of
// a sharded table. A device unit has its own stream and its own staging buffers for host arrays.
#pragma once
#include <cstdint>
#include <memory>

#include "common/device.hpp"
#include "common/table.hpp"
#include "wixlib.h"

namespace wx::shard {

class Unit {
 public:
  // config: this unit's own (its device, its share of the capacity, shards = 1).
  explicit Unit(const wx_config& config);
  ~Unit();
  Unit(const Unit&) = delete;
  Unit& operator=(const Unit&) = delete;

  Table& table() { return *impl_; }
  const wx_config& config() const { return config_; }
  bool on_device() const { return impl_->on_device(); }
  int device() const { return impl_->device(); }
  void* stream() const { return stream_; }

  // Runs `call` with arrays in `mem` (host arrays of a device unit go through its staging buffers);
  // stream: NULL for the unit's own. Keeps the counts for last().
  BatchResult run(Call call, Batch b, int32_t mem, void* stream);
  // Writes the unit's `size` pairs into keys/values in `mem`; returns the count written.
  uint64_t retrieve_all(void* keys, void* values, uint64_t size, int32_t mem, void* stream);
  // Counts of the unit's last bulk call.
  const BatchResult& last() const { return last_; }
  void set_last(const BatchResult& r) { last_ = r; }

 private:
  wx_config config_;
  void* stream_ = nullptr;  // device units: the unit's own CUDA stream
  std::unique_ptr<Table> impl_;
  dev::StagerPtr stager_;  // device units: buffers for host arrays, made on first use
  BatchResult last_;
};

}  // namespace wx::shard
