// 64-bit keys and values on the CPU table (key_bits = value_bits = 64), through the public C API:
//  1. configuration: 64/64 accepted on CPU, 32/64 and 64/32 rejected (UNSUPPORTED), 64/64 on the GPU
//     kinds never UNSUPPORTED (created with a GPU, NO_DEVICE without);
//  2. reserved keys WX_KEY64_EMPTY / WX_KEY64_TOMBSTONE (and that their 32-bit halves are ordinary keys);
//  3. an oracle run: >= 10^6 random operations in batches, keys above 2^32, duplicates inside batches,
//     growth from a tiny table, the full 64-bit not_found value, then retrieve_all == oracle;
//  4. mixed concurrent batches on hot keys, checked per key (counts, and every value read was written
//     for that key, which catches a key paired with a torn or foreign value);
//  5. structural invariants (make_cpu_table + check_invariants) after growth and erases;
//  6. the 16-byte slot access itself (both the MOVDQA and the CMPXCHG16B paths): a writer flips a
//     slot between pairs with equal halves while a reader checks it never sees mixed halves.
#include <algorithm>
#include <chrono>
#include <atomic>
#include <thread>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <unordered_map>
#include <vector>

#include "check.hpp"
#include "common/table.hpp"
#include "cpu/cpu_table.hpp"
#include "wixlib.h"

namespace {

using U64s = std::vector<uint64_t>;
using Bytes = std::vector<uint8_t>;
using Oracle = std::unordered_map<uint64_t, uint64_t>;

constexpr uint64_t kNotFound = 0xDEADBEEFCAFEBABEull;  // full 64 bits: must come back unchanged

wx_config config(int32_t kind, int32_t key_bits, int32_t value_bits) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, kind));
  c.key_bits = key_bits;
  c.value_bits = value_bits;
  return c;
}

wx_table* make(uint64_t capacity, int32_t threads) {
  wx_config c = config(WX_KIND_CPU, 64, 64);
  c.capacity = capacity;
  c.max_load_factor = 0.8;
  c.threads = threads;
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  return t;
}

std::map<uint64_t, uint64_t> dump(wx_table* t) {
  uint64_t n = 0, count = 0;
  CHECK_OK(wx_size(t, &n));
  U64s k(n + 1), v(n + 1);
  CHECK_OK(wx_retrieve_all(t, k.data(), v.data(), n, &count, WX_MEM_HOST, nullptr));
  CHECK(count == n);
  std::map<uint64_t, uint64_t> m;
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(m.emplace(k[i], v[i]).second, "key %llx retrieved twice", (unsigned long long)k[i]);
  return m;
}

void test_config() {
  wx_table* t = nullptr;
  wx_config c = config(WX_KIND_CPU, 64, 64);
  CHECK_OK(wx_table_create(&c, &t));
  CHECK_OK(wx_table_destroy(t));
  for (auto [kb, vb] : {std::pair{32, 64}, std::pair{64, 32}}) {
    c = config(WX_KIND_CPU, kb, vb);
    t = nullptr;
    CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_UNSUPPORTED);
    CHECK(t == nullptr);
  }
  c = config(WX_KIND_CPU, 16, 16);
  CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_UNSUPPORTED);
  for (int32_t kind : {WX_KIND_GLHT, WX_KIND_HIVE}) {  // 64/64: created where a GPU is, NO_DEVICE where none is
    c = config(kind, 64, 64);
    t = nullptr;
    const int32_t st = wx_table_create(&c, &t);
    CHECK_MSG(st == WX_OK || st == WX_ERR_NO_DEVICE, "kind %d 64/64: status %d (%s)", kind, st, wx_last_error());
    CHECK((st == WX_OK) == (t != nullptr));
    if (t) CHECK_OK(wx_table_destroy(t));
  }
}

