// Sharded tables (wx_config.shards, devices) through the public C API, checked against a
// std::unordered_map per key: every bulk call (reserved keys mid-array, repeated keys in mixed batches,
// GROW_NEVER FULL, pre-hashed calls), retrieve_all, stats and per-shard stats, resize, clear. Used by
// test_api_shards (CPU kind) and gpu_shards (GLHT, Hive; host and device arrays, one or two devices).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "check.hpp"
#include "suite/env.hpp"
#include "wixlib.h"

namespace wxshard {

// One sharded table's placement and where the call's arrays live.
struct Setup {
  int32_t kind = WX_KIND_CPU;
  int32_t shards = 1;
  std::vector<int32_t> devices;  // GPU kinds: empty = every shard on device 0
  int32_t mem = WX_MEM_HOST;
  int32_t array_device = 0;      // WX_MEM_DEVICE: the device the arrays lie on
};

inline std::string describe(const Setup& s, int bits) {
  std::string d;
  for (int32_t x : s.devices) d += (d.empty() ? "" : ",") + std::to_string(x);
  return "kind " + std::to_string(s.kind) + " shards " + std::to_string(s.shards) + " bits " + std::to_string(bits) +
         (d.empty() ? "" : " devices {" + d + "}") +
         (s.mem == WX_MEM_DEVICE ? " device arrays on " + std::to_string(s.array_device) : " host arrays");
}

// A host array with, for device-array runs, a device copy: up() before a call, down() after.
template <typename T>
class Arr {
 public:
  Arr(const Setup& s, uint64_t n, T fill = T()) : h(n, fill) {
    if (s.mem == WX_MEM_DEVICE) CHECK_OK(wx_device_alloc(s.array_device, std::max<uint64_t>(n * sizeof(T), 1), &d_));
  }
  ~Arr() {
    if (d_) wx_device_free(d_);
  }
  Arr(const Arr&) = delete;
  Arr& operator=(const Arr&) = delete;
  T* ptr() { return d_ ? static_cast<T*>(d_) : h.data(); }
  void up() {
    if (d_ && !h.empty()) CHECK_OK(wx_copy(d_, WX_MEM_DEVICE, h.data(), WX_MEM_HOST, h.size() * sizeof(T)));
  }
  void down() {
    if (d_ && !h.empty()) CHECK_OK(wx_copy(h.data(), WX_MEM_HOST, d_, WX_MEM_DEVICE, h.size() * sizeof(T)));
  }
  std::vector<T> h;

 private:
  void* d_ = nullptr;
};

template <typename K>
constexpr K kEmpty = K(~K(0));
template <typename K>
constexpr K kTomb = K(~K(0) - 1);

// Distinct non-reserved keys, disjoint between salts (salt < 32, i < 2^24): an odd multiplier is a
// bijection modulo 2^bits, applied to salt * 2^24 + i.
template <typename K>
std::vector<K> distinct_keys(uint64_t n, uint64_t salt) {
  CHECK(n <= (uint64_t(1) << 24) && salt < 32);
  std::vector<K> v;
  v.reserve(n);
  for (uint64_t i = 0; v.size() < n; ++i) {
    const K k = K(((salt << 24) + i) * 0x9E3779B97F4A7C15ull);
    if (k < kTomb<K>) v.push_back(k);
  }
  return v;
}

template <typename K>
wx_config config_for(const Setup& s, uint64_t capacity, int32_t grow = WX_GROW_AUTO) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, s.kind));
  c.key_bits = c.value_bits = int32_t(sizeof(K) * 8);
  c.capacity = capacity;
  c.grow = grow;
  c.shards = s.shards;
  c.device_count = int32_t(s.devices.size());
  for (size_t i = 0; i < s.devices.size(); ++i) c.devices[i] = s.devices[i];
  return c;
}

template <typename K>
using Oracle = std::unordered_map<K, K>;

