// The parts of one wx_table: a single unit (shards = 1 on one device: every call goes straight to it,
// exactly as an unsharded table), or N units that each hold the keys routed to them (shard_route.hpp).
// A sharded bulk call is split per shard, the shards run concurrently on the set's threads (one per
// shard; each GPU shard on its own device and stream), and the results come back in the caller's order:
// host arrays through staged_path (GPU kinds) or host_path (CPU kind), device arrays through device_path.
#pragma once
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "shard/device_path.hpp"
#include "shard/shard_threads.hpp"
#include "shard/unit.hpp"
#include "wixlib.h"

namespace wx::shard {

class HostPath;
class StagedPath;

// Keys a shard is given for a table of `capacity` keys over n shards: its even share plus four
// standard deviations of the binomial spread, so a GROW_NEVER table sized for `capacity` uniformly
// routed keys holds them.
uint64_t share_of(uint64_t capacity, uint32_t n);

class ShardSet {
 public:
  // config: checked (wx::api::check_config), shards resolved (>= 1).
  explicit ShardSet(const wx_config& config);
  ~ShardSet();
  ShardSet(const ShardSet&) = delete;
  ShardSet& operator=(const ShardSet&) = delete;

  uint32_t count() const { return uint32_t(units_.size()); }
  Unit& unit(uint32_t s) { return *units_[s]; }
  bool on_device() const { return units_[0]->on_device(); }
  // Distinct devices of the table (GPU kinds; empty for the CPU kind), in config order.
  const std::vector<int>& devices() const { return devices_; }
  // One unit on one device: calls go straight to it.
  bool direct() const { return units_.size() == 1 && devices_.size() <= 1; }
  const wx_config& config() const { return config_; }

  // A bulk call; device arrays (mem = WX_MEM_DEVICE) lie on `source`, one of devices().
  BatchResult run(Call call, const Batch& b, int32_t mem, int source, void* stream);
  // Gives each unit its counts of the call just run (per_shard[s], for wx_shard_stats_get) and returns
  // their sum.
  BatchResult record(const std::vector<BatchResult>& per_shard);
  void forget_last() {
    for (auto& u : units_) u->set_last({});
  }
  uint64_t size();
  uint64_t capacity();
  // Sums over the shards; last_kernel_ms the slowest shard's. last_full / last_invalid left 0.
  void stats(wx_stats* s);
  void clear();
  void resize(uint64_t capacity);
  // Writes every shard's pairs (size() in all) one shard after the other into keys/values (mem; device
  // arrays on `source`); returns the count written.
  uint64_t retrieve_all(void* keys, void* values, uint64_t size, int32_t mem, int source, void* stream);

  // Runs fn(shard) for every shard, concurrently (one thread each); after all have run rethrows the
  // first failure. It has threads of its own: a call may split its next piece with for_parts meanwhile.
  void for_each_shard(const std::function<void(uint32_t)>& fn);
  // Runs fn(part, lo, hi) over `parts` (<= threads()) contiguous ranges of [0, n) on the set's threads.
  void for_parts(uint64_t n, unsigned parts, const std::function<void(unsigned, uint64_t, uint64_t)>& fn);
  unsigned threads() const { return threads_ ? threads_->size() : 1u; }

 private:
  wx_config config_;
  std::vector<int> devices_;
  std::vector<std::unique_ptr<Unit>> units_;
  std::unique_ptr<ShardThreads> threads_;  // sharded sets only: split and gather passes
  std::unique_ptr<ShardThreads> runners_;  // sharded sets only: one thread per shard's call
  std::unique_ptr<HostPath> host_;         // CPU kind: scratch of its calls, made on first use
  std::unique_ptr<StagedPath> staged_;     // GPU kinds: staging of host-array calls, made on first use
  DevicePathPtr device_;                   // scratch of device-array calls, made on first use
};

}  // namespace wx::shard