void test_reserved() {
  wx_table* t = make(1000, 2);
  const uint64_t lo_empty = 0xFFFFFFFFull, lo_tomb = 0xFFFFFFFEull;  // ordinary keys on a 64-bit table
  U64s keys = {WX_KEY64_EMPTY, 5, WX_KEY64_TOMBSTONE, lo_empty, lo_tomb, uint64_t(1) << 40};
  U64s vals = {1, 2, 3, 4, 5, ~uint64_t(0) - 7};
  Bytes out(keys.size());
  CHECK_STATUS(wx_insert(t, keys.data(), vals.data(), keys.size(), out.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(std::string(wx_last_error()).find("0xFFFFFFFFFFFFFFFF") != std::string::npos);
  CHECK(out[0] == WX_OUT_INVALID_KEY && out[2] == WX_OUT_INVALID_KEY);
  CHECK(out[1] == WX_OUT_INSERTED && out[3] == WX_OUT_INSERTED && out[4] == WX_OUT_INSERTED && out[5] == WX_OUT_INSERTED);
  U64s got(keys.size());
  CHECK_STATUS(wx_find(t, keys.data(), got.data(), keys.size(), kNotFound, WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(got[0] == kNotFound && got[2] == kNotFound);
  CHECK(got[1] == 2 && got[3] == 4 && got[4] == 5 && got[5] == ~uint64_t(0) - 7);
  U64s absent = {7, uint64_t(5) << 32};
  CHECK_OK(wx_find(t, absent.data(), got.data(), 2, kNotFound, WX_MEM_HOST, nullptr));
  CHECK(got[0] == kNotFound && got[1] == kNotFound);
  Bytes found(keys.size());
  CHECK_STATUS(wx_contains(t, keys.data(), found.data(), keys.size(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(found == (Bytes{0, 1, 0, 1, 1, 1}));
  CHECK_STATUS(wx_erase(t, keys.data(), keys.size(), out.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(out[0] == WX_OUT_INVALID_KEY && out[1] == WX_OUT_ERASED && out[5] == WX_OUT_ERASED);
  CHECK(dump(t).empty());
  CHECK_OK(wx_table_destroy(t));
}

// Keys: a pool mixing small keys, keys just around 2^32 and full-width random keys, so batches
// repeat keys (duplicates inside a batch, hits on earlier inserts) and the high half matters.
U64s key_pool(std::mt19937_64& rng, size_t n) {
  std::set<uint64_t> s;
  while (s.size() < n) {
    uint64_t r = rng();
    uint64_t k = s.size() % 3 == 0 ? r % 100000 : s.size() % 3 == 1 ? 0xFFFF0000ull + r % 200000 : r;
    if (k < WX_KEY64_TOMBSTONE) s.insert(k);
  }
  return U64s(s.begin(), s.end());
}

void test_oracle() {
  std::mt19937_64 rng(12345);
  const U64s pool = key_pool(rng, 300000);
  wx_table* t = make(64, 3);  // tiny: the run grows it many times
  Oracle oracle;
  const int kBatches = 120;
  uint64_t ops = 0;
  for (int round = 0; round < kBatches; ++round) {
    const int kind = round < 20 ? 0 : int(rng() % 5);  // start by filling
    const size_t n = 5000 + rng() % 15000;
    U64s keys(n), vals(n), got(n);
    Bytes out(n, 0xAB);
    for (size_t i = 0; i < n; ++i) {
      keys[i] = pool[rng() % pool.size()];
      vals[i] = rng();
    }
    const size_t reserved_at = rng() % n;
    keys[reserved_at] = rng() & 1 ? WX_KEY64_EMPTY : WX_KEY64_TOMBSTONE;
    ops += n;
    std::unordered_map<uint64_t, std::vector<size_t>> by_key;
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
    std::vector<uint64_t> assigned_dups;
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
      U64s v(assigned_dups.size());
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
  auto m = dump(t);
  CHECK(m.size() == oracle.size());
  uint64_t above32 = 0;
  for (auto& [k, v] : m) {
    auto it = oracle.find(k);
    CHECK(it != oracle.end() && it->second == v);
    above32 += k > 0xFFFFFFFFull;
  }
  CHECK(above32 > 1000);
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  CHECK(s.resizes >= 8);
  std::printf("oracle: %llu ops, %zu keys at the end (%llu above 2^32), %llu resizes\n", (unsigned long long)ops,
              oracle.size(), (unsigned long long)above32, (unsigned long long)s.resizes);
  CHECK_OK(wx_table_destroy(t));
}

// One mixed batch of all op kinds over a few hot keys (and some cold ones), run by 4 workers.
// Per key: i - e == p1 - p0; FOUND / PRESENT / ASSIGNED need a present stretch, NOT_FOUND an absent
// one; every value a find returned and the final value were written for that key (initial value,
// an INSERTED or an ASSIGNED element of that key).
void test_mixed_concurrent() {
  std::mt19937_64 rng(777);
  wx_table* t = make(1 << 12, 4);
  U64s hot;
  for (int i = 0; i < 48; ++i) hot.push_back((uint64_t(i) << 36) | (rng() & 0xFFFFFFFFF));
  for (int round = 0; round < 12; ++round) {
    const auto before = dump(t);
    const size_t n = 200000;
    U64s keys(n), vals(n), given(n);
    Bytes ops(n), out(n, 0xAB);
    for (size_t i = 0; i < n; ++i) {
      keys[i] = rng() % 4 ? hot[rng() % hot.size()] : (rng() | (uint64_t(1) << 63)) >> 1;
      ops[i] = uint8_t(rng() % 4 == 0 ? WX_OP_ERASE : rng() % 3 == 0 ? WX_OP_FIND : rng() % 2 ? WX_OP_INSERT : WX_OP_INSERT_OR_ASSIGN);
      vals[i] = given[i] = (uint64_t(round * n + i) << 20) ^ (keys[i] * 0x9E3779B97F4A7C15ull);
    }
    CHECK_OK(wx_batch(t, ops.data(), keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
    const auto after = dump(t);
    struct PerKey {
      int ins = 0, era = 0, present_pts = 0, absent_pts = 0;
      std::set<uint64_t> written, read;
    };
    std::unordered_map<uint64_t, PerKey> pk;
    for (size_t i = 0; i < n; ++i) {
      PerKey& p = pk[keys[i]];
      switch (out[i]) {
        case WX_OUT_INSERTED: CHECK(ops[i] == WX_OP_INSERT || ops[i] == WX_OP_INSERT_OR_ASSIGN); ++p.ins; p.written.insert(given[i]); break;
        case WX_OUT_ASSIGNED: CHECK(ops[i] == WX_OP_INSERT_OR_ASSIGN); ++p.present_pts; p.written.insert(given[i]); break;
        case WX_OUT_PRESENT: CHECK(ops[i] == WX_OP_INSERT); ++p.present_pts; break;
        case WX_OUT_ERASED: CHECK(ops[i] == WX_OP_ERASE); ++p.era; break;
        case WX_OUT_FOUND: CHECK(ops[i] == WX_OP_FIND); ++p.present_pts; p.read.insert(vals[i]); break;
        case WX_OUT_NOT_FOUND: CHECK(ops[i] == WX_OP_FIND || ops[i] == WX_OP_ERASE); ++p.absent_pts; break;
        default: CHECK_MSG(false, "element %zu: outcome %d", i, out[i]);
      }
    }
    for (auto& [k, p] : pk) {
      auto b = before.find(k);
      auto a = after.find(k);
      const int p0 = b != before.end(), p1 = a != after.end();
      if (p0) p.written.insert(b->second);
      CHECK_MSG(p.ins - p.era == p1 - p0, "key %llx: %d inserted, %d erased, present %d -> %d", (unsigned long long)k, p.ins,
                p.era, p0, p1);
      if (p.present_pts) CHECK(p0 || p.ins >= 1);
      if (p.absent_pts) CHECK(!p0 || p.era >= 1);
      for (uint64_t v : p.read)
        CHECK_MSG(p.written.count(v), "key %llx: a find returned %llx, never written for it", (unsigned long long)k,
                  (unsigned long long)v);
      if (p1) CHECK(p.written.count(a->second));
    }
    for (auto& [k, v] : after) CHECK(pk.count(k) || (before.count(k) && before.at(k) == v));
  }
  CHECK_OK(wx_table_destroy(t));
}

void test_invariants() {
  wx_config c = config(WX_KIND_CPU, 64, 64);
  c.capacity = 256;
  c.max_load_factor = 0.95;
  c.threads = 3;
  std::unique_ptr<wx::Table> t(wx::make_cpu_table(c));
  auto* cpu = dynamic_cast<wx::cpu::CpuTable<wx::cpu::Kv64>*>(t.get());
  CHECK(cpu != nullptr);
  std::mt19937_64 rng(99);
  U64s keys(400000), vals(400000);
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = rng() >> 1, vals[i] = rng();
  Bytes out(keys.size());
  wx::Batch b;
  b.keys = keys.data();
  b.values_in = vals.data();
  b.n = keys.size();
  b.outcomes = out.data();
  wx::BatchResult r = t->insert(b);
  CHECK(r.full == 0 && r.invalid == 0);
  std::string bad = cpu->check_invariants();
  CHECK_MSG(bad.empty(), "%s", bad.c_str());
  b.values_in = nullptr;
  b.n = keys.size() / 2;
  r = t->erase(b);
  bad = cpu->check_invariants();
  CHECK_MSG(bad.empty(), "%s", bad.c_str());
  CHECK(t->size() == keys.size() - keys.size() / 2);
}

// A reader must never see the halves of two different stores.
template <typename Load, typename Store>
void torn_check(const char* name, Load load, Store store) {
  alignas(64) static wx::cpu::u128 slot = 0;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (uint64_t i = 1; !stop.load(std::memory_order_relaxed); ++i)
      store(&slot, (wx::cpu::u128(i) << 64) | i);  // both halves carry the same counter
  });
  uint64_t reads = 0, changes = 0, last = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  while (std::chrono::steady_clock::now() < until) {
    for (int j = 0; j < 1000; ++j, ++reads) {
      wx::cpu::u128 w = load(&slot);
      uint64_t lo = uint64_t(w), hi = uint64_t(w >> 64);
      CHECK_MSG(lo == hi, "%s: torn read %llx / %llx", name, (unsigned long long)lo, (unsigned long long)hi);
      changes += lo != last;
      last = lo;
    }
  }
  stop = true;
  writer.join();
  std::printf("%s: %llu reads, %llu changes seen, none torn\n", name, (unsigned long long)reads, (unsigned long long)changes);
  CHECK(changes > 10);  // the reader really raced the writer
}

void test_atomic16() {
#if defined(__x86_64__)
  if (wx::cpu::kAvxAtomic16) torn_check("movdqa", wx::cpu::load16, wx::cpu::store16);
  torn_check("cmpxchg16b", wx::cpu::load16_cas, wx::cpu::store16_cas);
#else
  torn_check("atomic builtins", wx::cpu::load16, wx::cpu::store16);
#endif
}

}  // namespace

int main() {
  test_atomic16();
  test_config();
  test_reserved();
  test_oracle();
  test_mixed_concurrent();
  test_invariants();
  std::printf("test_cpu_wide: OK\n");
  return 0;
}
