// Join suite for one table kind (test_join_cpu, gpu_join_glht, gpu_join_hive): hand-checked small
// cases (duplicates, empty inputs, buffer too small, reserved keys), then random columns checked
// against a std::unordered_multimap join, with and without precomputed hashes, host and (GPU kinds)
// device memory; on GPU kinds also host probes longer than the engine's chunks. Every check compares
// exact pair sets, so a wrong or missing pair fails the test.
// run_sharded repeats it on joins (and tables) of several shards.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "check.hpp"
#include "wixlib.h"

namespace wxjoin {

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

// Shards of every join and table the suite makes (wx_config.shards).
inline int32_t g_shards = 1;

inline wx_config config_of(int32_t kind, int bits) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, kind));
  c.key_bits = c.value_bits = bits;
  c.shards = g_shards;
  return c;
}

inline bool gpu_kind(int32_t kind) { return kind != WX_KIND_CPU; }
// Pre-hashed probes: every kind but Hive.
inline bool hashes_supported(int32_t kind) { return kind != WX_KIND_HIVE; }

// Host <-> device helpers for the device-memory variants.
struct Dev {
  void* p = nullptr;
  Dev(const void* host, uint64_t bytes) {
    CHECK_OK(wx_device_alloc(0, bytes ? bytes : 1, &p));
    if (host && bytes) CHECK_OK(wx_copy(p, WX_MEM_DEVICE, host, WX_MEM_HOST, bytes));
  }
  ~Dev() { wx_device_free(p); }
  template <typename T>
  std::vector<T> get(uint64_t n) const {
    std::vector<T> v(n);
    if (n) CHECK_OK(wx_copy(v.data(), WX_MEM_HOST, p, WX_MEM_DEVICE, n * sizeof(T)));
    return v;
  }
};

template <typename K>
wx_join* make_join(int32_t kind, int32_t build, const std::vector<K>& keys, int32_t expect = WX_OK) {
  wx_config c = config_of(kind, int(sizeof(K) * 8));
  wx_join* j = nullptr;
  CHECK_STATUS(wx_join_create(&c, build, keys.data(), keys.size(), WX_MEM_HOST, nullptr, &j), expect);
  CHECK((j != nullptr) == (expect == WX_OK));
  return j;
}

// The pairs of a probe through wx_join_count + wx_join_probe (host memory), sorted.
template <typename K>
Pairs probe(wx_join* j, const std::vector<K>& keys, const uint64_t* hashes = nullptr) {
  uint64_t total = 0;
  CHECK_OK(wx_join_count(j, keys.data(), hashes, keys.size(), &total, WX_MEM_HOST, nullptr));
  std::vector<uint32_t> pr(total + 1), br(total + 1);
  uint64_t count = 0;
  CHECK_OK(wx_join_probe(j, keys.data(), hashes, keys.size(), pr.data(), br.data(), total, &count, WX_MEM_HOST, nullptr));
  CHECK_MSG(count == total, "count %llu, wx_join_count %llu", (unsigned long long)count, (unsigned long long)total);
  Pairs out;
  for (uint64_t i = 0; i < count; ++i) {
    CHECK_MSG(i == 0 || pr[i] >= pr[i - 1], "pairs not grouped by probe row at %llu", (unsigned long long)i);
    CHECK_MSG(i == 0 || pr[i] != pr[i - 1] || br[i] > br[i - 1], "build rows of probe row %u not ascending", pr[i]);
    out.push_back({pr[i], br[i]});
  }
  std::sort(out.begin(), out.end());
  return out;
}

template <typename K>
Pairs oracle(const std::vector<K>& build, const std::vector<K>& probe_keys) {
  std::unordered_multimap<K, uint32_t> m;
  for (uint32_t i = 0; i < build.size(); ++i) m.emplace(build[i], i);
  Pairs out;
  for (uint32_t i = 0; i < probe_keys.size(); ++i) {
    auto [a, b] = m.equal_range(probe_keys[i]);
    for (auto it = a; it != b; ++it) out.push_back({i, it->second});
  }
  std::sort(out.begin(), out.end());
  return out;
}

template <typename K>
std::vector<uint32_t> semi(wx_join* j, const std::vector<K>& keys, int anti) {
  std::vector<uint32_t> rows(keys.size() + 1);
  uint64_t count = 0;
  CHECK_OK(wx_join_semi(j, keys.data(), nullptr, keys.size(), anti, rows.data(), &count, WX_MEM_HOST, nullptr));
  rows.resize(count);
  return rows;
}