// Finds every key of `keys` and compares with the oracle (not found: 0x5A).
template <typename K>
void check_find(const Setup& s, wx_table* t, const std::vector<K>& keys, const Oracle<K>& o, const char* what) {
  Arr<K> k(s, keys.size()), v(s, keys.size(), K(7));
  k.h = keys;
  k.up();
  v.up();
  bool reserved = false;
  for (K x : keys) reserved |= x >= kTomb<K>;
  CHECK_STATUS(wx_find(t, k.ptr(), v.ptr(), keys.size(), 0x5A, s.mem, nullptr), reserved ? WX_ERR_INVALID_KEY : WX_OK);
  v.down();
  for (size_t i = 0; i < keys.size(); ++i) {
    auto it = o.find(keys[i]);
    const K want = it == o.end() ? K(0x5A) : it->second;
    CHECK_MSG(v.h[i] == want, "%s: find of key %llu gave %llu, expected %llu", what, (unsigned long long)keys[i],
              (unsigned long long)v.h[i], (unsigned long long)want);
  }
}

template <typename K>
uint64_t table_size(wx_table* t) {
  uint64_t n = 0;
  CHECK_OK(wx_size(t, &n));
  return n;
}

// retrieve_all into host or device arrays equals the oracle; too little room is refused.
template <typename K>
void check_dump(const Setup& s, wx_table* t, const Oracle<K>& o) {
  const uint64_t n = table_size<K>(t);
  CHECK_MSG(n == o.size(), "size %llu, oracle %zu", (unsigned long long)n, o.size());
  Arr<K> k(s, n + 1), v(s, n + 1);
  uint64_t count = 0;
  if (n > 0) {
    CHECK_STATUS(wx_retrieve_all(t, k.ptr(), v.ptr(), n - 1, &count, s.mem, nullptr), WX_ERR_INVALID_ARGUMENT);
    CHECK(count == n);
  }
  CHECK_OK(wx_retrieve_all(t, k.ptr(), v.ptr(), n + 1, &count, s.mem, nullptr));
  CHECK(count == n);
  k.down();
  v.down();
  Oracle<K> got;
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(got.emplace(k.h[i], v.h[i]).second, "key %llu dumped twice", (unsigned long long)k.h[i]);
  CHECK(got == o);
}

// Per-shard stats: sizes and capacities add up to the table's, devices are the configured ones.
template <typename K>
void check_shard_stats(const Setup& s, wx_table* t, uint64_t size) {
  wx_stats whole{};
  CHECK_OK(wx_stats_get(t, &whole));
  CHECK(whole.size == size);
  uint64_t sizes = 0, caps = 0;
  for (int32_t i = 0; i < s.shards; ++i) {
    wx_stats one{};
    int32_t device = -2;
    CHECK_OK(wx_shard_stats_get(t, i, &one, &device));
    sizes += one.size;
    caps += one.capacity;
    const int32_t want = s.kind == WX_KIND_CPU ? -1 : s.devices.empty() ? 0 : s.devices[i % s.devices.size()];
    CHECK_MSG(device == want, "shard %d on device %d, expected %d", i, device, want);
    if (size >= 100000 && s.shards > 1) {  // uniform routing: every shard within 5 % of the mean
      const double mean = double(size) / s.shards;
      CHECK_MSG(std::abs(double(one.size) - mean) < 0.05 * mean, "shard %d holds %llu keys, mean %.0f", i,
                (unsigned long long)one.size, mean);
    }
  }
  CHECK(sizes == size && caps == whole.capacity);
  wx_stats one{};
  int32_t device = 0;
  CHECK_STATUS(wx_shard_stats_get(t, s.shards, &one, &device), WX_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wx_shard_stats_get(t, -1, &one, &device), WX_ERR_INVALID_ARGUMENT);
}

