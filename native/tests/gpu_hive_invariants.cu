// Hive design invariants (ALGORITHMS.md §4.3): each key at most once across b0/b1/stash at its
// linear-hashing address, stash filled and drained without losing values, eviction stress at load
// factor >= 0.95, same-key concurrency in mixed batches (incl. a full bucket), reserved keys.
// `gpu_hive_invariants small` runs only the small case (for compute-sanitizer).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>

#include "gpu_hive_util.cuh"

using namespace hivetest;

namespace {

// 2^16 keys into a table made for 2^12: growth (splits) during inserts, finds, erases, mixed ops.
void small_case() {
  Stream st;
  HiveTable t(config(1 << 12, 0.9, 0.2));
  Ops o{t, st.s};
  const uint64_t n = 1 << 16;
  auto keys = unique_keys(n, 1);
  std::vector<uint32_t> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = static_cast<uint32_t>(i * 7 + 1);
  Dev<uint32_t> dk(keys), dv(vals);
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
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(f[i] == vals[i], "key %u: %u != %u", keys[i], f[i], vals[i]);
  // erase the odd half, mixed batch over everything
  std::vector<uint32_t> odd;
  for (uint64_t i = 1; i < n; i += 2) odd.push_back(keys[i]);
  Dev<uint32_t> dodd(odd);
  for (uint8_t x : o.erase(dodd)) CHECK(x == WX_OUT_ERASED);
  VALID(t);
  std::vector<uint8_t> ops(n);
  for (uint64_t i = 0; i < n; ++i) ops[i] = static_cast<uint8_t>(i % 4);
  Dev<uint8_t> dops(ops);
  Dev<uint32_t> dvv(vals);
  o.mixed(dops, dk, dvv);
  VALID(t);
  std::printf("small case ok: size %llu, buckets %u\n", (unsigned long long)t.size(), t.active_buckets());
}

void basics() {
  Stream st;
  HiveTable t(config(1 << 16));
  Ops o{t, st.s};
  const uint64_t n = 50000;
  auto keys = unique_keys(n, 2);
  std::vector<uint32_t> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = keys[i] ^ 0x5A5A5A5Au;
  Dev<uint32_t> dk(keys), dv(vals);
  Dev<uint8_t> out(n);
  o.insert(dk, &dv, &out);
  for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
  // second insert: all present, values unchanged
  std::vector<uint32_t> vals2(n, 12345);
  Dev<uint32_t> dv2(vals2);
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
  auto absent = unique_keys(2 * n, 2);
  absent.erase(absent.begin(), absent.begin() + n);
  Dev<uint32_t> da(absent);
  f = o.find(da, 77);
  for (uint32_t x : f) CHECK(x == 77u);
  for (uint8_t x : o.contains(da)) CHECK(x == 0);
  for (uint8_t x : o.contains(dk)) CHECK(x == 1);
  // reserved keys: rejected and counted, neighbours applied
  std::vector<uint32_t> rk = {WX_KEY32_EMPTY, 5u, WX_KEY32_TOMBSTONE, 0u, 0xFFFFFFFDu};
  Dev<uint32_t> drk(rk), drv(std::vector<uint32_t>{1, 2, 3, 4, 5});
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
  for (uint32_t x : f) CHECK(x == 0u);
  VALID(t);
  t.clear();
  CHECK(t.size() == 0);
  for (uint8_t x : o.contains(dk)) CHECK(x == 0);
  VALID(t);
  std::printf("basics ok\n");
}

// Many copies of few keys in one batch: exactly one INSERTED per key, never two copies.
void same_key_batch() {
  Stream st;
  HiveTable t(config(1 << 12));
  Ops o{t, st.s};
  const uint64_t n = 1 << 18;
  std::vector<uint32_t> keys(n), vals(n);
  std::mt19937 rng(3);
  for (uint64_t i = 0; i < n; ++i) {
    keys[i] = static_cast<uint32_t>(rng() % 3000);
    vals[i] = static_cast<uint32_t>(i);
  }
  Dev<uint32_t> dk(keys), dv(vals);
  Dev<uint8_t> out(n);
  o.insert(dk, &dv, &out);
  auto ho = out.get();
  std::map<uint32_t, int> inserted;
  std::map<uint32_t, uint32_t> winner;
  for (uint64_t i = 0; i < n; ++i) {
    CHECK(ho[i] == WX_OUT_INSERTED || ho[i] == WX_OUT_PRESENT);
    if (ho[i] == WX_OUT_INSERTED) {
      inserted[keys[i]]++;
      winner[keys[i]] = vals[i];
    }
  }
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (uint32_t k : keys) oracle[k] = 0;
  for (auto& [k, c] : inserted) CHECK_MSG(c == 1, "key %u inserted %d times", k, c);
  CHECK(inserted.size() == oracle.size());
  for (auto& [k, v] : winner) oracle[k] = v;
  VALID(t);
  same_contents(o, oracle, "same-key batch");
  std::printf("same-key batch ok (%zu keys)\n", oracle.size());
}

// An insert batch into a full table (GROW_NEVER, 85 % of the slots filled), with each new key four
// times and every present key once, shuffled: in most warps some elements claim in b0 while others
// (b0 full, the overflow bit set, a lost claim) run from the per-warp queue of p1_insert_kernel, with
// copies of one key on both sides. Exactly one copy of a key is INSERTED (the others PRESENT) or all
// are FULL; present keys keep their values; the table holds exactly that.
void queued_inserts() {
  Stream st;
  HiveTable t(config(1 << 12, 1.0, 0.0, WX_GROW_NEVER));
  t.set_auto_drain(false);  // the stash count below shows that keys went past b0 and b1
  Ops o{t, st.s};
  const uint64_t slots = t.capacity(), old_n = slots * 85 / 100, new_n = slots / 16;
  auto keys = unique_keys(old_n + new_n, 9);
  std::vector<uint32_t> ok(keys.begin(), keys.begin() + old_n), ov(old_n);
  for (uint64_t i = 0; i < old_n; ++i) ov[i] = static_cast<uint32_t>(i + 1);
  Dev<uint32_t> dok(ok), dov(ov);
  Dev<uint8_t> oout(old_n);
  o.insert(dok, &dov, &oout);
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (uint64_t i = 0; i < old_n; ++i) {
    CHECK(oout.get()[i] == WX_OUT_INSERTED);
    oracle[ok[i]] = ov[i];
  }
  std::vector<uint32_t> bk, bv;
  for (uint64_t i = 0; i < old_n; ++i) bk.push_back(ok[i]);
  for (int copy = 0; copy < 4; ++copy)
    for (uint64_t i = old_n; i < old_n + new_n; ++i) bk.push_back(keys[i]);
  std::mt19937 rng(11);
  std::shuffle(bk.begin(), bk.end(), rng);
  for (uint64_t i = 0; i < bk.size(); ++i) bv.push_back(static_cast<uint32_t>(0x40000000u + i));
  Dev<uint32_t> dk(bk), dv(bv);
  Dev<uint8_t> out(bk.size());
  o.insert(dk, &dv, &out);
  const auto ho = out.get();
  std::map<uint32_t, std::array<int, 3>> seen;  // inserted, present, full
  std::map<uint32_t, uint32_t> winner;
  for (uint64_t i = 0; i < bk.size(); ++i) {
    auto& c = seen[bk[i]];
    if (ho[i] == WX_OUT_INSERTED) {
      ++c[0];
      winner[bk[i]] = bv[i];
    } else if (ho[i] == WX_OUT_PRESENT) {
      ++c[1];
    } else {
      CHECK_MSG(ho[i] == WX_OUT_FULL, "key %u: outcome %d", bk[i], int(ho[i]));
      ++c[2];
    }
  }
  uint64_t inserted = 0, full_keys = 0;
  for (uint64_t i = 0; i < old_n; ++i) {
    const auto& c = seen[ok[i]];
    CHECK_MSG(c[1] == 1 && c[0] == 0 && c[2] == 0, "present key %u: %d inserted, %d present, %d full", ok[i], c[0],
              c[1], c[2]);
  }
  for (uint64_t i = old_n; i < old_n + new_n; ++i) {
    const auto& c = seen[keys[i]];
    CHECK_MSG((c[0] == 1 && c[1] == 3) || c[2] == 4, "new key %u: %d inserted, %d present, %d full", keys[i], c[0],
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
// the overflow bit (p1_insert_kernel); an erase to EMPTY must end that. 8 keys fill bucket B, 4 more with b0 = B go to their b1; erasing one of the 8 (the
// stash is empty, so the erase writes EMPTY) frees a slot in B. Inserting the 4 again must answer
// PRESENT (not put a second copy in B), and finds, contains and a mixed batch must see them.
void tidy_flag() {
  Stream st;
  HiveTable t(config(1 << 14, 0.9, 0.0, WX_GROW_NEVER));
  Ops o{t, st.s};
  const uint32_t B = t.place(1).b0;
  std::vector<uint32_t> fill, other;  // b0 = B; fill first, then other (b1 != B)
  for (uint32_t k = 2; other.size() < 4; ++k) {
    const wx::hive::Place p = t.place(k);
    if (p.b0 != B || p.b1 == B) continue;
    (fill.size() < 8 ? fill : other).push_back(k);
  }
  Dev<uint32_t> dfill(fill), dother(other);  // values = keys
  Dev<uint8_t> out8(8), out4(4);
  o.insert(dfill, &dfill, &out8);
  for (uint8_t x : out8.get()) CHECK(x == WX_OUT_INSERTED);
  o.insert(dother, &dother, &out4);
  for (uint8_t x : out4.get()) CHECK(x == WX_OUT_INSERTED);
  CHECK(t.size() == 12 && t.stash_used() == 0);
  VALID(t);  // tidy: checks that B (which holds other's b0) has no EMPTY slot
  Dev<uint32_t> dgone(std::vector<uint32_t>{fill[0]});
  CHECK(o.erase(dgone)[0] == WX_OUT_ERASED);
  VALID(t);
  o.insert(dother, &dother, &out4);
  for (uint8_t x : out4.get()) CHECK_MSG(x == WX_OUT_PRESENT, "a key in b1 behind a freed b0 slot: outcome %d", x);
  auto f = o.find(dother);
  for (int i = 0; i < 4; ++i) CHECK(f[i] == other[i]);
  for (uint8_t x : o.contains(dother)) CHECK(x == 1);
  Dev<uint8_t> dops(std::vector<uint8_t>{WX_OP_INSERT, WX_OP_FIND, WX_OP_INSERT, WX_OP_FIND});
  Dev<uint32_t> dv(std::vector<uint32_t>{1, 2, 3, 4});
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
void stash_fill_and_drain(bool auto_drain) {
  Stream st;
  HiveTable t(config(1 << 12, 1.0, 0.0, WX_GROW_NEVER));
  t.set_auto_drain(false);
  Ops o{t, st.s};
  const uint64_t slots = t.capacity();
  const uint64_t n = slots + slots / 16;  // more than fits in the buckets
  auto keys = unique_keys(n, 4);
  std::vector<uint32_t> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = static_cast<uint32_t>(i + 100);
  std::unordered_map<uint32_t, uint32_t> oracle;
  uint64_t full = 0;
  const uint64_t step = slots / 8;
  for (uint64_t off = 0; off < n; off += step) {
    const uint64_t m = std::min(step, n - off);
    std::vector<uint32_t> k(keys.begin() + off, keys.begin() + off + m), v(vals.begin() + off, vals.begin() + off + m);
    Dev<uint32_t> dk(k), dv(v);
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
  CHECK(s.resizes == 0);
  same_contents(o, oracle, "stash filled");
  // Erase keys inserted first (in buckets: the stash filled up last) so the drain has room and the
  // stash stays past the auto-drain threshold: a quarter, or a sixteenth where the next insert must
  // not sweep the tombstones first (its settle step would empty the stash before the drain).
  std::vector<uint32_t> er;
  const size_t n_erase = oracle.size() / (auto_drain ? 16 : 4);
  for (uint64_t i = 0; i < n && er.size() < n_erase; ++i)
    if (oracle.count(keys[i])) er.push_back(keys[i]);
  for (uint32_t k : er) oracle.erase(k);
  Dev<uint32_t> der(er);
  for (uint8_t x : o.erase(der)) CHECK(x == WX_OUT_ERASED);
  VALID(t);
  const uint64_t before = t.stash_used();
  if (auto_drain) {
    CHECK_MSG(before * 8 > t.stash_slots() * 7, "stash %llu of %llu slots: not past the drain threshold",
              (unsigned long long)before, (unsigned long long)t.stash_slots());
    t.set_auto_drain(true);
    const std::vector<uint32_t> again{er[0]}, seven{7};  // one key back: the insert call ends with a drain
    oracle[er[0]] = 7;
    Dev<uint32_t> dk(again), dv(seven);
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
  std::printf("stash drain ok: %llu -> %llu entries\n", (unsigned long long)before, (unsigned long long)t.stash_used());
}

// An insert that finds its buckets full, no eviction path and its stash bucket full, while an entry
// of that stash bucket could move to a freed slot of its own bucket: the call frees that stash slot
// and inserts the key, without growing the table. 16 buckets, one stash bucket; A keys live only in
// bucket 0 (b0 = b1 = 0), B keys only in bucket 1, C keys in 0 or 1 (both full: they fill the stash).
void stash_relief() {
  Stream st;
  HiveTable t(config(128, 1.0));
  Ops o{t, st.s};
  CHECK(t.active_buckets() == 16 && t.stash_slots() == wx::hive::kSlots);
  const wx::hive::Geometry g = wx::hive::geometry_of(16, 16);
  std::vector<uint32_t> a, b, c;
  for (uint32_t k = 0; a.size() < 9 || b.size() < 8 || c.size() < 8; ++k) {
    const wx::hive::Place p = wx::hive::place_of(k, g, 0);
    if (p.b0 == 0 && p.b1 == 0 && a.size() < 9) a.push_back(k);
    if (p.b0 == 1 && p.b1 == 1 && b.size() < 8) b.push_back(k);
    if (p.b0 == 0 && p.b1 == 1 && c.size() < 8) c.push_back(k);
  }
  const uint32_t last_a = a.back();
  a.pop_back();
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (const auto* keys : {&a, &b, &c}) {
    Dev<uint32_t> dk(*keys), dv(*keys);
    Dev<uint8_t> out(keys->size());
    o.insert(dk, &dv, &out);
    for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
    for (uint32_t k : *keys) oracle[k] = k;
  }
  CHECK_MSG(t.stash_used() == wx::hive::kSlots, "stash holds %llu", (unsigned long long)t.stash_used());
  Dev<uint32_t> gone(std::vector<uint32_t>{b[0]});
  CHECK(o.erase(gone)[0] == WX_OUT_ERASED);  // a tombstone in bucket 1 (the stash is not empty)
  oracle.erase(b[0]);
  Dev<uint32_t> dk(std::vector<uint32_t>{last_a}), dv(std::vector<uint32_t>{7});
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
void eviction_stress() {
  Stream st;
  const uint64_t cap = 1 << 20;
  HiveTable t(config(cap, 0.97, 0.0, WX_GROW_NEVER));
  Ops o{t, st.s};
  const uint64_t n = static_cast<uint64_t>(0.97 * t.capacity());
  auto keys = unique_keys(n, 5);
  std::vector<uint32_t> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = keys[i] * 3u;
  Dev<uint32_t> dk(keys), dv(vals);
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
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(f[i] == vals[i], "key %u lost or wrong", keys[i]);
  // erase + reinsert churn at that load factor (mixed batches), then check again
  std::vector<uint8_t> ops(n);
  std::vector<uint32_t> v2(vals);
  std::mt19937 rng(6);
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (uint64_t i = 0; i < n; ++i) oracle[keys[i]] = vals[i];
  for (uint64_t i = 0; i < n; ++i) ops[i] = (i % 10 == 0) ? WX_OP_ERASE : WX_OP_FIND;
  Dev<uint8_t> dops(ops);
  Dev<uint32_t> dv2(v2);
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

// Hot keys: inserts, erases, assigns and finds of the same few keys in one mixed batch, on a table
// whose buckets are full. Checks per key: final presence = initial + INSERTED - ERASED in {0,1};
// every found value was written for that key; the table stays consistent.
void hot_keys_mixed() {
  Stream st;
  HiveTable t(config(1 << 14, 1.0, 0.0, WX_GROW_NEVER));
  Ops o{t, st.s};
  // fill to ~98% so the hot keys' buckets are full
  const uint64_t fill = static_cast<uint64_t>(0.98 * t.capacity());
  auto base = unique_keys(fill, 7);
  Dev<uint32_t> dbase(base);
  o.insert(dbase, &dbase, nullptr);
  const uint64_t nhot = 64, n = 1 << 18;
  auto hot = unique_keys(nhot * 2, 8);  // first half absent, second half inserted before
  std::vector<uint32_t> pre(hot.begin() + nhot, hot.end());
  Dev<uint32_t> dpre(pre);
  o.insert(dpre, &dpre, nullptr);
  auto snapshot = o.dump();
  std::vector<uint8_t> ops(n);
  std::vector<uint32_t> keys(n), vals(n);
  std::mt19937 rng(9);
  for (uint64_t i = 0; i < n; ++i) {
    ops[i] = static_cast<uint8_t>(rng() % 4);
    keys[i] = hot[rng() % hot.size()];
    vals[i] = (ops[i] == WX_OP_FIND) ? 0xABCDEF01u : static_cast<uint32_t>(i);
  }
  Dev<uint8_t> dops(ops);
  Dev<uint32_t> dk(keys), dv(vals);
  auto out = o.mixed(dops, dk, dv);
  auto hv = dv.get();
  std::map<uint32_t, long> delta;
  std::map<uint32_t, std::vector<uint32_t>> written;
  for (uint64_t i = 0; i < n; ++i)
    if (ops[i] == WX_OP_INSERT || ops[i] == WX_OP_INSERT_OR_ASSIGN) written[keys[i]].push_back(vals[i]);
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t x = out[i];
    switch (ops[i]) {
      case WX_OP_INSERT: CHECK(x == WX_OUT_INSERTED || x == WX_OUT_PRESENT || x == WX_OUT_FULL); break;
      case WX_OP_INSERT_OR_ASSIGN: CHECK(x == WX_OUT_INSERTED || x == WX_OUT_ASSIGNED || x == WX_OUT_FULL); break;
      case WX_OP_ERASE: CHECK(x == WX_OUT_ERASED || x == WX_OUT_NOT_FOUND); break;
      default: CHECK(x == WX_OUT_FOUND || x == WX_OUT_NOT_FOUND); break;
    }
    if (x == WX_OUT_INSERTED) delta[keys[i]]++;
    if (x == WX_OUT_ERASED) delta[keys[i]]--;
    if (ops[i] == WX_OP_FIND && x == WX_OUT_FOUND) {
      const uint32_t k = keys[i], v = hv[i];
      bool ok = snapshot.count(k) && snapshot[k] == v;
      for (uint32_t w : written[k]) ok = ok || w == v;
      CHECK_MSG(ok, "find of key %u returned %u, never written", k, v);
    }
  }
  auto now = o.dump();
  for (uint32_t k : hot) {
    const long before = snapshot.count(k) ? 1 : 0, after = now.count(k) ? 1 : 0;
    CHECK_MSG(before + delta[k] == after, "key %u: before %ld, inserted-erased %ld, after %ld", k, before, delta[k], after);
    if (after) {
      bool ok = snapshot.count(k) && snapshot[k] == now[k];
      for (uint32_t w : written[k]) ok = ok || w == now[k];
      CHECK_MSG(ok, "key %u holds value %u that was never written", k, now[k]);
    }
  }
  VALID(t);
  std::printf("hot keys mixed ok\n");
}

}  // namespace

int main(int argc, char** argv) {
  require_gpu();
  // "small" (or WIXLIB_SMALL=1, as the sanitizer runs set it): the 2^16-key case with a resize only.
  const char* small = std::getenv("WIXLIB_SMALL");
  if ((argc > 1 && std::strcmp(argv[1], "small") == 0) || (small && std::strcmp(small, "1") == 0)) {
    small_case();
    stash_relief();
    queued_inserts();
    tidy_flag();
    return 0;
  }
  small_case();
  basics();
  tidy_flag();
  same_key_batch();
  stash_relief();
  queued_inserts();
  stash_fill_and_drain(false);
  stash_fill_and_drain(true);
  eviction_stress();
  hot_keys_mixed();
  std::printf("gpu_hive_invariants: all passed\n");
  return 0;
}
