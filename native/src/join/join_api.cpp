// C API of the joins (wx_join_*): argument checks, the join's table, the engine of its memory space.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "common/api_hooks.hpp"
#include "common/device.hpp"
#include "join/join.hpp"

struct wx_join {
  wx_table* table = nullptr;  // created for this join only, by the engine once it knows the keys (none
                              // when sharded: the engine holds one inner join per shard)
  std::unique_ptr<wx::join::Engine> engine;
  wx_config config{};
  void* stream = nullptr;  // GPU kinds: the join's own CUDA stream (calls given no stream run on it)
  std::mutex mu;

  ~wx_join() {
    engine.reset();
    wx_table_destroy(table);
    if (stream) wx::dev::stream_destroy(stream);
  }
};

namespace {

// Load factor a GPU join's table is built at (see DESIGN.md, Decisions): a join's table lives for a few
// probes, and at the kinds' default limits (0.9, 0.95) inserts and lookups probe far longer.
constexpr double kJoinLoad = 0.5;

using wx::api::guarded;
using wx::api::is_gpu_kind;
using wx::api::require;

void require_join(const wx_join* j) { require(j != nullptr && j->engine, "join is NULL"); }

void require_mem(int32_t mem) { require(mem == WX_MEM_HOST || mem == WX_MEM_DEVICE, "mem must be WX_MEM_HOST or WX_MEM_DEVICE"); }

// A device array must be device memory of the join's device (a join over several devices: of one of them).
void check_on_device(const wx_config& c, const void* p, uint64_t bytes, const char* what) {
  int d = c.device;
  if (c.device_count > 1) {
    d = wx::dev::device_of(p);
    require(std::find(c.devices, c.devices + c.device_count, d) != c.devices + c.device_count,
            std::string(what) + " is flagged WX_MEM_DEVICE but lies on none of the join's devices");
  }
  wx::dev::check_device_range(p, bytes, d, what);
}

// Device-memory arguments must be device memory of the join's devices, and only on GPU kinds.
void check_arrays(const wx_join* j, int32_t mem, std::initializer_list<std::pair<const void*, uint64_t>> arrays) {
  if (mem != WX_MEM_DEVICE) return;
  require(is_gpu_kind(j->config.kind), "WX_MEM_DEVICE arrays given to a CPU join: a CPU join takes host memory");
  for (const auto& [p, bytes] : arrays)
    if (p && bytes) check_on_device(j->config, p, bytes, "an array");
}

// Common checks of a probe call; returns the probe as the engine takes it.
wx::join::Probe probe_of(wx_join* j, const void* keys, const uint64_t* hashes, uint64_t n, int32_t mem, void* stream) {
  require_join(j);
  require_mem(mem);
  require(n <= wx::join::kMaxRows, "probe of " + std::to_string(n) + " rows: a probe column has at most 2^32 - 2 rows");
  require(n == 0 || keys != nullptr, "probe keys is NULL");
  check_arrays(j, mem, {{keys, n * (j->config.key_bits / 8)}, {hashes, n * 8}});
  wx::join::Probe p;
  p.keys = keys;
  p.hashes = hashes;
  p.n = n;
  p.mem = mem;
  p.stream = stream ? stream : j->stream;
  return p;
}

}  // namespace

