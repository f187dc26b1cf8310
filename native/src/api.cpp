// The C API: argument checks, status + thread-local message, per-table serialisation, dispatch to the
// table's shard set (shard/shard_set.hpp: one unit called directly, or shards). Knows no kernel.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "common/api_hooks.hpp"
#include "common/device.hpp"
#include "common/error.hpp"
#include "common/table.hpp"
#include "shard/shard_set.hpp"
#include "wixlib.h"
#ifndef WIXLIB_VERSION_STRING
#include "wixlib_build_id.h"  // WIXLIB_VERSION_STRING: the build id the Java loader checks
#endif

struct wx_table {
  std::unique_ptr<wx::shard::ShardSet> set;
  wx_config config;      // shards resolved (>= 1)
  wx::BatchResult last;  // counts of the last bulk call (wx_stats last_full, last_invalid)
  std::mutex mu;
};

namespace {

thread_local std::string t_last_error;

using wx::api::guarded;
using wx::api::is_gpu_kind;
using wx::api::kMaxBatch;
using wx::api::require;
using wx::api::status_of;

void require_table(const wx_table* t) { require(t != nullptr && t->set, "table is NULL"); }

// Width checks are per table; pointers may be NULL only when n == 0 or the argument is optional.
void require_array(const void* p, uint64_t n, const char* what) {
  require(n == 0 || p != nullptr, std::string(what) + " is NULL");
}


// Checks arrays flagged as device memory really are device memory of one of the table's devices (the
// one `first` lies on); returns that device (-1 for host arrays).
int device_arrays(wx_table* t, int32_t mem, const void* first,
                  std::initializer_list<std::pair<const void*, uint64_t>> arrays) {
  if (mem != WX_MEM_DEVICE) return -1;
  require(t->set->on_device(), "WX_MEM_DEVICE arrays given to a CPU table: a CPU table takes host memory");
  const std::vector<int>& devices = t->set->devices();
  int d = devices[0];
  if (devices.size() > 1) {
    d = wx::dev::device_of(first);
    require(std::find(devices.begin(), devices.end(), d) != devices.end(),
            "WX_MEM_DEVICE arrays must lie on one of the table's devices" +
                (d >= 0 ? "; these lie on device " + std::to_string(d) : std::string("; these are not device memory")));
  }
  for (const auto& [p, bytes] : arrays)
    if (p) wx::dev::check_device_range(p, bytes, d, "an array");
  return d;
}

// Common path of every bulk call: validates, serialises, stages host arrays for device tables, and
// keeps the call's FULL and INVALID_KEY counts for wx_stats_get.
int32_t bulk(wx_table* t, wx::Call call, wx::Batch b, int32_t mem, void* stream) {
  using wx::Call;
  return guarded([&]() -> int32_t {
    require_table(t);
    require(mem == WX_MEM_HOST || mem == WX_MEM_DEVICE, "mem must be WX_MEM_HOST or WX_MEM_DEVICE");
    require(b.n <= kMaxBatch, "batch of " + std::to_string(b.n) + " elements is larger than 2^40");
    require_array(b.keys, b.n, "keys");
    if (call == Call::hash_keys) require_array(b.hashes_out, b.n, "hashes");
    if (call == Call::find_hashed || call == Call::insert_hashed) require_array(b.hashes, b.n, "hashes");
    if (call == Call::insert_or_assign || call == Call::batch) require_array(b.values_in, b.n, "values");
    if (call == Call::find || call == Call::find_hashed) require_array(b.values_out, b.n, "values");
    if (call == Call::contains) require_array(b.outcomes, b.n, "found");
    if (call == Call::batch) require_array(b.ops, b.n, "ops");
    std::lock_guard<std::mutex> lock(t->mu);
    t->last = {};
    t->set->forget_last();
    if (b.n == 0) return WX_OK;
    const uint64_t kbytes = b.n * (t->config.key_bits / 8), vbytes = b.n * (t->config.value_bits / 8);
    const int source = device_arrays(t, mem, b.keys, {{b.keys, kbytes}, {b.values_in, vbytes}, {b.values_out, vbytes},
                                                      {b.ops, b.n}, {b.outcomes, b.n}, {b.hashes, b.n * 8},
                                                      {b.hashes_out, b.n * 8}});
    t->last = t->set->run(call, b, mem, source, stream);
    return status_of(t->last, b.n, t->config.key_bits);
  });
}

template <typename F>
int32_t with_table(wx_table* t, F&& f) {
  return guarded([&]() -> int32_t {
    require_table(t);
    std::lock_guard<std::mutex> lock(t->mu);
    f(*t->set);
    return WX_OK;
  });
}

// A query writing one result through `out`, which must not be NULL.
template <typename T, typename F>
int32_t query(wx_table* t, T* out, const char* name, F&& f) {
  if (!out) return guarded([&]() -> int32_t { wx::fail(WX_ERR_INVALID_ARGUMENT, std::string(name) + " is NULL"); });
  return with_table(t, [&](wx::shard::ShardSet& set) { f(set, *out); });
}

}  // namespace