// Insert, insert_or_assign, find, contains, erase with reserved keys mid-array; stats; dump.
template <typename K>
void basic_calls(const Setup& s, wx_table* t, Oracle<K>& o, uint64_t n) {
  const std::vector<K> keys = distinct_keys<K>(n, 1);
  Arr<K> k(s, n), v(s, n);
  Arr<uint8_t> out(s, n, 0xEE);
  for (uint64_t i = 0; i < n; ++i) k.h[i] = keys[i], v.h[i] = K(i * 3 + 1);
  k.h[n / 3] = kEmpty<K>;
  k.h[n / 2] = kTomb<K>;
  k.up(), v.up(), out.up();
  CHECK_STATUS(wx_insert(t, k.ptr(), v.ptr(), n, out.ptr(), s.mem, nullptr), WX_ERR_INVALID_KEY);
  out.down();
  for (uint64_t i = 0; i < n; ++i) {
    const bool bad = i == n / 3 || i == n / 2;
    CHECK_MSG(out.h[i] == (bad ? WX_OUT_INVALID_KEY : WX_OUT_INSERTED), "insert element %llu outcome %u", (unsigned long long)i, out.h[i]);
    if (!bad) o[keys[i]] = v.h[i];
  }
  wx_stats st{};
  CHECK_OK(wx_stats_get(t, &st));
  CHECK(st.last_invalid == 2 && st.last_full == 0 && st.size == o.size());
  uint64_t last_invalid = 0;
  for (int32_t i = 0; i < s.shards; ++i) {
    wx_stats one{};
    int32_t device = 0;
    CHECK_OK(wx_shard_stats_get(t, i, &one, &device));
    last_invalid += one.last_invalid;
  }
  CHECK(last_invalid == 2);

  // Again: the first half present (value kept), plus new keys; outcomes NULL once.
  const std::vector<K> more = distinct_keys<K>(n / 2, 2);
  for (uint64_t i = 0; i < n; ++i) k.h[i] = i < n / 2 ? keys[i] : more[i - n / 2], v.h[i] = K(i + 1000);
  k.up(), v.up();
  CHECK_OK(wx_insert(t, k.ptr(), v.ptr(), n, nullptr, s.mem, nullptr));
  for (uint64_t i = 0; i < n; ++i) o.emplace(k.h[i], v.h[i]);  // present keys keep their value
  // insert_or_assign over present and new keys.
  const std::vector<K> fresh = distinct_keys<K>(n / 4, 3);
  for (uint64_t i = 0; i < n; ++i) k.h[i] = i < n / 4 ? fresh[i] : keys[i], v.h[i] = K(i + 77777);
  k.up(), v.up();
  CHECK_OK(wx_insert_or_assign(t, k.ptr(), v.ptr(), n, out.ptr(), s.mem, nullptr));
  out.down();
  for (uint64_t i = 0; i < n; ++i) {
    const bool had = o.count(k.h[i]) > 0;
    CHECK_MSG(out.h[i] == (had ? WX_OUT_ASSIGNED : WX_OUT_INSERTED), "insert_or_assign element %llu outcome %u",
              (unsigned long long)i, out.h[i]);
    o[k.h[i]] = v.h[i];
  }
  // find and contains over present, absent and reserved keys.
  std::vector<K> probe = distinct_keys<K>(n, 1);
  const std::vector<K> absent = distinct_keys<K>(n / 4, 9);
  probe.insert(probe.end(), absent.begin(), absent.end());
  probe[n / 5] = kTomb<K>;
  check_find(s, t, probe, o, "find");
  Arr<K> pk(s, probe.size());
  Arr<uint8_t> found(s, probe.size(), 9);
  pk.h = probe;
  pk.up(), found.up();
  CHECK_STATUS(wx_contains(t, pk.ptr(), found.ptr(), probe.size(), s.mem, nullptr), WX_ERR_INVALID_KEY);
  found.down();
  for (size_t i = 0; i < probe.size(); ++i) CHECK(found.h[i] == (o.count(probe[i]) ? 1 : 0));
  // erase a third of the keys and some absent ones.
  const uint64_t e = n / 3;
  Arr<K> ek(s, e + 10);
  Arr<uint8_t> eo(s, e + 10);
  for (uint64_t i = 0; i < e; ++i) ek.h[i] = keys[i * 3];
  for (uint64_t i = 0; i < 10; ++i) ek.h[e + i] = absent[i];
  ek.up();
  CHECK_OK(wx_erase(t, ek.ptr(), e + 10, eo.ptr(), s.mem, nullptr));
  eo.down();
  for (uint64_t i = 0; i < e + 10; ++i) {
    const bool had = o.erase(ek.h[i]) > 0;
    CHECK(eo.h[i] == (had ? WX_OUT_ERASED : WX_OUT_NOT_FOUND));
  }
  check_find(s, t, probe, o, "find after erase");
  check_dump(s, t, o);
  check_shard_stats<K>(s, t, o.size());
}