extern "C" {

int32_t wx_join_create(const wx_config* config, int32_t build, const void* build_keys, uint64_t n, int32_t mem,
                       void* stream, wx_join** out) {
  return guarded([&]() -> int32_t {
    require(out != nullptr, "join output pointer is NULL");
    *out = nullptr;
    require(config != nullptr, "config is NULL");
    require(build == WX_JOIN_UNIQUE || build == WX_JOIN_MULTI, "build must be WX_JOIN_UNIQUE or WX_JOIN_MULTI");
    require_mem(mem);
    require(n <= wx::join::kMaxRows, "build of " + std::to_string(n) + " rows: a build column has at most 2^32 - 2 rows");
    require(n == 0 || build_keys != nullptr, "build keys is NULL");
    auto j = std::make_unique<wx_join>();
    j->config = *config;
    j->config.capacity = 1;  // ignored: the engine sizes the table for the build's distinct keys
    wx::api::check_config(j->config);
    j->config.shards = wx::api::shards_of(j->config);
    if (j->config.device_count == 1) j->config.device = j->config.devices[0], j->config.device_count = 0;
    const bool sharded = j->config.shards > 1 || j->config.device_count > 1;
    const bool gpu = is_gpu_kind(j->config.kind);
    // The device join engine is 32-bit (64-bit GPU tables exist, 64-bit GPU joins do not).
    if (gpu && j->config.key_bits == 64)
      wx::fail(WX_ERR_UNSUPPORTED, "joins on the GPU kinds take 32-bit keys; 64-bit keys join on WX_KIND_CPU");
    if (mem == WX_MEM_DEVICE) {
      require(gpu, "WX_MEM_DEVICE build keys given to a CPU join: a CPU join takes host memory");
      if (n) check_on_device(j->config, build_keys, n * (j->config.key_bits / 8), "build keys");
    }
    if (sharded) {
      j->engine = wx::join::make_sharded_engine(j->config, build, build_keys, n, mem, stream);
      *out = j.release();
      return WX_OK;
    }
    wx_join* raw = j.get();
    const wx::join::TableMaker make_table = [raw, gpu](uint64_t capacity) -> wx::Table& {
      wx_config c = raw->config;
      c.capacity = std::max<uint64_t>(capacity, 1);
      if (raw->table) wx::fail(WX_ERR_INTERNAL, "join table made twice");
      // GPU kinds: room for the keys at kJoinLoad (when below max_load_factor), as the table's own
      // sizing would give at that limit; where the device lacks the memory, the table at its limit.
      const uint64_t exact = c.capacity;
      if (gpu && c.max_load_factor > kJoinLoad)
        c.capacity = static_cast<uint64_t>(std::ceil(static_cast<double>(exact) * c.max_load_factor / kJoinLoad));
      int32_t made = wx_table_create(&c, &raw->table);
      if (made == WX_ERR_OUT_OF_MEMORY && c.capacity != exact) {
        c.capacity = exact;
        made = wx_table_create(&c, &raw->table);
      }
      if (made != WX_OK) wx::fail(static_cast<wx_status>(made), wx::api::last_error());
      return wx::api::table_of(raw->table);
    };
    if (gpu) {
      j->stream = wx::dev::stream_create(j->config.device);
      j->engine = wx::join::make_device_engine(make_table, j->config.device, wx::dev::staging_threads(j->config.threads),
                                               build, build_keys, n, mem,
                                               stream ? stream : j->stream);
    } else {
      j->engine = wx::join::make_host_engine(make_table, j->config.key_bits, build, build_keys, n);
    }
    *out = j.release();
    return WX_OK;
  });
}

int32_t wx_join_destroy(wx_join* j) {
  return guarded([&]() -> int32_t {
    delete j;
    return WX_OK;
  });
}

int32_t wx_join_stats_get(wx_join* j, wx_join_stats* s) {
  return guarded([&]() -> int32_t {
    require_join(j);
    require(s != nullptr, "stats is NULL");
    std::lock_guard<std::mutex> lock(j->mu);
    std::memset(s, 0, sizeof(*s));
    j->engine->stats(s);
    return WX_OK;
  });
}

int32_t wx_join_hash(wx_join* j, const void* keys, uint64_t* hashes, uint64_t n, int32_t mem, void* stream) {
  return guarded([&]() -> int32_t {
    require_join(j);
    if (j->table) {
      std::lock_guard<std::mutex> lock(j->mu);
      return wx_hash_keys(j->table, keys, hashes, n, mem, stream);
    }
    require(n == 0 || hashes != nullptr, "hashes is NULL");
    const wx::join::Probe p = probe_of(j, keys, nullptr, n, mem, stream);
    check_arrays(j, mem, {{hashes, n * 8}});
    std::lock_guard<std::mutex> lock(j->mu);
    j->engine->hash(p, hashes);
    return WX_OK;
  });
}

int32_t wx_join_count(wx_join* j, const void* keys, const uint64_t* hashes, uint64_t n, uint64_t* matches,
                      int32_t mem, void* stream) {
  return guarded([&]() -> int32_t {
    require(matches != nullptr, "matches is NULL");
    const wx::join::Probe p = probe_of(j, keys, hashes, n, mem, stream);
    std::lock_guard<std::mutex> lock(j->mu);
    *matches = j->engine->count(p);
    return WX_OK;
  });
}

int32_t wx_join_probe(wx_join* j, const void* keys, const uint64_t* hashes, uint64_t n, uint32_t* probe_rows,
                      uint32_t* build_rows, uint64_t capacity, uint64_t* count, int32_t mem, void* stream) {
  return guarded([&]() -> int32_t {
    require(count != nullptr, "count is NULL");
    *count = 0;
    const wx::join::Probe p = probe_of(j, keys, hashes, n, mem, stream);
    require(capacity == 0 || (probe_rows != nullptr && build_rows != nullptr), "probe_rows or build_rows is NULL");
    check_arrays(j, mem, {{probe_rows, capacity * 4}, {build_rows, capacity * 4}});
    std::lock_guard<std::mutex> lock(j->mu);
    *count = j->engine->probe(p, probe_rows, build_rows, capacity);
    if (*count > capacity) {
      wx::api::last_error() = "the join gives " + std::to_string(*count) + " pairs but the output arrays hold " +
                              std::to_string(capacity) + "; nothing was written (size them from *count or wx_join_count)";
      return WX_ERR_INVALID_ARGUMENT;
    }
    return WX_OK;
  });
}

int32_t wx_join_semi(wx_join* j, const void* keys, const uint64_t* hashes, uint64_t n, int32_t anti, uint32_t* rows,
                     uint64_t* count, int32_t mem, void* stream) {
  return guarded([&]() -> int32_t {
    require(count != nullptr, "count is NULL");
    *count = 0;
    const wx::join::Probe p = probe_of(j, keys, hashes, n, mem, stream);
    require(anti == 0 || anti == 1, "anti must be 0 or 1");
    require(n == 0 || rows != nullptr, "rows is NULL");
    check_arrays(j, mem, {{rows, n * 4}});
    std::lock_guard<std::mutex> lock(j->mu);
    *count = j->engine->semi(p, anti == 1, rows);
    return WX_OK;
  });
}

}  // extern "C"
