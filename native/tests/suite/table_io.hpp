// Calls the public C API with the caller's arrays in host memory or staged in device buffers, so
// every suite step can run through both the WX_MEM_HOST and the WX_MEM_DEVICE path of a GPU kind.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"
#include "wixlib.h"

namespace wxsuite {

inline const char* kind_name(int32_t kind) {
  switch (kind) {
    case WX_KIND_CPU: return "cpu";
    case WX_KIND_GLHT: return "glht";
    case WX_KIND_HIVE: return "hive";
    default: return "kind?";
  }
}

inline const char* mem_name(int32_t mem) { return mem == WX_MEM_DEVICE ? "device" : "host"; }

// Owning table handle.
class Table {
 public:
  Table() = default;
  explicit Table(const wx_config& c) { CHECK_OK(wx_table_create(&c, &t_)); }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  ~Table() { wx_table_destroy(t_); }
  wx_table* get() const { return t_; }
  uint64_t size() const {
    uint64_t s = 0;
    CHECK_OK(wx_size(t_, &s));
    return s;
  }
  wx_stats stats() const {
    wx_stats s{};
    CHECK_OK(wx_stats_get(t_, &s));
    return s;
  }

 private:
  wx_table* t_ = nullptr;
};

// Shards of the tables make_config describes: 1 unless a sharded test runs the suite's steps.
inline int32_t g_shards = 1;

inline wx_config make_config(int32_t kind, uint64_t capacity, double lf = 0.0,
                             int32_t grow = WX_GROW_AUTO) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, kind));
  c.shards = g_shards;
  c.capacity = capacity;
  if (lf > 0) c.max_load_factor = lf;
  c.grow = grow;
  return c;
}

// One reusable device buffer (grown on demand).
class DeviceBuf {
 public:
  DeviceBuf() = default;
  DeviceBuf(const DeviceBuf&) = delete;
  DeviceBuf& operator=(const DeviceBuf&) = delete;
  ~DeviceBuf() { if (p_) wx_device_free(p_); }
  void* reserve(uint64_t bytes) {
    if (bytes > cap_) {
      if (p_) CHECK_OK(wx_device_free(p_));
      p_ = nullptr;
      cap_ = 0;
      CHECK_OK(wx_device_alloc(0, bytes, &p_));
      cap_ = bytes;
    }
    return p_;
  }

 private:
  void* p_ = nullptr;
  uint64_t cap_ = 0;
};

// Runs API calls with host arrays; with mem == WX_MEM_DEVICE copies them to device buffers first
// and the results back afterwards. Returns the call's status (not checked here).
class Io {
 public:
  explicit Io(int32_t mem) : mem_(mem) {}
  int32_t mem() const { return mem_; }
  bool device() const { return mem_ == WX_MEM_DEVICE; }