// A mixed batch with repeated keys: several FINDs per key, at most one change per key, and new keys
// inserted twice (one INSERTED, one PRESENT). A FIND sees the value before the batch or one the batch
// writes; values of elements that report nothing found stay untouched.
template <typename K>
void mixed_batch(const Setup& s, wx_table* t, Oracle<K>& o, uint64_t n) {
  const std::vector<K> present = distinct_keys<K>(n, 1), absent = distinct_keys<K>(n, 11);
  std::vector<uint8_t> ops;
  std::vector<K> keys, vals;
  const K untouched = K(0xC0FFEE);
  auto add = [&](uint8_t op, K key, K value) { ops.push_back(op), keys.push_back(key), vals.push_back(value); };
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t change = uint8_t(i % 4);  // INSERT, ERASE, FIND (no change), INSERT_OR_ASSIGN
    add(WX_OP_FIND, present[i], untouched);
    add(change, present[i], change == WX_OP_FIND ? untouched : K(i + 5));
    add(WX_OP_FIND, present[i], untouched);
    add(WX_OP_INSERT, absent[i], K(2 * i + 1));
    add(WX_OP_FIND, absent[i], untouched);
    if (i % 2) add(WX_OP_INSERT, absent[i], K(2 * i + 2));
  }
  add(WX_OP_FIND, kEmpty<K>, untouched);
  const uint64_t m = ops.size();
  Arr<uint8_t> op(s, m), out(s, m);
  Arr<K> k(s, m), v(s, m);
  op.h = ops, k.h = keys, v.h = vals;
  op.up(), k.up(), v.up();
  CHECK_STATUS(wx_batch(t, op.ptr(), k.ptr(), v.ptr(), m, out.ptr(), s.mem, nullptr), WX_ERR_INVALID_KEY);
  out.down(), v.down();
  // What a FIND may see, per key; the inserts of keys absent before the batch.
  std::unordered_map<K, std::vector<K>> may_see, insert_values;
  std::unordered_map<K, bool> may_miss;
  for (uint64_t j = 0; j + 1 < m; ++j) {
    auto was = o.find(keys[j]);
    if (was != o.end()) may_see[keys[j]].push_back(was->second);
    else may_miss[keys[j]] = true;
    if (ops[j] == WX_OP_INSERT && was == o.end()) may_see[keys[j]].push_back(vals[j]), insert_values[keys[j]].push_back(vals[j]);
    if (ops[j] == WX_OP_INSERT_OR_ASSIGN) may_see[keys[j]].push_back(vals[j]);
    if (ops[j] == WX_OP_ERASE) may_miss[keys[j]] = true;
  }
  CHECK(out.h[m - 1] == WX_OUT_INVALID_KEY && v.h[m - 1] == untouched);
  std::unordered_map<K, int> inserted;
  for (uint64_t j = 0; j + 1 < m; ++j) {
    const K key = keys[j];
    const bool had = o.count(key) > 0;
    const uint8_t r = out.h[j];
    if (ops[j] != WX_OP_FIND) CHECK_MSG(v.h[j] == vals[j], "element %llu: a non-FIND value was written", (unsigned long long)j);
    switch (ops[j]) {
      case WX_OP_INSERT:
        CHECK(r == WX_OUT_PRESENT || (!had && r == WX_OUT_INSERTED));
        inserted[key] += r == WX_OUT_INSERTED;
        break;
      case WX_OP_INSERT_OR_ASSIGN: CHECK(r == (had ? WX_OUT_ASSIGNED : WX_OUT_INSERTED)); break;
      case WX_OP_ERASE: CHECK(r == (had ? WX_OUT_ERASED : WX_OUT_NOT_FOUND)); break;
      default: {
        const std::vector<K>& seen = may_see[key];
        if (r == WX_OUT_FOUND)
          CHECK_MSG(std::find(seen.begin(), seen.end(), v.h[j]) != seen.end(), "FIND of key %llu saw value %llu",
                    (unsigned long long)key, (unsigned long long)v.h[j]);
        else
          CHECK_MSG(r == WX_OUT_NOT_FOUND && may_miss[key] && v.h[j] == untouched, "FIND of key %llu: outcome %u",
                    (unsigned long long)key, r);
      }
    }
  }
  for (uint64_t j = 0; j + 1 < m; ++j) {
    if (ops[j] == WX_OP_INSERT_OR_ASSIGN) o[keys[j]] = vals[j];
    if (ops[j] == WX_OP_ERASE) o.erase(keys[j]);
  }
  // Keys new to the table: exactly one INSERTED each, holding one of its inserts' values.
  std::vector<K> added;
  for (auto& [key, values] : insert_values) added.push_back(key);
  Arr<K> rk(s, added.size()), rv(s, added.size());
  rk.h = added;
  rk.up();
  CHECK_OK(wx_find(t, rk.ptr(), rv.ptr(), added.size(), 0, s.mem, nullptr));
  rv.down();
  for (size_t i = 0; i < added.size(); ++i) {
    const std::vector<K>& values = insert_values[added[i]];
    CHECK_MSG(inserted[added[i]] == 1, "key inserted %d times in one batch", inserted[added[i]]);
    CHECK(std::find(values.begin(), values.end(), rv.h[i]) != values.end());
    o[added[i]] = rv.h[i];
  }
  check_dump(s, t, o);
}

