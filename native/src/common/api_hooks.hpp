// What api.cpp shares with the other C-API files (join/): a table handle's parts and this thread's
// error message, the guard that maps exceptions to statuses, and the checks every call makes.
#pragma once
#include <mutex>
#include <new>
#include <string>

#include "common/error.hpp"
#include "common/table.hpp"
#include "wixlib.h"

namespace wx::api {

std::string& last_error();  // this thread's wx_last_error() text
Table& table_of(wx_table* t);  // the table of a one-shard handle

// Runs f, mapping exceptions to a status and this thread's message.
template <typename F>
int32_t guarded(F&& f) {
  try {
    last_error().clear();
    return f();
  } catch (const Error& e) {
    last_error() = e.what();
    return e.status();
  } catch (const std::bad_alloc&) {
    last_error() = "host memory allocation failed";
    return WX_ERR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    last_error() = std::string("internal error: ") + e.what();
    return WX_ERR_INTERNAL;
  } catch (...) {
    last_error() = "internal error: unknown exception";
    return WX_ERR_INTERNAL;
  }
}

inline void require(bool cond, const std::string& message) {
  if (!cond) fail(WX_ERR_INVALID_ARGUMENT, message);
}

constexpr uint64_t kMaxBatch = uint64_t(1) << 40;  // elements in one bulk call

inline bool is_gpu_kind(int32_t kind) { return kind == WX_KIND_GLHT || kind == WX_KIND_HIVE; }

// The one check of a table configuration (wx_table_create, wx_join_create); backends trust it.
void check_config(const wx_config& c);
// The config's shard count with 0 resolved (one per device: device_count, at least 1).
int32_t shards_of(const wx_config& c);

// Turns a backend's counts into the call's status (and this thread's message when not WX_OK).
int32_t status_of(const BatchResult& r, uint64_t n, int32_t key_bits);

}  // namespace wx::api
