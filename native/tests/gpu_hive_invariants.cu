// Hive design invariants (native/src/hive/DESIGN.md), written once over the key width and built twice:
// gpu_hive_invariants (HiveTable, 32-bit keys and values) and gpu_hive_invariants_64 (HiveTable64,
// 16-byte slots), WX_TEST_KEY_BITS choosing. Covered: each key at most once across b0/b1/stash at its
// linear-hashing address (validate() after each step); growth during inserts; reserved keys; duplicates
// in one batch (one INSERTED per key, the winner's value stored, also through insert_or_assign; checked
// with suite/linearizability.hpp); queued inserts into full buckets; the tidy flag; the stash filled and
// drained without losing values (by drain_stash() and by the table's own drain), stash relief; eviction
// stress at load factor 0.97; slots erased to EMPTY claimed again; oracle runs at load factor 0.5 / 0.8
// / 0.9 / 0.95 with churn checked per element; hot keys in concurrent mixed batches on full and
// half-empty tables (checked per key with suite/linearizability.hpp: some sequential order of the
// key's ops explains every outcome, found value and its state after; values name their writers, which
// catches torn or foreign values). At 64 bits also
// the key domain (keys above 2^32, keys whose low half is a 32-bit sentinel, values 0 and all ones, empty
// batches, pre-hashed calls UNSUPPORTED) and a C API run (host arrays through the staging copies at
// 8-byte widths, device arrays, retrieve_all both ways).
// `gpu_hive_invariants small` or WIXLIB_SMALL=1 (suite/env.hpp): small cases only (compute-sanitizer).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>

#include "gpu_hive_util.cuh"
#include "suite/linearizability.hpp"

using namespace hivetest;

