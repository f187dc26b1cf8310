// Concurrent mixed batches on the CPU table (through the public C API), where one batch holds the
// same keys many times with different ops, so elements race inside the table. Every part runs on
// 32-bit and on 64-bit tables (key_bits = value_bits = 64), written once over the key type.
//
// Part 1, hot keys [0, 100]: per key we know the presence and value before the batch and read them
// after it; the suite's checker (check_batch, suite/linearizability.hpp) decides per key whether some
// sequential order of that key's ops explains every outcome, found value and the state after (values
// are unique per element, so a value names its writer), and only FOUND finds wrote their value slot;
// size() equals the number of present keys and retrieve_all holds each key once.
// Part 2, lookups racing displacements: a table at high load gets a batch of finds of keys that stay
// present plus inserts of new keys that force hopscotch moves; every find must be FOUND with the
// right value (this is what the timestamp validation of lock-free reads guarantees); likewise for
// stable keys looked up while churn keys are inserted and erased around them.
// Part 3, hot and cold keys (at 64 bits keys above 2^32): one mixed batch of all op kinds per round
// over a few hot keys and many cold ones, checked with the suite's checker (check_batch) against the
// whole table before and after the batch, values unique per element.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "cpu_tables.hpp"
#include "suite/linearizability.hpp"
#include "wixlib.h"