extern "C" {

uint32_t wx_version(void) { return (WX_VERSION_MAJOR << 16) | (WX_VERSION_MINOR << 8) | WX_VERSION_PATCH; }

const char* wx_version_string(void) { return WIXLIB_VERSION_STRING; }

const char* wx_last_error(void) { return t_last_error.c_str(); }

const char* wx_status_name(int32_t status) {
  switch (status) {
    case WX_OK: return "OK";
    case WX_ERR_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case WX_ERR_INVALID_KEY: return "INVALID_KEY";
    case WX_ERR_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case WX_ERR_NO_DEVICE: return "NO_DEVICE";
    case WX_ERR_CUDA: return "CUDA_ERROR";
    case WX_ERR_FULL: return "FULL";
    case WX_ERR_UNSUPPORTED: return "UNSUPPORTED";
    case WX_ERR_INTERNAL: return "INTERNAL";
    default: return "UNKNOWN_STATUS";
  }
}

int32_t wx_kind_available(int32_t kind, int32_t* available) {
  return guarded([&]() -> int32_t {
    require(available != nullptr, "available is NULL");
    require(kind == WX_KIND_CPU || is_gpu_kind(kind), "unknown kind " + std::to_string(kind));
    // A GPU kind: the message says why not (no CUDA build, driver, device, architecture).
    const std::string why = kind == WX_KIND_CPU ? std::string() : wx::dev::unavailable_reason();
    *available = why.empty();
    if (!why.empty()) t_last_error = why;
    return WX_OK;
  });
}

int32_t wx_cuda_versions(int32_t* runtime_version, int32_t* driver_version) {
  return guarded([&]() -> int32_t {
    require(runtime_version && driver_version, "NULL output pointer");
    wx::dev::versions(runtime_version, driver_version);
    return WX_OK;
  });
}

int32_t wx_device_count(int32_t* count) {
  return guarded([&]() -> int32_t {
    require(count != nullptr, "count is NULL");
    *count = wx::dev::count();
    return WX_OK;
  });
}

int32_t wx_device_name(int32_t device, char* name, uint64_t len) {
  return guarded([&]() -> int32_t {
    require(name != nullptr && len > 0, "name buffer is NULL or empty");
    std::string n = wx::dev::name(device);
    size_t m = std::min<uint64_t>(n.size(), len - 1);
    std::memcpy(name, n.data(), m);
    name[m] = '\0';
    return WX_OK;
  });
}

int32_t wx_device_memory(int32_t device, uint64_t* free_bytes, uint64_t* total_bytes) {
  return guarded([&]() -> int32_t {
    require(free_bytes && total_bytes, "NULL output pointer");
    wx::dev::memory(device, free_bytes, total_bytes);
    return WX_OK;
  });
}

int32_t wx_device_properties(int32_t device, int32_t* compute_capability, int32_t* multiprocessors) {
  return guarded([&]() -> int32_t {
    require(compute_capability && multiprocessors, "NULL output pointer");
    wx::dev::properties(device, compute_capability, multiprocessors);
    return WX_OK;
  });
}

int32_t wx_device_alloc(int32_t device, uint64_t bytes, void** ptr) {
  return guarded([&]() -> int32_t {
    require(ptr != nullptr, "ptr is NULL");
    require(bytes > 0, "cannot allocate 0 bytes");
    *ptr = wx::dev::alloc(device, bytes);
    return WX_OK;
  });
}

int32_t wx_device_free(void* ptr) {
  return guarded([&]() -> int32_t {
    if (ptr) wx::dev::free(ptr);
    return WX_OK;
  });
}

int32_t wx_copy(void* dst, int32_t dst_mem, const void* src, int32_t src_mem, uint64_t bytes) {
  return guarded([&]() -> int32_t {
    if (bytes == 0) return WX_OK;
    require(dst && src, "NULL pointer");
    require((dst_mem == WX_MEM_HOST || dst_mem == WX_MEM_DEVICE) && (src_mem == WX_MEM_HOST || src_mem == WX_MEM_DEVICE),
            "mem must be WX_MEM_HOST or WX_MEM_DEVICE");
    if (dst_mem == WX_MEM_HOST && src_mem == WX_MEM_HOST) {
      std::memmove(dst, src, bytes);
      return WX_OK;
    }
    // A range flagged as device memory must lie in device memory; the copy works out directions (UVA).
    if (dst_mem == WX_MEM_DEVICE) wx::dev::check_device_range(dst, bytes, wx::dev::device_of(dst), "dst");
    if (src_mem == WX_MEM_DEVICE) wx::dev::check_device_range(src, bytes, wx::dev::device_of(src), "src");
    wx::dev::copy(dst, src, bytes);
    return WX_OK;
  });
}

int32_t wx_host_alloc(uint64_t bytes, void** ptr) {
  return guarded([&]() -> int32_t {
    require(ptr != nullptr, "ptr is NULL");
    require(bytes > 0, "cannot allocate 0 bytes");
    *ptr = wx::dev::host_alloc(bytes);
    return WX_OK;
  });
}

int32_t wx_host_free(void* ptr) {
  return guarded([&]() -> int32_t {
    if (ptr) wx::dev::host_free(ptr);
    return WX_OK;
  });
}

int32_t wx_host_register(void* ptr, uint64_t bytes) {
  return guarded([&]() -> int32_t {
    require(ptr != nullptr, "ptr is NULL");
    require(bytes > 0, "cannot register 0 bytes");
    wx::dev::host_register(ptr, bytes);
    return WX_OK;
  });
}

int32_t wx_host_unregister(void* ptr) {
  return guarded([&]() -> int32_t {
    require(ptr != nullptr, "ptr is NULL");
    wx::dev::host_unregister(ptr);
    return WX_OK;
  });
}

int32_t wx_link_measure(int32_t device, uint64_t bytes, wx_link_rates* rates) {
  return guarded([&]() -> int32_t {
    require(rates != nullptr, "rates is NULL");
    constexpr uint64_t kDefault = uint64_t(256) << 20, kMin = uint64_t(1) << 20, kMax = uint64_t(8) << 30;
    if (bytes == 0) bytes = kDefault;
    require(bytes >= kMin && bytes <= kMax, "bytes " + std::to_string(bytes) + " is outside [2^20, 2^33]");
    *rates = wx::dev::measure_link(device, bytes);
    return WX_OK;
  });
}

int32_t wx_config_init(wx_config* c, int32_t kind) {
  return guarded([&]() -> int32_t {
    require(c != nullptr, "config is NULL");
    require(kind == WX_KIND_CPU || is_gpu_kind(kind), "unknown kind " + std::to_string(kind));
    std::memset(c, 0, sizeof(*c));
    c->kind = kind;
    c->key_bits = 32;
    c->value_bits = 32;
    c->device = 0;
    c->capacity = 1 << 20;
    c->max_load_factor = kind == WX_KIND_HIVE ? 0.95 : 0.9;
    c->min_load_factor = 0.0;
    c->grow = WX_GROW_AUTO;
    c->threads = 0;
    c->staging_chunk = uint64_t(1) << 21;
    // Mixed batches with fewer than 90 % distinct keys in a sample are combined per key: there
    // combining beat both plain paths on the H200 (GPU kinds' combine.hpp has the numbers).
    c->hot_share = 90;
    c->mixed_group = 0;
    // From 2^24 keys a sorted bulk build beats plain inserts in wall time, scratch allocation included.
    c->build_min = uint64_t(1) << 24;
    c->shards = 1;
    c->device_count = 0;
    return WX_OK;
  });
}

int32_t wx_table_create(const wx_config* c, wx_table** out) {
  return guarded([&]() -> int32_t {
    require(out != nullptr, "table output pointer is NULL");
    *out = nullptr;
    require(c != nullptr, "config is NULL");
    wx::api::check_config(*c);
    auto t = std::make_unique<wx_table>();
    t->config = *c;
    t->config.shards = wx::api::shards_of(*c);
    t->set = std::make_unique<wx::shard::ShardSet>(t->config);
    *out = t.release();
    return WX_OK;
  });
}

int32_t wx_table_destroy(wx_table* t) {
  return guarded([&]() -> int32_t {
    delete t;
    return WX_OK;
  });
}

int32_t wx_insert(wx_table* t, const void* keys, const void* values, uint64_t n, uint8_t* outcomes, int32_t mem, void* stream) {
  wx::Batch b;
  b.keys = keys, b.values_in = values, b.n = n, b.outcomes = outcomes;
  return bulk(t, wx::Call::insert, b, mem, stream);
}

int32_t wx_insert_or_assign(wx_table* t, const void* keys, const void* values, uint64_t n, uint8_t* outcomes, int32_t mem, void* stream) {
  wx::Batch b;
  b.keys = keys, b.values_in = values, b.n = n, b.outcomes = outcomes;
  return bulk(t, wx::Call::insert_or_assign, b, mem, stream);
}

int32_t wx_find(wx_table* t, const void* keys, void* values, uint64_t n, uint64_t not_found_value, int32_t mem, void* stream) {
  wx::Batch b;
  b.keys = keys, b.values_out = values, b.n = n, b.not_found = not_found_value;
  return bulk(t, wx::Call::find, b, mem, stream);
}

int32_t wx_contains(wx_table* t, const void* keys, uint8_t* found, uint64_t n, int32_t mem, void* stream) {
  wx::Batch b;
  b.keys = keys, b.outcomes = found, b.n = n;
  return bulk(t, wx::Call::contains, b, mem, stream);
}

int32_t wx_erase(wx_table* t, const void* keys, uint64_t n, uint8_t* outcomes, int32_t mem, void* stream) {
  wx::Batch b;
  b.keys = keys, b.outcomes = outcomes, b.n = n;
  return bulk(t, wx::Call::erase, b, mem, stream);
}

int32_t wx_batch(wx_table* t, const uint8_t* ops, const void* keys, void* values, uint64_t n, uint8_t* outcomes, int32_t mem, void* stream) {
  wx::Batch b;
  b.ops = ops, b.keys = keys, b.values_in = values, b.values_out = values, b.outcomes = outcomes, b.n = n;
  return bulk(t, wx::Call::batch, b, mem, stream);
}

int32_t wx_hash_keys(wx_table* t, const void* keys, uint64_t* hashes, uint64_t n, int32_t mem, void* stream) {
  wx::Batch b;
  b.keys = keys, b.hashes_out = hashes, b.n = n;
  return bulk(t, wx::Call::hash_keys, b, mem, stream);
}

int32_t wx_find_hashed(wx_table* t, const void* keys, const uint64_t* hashes, void* values, uint64_t n,
                       uint64_t not_found_value, int32_t mem, void* stream) {
  wx::Batch b;
  b.keys = keys, b.hashes = hashes, b.values_out = values, b.n = n, b.not_found = not_found_value;
  return bulk(t, wx::Call::find_hashed, b, mem, stream);
}

int32_t wx_insert_hashed(wx_table* t, const void* keys, const uint64_t* hashes, const void* values, uint64_t n,
                         uint8_t* outcomes, int32_t mem, void* stream) {
  wx::Batch b;
  b.keys = keys, b.hashes = hashes, b.values_in = values, b.outcomes = outcomes, b.n = n;
  return bulk(t, wx::Call::insert_hashed, b, mem, stream);
}

int32_t wx_size(wx_table* t, uint64_t* size) {
  return query(t, size, "size", [](wx::shard::ShardSet& set, uint64_t& out) { out = set.size(); });
}

int32_t wx_capacity(wx_table* t, uint64_t* capacity) {
  return query(t, capacity, "capacity", [](wx::shard::ShardSet& set, uint64_t& out) { out = set.capacity(); });
}

int32_t wx_load_factor(wx_table* t, double* lf) {
  return query(t, lf, "load_factor", [](wx::shard::ShardSet& set, double& out) {
    uint64_t cap = set.capacity();
    out = cap ? double(set.size()) / double(cap) : 0.0;
  });
}

int32_t wx_stats_get(wx_table* t, wx_stats* stats) {
  return query(t, stats, "stats", [&](wx::shard::ShardSet& set, wx_stats& out) {
    std::memset(&out, 0, sizeof(out));
    set.stats(&out);
    out.last_full = t->last.full;
    out.last_invalid = t->last.invalid;
  });
}

int32_t wx_shard_stats_get(wx_table* t, int32_t shard, wx_stats* stats, int32_t* device) {
  return guarded([&]() -> int32_t {
    require_table(t);
    require(stats != nullptr && device != nullptr, "stats or device is NULL");
    const int32_t shards = t->config.shards;
    require(shard >= 0 && shard < shards, "shard " + std::to_string(shard) + " does not exist: the table has " +
                                              std::to_string(shards) + (shards == 1 ? " shard" : " shards"));
    std::lock_guard<std::mutex> lock(t->mu);
    wx::shard::Unit& u = t->set->unit(uint32_t(shard));
    std::memset(stats, 0, sizeof(*stats));
    u.table().stats(stats);
    stats->last_full = u.last().full;
    stats->last_invalid = u.last().invalid;
    *device = u.device();
    return WX_OK;
  });
}

int32_t wx_clear(wx_table* t) {
  return with_table(t, [&](wx::shard::ShardSet& set) { set.clear(); });
}

int32_t wx_resize(wx_table* t, uint64_t capacity) {
  return with_table(t, [&](wx::shard::ShardSet& set) {
    require(capacity <= (uint64_t(1) << 36), "capacity is larger than 2^36 keys");
    uint64_t size = set.size();
    require(capacity >= size, "cannot resize to room for " + std::to_string(capacity) + " keys: the table holds " +
                                  std::to_string(size));
    set.resize(capacity);
  });
}

int32_t wx_retrieve_all(wx_table* t, void* keys, void* values, uint64_t max_count, uint64_t* count, int32_t mem, void* stream) {
  return guarded([&]() -> int32_t {
    require_table(t);
    require(count != nullptr, "count is NULL");
    require(mem == WX_MEM_HOST || mem == WX_MEM_DEVICE, "mem must be WX_MEM_HOST or WX_MEM_DEVICE");
    std::lock_guard<std::mutex> lock(t->mu);
    wx::shard::ShardSet& set = *t->set;
    uint64_t size = set.size();
    *count = size;
    if (size > max_count) {
      t_last_error = "retrieve_all needs room for " + std::to_string(size) + " pairs, got " + std::to_string(max_count);
      return WX_ERR_INVALID_ARGUMENT;
    }
    if (size == 0) return WX_OK;
    require(keys != nullptr && values != nullptr, "keys or values is NULL");
    const int source =
        device_arrays(t, mem, keys, {{keys, size * (t->config.key_bits / 8)}, {values, size * (t->config.value_bits / 8)}});
    *count = set.retrieve_all(keys, values, size, mem, source, stream);
    return WX_OK;
  });
}

}  // extern "C"

