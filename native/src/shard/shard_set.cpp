#include "shard/shard_set.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include "common/device.hpp"
#include "shard/host_path.hpp"
#include "shard/staged_path.hpp"

namespace wx::shard {

namespace {

unsigned cores() { return std::max(1u, std::thread::hardware_concurrency()); }

// Host threads that split and gather a call: the CPU kind's thread count, or a GPU kind's staging
// threads (the copies these replace).
unsigned split_threads(const wx_config& c) {
  if (c.kind == WX_KIND_CPU) return c.threads > 0 ? unsigned(c.threads) : cores();
  return dev::staging_threads(c.threads);
}

}  // namespace

uint64_t share_of(uint64_t capacity, uint32_t n) {
  if (n <= 1 || capacity == 0) return capacity;
  const uint64_t even = (capacity + n - 1) / n;
  return even + uint64_t(std::ceil(4.0 * std::sqrt(double(even))));
}

ShardSet::ShardSet(const wx_config& c) : config_(c) {
  const uint32_t n = uint32_t(std::max(c.shards, 1));
  const bool gpu = c.kind != WX_KIND_CPU;
  if (gpu && c.device_count > 0) devices_.assign(c.devices, c.devices + c.device_count);
  else if (gpu) devices_.push_back(c.device);
  units_.reserve(n);
  for (uint32_t s = 0; s < n; ++s) {
    wx_config u = c;
    u.shards = 1;
    u.device_count = 0;
    if (gpu) u.device = devices_[s % devices_.size()];
    if (n > 1) {
      u.capacity = share_of(c.capacity, n);
      // CPU shards run at once: together they use the threads one table would.
      if (!gpu) u.threads = int32_t(std::max(1u, split_threads(c) / n));
    }
    units_.push_back(std::make_unique<Unit>(u));
  }
  if (!direct()) {
    threads_ = std::make_unique<ShardThreads>(n, std::min(split_threads(c), cores()));
    runners_ = std::make_unique<ShardThreads>(n, 1);
  }
}

ShardSet::~ShardSet() = default;

void ShardSet::for_each_shard(const std::function<void(uint32_t)>& fn) {
  if (!threads_) {
    for (uint32_t s = 0; s < count(); ++s) fn(s);
    return;
  }
  runners_->for_each_shard(count(), fn);
}

void ShardSet::for_parts(uint64_t n, unsigned parts, const std::function<void(unsigned, uint64_t, uint64_t)>& fn) {
  if (!threads_) return fn(0, 0, n);
  threads_->for_parts(n, parts, fn);
}

BatchResult ShardSet::record(const std::vector<BatchResult>& per_shard) {
  BatchResult total;
  for (uint32_t s = 0; s < count(); ++s) {
    units_[s]->set_last(per_shard[s]);
    total.invalid += per_shard[s].invalid;
    total.full += per_shard[s].full;
  }
  return total;
}

BatchResult ShardSet::run(Call call, const Batch& b, int32_t mem, int source, void* stream) {
  if (direct()) return units_[0]->run(call, b, mem, stream);
  if (mem == WX_MEM_DEVICE) {
    if (!device_) device_ = make_device_path(devices_);
    return run_on_device(*device_, *this, call, b, source, stream);
  }
  if (on_device()) {
    if (!device_) device_ = make_device_path(devices_);
    if (!staged_) staged_ = std::make_unique<StagedPath>(devices_.size());
    return staged_->run(*this, *device_, call, b);
  }
  if (!host_) host_ = std::make_unique<HostPath>();
  return host_->run(*this, call, b);
}

uint64_t ShardSet::size() {
  uint64_t s = 0;
  for (auto& u : units_) s += u->table().size();
  return s;
}

uint64_t ShardSet::capacity() {
  uint64_t c = 0;
  for (auto& u : units_) c += u->table().capacity();
  return c;
}

void ShardSet::stats(wx_stats* s) {
  if (direct()) return units_[0]->table().stats(s);
  for (auto& u : units_) {
    wx_stats one{};
    u->table().stats(&one);
    s->size += one.size;
    s->capacity += one.capacity;
    s->bytes += one.bytes;
    s->resizes += one.resizes;
    s->stash_used += one.stash_used;
    s->displacements += one.displacements;
    s->failed_inserts += one.failed_inserts;
    s->last_kernel_ms = std::max(s->last_kernel_ms, one.last_kernel_ms);
  }
}

void ShardSet::clear() {
  for_each_shard([&](uint32_t s) { units_[s]->table().clear(); });
}

void ShardSet::resize(uint64_t capacity) {
  if (direct()) return units_[0]->table().resize(capacity);
  const uint64_t share = share_of(capacity, count());
  for_each_shard([&](uint32_t s) {
    Table& t = units_[s]->table();
    t.resize(std::max(share, t.size()));
  });
}

uint64_t ShardSet::retrieve_all(void* keys, void* values, uint64_t size, int32_t mem, int source, void* stream) {
  if (direct()) return units_[0]->retrieve_all(keys, values, size, mem, stream);
  if (mem == WX_MEM_DEVICE) {
    if (!device_) device_ = make_device_path(devices_);
    return retrieve_all_on_device(*device_, *this, keys, values, source, stream);
  }
  const uint64_t width = uint64_t(config_.key_bits / 8);
  std::vector<uint64_t> at(count() + 1, 0), wrote(count(), 0);
  for (uint32_t s = 0; s < count(); ++s) at[s + 1] = at[s] + units_[s]->table().size();
  if (at[count()] > size) fail(WX_ERR_INTERNAL, "retrieve_all: the shards hold more keys than the table's size");
  for_each_shard([&](uint32_t s) {
    const uint64_t n = at[s + 1] - at[s];
    if (n == 0) return;
    wrote[s] = units_[s]->retrieve_all(static_cast<char*>(keys) + at[s] * width,
                                       static_cast<char*>(values) + at[s] * width, n, WX_MEM_HOST, nullptr);
  });
  uint64_t total = 0;
  for (uint32_t s = 0; s < count(); ++s) {
    if (wrote[s] != at[s + 1] - at[s]) fail(WX_ERR_INTERNAL, "retrieve_all: a shard wrote a count other than its size");
    total += wrote[s];
  }
  return total;
}

}  // namespace wx::shard