namespace {

constexpr uint32_t kHot = 101;  // keys 0..100

template <class K>
wx_table* make(uint64_t capacity, double lf, int threads) {
  return wxtest::make_cpu_table(capacity, lf, WX_GROW_AUTO, threads, int32_t(8 * sizeof(K)));
}
using wxtest::dump;

template <class K>
struct KeyState {
  bool present = false;
  K value = 0;
};

template <class K>
std::vector<KeyState<K>> snapshot(wx_table* t) {
  std::vector<K> keys(kHot), vals(kHot);
  for (uint32_t k = 0; k < kHot; ++k) keys[k] = k;
  std::vector<uint8_t> found(kHot);
  CHECK_OK(wx_contains(t, keys.data(), found.data(), kHot, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_find(t, keys.data(), vals.data(), kHot, 0, WX_MEM_HOST, nullptr));
  std::vector<KeyState<K>> s(kHot);
  uint64_t live = 0;
  for (uint32_t k = 0; k < kHot; ++k) s[k] = {found[k] == 1, vals[k]}, live += found[k];
  uint64_t size = 0, count = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK_MSG(size == live, "size %llu but %llu hot keys present", (unsigned long long)size, (unsigned long long)live);
  std::vector<K> dk(size + 1), dv(size + 1);
  CHECK_OK(wx_retrieve_all(t, dk.data(), dv.data(), size, &count, WX_MEM_HOST, nullptr));
  std::vector<int> seen(kHot, 0);
  for (uint64_t i = 0; i < count; ++i) {
    CHECK(dk[i] < kHot && ++seen[dk[i]] == 1);
    CHECK(s[dk[i]].present && s[dk[i]].value == dv[i]);
  }
  return s;
}

template <class K>
void hot_keys(int threads, uint64_t seed, int rounds, uint64_t n) {
  wx_table* t = make<K>(64, 0.8, threads);
  std::mt19937_64 rng(seed);
  std::vector<K> keys(n), vals(n), in(n);
  std::vector<uint8_t> ops(n), out(n);
  K next_value = 1;
  for (int r = 0; r < rounds; ++r) {
    const std::vector<KeyState<K>> before = snapshot<K>(t);
    // Vary the mix per round: insert-heavy, erase-heavy or balanced.
    const unsigned w[4] = {unsigned(1 + rng() % 4), unsigned(1 + rng() % 4), unsigned(1 + rng() % 4), unsigned(1 + rng() % 4)};
    for (uint64_t i = 0; i < n; ++i) {
      keys[i] = K(rng() % kHot);
      unsigned x = unsigned(rng() % (w[0] + w[1] + w[2] + w[3]));
      ops[i] = x < w[0] ? WX_OP_INSERT : x < w[0] + w[1] ? WX_OP_ERASE : x < w[0] + w[1] + w[2] ? WX_OP_FIND : WX_OP_INSERT_OR_ASSIGN;
      vals[i] = in[i] = next_value++;  // unique: a value names the element that wrote it
    }
    out.assign(n, 0);
    CHECK_OK(wx_batch(t, ops.data(), keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
    const std::vector<KeyState<K>> after = snapshot<K>(t);
    // Per key, some sequential order of its ops explains every outcome, found value and the state after
    // (suite/linearizability.hpp); only FOUND finds write their value slot.
    wxsuite::MapStateT<K> b, a;
    for (uint32_t k = 0; k < kHot; ++k) {
      if (before[k].present) b.map[K(k)] = before[k].value;
      if (after[k].present) a.map[K(k)] = after[k].value;
    }
    wxsuite::BatchRecordT<K> rec;
    rec.ops = ops.data();
    rec.keys = keys.data();
    rec.values_before = in.data();
    rec.values_after = vals.data();
    rec.outcomes = out.data();
    rec.n = n;
    const wxsuite::Verdict v = wxsuite::check_batch(rec, b, a);
    if (!v.ok) wxsuite::print_verdict(v, ("hot keys, round " + std::to_string(r)).c_str());
    CHECK(v.ok);
  }
  CHECK_OK(wx_table_destroy(t));
}

template <class K>
void finds_race_displacements(int threads, uint64_t seed) {
  const uint64_t slots = 1 << 17;
  wx_table* t = make<K>(uint64_t(slots * 0.85), 0.95, threads);  // sized at load 0.85 at most: `slots` homes
  uint64_t cap = 0;
  CHECK_OK(wx_capacity(t, &cap));
  CHECK(cap == slots + 32 + 64);  // homes, the padding slots, the stash (64 at 2^17 homes)
  std::mt19937_64 rng(seed);
  const uint64_t base = uint64_t(slots * 0.80);
  std::vector<K> keys(base);
  for (uint64_t i = 0; i < base; ++i) keys[i] = K(i * 2 + 1);  // odd keys: present
  CHECK_OK(wx_insert(t, keys.data(), keys.data(), base, nullptr, WX_MEM_HOST, nullptr));
  wx_stats s0;
  CHECK_OK(wx_stats_get(t, &s0));
  // Interleave finds of present keys with inserts of new (even) keys up to load ~0.90.
  const uint64_t extra = uint64_t(slots * 0.10), n = 2 * extra + base;
  std::vector<K> k(n), v(n);
  std::vector<uint8_t> ops(n), out(n);
  uint64_t e = 0, f = 0;
  for (uint64_t i = 0; i < n; ++i) {
    bool ins = e < extra && (f >= base || rng() % 3 == 0);
    if (ins) ops[i] = WX_OP_INSERT, k[i] = K(2 * e++), v[i] = 7;
    else ops[i] = WX_OP_FIND, k[i] = keys[f++ % base], v[i] = 0;
  }
  CHECK_OK(wx_batch(t, ops.data(), k.data(), v.data(), n, out.data(), WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i) {
    if (ops[i] == WX_OP_INSERT) CHECK(out[i] == WX_OUT_INSERTED);
    else CHECK_MSG(out[i] == WX_OUT_FOUND && v[i] == k[i], "present key %llu missed during displacements",
                   (unsigned long long)k[i]);
  }
  wx_stats s1;
  CHECK_OK(wx_stats_get(t, &s1));
  // (A rare insert that cannot hop an empty slot close enough grows the table between chunks; the
  // moves that matter happened before that.)
  CHECK_MSG(s1.displacements > s0.displacements + 100, "expected hopscotch moves, got %llu",
            (unsigned long long)(s1.displacements - s0.displacements));
  CHECK_OK(wx_table_destroy(t));
}

// A small (cache-resident) table near full load: churn keys are inserted and erased concurrently,
// which keeps hopscotch moves going, while stable keys are looked up; a stable key must never miss.
template <class K>
void finds_race_churn(int threads, uint64_t seed, int rounds) {
  const uint64_t slots = 1 << 12;
  wx_table* t = make<K>(uint64_t(slots * 0.85), 0.95, threads);  // sized at load 0.85 at most: `slots` homes
  std::mt19937_64 rng(seed);
  const uint64_t stable = uint64_t(slots * 0.75), churn = uint64_t(slots * 0.15);
  std::vector<K> sk(stable);
  for (uint64_t i = 0; i < stable; ++i) sk[i] = K(i * 2 + 1);
  CHECK_OK(wx_insert(t, sk.data(), sk.data(), stable, nullptr, WX_MEM_HOST, nullptr));
  const uint64_t n = 20000;
  std::vector<K> k(n), v(n);
  std::vector<uint8_t> ops(n), out(n);
  uint64_t misses = 0;
  for (int r = 0; r < rounds; ++r) {
    for (uint64_t i = 0; i < n; ++i) {
      if (rng() % 2) ops[i] = WX_OP_FIND, k[i] = sk[rng() % stable], v[i] = 0;
      else ops[i] = rng() % 3 ? WX_OP_INSERT : WX_OP_ERASE, k[i] = K(2 * (rng() % churn)), v[i] = 5;
    }
    CHECK_OK(wx_batch(t, ops.data(), k.data(), v.data(), n, out.data(), WX_MEM_HOST, nullptr));
    for (uint64_t i = 0; i < n; ++i)
      if (ops[i] == WX_OP_FIND) misses += !(out[i] == WX_OUT_FOUND && v[i] == k[i]);
  }
  CHECK_MSG(misses == 0, "%llu lookups of present keys missed while keys moved", (unsigned long long)misses);
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  CHECK_MSG(s.displacements > 200 && s.resizes == 0, "%llu displacements, %llu resizes",
            (unsigned long long)s.displacements, (unsigned long long)s.resizes);
  CHECK_OK(wx_table_destroy(t));
}

// One mixed batch of all op kinds over a few hot keys (and some cold ones), run by 4 workers, checked
// with the suite's checker (check_batch, suite/linearizability.hpp) against the whole table before and
// after it: per key some sequential order of its ops explains every outcome, found value and its state
// afterwards; keys without ops keep their state; only FOUND finds write their value slot. Values are
// unique per element, so a value names the element that wrote it.
template <class K>
void hot_and_cold_keys() {
  constexpr bool kWide = sizeof(K) == 8;
  std::mt19937_64 rng(777);
  wx_table* t = make<K>(1 << 12, 0.8, 4);
  std::vector<K> hot;  // 48 keys with distinct high bits (at 64 bits above 2^32)
  for (int i = 0; i < 48; ++i)
    hot.push_back(kWide ? K((uint64_t(i) << 36) | (rng() & 0xFFFFFFFFF)) : K((uint32_t(i) << 25) | (rng() & 0x1FFFFFF)));
  for (int round = 0; round < 12; ++round) {
    wxsuite::MapStateT<K> before, after;
    for (const auto& kv : dump<K>(t)) before.map.insert(kv);
    const size_t n = 200000;
    std::vector<K> keys(n), vals(n), given(n);
    std::vector<uint8_t> ops(n), out(n, 0xAB);
    for (size_t i = 0; i < n; ++i) {
      // cold keys: the top bit set, below the reserved keys
      keys[i] = rng() % 4 ? hot[rng() % hot.size()] : K((K(rng()) | (K(1) << (8 * sizeof(K) - 1))) >> 1);
      ops[i] = uint8_t(rng() % 4 == 0 ? WX_OP_ERASE : rng() % 3 == 0 ? WX_OP_FIND : rng() % 2 ? WX_OP_INSERT : WX_OP_INSERT_OR_ASSIGN);
      // unique per element (at 64 bits mixed with the key)
      vals[i] = given[i] = kWide ? K((uint64_t(round * n + i) << 20) ^ (keys[i] * 0x9E3779B97F4A7C15ull))
                                 : K(round * n + i + 1);
    }
    CHECK_OK(wx_batch(t, ops.data(), keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
    for (const auto& kv : dump<K>(t)) after.map.insert(kv);
    wxsuite::BatchRecordT<K> rec;
    rec.ops = ops.data();
    rec.keys = keys.data();
    rec.values_before = given.data();
    rec.values_after = vals.data();
    rec.outcomes = out.data();
    rec.n = n;
    const wxsuite::Verdict v = wxsuite::check_batch(rec, before, after);
    if (!v.ok) wxsuite::print_verdict(v, ("hot and cold keys, round " + std::to_string(round)).c_str());
    CHECK(v.ok);
  }
  CHECK_OK(wx_table_destroy(t));
}

}  // namespace

template <class K>
void all_parts() {
  finds_race_churn<K>(4, 7, 150);
  hot_keys<K>(4, 11, 40, 50000);
  hot_keys<K>(2, 12, 40, 3000);  // 2 participants, a few blocks each
  hot_keys<K>(8, 13, 10, 200000);
  for (int r = 0; r < 5; ++r) finds_race_displacements<K>(4, 100 + r);
  hot_and_cold_keys<K>();
  std::printf("%d-bit keys: OK\n", int(8 * sizeof(K)));
}

int main() {
  all_parts<uint32_t>();
  all_parts<uint64_t>();
  std::printf("test_cpu_concurrent: OK\n");
  return 0;
}