// Internal hooks for the other C-API files (join/): the config check, a handle's table and this thread's
// message.
namespace wx::api {

void check_config(const wx_config& c) {
  require(c.kind == WX_KIND_CPU || is_gpu_kind(c.kind), "unknown kind " + std::to_string(c.kind));
  if (!((c.key_bits == 32 && c.value_bits == 32) || (c.key_bits == 64 && c.value_bits == 64)))
    fail(WX_ERR_UNSUPPORTED, "key_bits/value_bits " + std::to_string(c.key_bits) + "/" + std::to_string(c.value_bits) +
                                 " is not supported: keys and values must both be 32 or both be 64 bits");
  // Below WX_LOAD_FACTOR_MIN a table would be mostly air and grow without bound on tiny inputs.
  require(std::isfinite(c.max_load_factor) && c.max_load_factor >= WX_LOAD_FACTOR_MIN &&
              c.max_load_factor <= WX_LOAD_FACTOR_MAX,
          "max_load_factor " + std::to_string(c.max_load_factor) + " is outside [" +
              std::to_string(WX_LOAD_FACTOR_MIN) + ", " + std::to_string(WX_LOAD_FACTOR_MAX) + "]");
  require(std::isfinite(c.min_load_factor) && c.min_load_factor >= 0.0 && c.min_load_factor < c.max_load_factor,
          "min_load_factor must be in [0, max_load_factor)");
  require(c.capacity <= (uint64_t(1) << 36), "capacity " + std::to_string(c.capacity) + " is larger than 2^36 keys");
  require(c.grow == WX_GROW_AUTO || c.grow == WX_GROW_NEVER, "grow must be WX_GROW_AUTO or WX_GROW_NEVER");
  require(c.threads >= 0, "threads must be >= 0, got " + std::to_string(c.threads));
  require(c.staging_chunk >= WX_STAGING_CHUNK_MIN && c.staging_chunk <= WX_STAGING_CHUNK_MAX,
          "staging_chunk " + std::to_string(c.staging_chunk) + " is outside [" + std::to_string(WX_STAGING_CHUNK_MIN) +
              ", " + std::to_string(WX_STAGING_CHUNK_MAX) + "]");
  require(c.hot_share >= 0 && c.hot_share <= WX_HOT_SHARE_MAX,
          "hot_share " + std::to_string(c.hot_share) + " is outside [0, " + std::to_string(WX_HOT_SHARE_MAX) + "]");
  require(c.mixed_group >= 0 && c.mixed_group <= WX_MIXED_GROUP_MAX,
          "mixed_group " + std::to_string(c.mixed_group) + " is outside [0, " + std::to_string(WX_MIXED_GROUP_MAX) + "]");
  require(c.shards >= 0 && c.shards <= WX_MAX_SHARDS,
          "shards " + std::to_string(c.shards) + " is outside [0, " + std::to_string(WX_MAX_SHARDS) + "] (0: one per device)");
  require(c.device_count >= 0 && c.device_count <= WX_MAX_DEVICES,
          "device_count " + std::to_string(c.device_count) + " is outside [0, " + std::to_string(WX_MAX_DEVICES) + "]");
  if (c.kind == WX_KIND_CPU)
    require(c.device_count == 0, "device_count " + std::to_string(c.device_count) +
                                     " given to a CPU table: devices apply to GPU kinds only (set device_count 0)");
  if (is_gpu_kind(c.kind)) {
#ifdef WIXLIB_HAVE_CUDA
    if (wx::dev::count() == 0) fail(WX_ERR_NO_DEVICE, wx::dev::unavailable_reason());
    // The table's devices: `device`, or devices[0 .. device_count) (distinct) when device_count > 0.
    const int32_t* list = c.device_count > 0 ? c.devices : &c.device;
    const int32_t listed = std::max(c.device_count, 1);
    for (int32_t i = 0; i < listed; ++i) {
      const int32_t d = list[i];
      require(d >= 0 && d < wx::dev::count(), "device " + std::to_string(d) + " does not exist (" +
                                                  std::to_string(wx::dev::count()) + " found)");
      require(std::find(list, list + i, d) == list + i, "device " + std::to_string(d) + " is listed twice in devices");
      if (const std::string why = wx::dev::unusable_reason(d); !why.empty()) fail(WX_ERR_NO_DEVICE, why);
    }
#else
    fail(WX_ERR_NO_DEVICE, "GLHT and Hive need a CUDA build of wixlib; this one was built without CUDA");
#endif
  }
}

std::string& last_error() { return t_last_error; }

int32_t shards_of(const wx_config& c) {
  if (c.shards > 0) return c.shards;
  return is_gpu_kind(c.kind) ? std::max(c.device_count, 1) : 1;
}

int32_t status_of(const wx::BatchResult& r, uint64_t n, int32_t key_bits) {
  if (r.invalid > 0) {
    t_last_error = std::to_string(r.invalid) + " of " + std::to_string(n) + " elements carried a reserved key (" +
                   (key_bits == 64 ? "0xFFFFFFFFFFFFFFFF or 0xFFFFFFFFFFFFFFFE" : "0xFFFFFFFF or 0xFFFFFFFE") +
                   ") and were not applied";
    return WX_ERR_INVALID_KEY;
  }
  if (r.full > 0) {
    t_last_error = std::to_string(r.full) + " of " + std::to_string(n) +
                   " inserts found no room (table full and not allowed to grow, or out of memory)";
    return WX_ERR_FULL;
  }
  return WX_OK;
}

wx::Table& table_of(wx_table* t) { return t->set->unit(0).table(); }
}  // namespace wx::api
