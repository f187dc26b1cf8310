// C API of the pre-hashed calls (wx_hash_keys, wx_find_hashed, wx_insert_hashed): the same checks
// and locking as api.cpp's bulk calls; host arrays for device tables are staged whole.
#include <string>

#include "common/api_hooks.hpp"
#include "common/device.hpp"
#include "join/join.hpp"

namespace {

using wx::api::guarded;
using wx::api::kMaxBatch;
using wx::api::require;
using wx::api::status_of;
using wx::join::HashedOp;

int32_t hashed_call(wx_table* t, HashedOp op, const void* keys, const uint64_t* hashes, uint64_t* hashes_out,
                    void* values, uint8_t* outcomes, uint64_t n, uint64_t not_found, int32_t mem, void* stream) {
  return guarded([&]() -> int32_t {
    require(t != nullptr, "table is NULL");
    require(mem == WX_MEM_HOST || mem == WX_MEM_DEVICE, "mem must be WX_MEM_HOST or WX_MEM_DEVICE");
    require(n <= kMaxBatch, "batch of " + std::to_string(n) + " elements is larger than 2^40");
    require(n == 0 || keys != nullptr, "keys is NULL");
    require(n == 0 || op != HashedOp::hash || hashes_out != nullptr, "hashes is NULL");
    require(n == 0 || op == HashedOp::hash || hashes != nullptr, "hashes is NULL");
    require(n == 0 || op != HashedOp::find || values != nullptr, "values is NULL");
    std::lock_guard<std::mutex> lock(wx::api::mutex_of(t));
    wx::Table& table = wx::api::table_of(t);
    const wx_config& c = wx::api::config_of(t);
    if (n == 0) return WX_OK;
    const uint64_t kb = n * (c.key_bits / 8), vb = n * (c.value_bits / 8);
    if (mem == WX_MEM_DEVICE) {
      require(table.on_device(), "WX_MEM_DEVICE arrays given to a CPU table: a CPU table takes host memory");
      for (auto [p, bytes] : {std::pair<const void*, uint64_t>{keys, kb}, {hashes, n * 8}, {hashes_out, n * 8},
                              {values, vb}, {outcomes, n}})
        if (p) wx::dev::check_device_range(p, bytes, table.device(), "an array");
    }
    void* st = stream ? stream : wx::api::stream_of(t);
    if (table.on_device() && mem == WX_MEM_HOST)
      return status_of(wx::join::run_hashed_staged(table, op, keys, hashes, hashes_out, values, outcomes, n, not_found,
                                                   table.device(), st),
                       n, c.key_bits);
    wx::Batch b;
    b.keys = keys;
    b.n = n;
    b.stream = table.on_device() ? st : nullptr;
    switch (op) {
      case HashedOp::hash:
        table.hash_keys(keys, hashes_out, n, b.stream);
        return WX_OK;
      case HashedOp::find:
        b.values_out = values;
        b.not_found = not_found;
        return status_of(table.find_hashed(b, hashes), n, c.key_bits);
      case HashedOp::insert:
        b.values_in = values;
        b.outcomes = outcomes;
        return status_of(table.insert_hashed(b, hashes), n, c.key_bits);
    }
    return WX_ERR_INTERNAL;
  });
}

}  // namespace

extern "C" {

int32_t wx_hash_keys(wx_table* t, const void* keys, uint64_t* hashes, uint64_t n, int32_t mem, void* stream) {
  return hashed_call(t, HashedOp::hash, keys, nullptr, hashes, nullptr, nullptr, n, 0, mem, stream);
}

int32_t wx_find_hashed(wx_table* t, const void* keys, const uint64_t* hashes, void* values, uint64_t n,
                       uint64_t not_found_value, int32_t mem, void* stream) {
  return hashed_call(t, HashedOp::find, keys, hashes, nullptr, values, nullptr, n, not_found_value, mem, stream);
}

int32_t wx_insert_hashed(wx_table* t, const void* keys, const uint64_t* hashes, const void* values, uint64_t n,
                         uint8_t* outcomes, int32_t mem, void* stream) {
  return hashed_call(t, HashedOp::insert, keys, hashes, nullptr, const_cast<void*>(values), outcomes, n, 0, mem, stream);
}

}  // extern "C"
