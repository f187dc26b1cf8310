// CPU table against a sequential oracle (std::unordered_map), through the public C API, on 32-bit
// and on 64-bit tables (key_bits = value_bits = 64), written once over the key type:
//  1. 1.2 million random operations (~200 batches) in batches of distinct keys (so every outcome is
//     deterministic), several threads, a table created tiny so it grows many times under load. Every
//     outcome and every found value is compared after each batch; at the end retrieve_all must equal
//     the oracle exactly.
//  2. >= 10^6 operations in batches with duplicates inside a batch and a reserved key in each, keys
//     from a pool of small keys, keys near the top of the 32-bit range (at 64 bits around 2^32) and
//     full-width random keys, growth from a tiny table, the full-width not_found value, then
//     retrieve_all == oracle.
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "check.hpp"
#include "cpu_tables.hpp"
#include "wixlib.h"

namespace {

template <class K>
struct Oracle {
  std::unordered_map<K, K> m;
};

template <class K>
constexpr K kTomb = sizeof(K) == 4 ? K(WX_KEY32_TOMBSTONE) : K(WX_KEY64_TOMBSTONE);
template <class K>
constexpr K kEmpty = sizeof(K) == 4 ? K(WX_KEY32_EMPTY) : K(WX_KEY64_EMPTY);

template <class K>
wx_table* make(uint64_t capacity, double lf, int threads) {
  return wxtest::make_cpu_table(capacity, lf, WX_GROW_AUTO, threads, int32_t(8 * sizeof(K)));
}
using wxtest::dump;

template <class K>
void run(int threads, uint64_t seed, uint64_t total_ops, uint32_t key_range) {
  wx_table* t = make<K>(16, 0.85, threads);
  Oracle<K> o;
  std::mt19937_64 rng(seed);
  std::vector<K> keys, vals;
  std::vector<uint8_t> out, ops;
  std::unordered_set<K> used;
  uint64_t done = 0, batches = 0;
  while (done < total_ops) {
    // Batch sizes from 1 (inline path) to 16000 (thread pool path).
    const uint64_t want = rng() % 4 == 0 ? 1 + rng() % 64 : 1 + rng() % 16000;
    used.clear();
    keys.clear();
    while (keys.size() < want) {
      // Mostly a bounded range (hits and misses), sometimes any non-reserved key.
      K k = rng() % 8 ? K(rng() % key_range) : K(rng() % uint64_t(kTomb<K>));
      if (used.insert(k).second) keys.push_back(k);
    }
    const uint64_t n = keys.size();
    vals.resize(n);
    for (auto& v : vals) v = K(rng());
    out.assign(n, 0);
    const int kind = int(rng() % 6);  // 0 insert, 1 assign, 2 erase, 3 find, 4 contains, 5 mixed
    if (kind == 0) {
      CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        bool fresh = o.m.emplace(keys[i], vals[i]).second;
        CHECK_MSG(out[i] == (fresh ? WX_OUT_INSERTED : WX_OUT_PRESENT), "insert key %llx outcome %d", (unsigned long long)keys[i], out[i]);
      }
    } else if (kind == 1) {
      CHECK_OK(wx_insert_or_assign(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        bool fresh = o.m.count(keys[i]) == 0;
        o.m[keys[i]] = vals[i];
        CHECK_MSG(out[i] == (fresh ? WX_OUT_INSERTED : WX_OUT_ASSIGNED), "assign key %llx outcome %d", (unsigned long long)keys[i], out[i]);
      }
    } else if (kind == 2) {
      CHECK_OK(wx_erase(t, keys.data(), n, out.data(), WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        bool had = o.m.erase(keys[i]) == 1;
        CHECK_MSG(out[i] == (had ? WX_OUT_ERASED : WX_OUT_NOT_FOUND), "erase key %llx outcome %d", (unsigned long long)keys[i], out[i]);
      }
    } else if (kind == 3) {
      const uint64_t nf = rng();
      CHECK_OK(wx_find(t, keys.data(), vals.data(), n, nf, WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        auto it = o.m.find(keys[i]);
        CHECK_MSG(vals[i] == (it == o.m.end() ? K(nf) : it->second), "find key %llx", (unsigned long long)keys[i]);
      }
    } else if (kind == 4) {
      CHECK_OK(wx_contains(t, keys.data(), out.data(), n, WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) CHECK(out[i] == uint8_t(o.m.count(keys[i])));
    } else {
      ops.resize(n);
      for (auto& op : ops) op = uint8_t(rng() % 4);
      std::vector<K> before = vals;
      CHECK_OK(wx_batch(t, ops.data(), keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        const K k = keys[i];
        auto it = o.m.find(k);
        const bool had = it != o.m.end();
        switch (ops[i]) {
          case WX_OP_INSERT:
            CHECK(out[i] == (had ? WX_OUT_PRESENT : WX_OUT_INSERTED) && vals[i] == before[i]);
            if (!had) o.m[k] = before[i];
            break;
          case WX_OP_INSERT_OR_ASSIGN:
            CHECK(out[i] == (had ? WX_OUT_ASSIGNED : WX_OUT_INSERTED) && vals[i] == before[i]);
            o.m[k] = before[i];
            break;
          case WX_OP_ERASE:
            CHECK(out[i] == (had ? WX_OUT_ERASED : WX_OUT_NOT_FOUND) && vals[i] == before[i]);
            o.m.erase(k);
            break;
          default:
            CHECK(out[i] == (had ? WX_OUT_FOUND : WX_OUT_NOT_FOUND));
            CHECK(vals[i] == (had ? it->second : before[i]));  // a miss leaves the value alone
        }
      }
    }
    uint64_t size = 0;
    CHECK_OK(wx_size(t, &size));
    CHECK_MSG(size == o.m.size(), "size %llu, oracle %zu", (unsigned long long)size, o.m.size());
    done += n;
    ++batches;
  }
  // Full dump equals the oracle.
  uint64_t size = 0, count = 0;
  CHECK_OK(wx_size(t, &size));
  std::vector<K> dk(size), dv(size);
  CHECK_OK(wx_retrieve_all(t, dk.data(), dv.data(), size, &count, WX_MEM_HOST, nullptr));
  CHECK(count == o.m.size());
  std::unordered_map<K, K> got;
  for (uint64_t i = 0; i < count; ++i)
    CHECK_MSG(got.emplace(dk[i], dv[i]).second, "key %llx dumped twice", (unsigned long long)dk[i]);
  CHECK(got == o.m);
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  CHECK(s.resizes > 5 && s.failed_inserts == 0 && double(s.size) <= 0.85 * double(s.capacity));
  std::printf("%d-bit keys, threads %d: %llu ops in %llu batches, %zu keys, %llu slots, %llu resizes, %llu displacements\n",
              int(8 * sizeof(K)), threads,
              (unsigned long long)done, (unsigned long long)batches, o.m.size(), (unsigned long long)s.capacity,
              (unsigned long long)s.resizes, (unsigned long long)s.displacements);
  CHECK_OK(wx_table_destroy(t));
}

// Keys: a pool mixing small keys, keys just below the top of the 32-bit range (at 64 bits around
// 2^32) and full-width random keys, so batches repeat keys (duplicates inside a batch, hits on
// earlier inserts) and, at 64 bits, the high half matters.
template <class K>
std::vector<K> key_pool(std::mt19937_64& rng, size_t n) {
  const uint64_t near = sizeof(K) == 8 ? 0xFFFF0000ull : 0xFFFC0000ull;
  std::set<K> s;
  while (s.size() < n) {
    uint64_t r = rng();
    uint64_t k = s.size() % 3 == 0 ? r % 100000 : s.size() % 3 == 1 ? near + r % 200000 : K(r);
    // (a random key never takes a small one: the small third needs every one of the 100000)
    if (k < kTomb<K> && (s.size() % 3 != 2 || k >= 100000)) s.insert(K(k));
  }
  return std::vector<K>(s.begin(), s.end());
}

template <class K>
void oracle_with_duplicates() {
  using Ks = std::vector<K>;
  constexpr K kNotFound = K(0xDEADBEEFCAFEBABEull);  // full width: must come back unchanged
  std::mt19937_64 rng(12345);
  const Ks pool = key_pool<K>(rng, 300000);
  wx_table* t = make<K>(64, 0.8, 3);  // tiny: the run grows it many times
  std::unordered_map<K, K> oracle;
  const int kBatches = 120;
  uint64_t ops = 0;
  for (int round = 0; round < kBatches; ++round) {
    const int kind = round < 20 ? 0 : int(rng() % 5);  // start by filling
    const size_t n = 5000 + rng() % 15000;
    Ks keys(n), vals(n), got(n);
    std::vector<uint8_t> out(n, 0xAB);
    for (size_t i = 0; i < n; ++i) {
      keys[i] = pool[rng() % pool.size()];
      vals[i] = K(rng());
    }
    const size_t reserved_at = rng() % n;
    keys[reserved_at] = rng() & 1 ? kEmpty<K> : kTomb<K>;
    ops += n;
    std::unordered_map<K, std::vector<size_t>> by_key;
    for (size_t i = 0; i < n; ++i)
      if (i != reserved_at) by_key[keys[i]].push_back(i);
    int32_t st = WX_OK;
    switch (kind) {
      case 0: st = wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr); break;
      case 1: st = wx_insert_or_assign(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr); break;
      case 2: st = wx_find(t, keys.data(), got.data(), n, kNotFound, WX_MEM_HOST, nullptr); break;
      case 3: st = wx_contains(t, keys.data(), out.data(), n, WX_MEM_HOST, nullptr); break;
      default: st = wx_erase(t, keys.data(), n, out.data(), WX_MEM_HOST, nullptr); break;
    }
    CHECK_MSG(st == WX_ERR_INVALID_KEY, "round %d: status %s: %s", round, wx_status_name(st), wx_last_error());
    if (kind == 2) CHECK(got[reserved_at] == kNotFound);
    else CHECK(out[reserved_at] == (kind == 3 ? 0 : WX_OUT_INVALID_KEY));
    Ks assigned_dups;
    for (auto& [k, idx] : by_key) {
      auto it = oracle.find(k);
      const bool present = it != oracle.end();
      size_t inserted = 0, erased = 0;
      for (size_t i : idx) {
        switch (kind) {
          case 0:
            CHECK(out[i] == WX_OUT_PRESENT || (!present && out[i] == WX_OUT_INSERTED));
            if (out[i] == WX_OUT_INSERTED) ++inserted, oracle[k] = vals[i];
            break;
          case 1:
            CHECK(out[i] == WX_OUT_ASSIGNED || (!present && out[i] == WX_OUT_INSERTED));
            inserted += out[i] == WX_OUT_INSERTED;
            break;
          case 2:
            CHECK_MSG(got[i] == (present ? it->second : kNotFound), "round %d key %llx: got %llx", round,
                      (unsigned long long)k, (unsigned long long)got[i]);
            break;
          case 3: CHECK(out[i] == (present ? 1 : 0)); break;
          default:
            CHECK(out[i] == WX_OUT_ERASED || out[i] == WX_OUT_NOT_FOUND);
            erased += out[i] == WX_OUT_ERASED;
            break;
        }
      }
      if (kind == 0) CHECK(inserted == (present ? 0u : 1u));
      if (kind == 1) {
        CHECK(inserted == (present ? 0u : 1u));
        if (idx.size() == 1) oracle[k] = vals[idx[0]];
        else assigned_dups.push_back(k);  // which duplicate wins is up to the schedule
      }
      if (kind == 4) {
        CHECK(erased == (present ? 1u : 0u));
        oracle.erase(k);
      }
    }
    if (!assigned_dups.empty()) {  // the winner must be one of the key's values in this batch
      Ks v(assigned_dups.size());
      CHECK_OK(wx_find(t, assigned_dups.data(), v.data(), v.size(), kNotFound, WX_MEM_HOST, nullptr));
      for (size_t j = 0; j < v.size(); ++j) {
        bool ok = false;
        for (size_t i : by_key[assigned_dups[j]]) ok |= vals[i] == v[j];
        CHECK(ok);
        oracle[assigned_dups[j]] = v[j];
      }
    }
    uint64_t size = 0;
    CHECK_OK(wx_size(t, &size));
    CHECK_MSG(size == oracle.size(), "round %d: size %llu, oracle %zu", round, (unsigned long long)size, oracle.size());
  }
  CHECK(ops >= 1000000);
  auto m = dump<K>(t);
  CHECK(m.size() == oracle.size());
  uint64_t above32 = 0;  // at 64 bits: keys above 2^32
  for (auto& [k, v] : m) {
    auto it = oracle.find(k);
    CHECK(it != oracle.end() && it->second == v);
    above32 += uint64_t(k) > 0xFFFFFFFFull;
  }
  if (sizeof(K) == 8) CHECK(above32 > 1000);
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  CHECK(s.resizes >= 8);
  std::printf("%d-bit keys, duplicates: %llu ops, %zu keys at the end (%llu above 2^32), %llu resizes\n", int(8 * sizeof(K)), (unsigned long long)ops,
              oracle.size(), (unsigned long long)above32, (unsigned long long)s.resizes);
  CHECK_OK(wx_table_destroy(t));
}

}  // namespace

template <class K>
void all_runs() {
  run<K>(4, 1, 1000000, 400000);
  run<K>(2, 2, 200000, 50000);  // dense range: many hits, erases and re-inserts
  oracle_with_duplicates<K>();
}

int main() {
  all_runs<uint32_t>();
  all_runs<uint64_t>();
  std::printf("test_cpu_oracle: OK\n");
  return 0;
}