  int32_t insert(wx_table* t, const uint32_t* k, const uint32_t* v, uint64_t n, uint8_t* out) {
    if (!device()) return wx_insert(t, k, v, n, out, WX_MEM_HOST, nullptr);
    return staged(n, k, v, nullptr, out, [&](void* dk, void* dv, void*, uint8_t* dout) {
      return wx_insert(t, dk, v ? dv : nullptr, n, out ? dout : nullptr, WX_MEM_DEVICE, nullptr);
    }, false);
  }
  int32_t insert_or_assign(wx_table* t, const uint32_t* k, const uint32_t* v, uint64_t n, uint8_t* out) {
    if (!device()) return wx_insert_or_assign(t, k, v, n, out, WX_MEM_HOST, nullptr);
    return staged(n, k, v, nullptr, out, [&](void* dk, void* dv, void*, uint8_t* dout) {
      return wx_insert_or_assign(t, dk, v ? dv : nullptr, n, out ? dout : nullptr, WX_MEM_DEVICE, nullptr);
    }, false);
  }
  // values: in (initial contents, kept where not found) and out.
  int32_t find(wx_table* t, const uint32_t* k, uint32_t* v, uint64_t n, uint64_t not_found) {
    if (!device()) return wx_find(t, k, v, n, not_found, WX_MEM_HOST, nullptr);
    return staged(n, k, v, nullptr, nullptr, [&](void* dk, void* dv, void*, uint8_t*) {
      return wx_find(t, dk, dv, n, not_found, WX_MEM_DEVICE, nullptr);
    }, true, v);
  }
  int32_t contains(wx_table* t, const uint32_t* k, uint8_t* found, uint64_t n) {
    if (!device()) return wx_contains(t, k, found, n, WX_MEM_HOST, nullptr);
    return staged(n, k, nullptr, nullptr, found, [&](void* dk, void*, void*, uint8_t* dout) {
      return wx_contains(t, dk, dout, n, WX_MEM_DEVICE, nullptr);
    }, false);
  }
  int32_t erase(wx_table* t, const uint32_t* k, uint64_t n, uint8_t* out) {
    if (!device()) return wx_erase(t, k, n, out, WX_MEM_HOST, nullptr);
    return staged(n, k, nullptr, nullptr, out, [&](void* dk, void*, void*, uint8_t* dout) {
      return wx_erase(t, dk, n, out ? dout : nullptr, WX_MEM_DEVICE, nullptr);
    }, false);
  }
  int32_t batch(wx_table* t, const uint8_t* ops, const uint32_t* k, uint32_t* v, uint64_t n, uint8_t* out) {
    if (!device()) return wx_batch(t, ops, k, v, n, out, WX_MEM_HOST, nullptr);
    return staged(n, k, v, ops, out, [&](void* dk, void* dv, void* dops, uint8_t* dout) {
      return wx_batch(t, static_cast<const uint8_t*>(dops), dk, dv, n, out ? dout : nullptr, WX_MEM_DEVICE, nullptr);
    }, true, v);
  }
  // Dumps the table; returns the status and fills keys/values (resized to the count).
  int32_t retrieve_all(wx_table* t, std::vector<uint32_t>& keys, std::vector<uint32_t>& values) {
    uint64_t size = 0;
    int32_t st = wx_size(t, &size);
    if (st != WX_OK) return st;
    keys.assign(size, 0);
    values.assign(size, 0);
    uint64_t count = 0;
    if (!device()) {
      st = wx_retrieve_all(t, keys.data(), values.data(), size, &count, WX_MEM_HOST, nullptr);
    } else {
      void* dk = kbuf_.reserve(size * 4 + 4);
      void* dv = vbuf_.reserve(size * 4 + 4);
      st = wx_retrieve_all(t, dk, dv, size, &count, WX_MEM_DEVICE, nullptr);
      if (st == WX_OK && count <= size && count > 0) {
        CHECK_OK(wx_copy(keys.data(), WX_MEM_HOST, dk, WX_MEM_DEVICE, count * 4));
        CHECK_OK(wx_copy(values.data(), WX_MEM_HOST, dv, WX_MEM_DEVICE, count * 4));
      }
    }
    if (st == WX_OK) {
      CHECK_MSG(count <= size, "retrieve_all wrote count=%llu > size=%llu",
                (unsigned long long)count, (unsigned long long)size);
      keys.resize(count);
      values.resize(count);
    }
    return st;
  }

 private:
  // Copies inputs to device buffers, runs `call`, copies outputs back. values are copied back when
  // values_out (find, batch); outcomes (or contains flags) when out != null.
  template <typename F>
  int32_t staged(uint64_t n, const uint32_t* k, const uint32_t* v, const uint8_t* ops, uint8_t* out,
                 F call, bool values_out, uint32_t* vout = nullptr) {
    void* dk = kbuf_.reserve(n * 4 + 4);
    void* dv = vbuf_.reserve(n * 4 + 4);
    void* dops = obuf_.reserve(n + 4);
    uint8_t* dout = static_cast<uint8_t*>(rbuf_.reserve(n + 4));
    if (n > 0) {
      CHECK_OK(wx_copy(dk, WX_MEM_DEVICE, k, WX_MEM_HOST, n * 4));
      if (v) CHECK_OK(wx_copy(dv, WX_MEM_DEVICE, v, WX_MEM_HOST, n * 4));
      if (ops) CHECK_OK(wx_copy(dops, WX_MEM_DEVICE, ops, WX_MEM_HOST, n));
      if (out) CHECK_OK(wx_copy(dout, WX_MEM_DEVICE, out, WX_MEM_HOST, n));
    }
    int32_t st = call(dk, dv, dops, dout);
    if (n > 0) {
      if (values_out && vout) CHECK_OK(wx_copy(vout, WX_MEM_HOST, dv, WX_MEM_DEVICE, n * 4));
      if (out) CHECK_OK(wx_copy(out, WX_MEM_HOST, dout, WX_MEM_DEVICE, n));
    }
    return st;
  }

  int32_t mem_;
  DeviceBuf kbuf_, vbuf_, obuf_, rbuf_;
};

}  // namespace wxsuite
