// Concurrent mixed batches on the CPU table (through the public C API), where one batch holds the
// same keys many times with different ops, so elements race inside the table. Every part runs on
// 32-bit and on 64-bit tables (key_bits = value_bits = 64), written once over the key type.
//
// Part 1, hot keys [0, 100]: per key we know the presence p0 and value before the batch and read the
// presence p1 and value after it. The checker tests necessary conditions of per-key linearizability
// (some sequential order of that key's ops explains every outcome):
//  - in any order presence alternates, so #INSERTED - #ERASED == p1 - p0 (hence within [-1, 1]);
//  - a key with no INSERTED/ERASED kept presence p0 throughout: then every find is FOUND iff p0,
//    every erase NOT_FOUND iff !p0 (an erase of a present key would have ERASED it), every insert
//    PRESENT/ASSIGNED iff p0 (an insert of an absent key would have INSERTED it);
//  - PRESENT, ASSIGNED and FOUND need the key present at some point (p0 or some INSERTED);
//    NOT_FOUND needs it absent at some point (!p0 or some ERASED);
//  - every FOUND value and the final value were written for that key: the value before the batch
//    or the value of an INSERTED / ASSIGNED element of that key (values are unique per element);
//  - size() equals the number of present keys and retrieve_all holds each key once.
// Part 2, lookups racing displacements: a table at high load gets a batch of finds of keys that stay
// present plus inserts of new keys that force hopscotch moves; every find must be FOUND with the
// right value (this is what the timestamp validation of lock-free reads guarantees); likewise for
// stable keys looked up while churn keys are inserted and erased around them.
// Part 3, hot and cold keys (at 64 bits keys above 2^32): one mixed batch of all op kinds per round
// over a few hot keys and many cold ones, checked per key against the states before and after the
// batch with the same conditions, values unique per element.
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <unordered_map>
#include <vector>

#include "check.hpp"
#include "cpu_tables.hpp"
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
    // Per key: counts and the set of values written for it.
    struct Tally {
      int64_t inserted = 0, erased = 0;
      int64_t present_like = 0, found = 0, not_found = 0, n_insert = 0, n_erase = 0, n_find = 0;
      std::map<K, bool> written;
    };
    std::vector<Tally> tl(kHot);
    for (uint64_t i = 0; i < n; ++i) {
      Tally& x = tl[keys[i]];
      const uint8_t o = out[i];
      switch (ops[i]) {
        case WX_OP_INSERT:
          CHECK(o == WX_OUT_INSERTED || o == WX_OUT_PRESENT);
          CHECK(vals[i] == in[i]);
          ++x.n_insert;
          break;
        case WX_OP_INSERT_OR_ASSIGN:
          CHECK(o == WX_OUT_INSERTED || o == WX_OUT_ASSIGNED);
          CHECK(vals[i] == in[i]);
          ++x.n_insert;
          break;
        case WX_OP_ERASE:
          CHECK(o == WX_OUT_ERASED || o == WX_OUT_NOT_FOUND);
          CHECK(vals[i] == in[i]);
          ++x.n_erase;
          break;
        default:
          CHECK(o == WX_OUT_FOUND || o == WX_OUT_NOT_FOUND);
          if (o == WX_OUT_NOT_FOUND) CHECK(vals[i] == in[i]);
          ++x.n_find;
      }
      if (o == WX_OUT_INSERTED) ++x.inserted, x.written[in[i]] = true;
      if (o == WX_OUT_ASSIGNED) x.written[in[i]] = true;
      if (o == WX_OUT_ERASED) ++x.erased;
      if (o == WX_OUT_PRESENT || o == WX_OUT_ASSIGNED) ++x.present_like;
      if (o == WX_OUT_FOUND) ++x.found;
      if (o == WX_OUT_NOT_FOUND) ++x.not_found;
    }
    for (uint32_t k = 0; k < kHot; ++k) {
      const Tally& x = tl[k];
      const int p0 = before[k].present, p1 = after[k].present;
      CHECK_MSG(x.inserted - x.erased == p1 - p0, "key %u: %lld inserted, %lld erased, presence %d -> %d", k,
                (long long)x.inserted, (long long)x.erased, p0, p1);
      const bool ever_present = p0 || x.inserted > 0, ever_absent = !p0 || x.erased > 0;
      if (!ever_present) CHECK_MSG(x.n_insert == 0 && x.found == 0, "key %u absent throughout yet inserted/found", k);
      if (!ever_absent) CHECK_MSG(x.n_erase == 0 && x.not_found == 0, "key %u present throughout yet erased/missed", k);
      if (x.present_like > 0 || x.found > 0) CHECK_MSG(ever_present, "key %u never present", k);
      if (x.not_found > 0) CHECK_MSG(ever_absent, "key %u never absent", k);
      auto written = [&](K v) { return (p0 && v == before[k].value) || x.written.count(v) > 0; };
      if (p1) CHECK_MSG(written(after[k].value), "key %u final value %llu never written", k, (unsigned long long)after[k].value);
    }
    for (uint64_t i = 0; i < n; ++i)
      if (ops[i] == WX_OP_FIND && out[i] == WX_OUT_FOUND) {
        const K k = keys[i];
        CHECK_MSG((before[k].present && vals[i] == before[k].value) || tl[k].written.count(vals[i]),
                  "key %llu found value %llu never written", (unsigned long long)k, (unsigned long long)vals[i]);
      }
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

// One mixed batch of all op kinds over a few hot keys (and some cold ones), run by 4 workers.
// Per key: i - e == p1 - p0; FOUND / PRESENT / ASSIGNED need a present stretch, NOT_FOUND an absent
// one; every value a find returned and the final value were written for that key (initial value,
// an INSERTED or an ASSIGNED element of that key).
template <class K>
void hot_and_cold_keys() {
  constexpr bool kWide = sizeof(K) == 8;
  std::mt19937_64 rng(777);
  wx_table* t = make<K>(1 << 12, 0.8, 4);
  std::vector<K> hot;  // 48 keys with distinct high bits (at 64 bits above 2^32)
  for (int i = 0; i < 48; ++i)
    hot.push_back(kWide ? K((uint64_t(i) << 36) | (rng() & 0xFFFFFFFFF)) : K((uint32_t(i) << 25) | (rng() & 0x1FFFFFF)));
  for (int round = 0; round < 12; ++round) {
    const auto before = dump<K>(t);
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
    const auto after = dump<K>(t);
    struct PerKey {
      int ins = 0, era = 0, present_pts = 0, absent_pts = 0;
      std::set<K> written, read;
    };
    std::unordered_map<K, PerKey> pk;
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
      for (K v : p.read)
        CHECK_MSG(p.written.count(v), "key %llx: a find returned %llx, never written for it", (unsigned long long)k,
                  (unsigned long long)v);
      if (p1) CHECK(p.written.count(a->second));
    }
    for (auto& [k, v] : after) CHECK(pk.count(k) || (before.count(k) && before.at(k) == v));
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
