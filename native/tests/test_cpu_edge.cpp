// CPU table edge cases through the public C API: reserved keys (32- and 64-bit tables; on 64-bit
// ones the 32-bit sentinels are ordinary keys), duplicates in one batch, empty batches, growth,
// WX_GROW_NEVER, crafted collisions (H = 32 limit), resize, clear, retrieve_all, absurd
// configurations, key/value widths (64/64 accepted, mixed widths refused). Structural invariants are
// checked on tables made with make_cpu_table, after growth and erases at both widths.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "check.hpp"
#include "cpu_tables.hpp"
#include "suite/linearizability.hpp"
#include "common/table.hpp"
#include "cpu/cpu_table.hpp"
#include "wixlib.h"

namespace {

using Keys = std::vector<uint32_t>;
using Bytes = std::vector<uint8_t>;

wx_table* make(uint64_t capacity, double lf, int32_t grow, int32_t threads = 4, int32_t key_bits = 32) {
  return wxtest::make_cpu_table(capacity, lf, grow, threads, key_bits);
}
using wxtest::size_of;
std::map<uint32_t, uint32_t> dump(wx_table* t) { return wxtest::dump<uint32_t>(t); }

// Home of a key in a CPU table of `buckets` homes (same mixer as the table).
// The table's home rule (multiply-high reduction of the hash).
uint64_t home_of(uint32_t k, uint64_t buckets) { return uint64_t((unsigned __int128)wx::cpu::Kv32::hash(k) * buckets >> 64); }

void reserved_keys() {
  wx_table* t = make(1000, 0.8, WX_GROW_AUTO);
  Keys keys = {1, WX_KEY32_EMPTY, 2, WX_KEY32_TOMBSTONE, 0, 0xFFFFFFFDu};
  Keys vals = {10, 11, 12, 13, 14, 15};
  Bytes out(keys.size());
  CHECK_STATUS(wx_insert(t, keys.data(), vals.data(), keys.size(), out.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(out[0] == WX_OUT_INSERTED && out[1] == WX_OUT_INVALID_KEY && out[2] == WX_OUT_INSERTED);
  CHECK(out[3] == WX_OUT_INVALID_KEY && out[4] == WX_OUT_INSERTED && out[5] == WX_OUT_INSERTED);
  CHECK(size_of(t) == 4);
  Keys got(keys.size());
  CHECK_STATUS(wx_find(t, keys.data(), got.data(), keys.size(), 0x1234567890ull, WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(got[0] == 10 && got[1] == 0x34567890u && got[2] == 12 && got[3] == 0x34567890u && got[4] == 14 && got[5] == 15);
  Bytes found(keys.size(), 9);
  CHECK_STATUS(wx_contains(t, keys.data(), found.data(), keys.size(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(found == Bytes({1, 0, 1, 0, 1, 1}));
  CHECK_STATUS(wx_erase(t, keys.data(), keys.size(), out.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(out[1] == WX_OUT_INVALID_KEY && out[0] == WX_OUT_ERASED && out[5] == WX_OUT_ERASED);
  CHECK(size_of(t) == 0);
  // Mixed batch: reserved keys are rejected whatever the op.
  Bytes ops = {WX_OP_INSERT, WX_OP_FIND, WX_OP_ERASE, WX_OP_INSERT_OR_ASSIGN, WX_OP_FIND, WX_OP_INSERT};
  Keys mk = {WX_KEY32_EMPTY, WX_KEY32_TOMBSTONE, WX_KEY32_EMPTY, WX_KEY32_TOMBSTONE, 7, 7};
  Keys mv = {1, 2, 3, 4, 5, 6};
  CHECK_STATUS(wx_batch(t, ops.data(), mk.data(), mv.data(), mk.size(), out.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  for (int i = 0; i < 4; ++i) CHECK(out[i] == WX_OUT_INVALID_KEY);
  CHECK(mv[1] == 2);  // a rejected find leaves its value alone
  CHECK(out[5] == WX_OUT_INSERTED && (out[4] == WX_OUT_FOUND || out[4] == WX_OUT_NOT_FOUND));
  CHECK(out[4] == WX_OUT_NOT_FOUND ? mv[4] == 5 : mv[4] == 6);
  // A bad op code is rejected before anything runs.
  Bytes bad = {WX_OP_INSERT, 9};
  Keys bk = {100, 101};
  CHECK_STATUS(wx_batch(t, bad.data(), bk.data(), mv.data(), 2, out.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_ARGUMENT);
  CHECK(size_of(t) == 1);
  CHECK_OK(wx_table_destroy(t));
}

void duplicates_in_one_batch() {
  for (int64_t n : {int64_t(7), int64_t(5000), int64_t(100000)}) {  // inline path and pool path
    wx_table* t = make(64, 0.8, WX_GROW_AUTO);
    Keys keys(n), vals(n);
    for (int64_t i = 0; i < n; ++i) keys[i] = uint32_t(i % 3), vals[i] = uint32_t(i);
    Bytes out(n);
    CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
    int inserted[3] = {0, 0, 0};
    for (int64_t i = 0; i < n; ++i) {
      CHECK(out[i] == WX_OUT_INSERTED || out[i] == WX_OUT_PRESENT);
      inserted[keys[i]] += out[i] == WX_OUT_INSERTED;
    }
    CHECK(inserted[0] == 1 && inserted[1] == 1 && inserted[2] == 1);
    auto m = dump(t);
    CHECK(m.size() == 3);
    for (int64_t i = 0; i < n; ++i)
      if (out[i] == WX_OUT_INSERTED) CHECK(m[keys[i]] == vals[i]);  // the inserted value stays
    // insert_or_assign: no INSERTED (all present), all ASSIGNED, final value one of the key's values.
    for (int64_t i = 0; i < n; ++i) vals[i] = uint32_t(1000000 + i);
    CHECK_OK(wx_insert_or_assign(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
    for (int64_t i = 0; i < n; ++i) CHECK(out[i] == WX_OUT_ASSIGNED);
    m = dump(t);
    for (auto& [k, v] : m) CHECK(v >= 1000000 && (v - 1000000) % 3 == k);
    // Duplicate erase: exactly one ERASED per key.
    CHECK_OK(wx_erase(t, keys.data(), n, out.data(), WX_MEM_HOST, nullptr));
    int erased = 0;
    for (int64_t i = 0; i < n; ++i) {
      CHECK(out[i] == WX_OUT_ERASED || out[i] == WX_OUT_NOT_FOUND);
      erased += out[i] == WX_OUT_ERASED;
    }
    CHECK(erased == 3 && size_of(t) == 0);
    CHECK_OK(wx_table_destroy(t));
  }
}

void empty_batches() {
  wx_table* t = make(100, 0.8, WX_GROW_AUTO);
  CHECK_OK(wx_insert(t, nullptr, nullptr, 0, nullptr, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_find(t, nullptr, nullptr, 0, 0, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_erase(t, nullptr, 0, nullptr, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_batch(t, nullptr, nullptr, nullptr, 0, nullptr, WX_MEM_HOST, nullptr));
  uint64_t count = 7;
  CHECK_OK(wx_retrieve_all(t, nullptr, nullptr, 0, &count, WX_MEM_HOST, nullptr));
  CHECK(count == 0 && size_of(t) == 0);
  // Values may be NULL for insert (value 0), outcomes may be NULL.
  Keys k = {5, 6};
  CHECK_OK(wx_insert(t, k.data(), nullptr, 2, nullptr, WX_MEM_HOST, nullptr));
  Keys v(2, 9);
  CHECK_OK(wx_find(t, k.data(), v.data(), 2, 1, WX_MEM_HOST, nullptr));
  CHECK(v[0] == 0 && v[1] == 0);
  CHECK_OK(wx_table_destroy(t));
}

void grows_under_load() {
  wx_table* t = make(10, 0.8, WX_GROW_AUTO);
  uint64_t cap0 = 0;
  CHECK_OK(wx_capacity(t, &cap0));
  CHECK(cap0 == 64 + 32 + 64);  // 64 homes, the 32 padding slots after the last, the 64-slot stash
  const uint64_t n = 300000;
  Keys keys(n), vals(n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = uint32_t(i * 2654435761u), vals[i] = uint32_t(i);
  Bytes out(n);
  CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i) CHECK(out[i] == WX_OUT_INSERTED);
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  CHECK(s.size == n && s.resizes >= 10 && s.failed_inserts == 0);
  CHECK_MSG(double(s.size) <= 0.8 * double(s.capacity), "load %f above max", double(s.size) / double(s.capacity));
  CHECK(s.bytes >= s.capacity * 12);
  Keys got(n);
  CHECK_OK(wx_find(t, keys.data(), got.data(), n, 0xDEAD, WX_MEM_HOST, nullptr));
  CHECK(got == vals);
  CHECK_OK(wx_table_destroy(t));
}

void grow_never_reports_full() {
  wx_table* t = make(100, 0.8, WX_GROW_NEVER);  // 125 homes + 32 padding slots + a 64-slot stash
  uint64_t cap = 0;
  CHECK_OK(wx_capacity(t, &cap));
  CHECK(cap == 125 + 32 + 64);
  const uint64_t n = 1000;
  Keys keys(n), vals(n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = uint32_t(i), vals[i] = uint32_t(i + 7);
  Bytes out(n);
  CHECK_STATUS(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr), WX_ERR_FULL);
  uint64_t placed = 0, full = 0;
  for (uint64_t i = 0; i < n; ++i) {
    CHECK(out[i] == WX_OUT_INSERTED || out[i] == WX_OUT_FULL);
    placed += out[i] == WX_OUT_INSERTED;
    full += out[i] == WX_OUT_FULL;
  }
  CHECK(placed > 64 && placed <= cap && size_of(t) == placed);
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  CHECK(s.failed_inserts == full && s.capacity == cap && s.resizes == 0);
  auto m = dump(t);
  for (uint64_t i = 0; i < n; ++i) CHECK((m.count(keys[i]) == 1) == (out[i] == WX_OUT_INSERTED));
  for (auto& [k, v] : m) CHECK(v == k + 7);
  // After erasing, the room is usable again.
  CHECK_OK(wx_erase(t, keys.data(), n, nullptr, WX_MEM_HOST, nullptr));
  CHECK(size_of(t) == 0);
  CHECK_OK(wx_insert(t, keys.data(), vals.data(), 50, out.data(), WX_MEM_HOST, nullptr));
  CHECK_OK(wx_table_destroy(t));
}

// 112 keys sharing one home: H = 32 fit its neighbourhood, 64 the overflow stash (its size at 2^12
// homes), the last 16 nowhere.
void crafted_collisions() {
  const uint64_t buckets = 1 << 12;
  Keys same;
  for (uint32_t k = 0; same.size() < 112; ++k)
    if (home_of(k, 1 << 20) == 77u << 8) same.push_back(k);  // home 77 at 2^12 homes; one home up to 2^20
  wx_config c;
  wx_config_init(&c, WX_KIND_CPU);
  c.capacity = buckets / 2;
  c.max_load_factor = 0.5;
  c.grow = WX_GROW_NEVER;
  c.threads = 1;  // in order: same[0..31] in the neighbourhood, [32..95] in the stash, [96..111] FULL
  std::unique_ptr<wx::Table> t(wx::make_cpu_table(c));
  auto* cpu = dynamic_cast<wx::cpu::CpuTable<wx::cpu::Kv32>*>(t.get());
  CHECK(cpu != nullptr && t->capacity() == buckets + 32 + 64);  // homes, padding, stash
  // Fill slots 100.. with other keys first, so the colliding keys must displace them.
  Keys filler;
  for (uint32_t k = 1u << 31; filler.size() < 30; ++k) {
    uint64_t h = home_of(k, buckets);
    if (h >= 100 && h < 140) filler.push_back(k);
  }
  Bytes out(filler.size());
  wx::Batch b;
  b.keys = filler.data(), b.values_in = filler.data(), b.outcomes = out.data(), b.n = filler.size();
  wx::BatchResult r = t->insert(b);
  CHECK(r.full == 0 && r.invalid == 0);
  Keys vals(same.size());
  for (size_t i = 0; i < same.size(); ++i) vals[i] = uint32_t(i);
  out.assign(same.size(), 0);
  b.keys = same.data(), b.values_in = vals.data(), b.n = same.size(), b.outcomes = out.data();
  r = t->insert(b);
  CHECK_MSG(r.full == 16, "full = %llu", (unsigned long long)r.full);
  CHECK(std::count(out.begin(), out.end(), uint8_t(WX_OUT_INSERTED)) == 96);
  CHECK_MSG(cpu->check_invariants().empty(), "%s", cpu->check_invariants().c_str());
  wx_stats s{};
  t->stats(&s);
  CHECK(s.displacements > 0 && s.failed_inserts == 16);
  // Inserting them again: the placed ones (stash included) are PRESENT, no second copy anywhere.
  Bytes again(same.size());
  b.outcomes = again.data();
  t->insert(b);
  for (size_t i = 0; i < same.size(); ++i)
    CHECK(again[i] == (out[i] == WX_OUT_INSERTED ? WX_OUT_PRESENT : WX_OUT_FULL));
  b.outcomes = out.data();
  // Every placed key, and every filler, is found with its value.
  Keys got(same.size());
  b = wx::Batch();
  b.keys = same.data(), b.values_out = got.data(), b.n = same.size(), b.not_found = 999;
  t->find(b);
  for (size_t i = 0; i < same.size(); ++i) CHECK(got[i] == (out[i] == WX_OUT_INSERTED ? vals[i] : 999));
  got.assign(filler.size(), 0);
  b.keys = filler.data(), b.values_out = got.data(), b.n = filler.size();
  t->find(b);
  CHECK(got == filler);
  // insert_or_assign reaches a stashed key (the 40th placed one) and a neighbourhood key.
  {
    uint32_t ks[2] = {same[0], same[39]}, vs[2] = {1000, 1039};
    uint8_t os[2] = {0, 0};
    b = wx::Batch();
    b.keys = ks, b.values_in = vs, b.n = 2, b.outcomes = os;
    t->insert_or_assign(b);
    CHECK(os[0] == WX_OUT_ASSIGNED && os[1] == WX_OUT_ASSIGNED);
    uint32_t gv[2] = {0, 0};
    b = wx::Batch();
    b.keys = ks, b.values_out = gv, b.n = 2, b.not_found = 999;
    t->find(b);
    CHECK(gv[0] == 1000 && gv[1] == 1039);
  }
  // Erase a neighbourhood key and a stashed key; both gone, the others intact.
  {
    uint32_t ks[2] = {same[0], same[39]};
    uint8_t os[2] = {0, 0};
    b = wx::Batch();
    b.keys = ks, b.n = 2, b.outcomes = os;
    t->erase(b);
    CHECK_MSG(os[0] == WX_OUT_ERASED && os[1] == WX_OUT_ERASED && t->size() == filler.size() + 94, "erase %u %u size %llu", os[0],
              os[1], (unsigned long long)t->size());
    CHECK_MSG(cpu->check_invariants().empty(), "%s", cpu->check_invariants().c_str());
  }
  // Two new colliding keys take the freed neighbourhood slot and the freed stash slot.
  Keys extra;
  for (uint32_t k = same.back() + 1; extra.size() < 3; ++k)
    if (home_of(k, buckets) == 77) extra.push_back(k);
  Bytes eo(3);
  b = wx::Batch();
  b.keys = extra.data(), b.values_in = extra.data(), b.n = 3, b.outcomes = eo.data();
  r = t->insert(b);
  CHECK(eo[0] == WX_OUT_INSERTED && eo[1] == WX_OUT_INSERTED && eo[2] == WX_OUT_FULL && r.full == 1);
  CHECK_MSG(cpu->check_invariants().empty(), "%s", cpu->check_invariants().c_str());
  // Same collisions with growth allowed: the table grows until they fit, nothing is FULL.
  c.grow = WX_GROW_AUTO;
  std::unique_ptr<wx::Table> g(wx::make_cpu_table(c));
  out.assign(same.size(), 0);
  b = wx::Batch();
  b.keys = same.data(), b.values_in = vals.data(), b.n = same.size(), b.outcomes = out.data();
  r = g->insert(b);
  CHECK(r.full == 0 && g->size() == same.size() && g->capacity() > buckets + 32 + 64);
  CHECK(std::count(out.begin(), out.end(), uint8_t(WX_OUT_INSERTED)) == 112);
  auto* gc = dynamic_cast<wx::cpu::CpuTable<wx::cpu::Kv32>*>(g.get());
  CHECK_MSG(gc->check_invariants().empty(), "%s", gc->check_invariants().c_str());
}

// Concurrent mixed batches (4 threads) over 90 keys of one home: the neighbourhood and the overflow
// stash are both in play; every batch is checked per key (suite/linearizability.hpp) and the structure
// after it.
void stash_under_concurrency() {
  Keys same;
  for (uint32_t k = 0; same.size() < 90; ++k)
    if (home_of(k, 1 << 12) == 77) same.push_back(k);
  wx_config c;
  wx_config_init(&c, WX_KIND_CPU);
  c.capacity = 1 << 11;
  c.max_load_factor = 0.5;
  c.grow = WX_GROW_NEVER;
  c.threads = 4;
  std::unique_ptr<wx::Table> t(wx::make_cpu_table(c));
  auto* cpu = dynamic_cast<wx::cpu::CpuTable<wx::cpu::Kv32>*>(t.get());
  CHECK(cpu != nullptr);
  auto state = [&]() {
    wxsuite::MapState m;
    Keys k(t->size()), v(t->size());
    const uint64_t n = t->retrieve_all(k.data(), v.data(), nullptr);
    for (uint64_t i = 0; i < n; ++i) CHECK_MSG(m.map.emplace(k[i], v[i]).second, "key %u twice", k[i]);
    return m;
  };
  uint64_t seed = 12345, next_value = 1;
  auto rnd = [&](uint64_t bound) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % bound;
  };
  const uint64_t n = 20000;
  for (int round = 0; round < 30; ++round) {
    Keys keys(n), vals(n), before_vals;
    Bytes ops(n), out(n, WX_OUT_NONE);
    for (uint64_t i = 0; i < n; ++i) {
      keys[i] = same[rnd(same.size())];
      const uint64_t r = rnd(100);
      ops[i] = r < 35 ? WX_OP_INSERT : r < 45 ? WX_OP_INSERT_OR_ASSIGN : r < 75 ? WX_OP_ERASE : WX_OP_FIND;
      vals[i] = ops[i] == WX_OP_FIND ? 0xF00D0000u + uint32_t(i) : uint32_t(next_value++);
    }
    before_vals = vals;
    wxsuite::MapState before = state();
    wx::Batch b;
    b.keys = keys.data(), b.values_in = vals.data(), b.values_out = vals.data(), b.ops = ops.data();
    b.outcomes = out.data(), b.n = n;
    t->batch(b);
    wxsuite::MapState after = state();
    wxsuite::BatchRecord rec;
    rec.ops = ops.data(), rec.keys = keys.data(), rec.values_before = before_vals.data();
    rec.values_after = vals.data(), rec.outcomes = out.data(), rec.n = n;
    const wxsuite::Verdict v = wxsuite::check_batch(rec, before, after, /*allow_full=*/false);
    if (!v.ok) wxsuite::print_verdict(v, "stash under concurrency");
    CHECK_MSG(v.ok, "round %d", round);
    CHECK_MSG(cpu->check_invariants().empty(), "%s", cpu->check_invariants().c_str());
  }
}

void resize_and_clear() {
  wx_table* t = make(1000, 0.5, WX_GROW_AUTO);
  const uint64_t n = 5000;
  Keys keys(n), vals(n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = uint32_t(i * 7 + 3), vals[i] = uint32_t(i);
  CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, nullptr, WX_MEM_HOST, nullptr));
  CHECK_STATUS(wx_resize(t, n - 1), WX_ERR_INVALID_ARGUMENT);
  CHECK(size_of(t) == n);
  CHECK_OK(wx_resize(t, 100000));
  uint64_t cap = 0;
  CHECK_OK(wx_capacity(t, &cap));
  CHECK(cap == 200000 + 32 + 64);  // 100000 keys at 0.5, plus the padding and the stash
  CHECK_OK(wx_resize(t, n));  // shrink to exactly the size
  CHECK_OK(wx_capacity(t, &cap));
  CHECK(cap == 10000 + 32 + 64);
  Keys got(n);
  CHECK_OK(wx_find(t, keys.data(), got.data(), n, 0, WX_MEM_HOST, nullptr));
  CHECK(got == vals);
  // retrieve_all with too little room writes nothing and says how many are needed.
  uint64_t count = 0;
  Keys k1(10, 0), v1(10, 0);
  CHECK_STATUS(wx_retrieve_all(t, k1.data(), v1.data(), 10, &count, WX_MEM_HOST, nullptr), WX_ERR_INVALID_ARGUMENT);
  CHECK(count == n && k1 == Keys(10, 0));
  CHECK_OK(wx_clear(t));
  CHECK(size_of(t) == 0);
  CHECK_OK(wx_capacity(t, &cap));
  CHECK(cap == 10000 + 32 + 64);
  Bytes found(n, 7);
  CHECK_OK(wx_contains(t, keys.data(), found.data(), n, WX_MEM_HOST, nullptr));
  CHECK(std::count(found.begin(), found.end(), uint8_t(0)) == int64_t(n));
  CHECK(dump(t).empty());
  CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, nullptr, WX_MEM_HOST, nullptr));
  CHECK(dump(t).size() == n);
  CHECK_OK(wx_table_destroy(t));
}

void absurd_configs() {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  wx_table* t = nullptr;
  c.capacity = uint64_t(1) << 36;
  c.max_load_factor = 1e-6;  // 2^56 slots
  CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_INVALID_ARGUMENT);
  c.max_load_factor = 0.5;  // 2^37 slots: more than this machine's memory
  CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_OUT_OF_MEMORY);
  CHECK(t == nullptr);
  c.capacity = 0;
  c.threads = 1;
  CHECK_OK(wx_table_create(&c, &t));
  uint32_t k = 42, v = 43, got = 0;
  CHECK_OK(wx_insert(t, &k, &v, 1, nullptr, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_find(t, &k, &got, 1, 0, WX_MEM_HOST, nullptr));
  CHECK(got == 43);
  CHECK_STATUS(wx_resize(t, uint64_t(1) << 36), WX_ERR_OUT_OF_MEMORY);  // fails cleanly, table intact
  CHECK_OK(wx_find(t, &k, &got, 1, 0, WX_MEM_HOST, nullptr));
  CHECK(got == 43 && size_of(t) == 1);
  CHECK_OK(wx_table_destroy(t));
}

// Key and value widths: 64/64 accepted on CPU, 32/64, 64/32 and 16/16 refused (UNSUPPORTED); 64/64
// on the GPU kinds never UNSUPPORTED (created with a GPU, NO_DEVICE without).
void key_widths() {
  auto config = [](int32_t kind, int32_t key_bits, int32_t value_bits) {
    wx_config c;
    CHECK_OK(wx_config_init(&c, kind));
    c.key_bits = key_bits;
    c.value_bits = value_bits;
    return c;
  };
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

// 64-bit tables: the reserved keys are WX_KEY64_EMPTY / WX_KEY64_TOMBSTONE; the 32-bit ones and the
// full-width not_found value are ordinary.
void reserved_keys_64() {
  using U64s = std::vector<uint64_t>;
  constexpr uint64_t kNotFound = 0xDEADBEEFCAFEBABEull;  // full 64 bits: must come back unchanged
  wx_table* t = make(1000, 0.8, WX_GROW_AUTO, 2, 64);
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
  CHECK(wxtest::dump<uint64_t>(t).empty());
  CHECK_OK(wx_table_destroy(t));
}

// Structural invariants (check_invariants) after growth from 256 keys to 400000 and after erasing half.
template <class Kv>
void structural_invariants() {
  using K = typename Kv::key_type;
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  c.key_bits = c.value_bits = int32_t(8 * sizeof(K));
  c.capacity = 256;
  c.max_load_factor = 0.95;
  c.threads = 3;
  std::unique_ptr<wx::Table> t(wx::make_cpu_table(c));
  auto* cpu = dynamic_cast<wx::cpu::CpuTable<Kv>*>(t.get());
  CHECK(cpu != nullptr);
  std::mt19937_64 rng(99);
  std::vector<K> keys, vals(400000);
  std::unordered_set<K> seen;
  while (keys.size() < vals.size()) {  // distinct keys below the reserved ones
    const K k = K(rng() >> 1);
    if (seen.insert(k).second) keys.push_back(k);
  }
  for (auto& v : vals) v = K(rng());
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

}  // namespace

int main() {
  key_widths();
  reserved_keys();
  reserved_keys_64();
  duplicates_in_one_batch();
  empty_batches();
  grows_under_load();
  grow_never_reports_full();
  crafted_collisions();
  stash_under_concurrency();
  resize_and_clear();
  absurd_configs();
  structural_invariants<wx::cpu::Kv32>();
  structural_invariants<wx::cpu::Kv64>();
  std::printf("test_cpu_edge: OK\n");
  return 0;
}