namespace {

bool g_small = false;

// 2^16 keys into a table made for 2^12: growth (splits) during inserts, finds, erases, mixed ops.
template <class K>
void small_case() {
  Stream st;
  TableOf<K> t(config(1 << 12, 0.9, 0.2, WX_GROW_AUTO, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  const uint64_t n = 1 << 16;
  auto keys = keys_of<K>(n, 1);
  std::vector<K> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = static_cast<K>(i * 7 + 1);
  Dev<K> dk(keys), dv(vals);
  Dev<uint8_t> out(n);
  auto r = o.insert(dk, &dv, &out);
  CHECK(r.invalid == 0 && r.full == 0);
  for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
  CHECK(t.size() == n);
  wx_stats s{};
  t.stats(&s);
  CHECK_MSG(s.resizes > 0, "no resize happened");
  VALID(t);
  auto f = o.find(dk);
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(f[i] == vals[i], "key %llx: %llx != %llx", ull(keys[i]), ull(f[i]), ull(vals[i]));
  // erase the odd half, mixed batch over everything
  std::vector<K> odd;
  for (uint64_t i = 1; i < n; i += 2) odd.push_back(keys[i]);
  Dev<K> dodd(odd);
  for (uint8_t x : o.erase(dodd)) CHECK(x == WX_OUT_ERASED);
  VALID(t);
  std::vector<uint8_t> ops(n);
  for (uint64_t i = 0; i < n; ++i) ops[i] = static_cast<uint8_t>(i % 4);
  Dev<uint8_t> dops(ops);
  Dev<K> dvv(vals);
  o.mixed(dops, dk, dvv);
  VALID(t);
  std::printf("small case ok: size %llu, buckets %u\n", (unsigned long long)t.size(), t.active_buckets());
}

// Slots erased to EMPTY (a pure erase batch while the stash is empty) are claimed again by the next
// inserts, which store their own values: at 64 bits such a slot keeps its old value half, which the
// claim's CAS meets (thread_insert, hive_thread.cuh). Then the first keys come back with new values.
template <class K>
void erased_slots_reclaimed() {
  Stream st;
  TableOf<K> t(config(1 << 13, 0.8, 0.0, WX_GROW_NEVER, 8 * sizeof(K)));  // both key sets at LF ~0.5
  OpsT<K> o{t, st.s};
  const uint64_t n = 2500;
  const auto keys = keys_of<K>(2 * n, 11);
  const std::vector<K> a(keys.begin(), keys.begin() + n), b(keys.begin() + n, keys.end());
  std::vector<K> va(n), vb(n), va2(n);
  for (uint64_t i = 0; i < n; ++i) {
    va[i] = static_cast<K>(a[i] * 3 + 1);
    vb[i] = static_cast<K>(~b[i]);
    va2[i] = static_cast<K>(i + 17);
  }
  Dev<K> da(a), db(b), dva(va), dvb(vb), dva2(va2);
  Dev<uint8_t> out(n);
  o.insert(da, &dva, &out);
  for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
  wx_stats s{};
  t.stats(&s);
  CHECK_MSG(s.stash_used == 0, "stash holds %llu entries: the erase would leave tombstones", ull(s.stash_used));
  for (uint8_t x : o.erase(da)) CHECK(x == WX_OUT_ERASED);
  CHECK(t.size() == 0);
  o.insert(db, &dvb, &out);
  for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
  auto f = o.find(db);
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(f[i] == vb[i], "key %llx: %llx != %llx", ull(b[i]), ull(f[i]), ull(vb[i]));
  for (uint8_t x : o.contains(da)) CHECK(x == 0);
  o.insert(da, &dva2, &out);
  for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
  f = o.find(da);
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(f[i] == va2[i], "key %llx: %llx != %llx", ull(a[i]), ull(f[i]), ull(va2[i]));
  CHECK(t.size() == 2 * n);
  VALID(t);
  std::printf("erased slots reclaimed ok\n");
}

// Insert, re-insert (PRESENT, values kept), insert_or_assign, finds and contains of absent keys,
// reserved keys rejected and counted with their neighbours applied, erase twice, null values_in,
// clear.
template <class K>
void basics() {
  Stream st;
  TableOf<K> t(config(1 << 16, 0.9, 0.0, WX_GROW_AUTO, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  const uint64_t n = 50000;
  auto keys = keys_of<K>(n, 2);
  std::vector<K> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = keys[i] ^ K(0x5A5A5A5A5A5A5A5Aull);
  Dev<K> dk(keys), dv(vals);
  Dev<uint8_t> out(n);
  o.insert(dk, &dv, &out);
  for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
  // second insert: all present, values unchanged
  std::vector<K> vals2(n, 12345);
  Dev<K> dv2(vals2);
  o.insert(dk, &dv2, &out);
  for (uint8_t x : out.get()) CHECK(x == WX_OUT_PRESENT);
  auto f = o.find(dk);
  for (uint64_t i = 0; i < n; ++i) CHECK(f[i] == vals[i]);
  // insert_or_assign: all assigned
  o.insert(dk, &dv2, &out, true);
  for (uint8_t x : out.get()) CHECK(x == WX_OUT_ASSIGNED);
  f = o.find(dk);
  for (uint64_t i = 0; i < n; ++i) CHECK(f[i] == 12345u);
  // absent keys
  auto absent = keys_of<K>(2 * n, 2);
  absent.erase(absent.begin(), absent.begin() + n);
  Dev<K> da(absent);
  f = o.find(da, 77);
  for (K x : f) CHECK(x == 77u);
  for (uint8_t x : o.contains(da)) CHECK(x == 0);
  for (uint8_t x : o.contains(dk)) CHECK(x == 1);
  // reserved keys: rejected and counted, neighbours applied
  std::vector<K> rk = {kEmptyKey<K>, 5u, kTombKey<K>, 0u, K(kTombKey<K> - 1)};
  Dev<K> drk(rk), drv(std::vector<K>{1, 2, 3, 4, 5});
  Dev<uint8_t> rout(rk.size());
  auto r = o.insert(drk, &drv, &rout);
  CHECK(r.invalid == 2);
  auto ro = rout.get();
  CHECK(ro[0] == WX_OUT_INVALID_KEY && ro[2] == WX_OUT_INVALID_KEY);
  CHECK(ro[1] == WX_OUT_INSERTED && ro[3] == WX_OUT_INSERTED && ro[4] == WX_OUT_INSERTED);
  f = o.find(drk, 99);
  CHECK(f[0] == 99 && f[1] == 2 && f[2] == 99 && f[3] == 4 && f[4] == 5);
  VALID(t);
  // erase everything (twice: second time NOT_FOUND)
  for (uint8_t x : o.erase(dk)) CHECK(x == WX_OUT_ERASED);
  for (uint8_t x : o.erase(dk)) CHECK(x == WX_OUT_NOT_FOUND);
  CHECK(t.size() == 3);
  VALID(t);
  // values: null values_in inserts 0
  o.insert(dk, nullptr, &out);
  f = o.find(dk);
  for (K x : f) CHECK(x == 0u);
  VALID(t);
  t.clear();
  CHECK(t.size() == 0);
  for (uint8_t x : o.contains(dk)) CHECK(x == 0);
  VALID(t);
  std::printf("basics ok\n");
}

// A value that names its writer: element i of the batch (and whether insert_or_assign wrote it).
template <class K>
K writer_value(uint64_t i, K k, bool assign) {
  if constexpr (sizeof(K) == 8) return (i << 32) ^ k ^ (assign ? 0xF0F0ull : 0ull);
  else return static_cast<uint32_t>(i) | (assign ? 0x80000000u : 0u);
}

// Many copies of few keys in one insert batch: exactly one INSERTED per key, never two copies, the
// winner's value stored; the same with insert_or_assign: the stored value is one of that key's. Both
// batches checked with the suite's checker (check_batch) against the whole table before and after.
template <class K>
void same_key_batch() {
  Stream st;
  TableOf<K> t(config(1 << 12, 0.9, 0.0, WX_GROW_AUTO, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  const uint64_t n = g_small ? 1 << 14 : 1 << 18;
  auto distinct = keys_of<K>(3000, 20);
  std::vector<K> keys(n), vals(n);
  std::mt19937_64 rng(3);
  for (uint64_t i = 0; i < n; ++i) {
    keys[i] = distinct[rng() % distinct.size()];
    vals[i] = writer_value<K>(i, keys[i], false);
  }
  Dev<K> dk(keys), dv(vals);
  Dev<uint8_t> out(n);
  for (int assign = 0; assign < 2; ++assign) {
    if (assign) {
      for (uint64_t i = 0; i < n; ++i) vals[i] = writer_value<K>(i, keys[i], true);
      dv.put(vals);
    }
    wxsuite::MapStateT<K> before, after;
    before.map = o.dump();
    o.insert(dk, &dv, &out, assign == 1);
    after.map = o.dump();
    const std::vector<uint8_t> ops(n, assign ? WX_OP_INSERT_OR_ASSIGN : WX_OP_INSERT), ho = out.get();
    const std::vector<K> vals_after = dv.get();
    wxsuite::BatchRecordT<K> rec;
    rec.ops = ops.data();
    rec.keys = keys.data();
    rec.values_before = vals.data();
    rec.values_after = vals_after.data();
    rec.outcomes = ho.data();
    rec.n = n;
    const wxsuite::Verdict v = wxsuite::check_batch(rec, before, after);
    if (!v.ok) wxsuite::print_verdict(v, assign ? "same-key insert_or_assign batch" : "same-key insert batch");
    CHECK(v.ok);
    VALID(t);
  }
  std::printf("same-key batch ok (%llu keys)\n", ull(t.size()));
}

// An insert batch into a full table (GROW_NEVER, 85 % of the slots filled), with each new key four
// times and every present key once, shuffled: in most warps some elements claim in b0 while others
// (b0 full, the overflow bit set, a lost claim) run from the per-warp queue of p1_insert_kernel (32-bit
// tables; the tile path at 64 bits), with copies of one key on both sides. Exactly one copy of a key
// is INSERTED (the others PRESENT) or all are FULL; present keys keep their values; the table holds
// exactly that.
template <class K>
void queued_inserts() {
  Stream st;
  TableOf<K> t(config(1 << 12, 1.0, 0.0, WX_GROW_NEVER, 8 * sizeof(K)));
  t.set_auto_drain(false);  // the stash count below shows that keys went past b0 and b1
  OpsT<K> o{t, st.s};
  const uint64_t slots = t.capacity(), old_n = slots * 85 / 100, new_n = slots / 16;
  auto keys = keys_of<K>(old_n + new_n, 9);
  std::vector<K> ok(keys.begin(), keys.begin() + old_n), ov(old_n);
  for (uint64_t i = 0; i < old_n; ++i) ov[i] = static_cast<K>(i + 1);
  Dev<K> dok(ok), dov(ov);
  Dev<uint8_t> oout(old_n);
  o.insert(dok, &dov, &oout);
  OracleT<K> oracle;
  for (uint64_t i = 0; i < old_n; ++i) {
    CHECK(oout.get()[i] == WX_OUT_INSERTED);
    oracle[ok[i]] = ov[i];
  }
  std::vector<K> bk, bv;
  for (uint64_t i = 0; i < old_n; ++i) bk.push_back(ok[i]);
  for (int copy = 0; copy < 4; ++copy)
    for (uint64_t i = old_n; i < old_n + new_n; ++i) bk.push_back(keys[i]);
  std::mt19937 rng(11);
  std::shuffle(bk.begin(), bk.end(), rng);
  for (uint64_t i = 0; i < bk.size(); ++i) bv.push_back(static_cast<K>(0x40000000u + i));
  Dev<K> dk(bk), dv(bv);
  Dev<uint8_t> out(bk.size());
  o.insert(dk, &dv, &out);
  const auto ho = out.get();
  std::map<K, std::array<int, 3>> seen;  // inserted, present, full
  std::map<K, K> winner;
  for (uint64_t i = 0; i < bk.size(); ++i) {
    auto& c = seen[bk[i]];
    if (ho[i] == WX_OUT_INSERTED) {
      ++c[0];
      winner[bk[i]] = bv[i];
    } else if (ho[i] == WX_OUT_PRESENT) {
      ++c[1];
    } else {
      CHECK_MSG(ho[i] == WX_OUT_FULL, "key %llx: outcome %d", ull(bk[i]), int(ho[i]));
      ++c[2];
    }
  }
  uint64_t inserted = 0, full_keys = 0;
  for (uint64_t i = 0; i < old_n; ++i) {
    const auto& c = seen[ok[i]];
    CHECK_MSG(c[1] == 1 && c[0] == 0 && c[2] == 0, "present key %llx: %d inserted, %d present, %d full", ull(ok[i]), c[0],
              c[1], c[2]);
  }
  for (uint64_t i = old_n; i < old_n + new_n; ++i) {
    const auto& c = seen[keys[i]];
    CHECK_MSG((c[0] == 1 && c[1] == 3) || c[2] == 4, "new key %llx: %d inserted, %d present, %d full", ull(keys[i]), c[0],
              c[1], c[2]);
    if (c[0] == 1) oracle[keys[i]] = winner[keys[i]], ++inserted;
    else ++full_keys;
  }
  wx_stats s{};
  t.stats(&s);
  CHECK_MSG(s.stash_used > 0, "no key reached the stash: the queued paths were not exercised");
  CHECK(inserted > 0);
  VALID(t);
  same_contents(o, oracle, "queued inserts");
  std::printf("queued inserts ok: %llu of %llu new keys in, %llu full, stash %llu\n", (unsigned long long)inserted,
              (unsigned long long)new_n, (unsigned long long)full_keys, (unsigned long long)s.stash_used);
}

// A tidy table (ViewT::tidy): inserts take a miss in a b0 that shows an EMPTY slot as final without
// the overflow bit (p1_insert_kernel); an erase to EMPTY must end that. 8 keys fill bucket B, 4 more
// with b0 = B go to their b1; erasing one of the 8 (the stash is empty, so the erase writes EMPTY)
// frees a slot in B. Inserting the 4 again must answer PRESENT (not put a second copy in B), and
// finds, contains and a mixed batch must see them.
template <class K>
void tidy_flag() {
  Stream st;
  TableOf<K> t(config(1 << 14, 0.9, 0.0, WX_GROW_NEVER, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  const uint32_t B = t.place(1).b0;
  std::vector<K> fill, other;  // b0 = B; fill first, then other (b1 != B)
  for (K k = 2; other.size() < 4; ++k) {
    const wx::hive::Place p = t.place(k);
    if (p.b0 != B || p.b1 == B) continue;
    (fill.size() < 8 ? fill : other).push_back(k);
  }
  Dev<K> dfill(fill), dother(other);  // values = keys
  Dev<uint8_t> out8(8), out4(4);
  o.insert(dfill, &dfill, &out8);
  for (uint8_t x : out8.get()) CHECK(x == WX_OUT_INSERTED);
  o.insert(dother, &dother, &out4);
  for (uint8_t x : out4.get()) CHECK(x == WX_OUT_INSERTED);
  CHECK(t.size() == 12 && t.stash_used() == 0);
  VALID(t);  // tidy: checks that B (which holds other's b0) has no EMPTY slot
  Dev<K> dgone(std::vector<K>{fill[0]});
  CHECK(o.erase(dgone)[0] == WX_OUT_ERASED);
  VALID(t);
  o.insert(dother, &dother, &out4);
  for (uint8_t x : out4.get()) CHECK_MSG(x == WX_OUT_PRESENT, "a key in b1 behind a freed b0 slot: outcome %d", x);
  auto f = o.find(dother);
  for (int i = 0; i < 4; ++i) CHECK(f[i] == other[i]);
  for (uint8_t x : o.contains(dother)) CHECK(x == 1);
  Dev<uint8_t> dops(std::vector<uint8_t>{WX_OP_INSERT, WX_OP_FIND, WX_OP_INSERT, WX_OP_FIND});
  Dev<K> dv(std::vector<K>{1, 2, 3, 4});
  const auto mo = o.mixed(dops, dother, dv);
  CHECK(mo[0] == WX_OUT_PRESENT && mo[1] == WX_OUT_FOUND && mo[2] == WX_OUT_PRESENT && mo[3] == WX_OUT_FOUND);
  const auto mv = dv.get();
  CHECK(mv[1] == other[1] && mv[3] == other[3]);
  CHECK(t.size() == 11);
  VALID(t);
  Dev<uint8_t> out1(1);
  o.insert(dgone, &dgone, &out1);  // the freed slot takes a key again
  CHECK(out1.get()[0] == WX_OUT_INSERTED && t.size() == 12);
  VALID(t);
  std::printf("tidy flag ok (bucket %u)\n", B);
}

// Fill a GROW_NEVER table to 100% of its slots with the drain off: the stash fills; every key that
// was reported INSERTED is found with its value; then the drain moves what it can and nothing is lost.
// auto_drain: the drain is left to the table, which runs it after an insert that ends with the stash
// past its threshold (7/8); else drain_stash() is called.
template <class K>
void stash_fill_and_drain(bool auto_drain) {
  Stream st;
  TableOf<K> t(config(1 << 12, 1.0, 0.0, WX_GROW_NEVER, 8 * sizeof(K)));
  t.set_auto_drain(false);
  OpsT<K> o{t, st.s};
  const uint64_t slots = t.capacity();
  const uint64_t n = slots + slots / 16;  // more than fits in the buckets
  auto keys = keys_of<K>(n, 4);
  std::vector<K> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = static_cast<K>(i + 100);
  OracleT<K> oracle;
  uint64_t full = 0;
  const uint64_t step = slots / 8;
  for (uint64_t off = 0; off < n; off += step) {
    const uint64_t m = std::min(step, n - off);
    std::vector<K> k(keys.begin() + off, keys.begin() + off + m), v(vals.begin() + off, vals.begin() + off + m);
    Dev<K> dk(k), dv(v);
    Dev<uint8_t> out(m);
    auto r = o.insert(dk, &dv, &out);
    full += r.full;
    auto ho = out.get();
    for (uint64_t i = 0; i < m; ++i) {
      CHECK(ho[i] == WX_OUT_INSERTED || ho[i] == WX_OUT_FULL);
      if (ho[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
    }
    VALID(t);
  }
  wx_stats s{};
  t.stats(&s);
  std::printf("stash fill: %llu of %llu slots + stash %llu, full %llu, displacements %llu\n",
              (unsigned long long)t.size(), (unsigned long long)slots, (unsigned long long)s.stash_used,
              (unsigned long long)full, (unsigned long long)s.displacements);
  CHECK_MSG(s.stash_used > 0, "the stash was never used");
  CHECK(full > 0);
  CHECK(s.resizes == 0 && s.failed_inserts == full);
  same_contents(o, oracle, "stash filled");
  finds_match(o, oracle, "stash filled");
  // Erase keys inserted first (in buckets: the stash filled up last) so the drain has room and the
  // stash stays past the auto-drain threshold: a quarter, or a sixteenth where the next insert must
  // not sweep the tombstones first (its settle step would empty the stash before the drain).
  std::vector<K> er;
  const size_t n_erase = oracle.size() / (auto_drain ? 16 : 4);
  for (uint64_t i = 0; i < n && er.size() < n_erase; ++i)
    if (oracle.count(keys[i])) er.push_back(keys[i]);
  for (K k : er) oracle.erase(k);
  Dev<K> der(er);
  for (uint8_t x : o.erase(der)) CHECK(x == WX_OUT_ERASED);
  VALID(t);
  const uint64_t before = t.stash_used();
  if (auto_drain) {
    CHECK_MSG(before * 8 > t.stash_slots() * 7, "stash %llu of %llu slots: not past the drain threshold",
              (unsigned long long)before, (unsigned long long)t.stash_slots());
    t.set_auto_drain(true);
    const std::vector<K> again{er[0]}, seven{7};  // one key back: the insert call ends with a drain
    oracle[er[0]] = 7;
    Dev<K> dk(again), dv(seven);
    Dev<uint8_t> out(1);
    o.insert(dk, &dv, &out);
    CHECK(out.get()[0] == WX_OUT_INSERTED);
  } else {
    t.drain_stash();
  }
  VALID(t);
  CHECK_MSG(t.stash_used() < before, "drain did not move stash entries (%llu -> %llu)",
            (unsigned long long)before, (unsigned long long)t.stash_used());
  same_contents(o, oracle, "stash drained");
  finds_match(o, oracle, "stash drained");
  std::printf("stash drain ok: %llu -> %llu entries\n", (unsigned long long)before, (unsigned long long)t.stash_used());
}

// An insert that finds its buckets full, no eviction path and its stash bucket full, while an entry
// of that stash bucket could move to a freed slot of its own bucket: the call frees that stash slot
// and inserts the key, without growing the table. 16 buckets, one stash bucket; A keys live only in
// bucket 0 (b0 = b1 = 0), B keys only in bucket 1, C keys in 0 or 1 (both full: they fill the stash).
template <class K>
void stash_relief() {
  Stream st;
  TableOf<K> t(config(128, 1.0, 0.0, WX_GROW_AUTO, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  CHECK(t.active_buckets() == 16 && t.stash_slots() == wx::hive::kSlots);
  const wx::hive::Geometry g = wx::hive::geometry_of(16, 16);
  std::vector<K> a, b, c;
  for (K k = 0; a.size() < 9 || b.size() < 8 || c.size() < 8; ++k) {
    const wx::hive::Place p = wx::hive::place_of(k, g, 0);
    if (p.b0 == 0 && p.b1 == 0 && a.size() < 9) a.push_back(k);
    if (p.b0 == 1 && p.b1 == 1 && b.size() < 8) b.push_back(k);
    if (p.b0 == 0 && p.b1 == 1 && c.size() < 8) c.push_back(k);
  }
  const K last_a = a.back();
  a.pop_back();
  OracleT<K> oracle;
  for (const auto* keys : {&a, &b, &c}) {
    Dev<K> dk(*keys), dv(*keys);
    Dev<uint8_t> out(keys->size());
    o.insert(dk, &dv, &out);
    for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
    for (K k : *keys) oracle[k] = k;
  }
  CHECK_MSG(t.stash_used() == wx::hive::kSlots, "stash holds %llu", (unsigned long long)t.stash_used());
  Dev<K> gone(std::vector<K>{b[0]});
  CHECK(o.erase(gone)[0] == WX_OUT_ERASED);  // a tombstone in bucket 1 (the stash is not empty)
  oracle.erase(b[0]);
  Dev<K> dk(std::vector<K>{last_a}), dv(std::vector<K>{7});
  Dev<uint8_t> out(1);
  o.insert(dk, &dv, &out);
  CHECK_MSG(out.get()[0] == WX_OUT_INSERTED, "outcome %d", out.get()[0]);
  oracle[last_a] = 7;
  wx_stats s{};
  t.stats(&s);
  CHECK_MSG(s.resizes == 0 && t.active_buckets() == 16, "the table grew (%llu resizes, %u buckets)",
            (unsigned long long)s.resizes, t.active_buckets());
  VALID(t);
  same_contents(o, oracle, "stash relief");
  std::printf("stash relief ok\n");
}

// Load factor 0.97 of the slots with growth disabled: nothing lost, everything found, evictions ran.
template <class K>
void eviction_stress() {
  Stream st;
  const uint64_t cap = 1 << 20;
  TableOf<K> t(config(cap, 0.97, 0.0, WX_GROW_NEVER, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  const uint64_t n = static_cast<uint64_t>(0.97 * t.capacity());
  auto keys = keys_of<K>(n, 5);
  std::vector<K> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = keys[i] * 3u;
  Dev<K> dk(keys), dv(vals);
  Dev<uint8_t> out(n);
  auto r = o.insert(dk, &dv, &out);
  wx_stats s{};
  t.stats(&s);
  std::printf("eviction stress: LF %.4f, full %llu, displacements %llu, stash %llu, %.3f ms\n",
              double(t.size()) / t.capacity(), (unsigned long long)r.full, (unsigned long long)s.displacements,
              (unsigned long long)s.stash_used, s.last_kernel_ms);
  CHECK_MSG(r.full == 0, "%llu inserts failed at LF 0.97", (unsigned long long)r.full);
  CHECK(s.displacements > 0);
  CHECK(t.size() == n);
  VALID(t);
  auto f = o.find(dk);
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(f[i] == vals[i], "key %llx lost or wrong", ull(keys[i]));
  // erase + reinsert churn at that load factor (mixed batches), then check again
  std::vector<uint8_t> ops(n);
  std::vector<K> v2(vals);
  std::mt19937 rng(6);
  OracleT<K> oracle;
  for (uint64_t i = 0; i < n; ++i) oracle[keys[i]] = vals[i];
  for (uint64_t i = 0; i < n; ++i) ops[i] = (i % 10 == 0) ? WX_OP_ERASE : WX_OP_FIND;
  Dev<uint8_t> dops(ops);
  Dev<K> dv2(v2);
  auto mo = o.mixed(dops, dk, dv2);
  for (uint64_t i = 0; i < n; i += 10) oracle.erase(keys[i]);
  for (uint64_t i = 0; i < n; ++i) CHECK(mo[i] == (i % 10 == 0 ? WX_OUT_ERASED : WX_OUT_FOUND));
  for (uint64_t i = 0; i < n; ++i) ops[i] = (i % 10 == 0) ? WX_OP_INSERT : WX_OP_FIND;
  dops.put(ops);
  dv2.put(vals);
  mo = o.mixed(dops, dk, dv2);
  for (uint64_t i = 0; i < n; ++i) CHECK(mo[i] == (i % 10 == 0 ? WX_OUT_INSERTED : WX_OUT_FOUND));
  for (uint64_t i = 0; i < n; i += 10) oracle[keys[i]] = vals[i];
  VALID(t);
  same_contents(o, oracle, "eviction churn");
  std::printf("eviction stress ok\n");
}

// One mixed batch whose keys are distinct (so the oracle is sequential), checked element by element
// and applied to the oracle. new_keys supplies absent keys. FULL (GROW_NEVER tables) leaves the key
// absent. Returns the FULL count.
template <class K>
uint64_t churn_batch(OpsT<K>& o, OracleT<K>& oracle, std::mt19937_64& rng, uint64_t m, std::vector<K>& new_keys,
                     const char* where) {
  std::vector<K> present;
  present.reserve(oracle.size());
  for (auto& kv : oracle) present.push_back(kv.first);
  std::unordered_set<K> used;
  std::vector<uint8_t> ops;
  std::vector<K> keys, vals;
  for (uint64_t i = 0; i < m; ++i) {
    const uint32_t r = rng() % 100;
    // about as many keys come (fresh inserts/assigns: 0.4 x 0.5) as go (present erases: 0.6 x 0.35)
    const uint8_t op = r < 30 ? WX_OP_INSERT : r < 50 ? WX_OP_INSERT_OR_ASSIGN : r < 85 ? WX_OP_ERASE : WX_OP_FIND;
    const bool fresh = (r % 5 < 2 || present.empty()) && !new_keys.empty();
    K k;
    if (fresh) {
      k = new_keys.back();
      new_keys.pop_back();
    } else if (!present.empty()) {
      k = present[rng() % present.size()];
    } else {
      continue;
    }
    if (!used.insert(k).second) continue;
    ops.push_back(op);
    keys.push_back(k);
    const K v = static_cast<K>(rng());
    vals.push_back(r % 17 == 0 ? ~K(0) : r % 19 == 0 ? K(0) : v);  // all-ones and zero values too
  }
  const uint64_t n = keys.size();
  Dev<uint8_t> dops(ops);
  Dev<K> dk(keys), dv(vals);
  auto out = o.mixed(dops, dk, dv);
  auto hv = dv.get();
  uint64_t full = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const K k = keys[i];
    const bool had = oracle.count(k) != 0;
    switch (ops[i]) {
      case WX_OP_INSERT:
        if (had) {
          CHECK_MSG(out[i] == WX_OUT_PRESENT, "%s: insert of present %llx gave %d", where, ull(k), out[i]);
        } else if (out[i] == WX_OUT_FULL) {
          ++full;
        } else {
          CHECK_MSG(out[i] == WX_OUT_INSERTED, "%s: insert of new %llx gave %d", where, ull(k), out[i]);
          oracle[k] = vals[i];
        }
        break;
      case WX_OP_INSERT_OR_ASSIGN:
        if (!had && out[i] == WX_OUT_FULL) {
          ++full;
        } else {
          CHECK_MSG(out[i] == (had ? WX_OUT_ASSIGNED : WX_OUT_INSERTED), "%s: assign of %llx gave %d", where,
                    ull(k), out[i]);
          oracle[k] = vals[i];
        }
        break;
      case WX_OP_ERASE:
        CHECK_MSG(out[i] == (had ? WX_OUT_ERASED : WX_OUT_NOT_FOUND), "%s: erase of %llx gave %d", where,
                  ull(k), out[i]);
        oracle.erase(k);
        break;
      default:
        CHECK_MSG(out[i] == (had ? WX_OUT_FOUND : WX_OUT_NOT_FOUND), "%s: find of %llx gave %d", where,
                  ull(k), out[i]);
        if (had)
          CHECK_MSG(hv[i] == oracle[k], "%s: find of %llx = %llx, want %llx", where, ull(k),
                    ull(hv[i]), ull(oracle[k]));
        break;
    }
  }
  CHECK_MSG(o.t.size() == oracle.size(), "%s: size %llu, oracle %zu", where, (unsigned long long)o.t.size(),
            oracle.size());
  return full;
}

// Oracle run: fill a GROW_NEVER table to the load factor, then churn at about that load factor (mixed
// batches checked per element), then retrieve_all == oracle.
template <class K>
void oracle_at_load(double lf) {
  Stream st;
  TableOf<K> t(config(g_small ? 1 << 12 : 1 << 20, 1.0, 0.0, WX_GROW_NEVER, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  const uint64_t n = static_cast<uint64_t>(lf * t.capacity());
  auto keys = keys_of<K>(n + n / 2 + 4096, 10 + static_cast<uint32_t>(lf * 100));
  std::vector<K> fresh(keys.begin() + n, keys.end());
  keys.resize(n);
  std::mt19937_64 rng(static_cast<uint64_t>(lf * 1000));
  std::vector<K> vals(n);
  for (auto& v : vals) v = static_cast<K>(rng());
  OracleT<K> oracle;
  const uint64_t step = std::max<uint64_t>(n / 4, 1);
  for (uint64_t off = 0; off < n; off += step) {  // a few batches: later ones meet fuller buckets
    const uint64_t m = std::min(step, n - off);
    Dev<K> dk(std::vector<K>(keys.begin() + off, keys.begin() + off + m));
    Dev<K> dv(std::vector<K>(vals.begin() + off, vals.begin() + off + m));
    Dev<uint8_t> out(m);
    auto r = o.insert(dk, &dv, &out);
    CHECK_MSG(r.full == 0 && r.invalid == 0, "LF %.2f: fill gave %llu FULL, %llu invalid", lf,
              (unsigned long long)r.full, (unsigned long long)r.invalid);
    for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
    for (uint64_t i = off; i < off + m; ++i) oracle[keys[i]] = vals[i];
  }
  CHECK(t.size() == n);
  VALID(t);
  finds_match(o, oracle, "after fill");
  // absent keys: not found, the full-width not_found value
  Dev<K> dabsent(std::vector<K>(fresh.begin(), fresh.begin() + std::min<size_t>(fresh.size(), 4096)));
  for (K x : o.find(dabsent)) CHECK(x == OpsT<K>::kNotFound);
  for (uint8_t x : o.contains(dabsent)) CHECK(x == 0);
  uint64_t full = 0;
  const int rounds = g_small ? 4 : 12;
  const uint64_t m = g_small ? 1 << 10 : 1 << 16;
  for (int r = 0; r < rounds; ++r) {
    full += churn_batch(o, oracle, rng, m, fresh, "LF churn");
    VALID(t);
  }
  finds_match(o, oracle, "after churn");
  same_contents(o, oracle, "LF oracle");
  wx_stats s{};
  t.stats(&s);
  std::printf("LF %.2f: %llu keys, churn FULL %llu, stash %llu, displacements %llu\n", lf,
              (unsigned long long)t.size(), (unsigned long long)full, (unsigned long long)s.stash_used,
              (unsigned long long)s.displacements);
  CHECK(s.size == oracle.size() && s.capacity == t.capacity());
}

// Hot keys: inserts, erases, assigns and finds of the same few keys in one concurrent mixed batch,
// several rounds, on a table filled to fill_lf (0.98: the hot keys' buckets are full). Each batch is
// checked with the suite's checker (check_batch) against the whole table before and after it: per key
// some sequential order of its ops explains every outcome (FULL allowed: GROW_NEVER), found value and
// its state afterwards; the cold keys are untouched; the table stays consistent.
template <class K>
void hot_keys_mixed(double fill_lf) {
  Stream st;
  TableOf<K> t(config(g_small ? 1 << 11 : 1 << 14, 1.0, 0.0, WX_GROW_NEVER, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  const uint64_t fill = static_cast<uint64_t>(fill_lf * t.capacity());
  auto base = keys_of<K>(fill, 30);
  Dev<K> dbase(base);
  o.insert(dbase, &dbase, nullptr);
  const uint64_t nhot = 64, n = g_small ? 1 << 13 : 1 << 18;
  const std::unordered_set<K> base_set(base.begin(), base.end());
  std::vector<K> hot;  // first half absent, second half present before
  for (K k : keys_of<K>(nhot * 4, 31))
    if (hot.size() < nhot * 2 && !base_set.count(k)) hot.push_back(k);
  CHECK(hot.size() == nhot * 2);
  std::vector<K> pre(hot.begin() + nhot, hot.end());
  Dev<K> dpre(pre);
  o.insert(dpre, &dpre, nullptr);  // value = key
  std::mt19937_64 rng(9);
  auto writer_of = [](int round, uint64_t i, K k) -> K {
    if constexpr (sizeof(K) == 8) return (uint64_t(round) << 56) | (i << 32) | (k & 0xFFFFFFFFull);
    else return (uint32_t(round) << 24) | static_cast<uint32_t>(i);  // i < 2^18, round < 64
  };
  const int rounds = g_small ? 2 : 6;
  for (int round = 0; round < rounds; ++round) {
    wxsuite::MapStateT<K> before, after;
    before.map = o.dump();
    std::vector<uint8_t> ops(n);
    std::vector<K> keys(n), vals(n);
    for (uint64_t i = 0; i < n; ++i) {
      ops[i] = static_cast<uint8_t>(rng() % 4);
      keys[i] = hot[rng() % hot.size()];
      // a value names its writer: (round, i) in the high bits, at 64 bits the key's low half below
      vals[i] = ops[i] == WX_OP_FIND ? ~K(0) : writer_of(round, i, keys[i]);
    }
    Dev<uint8_t> dops(ops);
    Dev<K> dk(keys), dv(vals);
    const std::vector<uint8_t> out = o.mixed(dops, dk, dv);
    const std::vector<K> hv = dv.get();
    after.map = o.dump();
    wxsuite::BatchRecordT<K> rec;
    rec.ops = ops.data();
    rec.keys = keys.data();
    rec.values_before = vals.data();
    rec.values_after = hv.data();
    rec.outcomes = out.data();
    rec.n = n;
    const wxsuite::Verdict v = wxsuite::check_batch(rec, before, after, /*allow_full=*/true);
    if (!v.ok) wxsuite::print_verdict(v, ("hot keys mixed, round " + std::to_string(round)).c_str());
    CHECK(v.ok);
    VALID(t);
  }
  std::printf("hot keys mixed ok (fill %.2f)\n", fill_lf);
}

#if WX_TEST_KEY_BITS == 64
// 64-bit tables: the key domain, reserved keys, empty batches, not_found, pre-hashed calls, a 32-bit
// table refusing a 64-bit config.
void key_domain() {
  Stream st;
  HiveTable64 t(config64(1 << 10, 0.9));
  Ops64 o{t, st.s};
  const std::vector<uint64_t> keys = {WX_KEY64_EMPTY,
                                      5,
                                      WX_KEY64_TOMBSTONE,
                                      0,
                                      0xFFFFFFFFull,  // the 32-bit EMPTY, an ordinary key here
                                      0xFFFFFFFEull,  // the 32-bit TOMBSTONE
                                      (1ull << 32) | 0xFFFFFFFFull,
                                      (7ull << 32) | 0xFFFFFFFEull,
                                      1ull << 32,
                                      0xFFFFFFFD00000000ull,
                                      0xFFFFFFFF00000000ull,
                                      0xFFFFFFFFFFFFFFFDull,  // the largest ordinary key
                                      0x8000000000000000ull};
  std::vector<uint64_t> vals(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) vals[i] = i % 3 == 0 ? ~0ull : i % 3 == 1 ? 0ull : keys[i] ^ 0xA5A5A5A5A5A5A5A5ull;
  Dev<uint64_t> dk(keys), dv(vals);
  Dev<uint8_t> out(keys.size());
  auto r = o.insert(dk, &dv, &out);
  CHECK(r.invalid == 2 && r.full == 0);
  auto ho = out.get();
  for (size_t i = 0; i < keys.size(); ++i)
    CHECK_MSG(ho[i] == ((i == 0 || i == 2) ? WX_OUT_INVALID_KEY : WX_OUT_INSERTED), "key %llx: outcome %d",
              (unsigned long long)keys[i], ho[i]);
  CHECK(t.size() == keys.size() - 2);
  auto f = o.find(dk, 99);
  for (size_t i = 0; i < keys.size(); ++i)
    CHECK_MSG(f[i] == ((i == 0 || i == 2) ? 99ull : vals[i]), "find(%llx) = %llx", (unsigned long long)keys[i],
              (unsigned long long)f[i]);
  auto c = o.contains(dk);
  for (size_t i = 0; i < keys.size(); ++i) CHECK(c[i] == ((i == 0 || i == 2) ? 0 : 1));
  // the low halves alone are other keys: absent
  Dev<uint64_t> dlow(std::vector<uint64_t>{0xFFFFFFFDull, 7ull << 32, 1ull, 0xFFFFFFFF00000001ull});
  for (uint8_t x : o.contains(dlow)) CHECK(x == 0);
  // a mixed batch with reserved keys: every op reports INVALID_KEY for them, the others run
  const std::vector<uint8_t> mops = {WX_OP_FIND, WX_OP_INSERT, WX_OP_ERASE, WX_OP_INSERT_OR_ASSIGN, WX_OP_FIND,
                                     WX_OP_ERASE};
  const std::vector<uint64_t> mkeys = {WX_KEY64_EMPTY, 77, WX_KEY64_TOMBSTONE, 0xFFFFFFFFull, 5, 1ull << 32};
  Dev<uint8_t> dmops(mops);
  Dev<uint64_t> dmk(mkeys), dmv(std::vector<uint64_t>{1, 2, 3, 4, 5, 6});
  auto mo = o.mixed(dmops, dmk, dmv);
  auto mv = dmv.get();
  CHECK(mo[0] == WX_OUT_INVALID_KEY && mo[2] == WX_OUT_INVALID_KEY);
  CHECK(mo[1] == WX_OUT_INSERTED && mo[3] == WX_OUT_ASSIGNED && mo[4] == WX_OUT_FOUND && mo[5] == WX_OUT_ERASED);
  CHECK(mv[4] == vals[1]);
  f = o.find(dk, 99);
  CHECK(f[4] == 4 && f[8] == 99);  // assigned / erased above
  CHECK(t.size() == keys.size() - 2);
  VALID(t);
  // empty batches (n = 0, valid pointers): nothing happens, no error, no outcome written
  const uint64_t before = t.size();
  {
    Dev<uint64_t> kk(1), vv(1);
    Dev<uint8_t> oo(1), op1(1);
    CUDA_OK(cudaMemset(oo.p, 0xAB, 1));
    CUDA_OK(cudaMemset(op1.p, WX_OP_INSERT, 1));
    wx::Batch b;
    b.keys = kk.p;
    b.values_in = vv.p;
    b.values_out = vv.p;
    b.outcomes = oo.p;
    b.n = 0;
    b.stream = st.s;
    for (int call = 0; call < 5; ++call) {
      const wx::BatchResult e0 = call == 0 ? t.insert(b) : call == 1 ? t.insert_or_assign(b)
                                : call == 2 ? t.find(b) : call == 3 ? t.contains(b) : t.erase(b);
      CHECK(e0.invalid == 0 && e0.full == 0);
    }
    b.ops = op1.p;
    const wx::BatchResult e1 = t.batch(b);
    CHECK(e1.invalid == 0 && e1.full == 0);
    CHECK(oo.get()[0] == 0xAB);
  }
  CHECK(t.size() == before);
  // null values_in inserts 0
  Dev<uint64_t> dz(std::vector<uint64_t>{0x1111111122222222ull, 0x33333333FFFFFFFFull});
  o.insert(dz, nullptr, nullptr);
  for (uint64_t x : o.find(dz)) CHECK(x == 0);
  // erase all, twice
  auto e = o.erase(dk);
  for (size_t i = 0; i < keys.size(); ++i)
    CHECK(e[i] == ((i == 0 || i == 2) ? WX_OUT_INVALID_KEY : i == 8 ? WX_OUT_NOT_FOUND : WX_OUT_ERASED));
  for (uint8_t x : o.erase(dk)) CHECK(x == WX_OUT_NOT_FOUND || x == WX_OUT_INVALID_KEY);
  CHECK(t.size() == 3);  // 77 and the two zero-valued keys
  VALID(t);
  // pre-hashed calls are not offered by Hive: a clear UNSUPPORTED
  bool unsupported = false;
  try {
    t.hash_keys(dk.p, nullptr, 0, st.s);
  } catch (const wx::Error& ex) {
    unsupported = ex.status() == WX_ERR_UNSUPPORTED;
  }
  CHECK(unsupported);
  // Key widths are checked once, by wx_table_create (test_api_config): the table class trusts its config.
  t.clear();
  CHECK(t.size() == 0);
  for (uint8_t x : o.contains(dk)) CHECK(x == 0);
  VALID(t);
  std::printf("key domain ok\n");
}

// 64-bit tables through the C API (host arrays go through the staging copies, which must use 8-byte
// widths; device arrays go straight to the table): insert, find, batch, retrieve_all, both memory
// kinds.
void c_api_smoke() {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_HIVE));
  c.key_bits = c.value_bits = 64;
  c.capacity = 1000;
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  const uint64_t n = g_small ? 3000 : 100000;  // grows past the capacity
  auto keys = unique_keys64(n, 80);
  std::vector<uint64_t> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = ~keys[i] ^ (i << 40);
  std::vector<uint8_t> out(n);
  CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
  for (uint8_t x : out) CHECK(x == WX_OUT_INSERTED);
  uint64_t size = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK(size == n);
  std::vector<uint64_t> got(n);
  CHECK_OK(wx_find(t, keys.data(), got.data(), n, 0x0102030405060708ull, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(got[i] == vals[i], "C API find(%llx)", (unsigned long long)keys[i]);
  // reserved keys: INVALID_KEY status, the rest of the batch done
  std::vector<uint64_t> rk = {WX_KEY64_TOMBSTONE, 0xFFFFFFFFull}, rv = {1, 2};
  std::vector<uint8_t> ro(2);
  CHECK_STATUS(wx_insert(t, rk.data(), rv.data(), 2, ro.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(ro[0] == WX_OUT_INVALID_KEY && ro[1] == WX_OUT_INSERTED);
  // a mixed batch on host arrays: assign the first half, erase the second
  std::vector<uint8_t> ops(n);
  std::vector<uint64_t> mv(n);
  for (uint64_t i = 0; i < n; ++i) {
    ops[i] = i < n / 2 ? WX_OP_INSERT_OR_ASSIGN : WX_OP_ERASE;
    mv[i] = keys[i] + 7;
  }
  CHECK_OK(wx_batch(t, ops.data(), keys.data(), mv.data(), n, out.data(), WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i) CHECK(out[i] == (i < n / 2 ? WX_OUT_ASSIGNED : WX_OUT_ERASED));
  // retrieve_all to host and to device: the first half with the assigned values, plus 0xFFFFFFFF
  CHECK_OK(wx_size(t, &size));
  CHECK(size == n / 2 + 1);
  std::vector<uint64_t> hk(size), hv(size);
  uint64_t count = 0;
  CHECK_OK(wx_retrieve_all(t, hk.data(), hv.data(), size, &count, WX_MEM_HOST, nullptr));
  CHECK(count == size);
  Oracle want;
  for (uint64_t i = 0; i < n / 2; ++i) want[keys[i]] = keys[i] + 7;
  want[0xFFFFFFFFull] = 2;
  Oracle seen;
  for (uint64_t i = 0; i < count; ++i) CHECK(seen.emplace(hk[i], hv[i]).second);
  CHECK(seen == want);
  Dev<uint64_t> dk(size), dv(size);
  CHECK_OK(wx_retrieve_all(t, dk.p, dv.p, size, &count, WX_MEM_DEVICE, nullptr));
  auto dkh = dk.get(), dvh = dv.get();
  Oracle seen_dev;
  for (uint64_t i = 0; i < count; ++i) CHECK(seen_dev.emplace(dkh[i], dvh[i]).second);
  CHECK(seen_dev == want);
  // device arrays: find straight from device memory
  Dev<uint64_t> qk(keys), qv(n);
  CHECK_OK(wx_find(t, qk.p, qv.p, n, 0x0102030405060708ull, WX_MEM_DEVICE, nullptr));
  auto qh = qv.get();
  for (uint64_t i = 0; i < n; ++i) CHECK(qh[i] == (i < n / 2 ? keys[i] + 7 : 0x0102030405060708ull));
  CHECK_OK(wx_table_destroy(t));
  std::printf("C API smoke ok\n");
}

#endif  // WX_TEST_KEY_BITS == 64

}  // namespace

int main(int argc, char** argv) {
  using K = TestKey;
  const char* name = sizeof(K) == 8 ? "gpu_hive_invariants_64" : "gpu_hive_invariants";
  require_gpu();
  // "small" (or WIXLIB_SMALL=1, as the sanitizer runs set it): the small cases only.
  g_small = (argc > 1 && std::strcmp(argv[1], "small") == 0) || small_run();
  small_case<K>();
  erased_slots_reclaimed<K>();
  stash_relief<K>();
  queued_inserts<K>();
  tidy_flag<K>();
#if WX_TEST_KEY_BITS == 64
  key_domain();
  c_api_smoke();
#endif
  for (double lf : {0.5, 0.8, 0.9, 0.95}) oracle_at_load<K>(lf);
  same_key_batch<K>();
  hot_keys_mixed<K>(0.98);
  hot_keys_mixed<K>(0.5);
  if (!g_small) {
    basics<K>();
    stash_fill_and_drain<K>(false);
    stash_fill_and_drain<K>(true);
    eviction_stress<K>();
  }
  std::printf("%s: all passed\n", name);
  return 0;
}
