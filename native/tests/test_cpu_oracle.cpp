// CPU table against a sequential oracle (std::unordered_map), through the public C API.
// 1.2 million random operations (~200 batches) in batches of distinct keys (so every outcome is deterministic),
// several threads, a table created tiny so it grows many times under load. Every outcome and every
// found value is compared after each batch; at the end retrieve_all must equal the oracle exactly.
#include <algorithm>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "check.hpp"
#include "wixlib.h"

namespace {

struct Oracle {
  std::unordered_map<uint32_t, uint32_t> m;
};

void run(int threads, uint64_t seed, uint64_t total_ops, uint32_t key_range) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  c.capacity = 16;
  c.max_load_factor = 0.85;
  c.threads = threads;
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  Oracle o;
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> keys, vals;
  std::vector<uint8_t> out, ops;
  std::unordered_set<uint32_t> used;
  uint64_t done = 0, batches = 0;
  while (done < total_ops) {
    // Batch sizes from 1 (inline path) to 16000 (thread pool path).
    const uint64_t want = rng() % 4 == 0 ? 1 + rng() % 64 : 1 + rng() % 16000;
    used.clear();
    keys.clear();
    while (keys.size() < want) {
      // Mostly a bounded range (hits and misses), sometimes any non-reserved key.
      uint32_t k = rng() % 8 ? uint32_t(rng() % key_range) : uint32_t(rng() % 0xFFFFFFFEull);
      if (used.insert(k).second) keys.push_back(k);
    }
    const uint64_t n = keys.size();
    vals.resize(n);
    for (auto& v : vals) v = uint32_t(rng());
    out.assign(n, 0);
    const int kind = int(rng() % 6);  // 0 insert, 1 assign, 2 erase, 3 find, 4 contains, 5 mixed
    if (kind == 0) {
      CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        bool fresh = o.m.emplace(keys[i], vals[i]).second;
        CHECK_MSG(out[i] == (fresh ? WX_OUT_INSERTED : WX_OUT_PRESENT), "insert key %u outcome %d", keys[i], out[i]);
      }
    } else if (kind == 1) {
      CHECK_OK(wx_insert_or_assign(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        bool fresh = o.m.count(keys[i]) == 0;
        o.m[keys[i]] = vals[i];
        CHECK_MSG(out[i] == (fresh ? WX_OUT_INSERTED : WX_OUT_ASSIGNED), "assign key %u outcome %d", keys[i], out[i]);
      }
    } else if (kind == 2) {
      CHECK_OK(wx_erase(t, keys.data(), n, out.data(), WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        bool had = o.m.erase(keys[i]) == 1;
        CHECK_MSG(out[i] == (had ? WX_OUT_ERASED : WX_OUT_NOT_FOUND), "erase key %u outcome %d", keys[i], out[i]);
      }
    } else if (kind == 3) {
      const uint64_t nf = rng();
      CHECK_OK(wx_find(t, keys.data(), vals.data(), n, nf, WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        auto it = o.m.find(keys[i]);
        CHECK_MSG(vals[i] == (it == o.m.end() ? uint32_t(nf) : it->second), "find key %u", keys[i]);
      }
    } else if (kind == 4) {
      CHECK_OK(wx_contains(t, keys.data(), out.data(), n, WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) CHECK(out[i] == uint8_t(o.m.count(keys[i])));
    } else {
      ops.resize(n);
      for (auto& op : ops) op = uint8_t(rng() % 4);
      std::vector<uint32_t> before = vals;
      CHECK_OK(wx_batch(t, ops.data(), keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
      for (uint64_t i = 0; i < n; ++i) {
        const uint32_t k = keys[i];
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
  std::vector<uint32_t> dk(size), dv(size);
  CHECK_OK(wx_retrieve_all(t, dk.data(), dv.data(), size, &count, WX_MEM_HOST, nullptr));
  CHECK(count == o.m.size());
  std::unordered_map<uint32_t, uint32_t> got;
  for (uint64_t i = 0; i < count; ++i) CHECK_MSG(got.emplace(dk[i], dv[i]).second, "key %u dumped twice", dk[i]);
  CHECK(got == o.m);
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  CHECK(s.resizes > 5 && s.failed_inserts == 0 && double(s.size) <= 0.85 * double(s.capacity));
  std::printf("threads %d: %llu ops in %llu batches, %zu keys, %llu slots, %llu resizes, %llu displacements\n", threads,
              (unsigned long long)done, (unsigned long long)batches, o.m.size(), (unsigned long long)s.capacity,
              (unsigned long long)s.resizes, (unsigned long long)s.displacements);
  CHECK_OK(wx_table_destroy(t));
}

}  // namespace

int main() {
  run(4, 1, 1000000, 400000);
  run(2, 2, 200000, 50000);  // dense range: many hits, erases and re-inserts
  std::printf("test_cpu_oracle: OK\n");
  return 0;
}