// Pre-hashed calls: hashes equal an unsharded table's; find_hashed equals find; insert_hashed (CPU).
template <typename K>
void hashed_calls(const Setup& s, wx_table* t, const Oracle<K>& o, uint64_t n) {
  const std::vector<K> keys = distinct_keys<K>(n, 1);
  Arr<K> k(s, n), v(s, n);
  Arr<uint64_t> h(s, n);
  k.h = keys;
  k.up();
  const int32_t st = wx_hash_keys(t, k.ptr(), h.ptr(), n, s.mem, nullptr);
  // Hive has no pre-hashed calls; GLHT has them for 32-bit tables only.
  if (s.kind == WX_KIND_HIVE || (s.kind == WX_KIND_GLHT && sizeof(K) == 8)) {
    CHECK(st == WX_ERR_UNSUPPORTED);
    return;
  }
  CHECK_OK(st);
  h.down();
  Setup one;
  one.kind = s.kind;
  wx_config c = config_for<K>(one, 16);
  wx_table* plain = nullptr;
  CHECK_OK(wx_table_create(&c, &plain));
  std::vector<uint64_t> want(n);
  CHECK_OK(wx_hash_keys(plain, keys.data(), want.data(), n, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_table_destroy(plain));
  CHECK(h.h == want);
  CHECK_OK(wx_find_hashed(t, k.ptr(), h.ptr(), v.ptr(), n, 0x5A, s.mem, nullptr));
  v.down();
  for (uint64_t i = 0; i < n; ++i) {
    auto it = o.find(keys[i]);
    CHECK(v.h[i] == (it == o.end() ? K(0x5A) : it->second));
  }
  if (s.kind != WX_KIND_CPU) return;
  Oracle<K> more = o;
  const std::vector<K> fresh = distinct_keys<K>(n, 21);
  std::vector<uint64_t> fh(n);
  std::vector<K> fv(n);
  std::vector<uint8_t> out(n);
  CHECK_OK(wx_hash_keys(t, fresh.data(), fh.data(), n, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i) fv[i] = K(i ^ 0x33), more[fresh[i]] = fv[i];
  CHECK_OK(wx_insert_hashed(t, fresh.data(), fh.data(), fv.data(), n, out.data(), WX_MEM_HOST, nullptr));
  for (uint8_t x : out) CHECK(x == WX_OUT_INSERTED);
  check_find(s, t, fresh, more, "find after insert_hashed");
  CHECK_OK(wx_erase(t, fresh.data(), n, nullptr, WX_MEM_HOST, nullptr));
}

// resize (refused below the size, contents kept above it) and clear.
template <typename K>
void resize_and_clear(const Setup& s, wx_table* t, Oracle<K>& o) {
  const uint64_t size = table_size<K>(t);
  CHECK_STATUS(wx_resize(t, size - 1), WX_ERR_INVALID_ARGUMENT);
  CHECK_OK(wx_resize(t, size * 4));
  uint64_t cap = 0;
  CHECK_OK(wx_capacity(t, &cap));
  CHECK(cap >= size * 4);
  std::vector<K> keys;
  for (auto& [key, value] : o) keys.push_back(key);
  check_find(s, t, keys, o, "find after resize up");
  CHECK_OK(wx_resize(t, size));
  check_find(s, t, keys, o, "find after resize down");
  check_shard_stats<K>(s, t, size);
  CHECK_OK(wx_clear(t));
  CHECK(table_size<K>(t) == 0);
  o.clear();
  check_find(s, t, keys, o, "find after clear");
  check_dump(s, t, o);
}

// GROW_NEVER: a table sized for n keys holds n uniformly routed keys; pushing far past it gives FULL
// elements, every other insert applied.
template <typename K>
void grow_never(const Setup& s, uint64_t n) {
  wx_config c = config_for<K>(s, n, WX_GROW_NEVER);
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  const std::vector<K> keys = distinct_keys<K>(8 * n, 31);
  Arr<K> k(s, n);
  Arr<uint8_t> out(s, n);
  k.h.assign(keys.begin(), keys.begin() + n);
  k.up();
  CHECK_OK(wx_insert(t, k.ptr(), nullptr, n, out.ptr(), s.mem, nullptr));
  Arr<K> rest(s, 7 * n);
  Arr<uint8_t> rout(s, 7 * n);
  rest.h.assign(keys.begin() + n, keys.end());
  rest.up();
  CHECK_STATUS(wx_insert(t, rest.ptr(), nullptr, 7 * n, rout.ptr(), s.mem, nullptr), WX_ERR_FULL);
  rout.down();
  uint64_t inserted = 0, full = 0;
  for (uint8_t x : rout.h) {
    CHECK(x == WX_OUT_INSERTED || x == WX_OUT_FULL);
    inserted += x == WX_OUT_INSERTED;
    full += x == WX_OUT_FULL;
  }
  wx_stats st{};
  CHECK_OK(wx_stats_get(t, &st));
  CHECK(full > 0 && st.last_full == full && st.size == n + inserted);
  uint64_t shard_full = 0;
  for (int32_t i = 0; i < s.shards; ++i) {
    wx_stats one{};
    int32_t device = 0;
    CHECK_OK(wx_shard_stats_get(t, i, &one, &device));
    shard_full += one.last_full;
  }
  CHECK(shard_full == full);
  CHECK_OK(wx_table_destroy(t));
}

template <typename K>
void run(const Setup& s, uint64_t n) {
  std::printf("[shards] %s n=%llu\n", describe(s, int(sizeof(K) * 8)).c_str(), (unsigned long long)n);
  std::fflush(stdout);
  wx_config c = config_for<K>(s, n);
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  Oracle<K> o;
  basic_calls<K>(s, t, o, n);
  mixed_batch<K>(s, t, o, n / 4);
  hashed_calls<K>(s, t, o, n / 2);
  resize_and_clear<K>(s, t, o);
  CHECK_OK(wx_table_destroy(t));
  grow_never<K>(s, std::max<uint64_t>(n / 8, 1000));
}

// One host-array call longer than the CPU host path's pieces (2^23 elements), so three pieces are in
// flight at once (split, shards, gather), and eight staging chunks of a GPU kind's, each routed on the
// device; reserved keys on the pieces' edges: insert, find and erase outcomes and values checked per
// element.
template <typename K>
void long_call(const Setup& s) {
  const uint64_t piece = uint64_t(1) << 23, n = 2 * piece + 12345;
  std::printf("[shards] %s one call of %llu elements\n", describe(s, int(sizeof(K) * 8)).c_str(), (unsigned long long)n);
  std::fflush(stdout);
  std::vector<K> keys = distinct_keys<K>(uint64_t(1) << 24, 3);
  const std::vector<K> rest = distinct_keys<K>(n - keys.size(), 4);
  keys.insert(keys.end(), rest.begin(), rest.end());
  const std::vector<uint64_t> reserved = {piece - 1, piece, 2 * piece, n - 1};
  for (size_t j = 0; j < reserved.size(); ++j) keys[reserved[j]] = j % 2 ? kTomb<K> : kEmpty<K>;
  auto is_reserved = [&](uint64_t i) { return std::find(reserved.begin(), reserved.end(), i) != reserved.end(); };
  std::vector<K> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = K(i * 3 + 1);
  wx_config c = config_for<K>(s, n);
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  std::vector<uint8_t> out(n, 0xEE);
  CHECK_STATUS(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(out[i] == (is_reserved(i) ? WX_OUT_INVALID_KEY : WX_OUT_INSERTED), "insert outcome %d at %llu", out[i],
              (unsigned long long)i);
  uint64_t size = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK(size == n - reserved.size());
  // Finds: the reserved places hold absent keys instead.
  std::vector<K> probe = keys;
  const std::vector<K> absent = distinct_keys<K>(reserved.size(), 5);
  for (size_t j = 0; j < reserved.size(); ++j) probe[reserved[j]] = absent[j];
  std::vector<K> got(n, K(9));
  CHECK_OK(wx_find(t, probe.data(), got.data(), n, 0x5A, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(got[i] == (is_reserved(i) ? K(0x5A) : vals[i]), "find value wrong at %llu", (unsigned long long)i);
  // Erase every other key; the odd ones stay.
  std::vector<K> gone;
  for (uint64_t i = 0; i < n; i += 2) gone.push_back(probe[i]);
  std::vector<uint8_t> eout(gone.size(), 0xEE);
  CHECK_OK(wx_erase(t, gone.data(), gone.size(), eout.data(), WX_MEM_HOST, nullptr));
  for (uint64_t j = 0; j < gone.size(); ++j)
    CHECK_MSG(eout[j] == (is_reserved(2 * j) ? WX_OUT_NOT_FOUND : WX_OUT_ERASED), "erase outcome %d at %llu", eout[j],
              (unsigned long long)(2 * j));
  CHECK_OK(wx_find(t, probe.data(), got.data(), n, 0x5A, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(got[i] == (i % 2 == 0 || is_reserved(i) ? K(0x5A) : vals[i]), "find after erase wrong at %llu",
              (unsigned long long)i);
  CHECK_OK(wx_table_destroy(t));
}

// Config checks every kind shares: shard range, device_count range; shards = 0 is one per device.
// max_shards: also a table of WX_MAX_SHARDS shards.
inline void config_errors(int32_t kind, bool max_shards) {
  wx_config c;
  wx_table* t = nullptr;
  for (int32_t bad : {-1, WX_MAX_SHARDS + 1}) {
    CHECK_OK(wx_config_init(&c, kind));
    c.shards = bad;
    CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_INVALID_ARGUMENT);
    CHECK(t == nullptr);
  }
  for (int32_t bad : {-1, WX_MAX_DEVICES + 1}) {
    CHECK_OK(wx_config_init(&c, kind));
    c.device_count = bad;
    CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_INVALID_ARGUMENT);
  }
  CHECK_OK(wx_config_init(&c, kind));
  CHECK(c.shards == 1 && c.device_count == 0);
  c.shards = 0;
  c.capacity = 1000;
  CHECK_OK(wx_table_create(&c, &t));
  wx_stats st{};
  int32_t device = 0;
  CHECK_OK(wx_shard_stats_get(t, 0, &st, &device));
  CHECK_STATUS(wx_shard_stats_get(t, 1, &st, &device), WX_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wx_shard_stats_get(t, 0, nullptr, &device), WX_ERR_INVALID_ARGUMENT);
  CHECK_OK(wx_table_destroy(t));
  if (!max_shards) return;
  CHECK_OK(wx_config_init(&c, kind));
  c.shards = WX_MAX_SHARDS;
  c.capacity = 1 << 12;
  CHECK_OK(wx_table_create(&c, &t));
  std::vector<uint32_t> keys(5000), vals(5000);
  for (uint32_t i = 0; i < 5000; ++i) keys[i] = i * 2654435761u, vals[i] = i;
  CHECK_OK(wx_insert(t, keys.data(), vals.data(), keys.size(), nullptr, WX_MEM_HOST, nullptr));
  std::vector<uint32_t> got(5000);
  CHECK_OK(wx_find(t, keys.data(), got.data(), keys.size(), 0, WX_MEM_HOST, nullptr));
  CHECK(got == vals);
  CHECK_OK(wx_table_destroy(t));
}

}  // namespace wxshard
