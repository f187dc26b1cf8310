#include "shard/staged_path.hpp"

#include <algorithm>
#include <exception>
#include <system_error>
#include <thread>

#include "shard/shard_set.hpp"

namespace wx::shard {

namespace {

// Elements [lo, lo + n) of a call's arrays (keys and values kb bytes wide).
Batch part_of(const Batch& b, uint64_t lo, uint64_t n, uint64_t kb) {
  Batch p = b;
  p.n = n;
  if (b.keys) p.keys = static_cast<const char*>(b.keys) + lo * kb;
  if (b.values_in) p.values_in = static_cast<const char*>(b.values_in) + lo * kb;
  if (b.values_out) p.values_out = static_cast<char*>(b.values_out) + lo * kb;
  if (b.ops) p.ops = b.ops + lo;
  if (b.outcomes) p.outcomes = b.outcomes + lo;
  if (b.hashes) p.hashes = b.hashes + lo;
  if (b.hashes_out) p.hashes_out = b.hashes_out + lo;
  return p;
}

}  // namespace

BatchResult StagedPath::run(ShardSet& set, DevicePath& path, Call call, const Batch& b) {
  const std::vector<int>& devices = set.devices();
  const wx_config& config = set.config();
  // A part per device, but none smaller than a staging chunk: small calls stay on the first device.
  const size_t parts = size_t(std::clamp<uint64_t>(b.n / config.staging_chunk, 1, devices.size()));
  for (size_t i = 0; i < parts; ++i) source_stream(path, devices[i]);  // made before the threads share the path
  PerShard per_shard(set.count());
  std::vector<std::exception_ptr> errors(parts);
  auto run_part = [&](size_t i) {
    try {
      const int d = devices[i];
      const uint64_t lo = b.n * i / parts, hi = b.n * (i + 1) / parts;
      Batch part = part_of(b, lo, hi - lo, uint64_t(config.key_bits / 8));
      part.stream = source_stream(path, d);
      wx_config on_d = config;
      on_d.device = d;
      dev::run_staged(
          [&](Call c, const Batch& chunk) {
            std::lock_guard<std::mutex> turn(turn_);
            return run_on_device(path, set, c, chunk, d, chunk.stream, &per_shard);
          },
          call, part, on_d, stagers_[i]);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  std::vector<std::thread> others;
  for (size_t i = 1; i < parts; ++i) {
    try {
      others.emplace_back(run_part, i);
    } catch (const std::system_error&) {
      run_part(i);  // no thread to be had: still correct, only slower
    }
  }
  run_part(0);
  for (std::thread& t : others) t.join();
  const BatchResult total = set.record(per_shard);
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return total;
}

}  // namespace wx::shard