template <typename K>
void hand_cases(int32_t kind) {
  const K R = K(~K(0));  // reserved (EMPTY); R - 1 is the tombstone
  // UNIQUE: build rows 0..3; probe with misses, repeats and a reserved key (matches nothing).
  std::vector<K> b = {10, 20, 30, 40};
  wx_join* j = make_join<K>(kind, WX_JOIN_UNIQUE, b);
  std::vector<K> p = {20, 5, 40, 20, R, 10, K(R - 1)};
  Pairs want = {{0, 1}, {2, 3}, {3, 1}, {5, 0}};
  CHECK(probe(j, p) == want);
  CHECK((semi(j, p, 0) == std::vector<uint32_t>{0, 2, 3, 5}));
  CHECK((semi(j, p, 1) == std::vector<uint32_t>{1, 4, 6}));
  // Buffer too small: nothing written, the needed count reported.
  std::vector<uint32_t> pr(3, 777), br(3, 777);
  uint64_t count = 0;
  CHECK_STATUS(wx_join_probe(j, p.data(), nullptr, p.size(), pr.data(), br.data(), 3, &count, WX_MEM_HOST, nullptr),
               WX_ERR_INVALID_ARGUMENT);
  CHECK(count == 4);
  CHECK(pr[0] == 777 && br[2] == 777);
  // Empty probe.
  CHECK(probe(j, std::vector<K>{}).empty());
  CHECK_OK(wx_join_probe(j, nullptr, nullptr, 0, nullptr, nullptr, 0, &count, WX_MEM_HOST, nullptr));
  CHECK(count == 0);
  wx_join_stats s;
  CHECK_OK(wx_join_stats_get(j, &s));
  CHECK(s.build_rows == 4 && s.distinct_keys == 4 && s.last_matches == 0);
  CHECK_OK(wx_join_destroy(j));

  // UNIQUE with a repeated key: clear error naming the key; MULTI takes it.
  std::vector<K> dup = {7, 8, 7};
  make_join<K>(kind, WX_JOIN_UNIQUE, dup, WX_ERR_INVALID_ARGUMENT);
  CHECK_MSG(std::string(wx_last_error()).find("build key 7 appears at rows 0 and 2") != std::string::npos, "%s", wx_last_error());
  // Reserved key in the build: nothing built.
  make_join<K>(kind, WX_JOIN_MULTI, std::vector<K>{1, 2, R, 2, K(R - 1)}, WX_ERR_INVALID_KEY);
  CHECK_MSG(std::string(wx_last_error()).find("build key at row 2 ") != std::string::npos, "%s", wx_last_error());
  make_join<K>(kind, WX_JOIN_UNIQUE, std::vector<K>{K(R - 1)}, WX_ERR_INVALID_KEY);

  // MULTI: groups, with build rows of one key ascending.
  std::vector<K> mb = {5, 6, 5, 7, 5, 6};
  j = make_join<K>(kind, WX_JOIN_MULTI, mb);
  CHECK_OK(wx_join_stats_get(j, &s));
  CHECK(s.build_rows == 6 && s.distinct_keys == 3);
  std::vector<K> mp = {6, 9, 5};
  want = {{0, 1}, {0, 5}, {2, 0}, {2, 2}, {2, 4}};
  CHECK(probe(j, mp) == want);
  std::vector<uint32_t> pr2(5), br2(5);
  CHECK_OK(wx_join_probe(j, mp.data(), nullptr, 3, pr2.data(), br2.data(), 5, &count, WX_MEM_HOST, nullptr));
  CHECK((pr2 == std::vector<uint32_t>{0, 0, 2, 2, 2}) && (br2 == std::vector<uint32_t>{1, 5, 0, 2, 4}));
  CHECK((semi(j, mp, 1) == std::vector<uint32_t>{1}));
  CHECK_OK(wx_join_destroy(j));

  // Empty build: every probe misses.
  j = make_join<K>(kind, WX_JOIN_MULTI, std::vector<K>{});
  CHECK(probe(j, std::vector<K>{1, 2}).empty());
  CHECK((semi(j, std::vector<K>{1, 2}, 1) == std::vector<uint32_t>{0, 1}));
  CHECK_OK(wx_join_destroy(j));

  // Argument checks.
  CHECK_STATUS(wx_join_count(nullptr, nullptr, nullptr, 0, &count, WX_MEM_HOST, nullptr), WX_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wx_join_destroy(nullptr), WX_OK);
  wx_config c = config_of(kind, int(sizeof(K) * 8));
  CHECK_STATUS(wx_join_create(&c, 2, b.data(), b.size(), WX_MEM_HOST, nullptr, &j), WX_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wx_join_create(&c, WX_JOIN_UNIQUE, nullptr, 3, WX_MEM_HOST, nullptr, &j), WX_ERR_INVALID_ARGUMENT);
}

// Pre-hashed table calls agree with the plain ones.
template <typename K>
void hashed_table_calls(int32_t kind, uint64_t n, uint32_t seed) {
  wx_config c = config_of(kind, int(sizeof(K) * 8));
  c.capacity = 16;  // grows during the inserts: hashes must survive growth
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  std::mt19937_64 rng(seed);
  std::vector<K> keys(n), vals(n), probe_keys(2 * n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = K(rng() % (4 * n)), vals[i] = K(i);
  for (auto& k : probe_keys) k = K(rng() % (4 * n));
  std::vector<uint64_t> h(n), ph(2 * n);
  if (!hashes_supported(kind)) {
    CHECK_STATUS(wx_hash_keys(t, keys.data(), h.data(), n, WX_MEM_HOST, nullptr), WX_ERR_UNSUPPORTED);
    CHECK_OK(wx_table_destroy(t));
    return;
  }
  CHECK_OK(wx_hash_keys(t, keys.data(), h.data(), n, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_hash_keys(t, probe_keys.data(), ph.data(), 2 * n, WX_MEM_HOST, nullptr));
  if (kind == WX_KIND_CPU) {
    CHECK_OK(wx_insert_hashed(t, keys.data(), h.data(), vals.data(), n, nullptr, WX_MEM_HOST, nullptr));
  } else {
    CHECK_STATUS(wx_insert_hashed(t, keys.data(), h.data(), vals.data(), n, nullptr, WX_MEM_HOST, nullptr), WX_ERR_UNSUPPORTED);
    CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, nullptr, WX_MEM_HOST, nullptr));
  }
  std::vector<K> a(2 * n), b(2 * n);
  CHECK_OK(wx_find(t, probe_keys.data(), a.data(), 2 * n, 12345, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_find_hashed(t, probe_keys.data(), ph.data(), b.data(), 2 * n, 12345, WX_MEM_HOST, nullptr));
  uint64_t hits = 0;
  for (uint64_t i = 0; i < 2 * n; ++i) {
    CHECK_MSG(a[i] == b[i], "find_hashed differs at %llu", (unsigned long long)i);
    hits += a[i] != K(12345);
  }
  CHECK(hits > 0 && hits < 2 * n);
  if (gpu_kind(kind)) {  // the same in device memory
    Dev dk(probe_keys.data(), 2 * n * sizeof(K)), dh(nullptr, 2 * n * 8), dv(nullptr, 2 * n * sizeof(K));
    CHECK_OK(wx_hash_keys(t, dk.p, static_cast<uint64_t*>(dh.p), 2 * n, WX_MEM_DEVICE, nullptr));
    CHECK(dh.get<uint64_t>(2 * n) == ph);
    CHECK_OK(wx_find_hashed(t, dk.p, static_cast<const uint64_t*>(dh.p), dv.p, 2 * n, 12345, WX_MEM_DEVICE, nullptr));
    CHECK(dv.get<K>(2 * n) == a);
  }
  CHECK_OK(wx_table_destroy(t));
}

// Random build and probe columns (keys from a small range: many repeats) against the oracle.
template <typename K>
void random_cases(int32_t kind, uint64_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  for (int build : {WX_JOIN_UNIQUE, WX_JOIN_MULTI}) {
    std::vector<K> b(n), p(2 * n + 3);
    if (build == WX_JOIN_UNIQUE) {
      for (uint64_t i = 0; i < n; ++i) b[i] = K(i * 7 + 3);
      std::shuffle(b.begin(), b.end(), rng);
      for (auto& k : p) k = K(rng() % (8 * n + 8));
    } else {
      for (auto& k : b) k = K(rng() % (n / 3 + 1));
      for (auto& k : p) k = K(rng() % (n / 2 + 1));
    }
    if (sizeof(K) == 8) for (auto& k : b) k |= K(uint64_t(rng() % 2) << 40), k &= ~K(0) >> 1;  // wide keys on 64-bit
    if (sizeof(K) == 8) for (uint64_t i = 0; i < p.size(); ++i) p[i] = i % 2 ? b[rng() % n] : p[i];
    p[1] = K(~K(0));  // a reserved probe key matches nothing
    const Pairs want = oracle(b, p);
    wx_join* j = make_join<K>(kind, build, b);
    const Pairs got = probe(j, p);
    CHECK_MSG(got == want, "kind %d build %d: %zu pairs, oracle %zu", kind, build, got.size(), want.size());
    std::vector<uint8_t> has(p.size(), 0);
    for (auto& pr : want) has[pr.first] = 1;
    std::vector<uint32_t> s = semi(j, p, 0), a = semi(j, p, 1);
    CHECK(s.size() + a.size() == p.size());
    for (uint32_t r : s) CHECK(has[r]);
    for (uint32_t r : a) CHECK(!has[r]);
    CHECK(std::is_sorted(s.begin(), s.end()) && std::is_sorted(a.begin(), a.end()));
    if (hashes_supported(kind)) {
      std::vector<uint64_t> h(p.size());
      CHECK_OK(wx_join_hash(j, p.data(), h.data(), p.size(), WX_MEM_HOST, nullptr));
      CHECK(probe(j, p, h.data()) == want);
    } else {
      std::vector<uint64_t> h(p.size());
      CHECK_STATUS(wx_join_hash(j, p.data(), h.data(), p.size(), WX_MEM_HOST, nullptr), WX_ERR_UNSUPPORTED);
    }
    if (gpu_kind(kind)) {  // device columns in and out
      Dev dk(p.data(), p.size() * sizeof(K)), dpr(nullptr, (want.size() + 1) * 4), dbr(nullptr, (want.size() + 1) * 4);
      uint64_t count = 0;
      CHECK_OK(wx_join_probe(j, dk.p, nullptr, p.size(), static_cast<uint32_t*>(dpr.p), static_cast<uint32_t*>(dbr.p),
                             want.size(), &count, WX_MEM_DEVICE, nullptr));
      CHECK(count == want.size());
      auto pr = dpr.get<uint32_t>(count), br = dbr.get<uint32_t>(count);
      Pairs dg;
      for (uint64_t i = 0; i < count; ++i) dg.push_back({pr[i], br[i]});
      std::sort(dg.begin(), dg.end());
      CHECK(dg == want);
      Dev dbuild(b.data(), b.size() * sizeof(K));
      wx_config c = config_of(kind, 32);
      wx_join* jd = nullptr;
      CHECK_OK(wx_join_create(&c, build, dbuild.p, b.size(), WX_MEM_DEVICE, nullptr, &jd));
      CHECK(probe(jd, p) == want);
      CHECK_OK(wx_join_destroy(jd));
    }
    CHECK_OK(wx_join_destroy(j));
  }
}

// A host array of n T: ordinary memory, or page-locked (wx_host_alloc).
template <typename T>
struct HostCol {
  T* p = nullptr;
  bool locked;
  HostCol(uint64_t n, bool page_locked) : locked(page_locked) {
    if (locked) CHECK_OK(wx_host_alloc(n * sizeof(T), reinterpret_cast<void**>(&p)));
    else p = new T[n];
  }
  ~HostCol() {
    if (locked) wx_host_free(p);
    else delete[] p;
  }
};

// GPU kinds: host probes longer than the engine's 2^22-row chunks. Page-locked columns run chunk by
// chunk where the output cannot overflow (a UNIQUE inner join with room for every probe row, semi and
// anti joins), ordinary ones whole; pairs and rows checked exactly, in probe order, against the oracle.
// Three probe columns: random keys with reserved ones on the chunk edges; build keys everywhere but a
// reserved key inside the second chunk (the other chunks give one pair per row, or qualify whole for
// semi joins: their probe rows are consecutive); absent keys only (every row qualifies for anti joins).
inline void long_probes(int32_t kind) {
  const uint64_t chunk = uint64_t(1) << 22, m = 2 * chunk + 12345, nb = uint64_t(1) << 20;
  std::mt19937_64 rng(23);
  for (int build : {WX_JOIN_UNIQUE, WX_JOIN_MULTI}) {
    std::vector<uint32_t> b(nb);
    for (uint64_t i = 0; i < nb; ++i) b[i] = build == WX_JOIN_UNIQUE ? uint32_t(i * 7 + 3) : uint32_t(rng() % (nb / 4));
    std::shuffle(b.begin(), b.end(), rng);
    std::unordered_multimap<uint32_t, uint32_t> map;
    for (uint32_t i = 0; i < nb; ++i) map.emplace(b[i], i);
    std::vector<std::vector<uint32_t>> columns(3, std::vector<uint32_t>(m));
    for (auto& k : columns[0]) k = uint32_t(rng() % (8 * nb));
    for (uint64_t r : {chunk - 1, chunk, 2 * chunk, m - 1}) columns[0][r] = ~uint32_t(0);  // match nothing
    for (auto& k : columns[1]) k = b[rng() % nb];
    columns[1][chunk + 17] = ~uint32_t(0);
    for (auto& k : columns[2]) k = uint32_t(8 * nb + rng() % nb) * 2u;  // above every build key
    wx_join* j = make_join<uint32_t>(kind, build, b);
    for (size_t c = 0; c < columns.size(); ++c) {
      const std::vector<uint32_t>& p = columns[c];
      std::vector<uint8_t> has(m, 0);
      std::vector<uint32_t> want_p, want_b;  // UNIQUE: at most one pair per probe row, in probe order
      for (uint32_t i = 0; i < m; ++i) {
        auto it = map.find(p[i]);
        if (it == map.end()) continue;
        has[i] = 1;
        want_p.push_back(i), want_b.push_back(it->second);
      }
      for (bool locked : {false, true}) {
        HostCol<uint32_t> keys(m, locked), pr(m, locked), br(m, locked);
        std::copy(p.begin(), p.end(), keys.p);
        uint64_t count = 0;
        if (build == WX_JOIN_UNIQUE) {
          std::fill(pr.p, pr.p + m, 0xEEEEEEEEu);
          CHECK_OK(wx_join_probe(j, keys.p, nullptr, m, pr.p, br.p, m, &count, WX_MEM_HOST, nullptr));
          CHECK_MSG(count == want_p.size(), "long probe %zu: %llu pairs, oracle %zu", c, (unsigned long long)count,
                    want_p.size());
          for (uint64_t i = 0; i < count; ++i)
            CHECK_MSG(pr.p[i] == want_p[i] && br.p[i] == want_b[i], "long probe %zu pair %llu: (%u, %u), oracle (%u, %u)",
                      c, (unsigned long long)i, pr.p[i], br.p[i], want_p[i], want_b[i]);
          CHECK(count == m || pr.p[count] == 0xEEEEEEEEu);  // nothing past the pairs
        }
        for (int anti : {0, 1}) {
          std::fill(pr.p, pr.p + m, 0xEEEEEEEEu);
          CHECK_OK(wx_join_semi(j, keys.p, nullptr, m, anti, pr.p, &count, WX_MEM_HOST, nullptr));
          uint64_t expect = 0, at = 0;
          for (uint32_t i = 0; i < m; ++i) {
            if (has[i] == (anti ? 1 : 0)) continue;
            ++expect;
            CHECK_MSG(at < count && pr.p[at] == i, "long %s %zu: row %llu is %u, oracle %u", anti ? "anti" : "semi", c,
                      (unsigned long long)at, at < count ? pr.p[at] : 0u, i);
            ++at;
          }
          CHECK_MSG(count == expect, "long %s %zu: %llu rows, oracle %llu", anti ? "anti" : "semi", c,
                    (unsigned long long)count, (unsigned long long)expect);
          CHECK(count == m || pr.p[count] == 0xEEEEEEEEu);
        }
      }
    }
    CHECK_OK(wx_join_destroy(j));
  }
  std::printf("long host probes passed on kind %d, %d shards\n", kind, g_shards);
}

inline void run(int32_t kind, uint64_t n) {
  hand_cases<uint32_t>(kind);
  random_cases<uint32_t>(kind, 1000, 1);
  random_cases<uint32_t>(kind, n, 2);
  hashed_table_calls<uint32_t>(kind, n, 3);
  if (kind == WX_KIND_CPU) {
    hand_cases<uint64_t>(kind);
    random_cases<uint64_t>(kind, n, 4);
    hashed_table_calls<uint64_t>(kind, n, 5);
  } else {  // GPU kinds take 32-bit keys only
    if (!wxsuite::small_run() || g_shards == 1) long_probes(kind);
    wx_config c = config_of(kind, 64);
    std::vector<uint64_t> b = {1};
    wx_join* j = nullptr;
    CHECK_STATUS(wx_join_create(&c, WX_JOIN_UNIQUE, b.data(), 1, WX_MEM_HOST, nullptr, &j), WX_ERR_UNSUPPORTED);
  }
  std::printf("join suite passed on kind %d, %d shards (n = %llu)\n", kind, g_shards, (unsigned long long)n);
}

// A join over devices {0, 1} (one shard each): host columns, and device columns on device 1, against
// the oracle. Needs two devices.
inline void two_devices(int32_t kind, uint64_t n) {
  std::mt19937_64 rng(17);
  std::vector<uint32_t> b(n), p(2 * n);
  for (auto& k : b) k = uint32_t(rng() % (n / 3 + 1));
  for (auto& k : p) k = uint32_t(rng() % (n / 2 + 1));
  const Pairs want = oracle(b, p);
  wx_config c = config_of(kind, 32);
  c.shards = 0;
  c.device_count = 2;
  c.devices[0] = 0;
  c.devices[1] = 1;
  void* db = nullptr;
  CHECK_OK(wx_device_alloc(1, b.size() * 4, &db));
  CHECK_OK(wx_copy(db, WX_MEM_DEVICE, b.data(), WX_MEM_HOST, b.size() * 4));
  wx_join* j = nullptr;
  CHECK_OK(wx_join_create(&c, WX_JOIN_MULTI, db, b.size(), WX_MEM_DEVICE, nullptr, &j));
  CHECK(probe(j, p) == want);
  void *dp = nullptr, *dpr = nullptr, *dbr = nullptr;
  CHECK_OK(wx_device_alloc(1, p.size() * 4, &dp));
  CHECK_OK(wx_device_alloc(1, want.size() * 4 + 4, &dpr));
  CHECK_OK(wx_device_alloc(1, want.size() * 4 + 4, &dbr));
  CHECK_OK(wx_copy(dp, WX_MEM_DEVICE, p.data(), WX_MEM_HOST, p.size() * 4));
  uint64_t count = 0;
  CHECK_OK(wx_join_probe(j, dp, nullptr, p.size(), static_cast<uint32_t*>(dpr), static_cast<uint32_t*>(dbr), want.size(),
                         &count, WX_MEM_DEVICE, nullptr));
  CHECK(count == want.size());
  std::vector<uint32_t> pr(count), br(count);
  CHECK_OK(wx_copy(pr.data(), WX_MEM_HOST, dpr, WX_MEM_DEVICE, count * 4));
  CHECK_OK(wx_copy(br.data(), WX_MEM_HOST, dbr, WX_MEM_DEVICE, count * 4));
  Pairs got;
  for (uint64_t i = 0; i < count; ++i) {
    CHECK(i == 0 || pr[i] > pr[i - 1] || (pr[i] == pr[i - 1] && br[i] > br[i - 1]));
    got.push_back({pr[i], br[i]});
  }
  CHECK(got == want);  // already in the contract's order, which sorts the same
  std::vector<uint8_t> has(p.size(), 0);
  for (auto& x : want) has[x.first] = 1;
  CHECK_OK(wx_join_semi(j, dp, nullptr, p.size(), 1, static_cast<uint32_t*>(dpr), &count, WX_MEM_DEVICE, nullptr));
  std::vector<uint32_t> anti(count);
  CHECK_OK(wx_copy(anti.data(), WX_MEM_HOST, dpr, WX_MEM_DEVICE, count * 4));
  uint64_t expect = 0;
  for (uint8_t h : has) expect += !h;
  CHECK(count == expect);
  for (uint64_t i = 0; i < count; ++i) CHECK(!has[anti[i]] && (i == 0 || anti[i] > anti[i - 1]));
  for (void* x : {db, dp, dpr, dbr}) CHECK_OK(wx_device_free(x));
  CHECK_OK(wx_join_destroy(j));
  std::printf("join over devices {0, 1} passed on kind %d\n", kind);
}

// The suite on joins of `shards` shards (all on the kind's default device).
inline void run_sharded(int32_t kind, uint64_t n, int32_t shards) {
  g_shards = shards;
  run(kind, n);
  g_shards = 1;
}

}  // namespace wxjoin
