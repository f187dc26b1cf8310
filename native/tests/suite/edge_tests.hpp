// Edge cases through the public API, for any kind and memory path: reserved and
// boundary keys, duplicates in one batch, empty / tiny / odd-sized batches, growth from a tiny table,
// a full table that cannot grow and its recovery by wx_resize, resize below size, clear, and the
// argument errors every kind must reject without crashing.
#pragma once
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "check.hpp"
#include "suite/env.hpp"
#include "suite/linearizability.hpp"
#include "suite/table_io.hpp"

namespace wxsuite {

struct EdgeParams {
  int32_t kind = WX_KIND_CPU;
  int32_t mem = WX_MEM_HOST;
  uint64_t grow_to = 1 << 20;  // keys inserted into a table created for 1024
  uint64_t seed = 1;
};

namespace edge_detail {

// Finds every key and checks it maps to `expect` (or is absent where expect_present is false).
inline void expect_found(Io& io, wx_table* t, const std::vector<uint32_t>& keys,
                         const std::vector<uint32_t>& expect, bool expect_present, const char* what) {
  const uint64_t n = keys.size();
  std::vector<uint32_t> got(n, 0);
  std::vector<uint8_t> found(n, 2);
  CHECK_OK(io.find(t, keys.data(), got.data(), n, 0xDEADBEEFull));
  CHECK_OK(io.contains(t, keys.data(), found.data(), n));
  for (uint64_t j = 0; j < n; ++j) {
    if (expect_present) {
      CHECK_MSG(found[j] == 1 && got[j] == expect[j], "%s: key %u found=%u value %u, expected %u", what,
                keys[j], found[j], got[j], expect[j]);
    } else {
      CHECK_MSG(found[j] == 0 && got[j] == 0xDEADBEEFu, "%s: key %u should be absent (found=%u value %u)",
                what, keys[j], found[j], got[j]);
    }
  }
}

inline std::vector<uint32_t> distinct_keys(Rng& rng, uint64_t n) {
  std::vector<uint32_t> k;
  while (k.size() < n) {
    while (k.size() < n + n / 8 + 8) k.push_back(rng.key());
    std::sort(k.begin(), k.end());
    k.erase(std::unique(k.begin(), k.end()), k.end());
  }
  for (uint64_t i = k.size() - 1; i > 0; --i) std::swap(k[i], k[rng.below(i + 1)]);
  k.resize(n);
  return k;
}

inline std::vector<uint32_t> values_for(uint64_t n, uint32_t base) {
  std::vector<uint32_t> v(n);
  for (uint64_t j = 0; j < n; ++j) v[j] = base + static_cast<uint32_t>(j) * 7u;
  return v;
}

}  // namespace edge_detail

// Reserved keys are rejected per element; the other elements are applied; nothing reserved is stored.
inline void edge_reserved_keys(const EdgeParams& p) {
  using namespace edge_detail;
  Table t(make_config(p.kind, 1024));
  Io io(p.mem);
  const uint32_t E = WX_KEY32_EMPTY, T = WX_KEY32_TOMBSTONE;
  std::vector<uint32_t> keys = {5, E, 6, T, 7, E};
  std::vector<uint32_t> vals = {50, 1, 60, 2, 70, 3};
  std::vector<uint8_t> out(keys.size(), 0);
  CHECK_STATUS(io.insert(t.get(), keys.data(), vals.data(), keys.size(), out.data()), WX_ERR_INVALID_KEY);
  const uint8_t want[] = {WX_OUT_INSERTED, WX_OUT_INVALID_KEY, WX_OUT_INSERTED, WX_OUT_INVALID_KEY,
                          WX_OUT_INSERTED, WX_OUT_INVALID_KEY};
  for (size_t j = 0; j < keys.size(); ++j) CHECK_MSG(out[j] == want[j], "insert element %zu outcome %u", j, out[j]);
  CHECK(t.size() == 3);
  // Without an outcomes array the status still says INVALID_KEY and the valid keys still go in.
  std::vector<uint32_t> k2 = {T, 8};
  std::vector<uint32_t> v2 = {9, 80};
  CHECK_STATUS(io.insert(t.get(), k2.data(), v2.data(), 2, nullptr), WX_ERR_INVALID_KEY);
  CHECK(t.size() == 4);
  // insert_or_assign / erase / find / contains / batch: the same rule.
  std::vector<uint32_t> k3 = {E, 5};
  std::vector<uint32_t> v3 = {1, 55};
  out.assign(2, 0);
  CHECK_STATUS(io.insert_or_assign(t.get(), k3.data(), v3.data(), 2, out.data()), WX_ERR_INVALID_KEY);
  CHECK(out[0] == WX_OUT_INVALID_KEY && out[1] == WX_OUT_ASSIGNED);
  std::vector<uint32_t> fk = {5, T, 6, E, 8, 9};
  std::vector<uint32_t> fv(fk.size(), 0);
  CHECK_STATUS(io.find(t.get(), fk.data(), fv.data(), fk.size(), 0xEEEEEEEEull), WX_ERR_INVALID_KEY);
  CHECK(fv[0] == 55 && fv[2] == 60 && fv[4] == 80 && fv[5] == 0xEEEEEEEEu);
  std::vector<uint8_t> fnd(fk.size(), 7);
  CHECK_STATUS(io.contains(t.get(), fk.data(), fnd.data(), fk.size()), WX_ERR_INVALID_KEY);
  // A reserved key is never reported present (what its flag holds otherwise is not specified).
  CHECK(fnd[0] == 1 && fnd[1] != 1 && fnd[2] == 1 && fnd[3] != 1 && fnd[4] == 1 && fnd[5] == 0);
  std::vector<uint32_t> ek = {T, 6};
  out.assign(2, 0);
  CHECK_STATUS(io.erase(t.get(), ek.data(), 2, out.data()), WX_ERR_INVALID_KEY);
  CHECK(out[0] == WX_OUT_INVALID_KEY && out[1] == WX_OUT_ERASED);
  std::vector<uint8_t> bops = {WX_OP_INSERT, WX_OP_FIND, WX_OP_ERASE, WX_OP_INSERT_OR_ASSIGN, WX_OP_FIND};
  std::vector<uint32_t> bk = {E, 7, T, E, T};
  std::vector<uint32_t> bv = {1, 0, 0, 2, 3};
  out.assign(bk.size(), 0);
  CHECK_STATUS(io.batch(t.get(), bops.data(), bk.data(), bv.data(), bk.size(), out.data()), WX_ERR_INVALID_KEY);
  CHECK_MSG(out[0] == WX_OUT_INVALID_KEY && out[1] == WX_OUT_FOUND && bv[1] == 70 && out[2] == WX_OUT_INVALID_KEY &&
                out[3] == WX_OUT_INVALID_KEY && out[4] == WX_OUT_INVALID_KEY,
            "batch with reserved keys: outcomes %u %u %u %u %u (want 8 4 8 8 8), find of key 7 gave %u (want 70)",
            out[0], out[1], out[2], out[3], out[4], bv[1]);
  // The dump holds exactly {5:55, 7:70, 8:80}.
  std::vector<uint32_t> dk, dv;
  CHECK_OK(io.retrieve_all(t.get(), dk, dv));
  CHECK_MSG(dk.size() == 3, "dump has %zu keys", dk.size());
  for (size_t j = 0; j < dk.size(); ++j) {
    CHECK_MSG(dk[j] != E && dk[j] != T, "reserved key stored");
    CHECK((dk[j] == 5 && dv[j] == 55) || (dk[j] == 7 && dv[j] == 70) || (dk[j] == 8 && dv[j] == 80));
  }
}

// Keys 0, 1 and 0xFFFFFFFD (the largest valid key) behave like any other key.
inline void edge_boundary_keys(const EdgeParams& p) {
  using namespace edge_detail;
  Table t(make_config(p.kind, 1024));
  Io io(p.mem);
  std::vector<uint32_t> keys = {0u, 1u, 0xFFFFFFFDu, 0x7FFFFFFFu, 0x80000000u, 0x0FFFFFFFu, 0x10000000u};
  std::vector<uint32_t> vals = {0xFFFFFFFFu, 0u, 0xFFFFFFFEu, 3u, 4u, 5u, 6u};  // values are unrestricted
  std::vector<uint8_t> out(keys.size(), 0);
  CHECK_OK(io.insert(t.get(), keys.data(), vals.data(), keys.size(), out.data()));
  for (uint8_t o : out) CHECK(o == WX_OUT_INSERTED);
  expect_found(io, t.get(), keys, vals, true, "boundary keys");
  std::vector<uint32_t> gone = {0u, 0xFFFFFFFDu};
  out.assign(2, 0);
  CHECK_OK(io.erase(t.get(), gone.data(), 2, out.data()));
  CHECK(out[0] == WX_OUT_ERASED && out[1] == WX_OUT_ERASED);
  expect_found(io, t.get(), gone, gone, false, "erased boundary keys");
  CHECK(t.size() == keys.size() - 2);
  std::vector<uint32_t> back = {11u, 12u};
  out.assign(2, 0);
  CHECK_OK(io.insert(t.get(), gone.data(), back.data(), 2, out.data()));
  CHECK(out[0] == WX_OUT_INSERTED && out[1] == WX_OUT_INSERTED);
  expect_found(io, t.get(), gone, back, true, "re-inserted boundary keys");
}

// Duplicates in one call: exactly one INSERTED (or ERASED) per key, the rest PRESENT/ASSIGNED/
// NOT_FOUND, never two copies; each call checked against the whole table before and after it
// (check_batch: keys outside the call unchanged, per-key linearizability, value slots).
inline void edge_duplicates(const EdgeParams& p) {
  using namespace edge_detail;
  Rng rng(sub_seed(p.seed, 41));
  Table t(make_config(p.kind, 4096));
  Io io(p.mem);
  const uint64_t n = 20000;
  MapState before, after;
  auto dump = [&](MapState& s) {
    std::vector<uint32_t> dk, dv;
    CHECK_OK(io.retrieve_all(t.get(), dk, dv));
    s.map.clear();
    for (size_t j = 0; j < dk.size(); ++j) CHECK_MSG(s.map.emplace(dk[j], dv[j]).second, "key %u stored twice", dk[j]);
  };
  for (int call = 0; call < 4; ++call) {  // insert, insert_or_assign, erase, insert again
    std::vector<uint32_t> keys(n), vals(n);
    std::vector<uint8_t> out(n, 0), ops(n);
    for (uint64_t j = 0; j < n; ++j) {
      // Half the elements hit one key, the rest a handful of keys; values unique.
      keys[j] = (j & 1) ? 424242u : 1000u + static_cast<uint32_t>(rng.below(7));
      vals[j] = static_cast<uint32_t>(call * n + j);
    }
    int32_t st;
    uint8_t op;
    if (call == 0 || call == 3) { op = WX_OP_INSERT; st = io.insert(t.get(), keys.data(), vals.data(), n, out.data()); }
    else if (call == 1) { op = WX_OP_INSERT_OR_ASSIGN; st = io.insert_or_assign(t.get(), keys.data(), vals.data(), n, out.data()); }
    else { op = WX_OP_ERASE; st = io.erase(t.get(), keys.data(), n, out.data()); }
    CHECK_STATUS(st, WX_OK);
    std::fill(ops.begin(), ops.end(), op);
    dump(after);
    BatchRecord rec;
    rec.ops = ops.data(); rec.keys = keys.data(); rec.values_before = vals.data(); rec.values_after = vals.data();
    rec.outcomes = out.data(); rec.n = n;
    Verdict v = check_batch(rec, before, after);
    if (!v.ok) { print_verdict(v, "duplicate keys in one call"); std::exit(1); }
    // Sanity beyond the checker: with an empty start, each distinct key was INSERTED exactly once.
    if (call == 0 || call == 2 || call == 3) {
      uint64_t switched = 0;
      for (uint8_t o : out) switched += (o == WX_OUT_INSERTED || o == WX_OUT_ERASED);
      uint64_t distinct = call == 2 ? before.map.size() : after.map.size();
      CHECK_MSG(switched == distinct, "call %d: %llu INSERTED/ERASED for %llu distinct keys", call,
                (unsigned long long)switched, (unsigned long long)distinct);
    }
    CHECK(t.size() == after.map.size());
    before = after;
  }
}

// n = 0 is a no-op that succeeds (null arrays allowed); n = 1 and sizes that are not multiples of 32.
inline void edge_batch_sizes(const EdgeParams& p) {
  using namespace edge_detail;
  Rng rng(sub_seed(p.seed, 42));
  Table t(make_config(p.kind, 1 << 14));
  Io io(p.mem);
  uint32_t k0 = 1, v0 = 2;
  uint8_t o0 = 0;
  uint8_t op0 = WX_OP_INSERT;
  CHECK_OK(io.insert(t.get(), &k0, &v0, 0, &o0));
  CHECK_OK(io.insert_or_assign(t.get(), &k0, &v0, 0, &o0));
  CHECK_OK(io.erase(t.get(), &k0, 0, &o0));
  CHECK_OK(io.find(t.get(), &k0, &v0, 0, 0));
  CHECK_OK(io.contains(t.get(), &k0, &o0, 0));
  CHECK_OK(io.batch(t.get(), &op0, &k0, &v0, 0, &o0));
  CHECK_OK(wx_insert(t.get(), nullptr, nullptr, 0, nullptr, p.mem, nullptr));
  CHECK_OK(wx_find(t.get(), nullptr, nullptr, 0, 0, p.mem, nullptr));
  CHECK_OK(wx_batch(t.get(), nullptr, nullptr, nullptr, 0, nullptr, p.mem, nullptr));
  CHECK(t.size() == 0 && o0 == 0 && v0 == 2);
  std::vector<uint32_t> all_keys, all_vals;
  for (uint64_t n : {1ull, 2ull, 31ull, 33ull, 63ull, 65ull, 1000ull, 4097ull}) {
    std::vector<uint32_t> keys = distinct_keys(rng, n);
    std::vector<uint32_t> vals = values_for(n, static_cast<uint32_t>(n * 1000));
    std::vector<uint8_t> out(n, 0);
    // Skip keys already used by an earlier size (distinct_keys draws independently).
    CHECK_OK(io.contains(t.get(), keys.data(), out.data(), n));
    std::vector<uint32_t> k2, v2;
    for (uint64_t j = 0; j < n; ++j) if (!out[j]) { k2.push_back(keys[j]); v2.push_back(vals[j]); }
    out.assign(k2.size(), 0);
    CHECK_OK(io.insert(t.get(), k2.data(), v2.data(), k2.size(), out.data()));
    for (uint8_t o : out) CHECK(o == WX_OUT_INSERTED);
    all_keys.insert(all_keys.end(), k2.begin(), k2.end());
    all_vals.insert(all_vals.end(), v2.begin(), v2.end());
    CHECK(t.size() == all_keys.size());
    expect_found(io, t.get(), all_keys, all_vals, true, "odd batch sizes");
  }
  // Insert with values == NULL stores 0; not_found is truncated to the value width.
  uint32_t k = 0xABCDu;
  uint8_t o = 0;
  CHECK_OK(io.insert(t.get(), &k, nullptr, 1, &o));
  CHECK(o == WX_OUT_INSERTED);
  uint32_t got = 99;
  CHECK_OK(io.find(t.get(), &k, &got, 1, 0));
  CHECK_MSG(got == 0, "insert without values stored %u", got);
  uint32_t absent = 0xABCEu;
  CHECK_OK(io.find(t.get(), &absent, &got, 1, 0x123456789ull));
  CHECK_MSG(got == 0x23456789u, "not_found value not truncated to 32 bits: %x", got);
  // outcomes == NULL is accepted everywhere.
  CHECK_OK(io.insert(t.get(), &absent, &k, 1, nullptr));
  CHECK_OK(io.insert_or_assign(t.get(), &absent, &absent, 1, nullptr));
  CHECK_OK(io.find(t.get(), &absent, &got, 1, 0));
  CHECK(got == absent);
  CHECK_OK(io.erase(t.get(), &absent, 1, nullptr));
  CHECK_OK(io.contains(t.get(), &absent, &o, 1));
  CHECK(o == 0);
}

// WX_GROW_AUTO from a table made for 1024 keys: batches of growing size, then one batch far larger
// than the table; every insert succeeds and every key stays findable.
inline void edge_grow_auto(const EdgeParams& p) {
  using namespace edge_detail;
  Rng rng(sub_seed(p.seed, 43));
  const uint64_t total = p.grow_to;
  std::vector<uint32_t> keys = distinct_keys(rng, total);
  std::vector<uint32_t> vals = values_for(total, rng.u32());
  Io io(p.mem);
  {
    Table t(make_config(p.kind, 1024));
    uint64_t done = 0, b = 100;
    while (done < total) {
      const uint64_t n = std::min(total - done, b);
      std::vector<uint8_t> out(n, 0);
      CHECK_OK(io.insert(t.get(), keys.data() + done, vals.data() + done, n, out.data()));
      for (uint64_t j = 0; j < n; ++j) CHECK_MSG(out[j] == WX_OUT_INSERTED, "grow: key %u outcome %u", keys[done + j], out[j]);
      done += n;
      b = b * 3 + 1;
      CHECK(t.size() == done);
    }
    wx_stats s = t.stats();
    CHECK_MSG(s.resizes > 0, "no resize recorded while growing from 1024 to %llu keys", (unsigned long long)total);
    CHECK(s.failed_inserts == 0);
    expect_found(io, t.get(), keys, vals, true, "after growth");
    std::printf("  grow(batches): %llu keys, resizes=%llu slots=%llu\n", (unsigned long long)total,
                (unsigned long long)s.resizes, (unsigned long long)s.capacity);
  }
  {
    Table t(make_config(p.kind, 1024));
    std::vector<uint8_t> out(total, 0);
    CHECK_OK(io.insert(t.get(), keys.data(), vals.data(), total, out.data()));
    for (uint64_t j = 0; j < total; ++j) CHECK_MSG(out[j] == WX_OUT_INSERTED, "grow(one batch): key %u outcome %u", keys[j], out[j]);
    CHECK(t.size() == total);
    expect_found(io, t.get(), keys, vals, true, "after one-batch growth");
  }
}

// WX_GROW_NEVER: inserting past the room gives WX_ERR_FULL with FULL outcomes, the table keeps
// everything placed, and wx_resize makes room for the rest.
inline void edge_full_never(const EdgeParams& p) {
  using namespace edge_detail;
  Rng rng(sub_seed(p.seed, 44));
  Io io(p.mem);
  Table t(make_config(p.kind, 1024, 0.0, WX_GROW_NEVER));
  // More keys than the table has slots (whatever minimum size the kind rounds 1024 up to).
  uint64_t slots = 0;
  CHECK_OK(wx_capacity(t.get(), &slots));
  const uint64_t total = 2 * slots + 8192, step = std::max<uint64_t>(512, slots / 16);
  std::vector<uint32_t> keys = distinct_keys(rng, total);
  std::vector<uint32_t> vals = values_for(total, 77);
  std::vector<uint32_t> placed_k, placed_v, full_k, full_v;
  bool saw_full = false;
  for (uint64_t done = 0; done < total; done += step) {
    const uint64_t m = std::min(step, total - done);
    std::vector<uint8_t> out(m, 0);
    int32_t st = io.insert(t.get(), keys.data() + done, vals.data() + done, m, out.data());
    uint64_t nfull = 0;
    for (uint64_t j = 0; j < m; ++j) {
      CHECK_MSG(out[j] == WX_OUT_INSERTED || out[j] == WX_OUT_FULL, "full test: outcome %u", out[j]);
      if (out[j] == WX_OUT_FULL) { ++nfull; full_k.push_back(keys[done + j]); full_v.push_back(vals[done + j]); }
      else { placed_k.push_back(keys[done + j]); placed_v.push_back(vals[done + j]); }
    }
    CHECK_MSG(st == (nfull ? WX_ERR_FULL : WX_OK), "status %s with %llu FULL outcomes", wx_status_name(st),
              (unsigned long long)nfull);
    CHECK(t.size() == placed_k.size());
    if (nfull) saw_full = true;
    if (saw_full && full_k.size() >= 2048) break;
  }
  CHECK_MSG(saw_full, "a table made for 1024 keys with WX_GROW_NEVER took %llu keys", (unsigned long long)placed_k.size());
  wx_stats s = t.stats();
  CHECK_MSG(s.failed_inserts >= full_k.size(), "failed_inserts %llu < %zu", (unsigned long long)s.failed_inserts, full_k.size());
  CHECK(s.resizes == 0);
  std::printf("  full(never): placed %zu keys in %llu slots before FULL\n", placed_k.size(), (unsigned long long)s.capacity);
  expect_found(io, t.get(), placed_k, placed_v, true, "full table keeps placed keys");
  expect_found(io, t.get(), full_k, full_v, false, "FULL keys are absent");
  // Retrying the failed keys without an outcomes array: the status must say whether any failed again.
  // (Usually all do; a cuckoo path may have opened up for a few, so the rule is checked, not a count.)
  {
    const int32_t st = io.insert(t.get(), full_k.data(), full_v.data(), full_k.size(), nullptr);
    CHECK_MSG(st == WX_OK || st == WX_ERR_FULL, "retry of FULL keys: %s", wx_status_name(st));
    std::vector<uint8_t> in(full_k.size(), 0);
    CHECK_OK(io.contains(t.get(), full_k.data(), in.data(), full_k.size()));
    std::vector<uint32_t> still_k, still_v;
    for (size_t j = 0; j < full_k.size(); ++j) {
      if (in[j]) { placed_k.push_back(full_k[j]); placed_v.push_back(full_v[j]); }
      else { still_k.push_back(full_k[j]); still_v.push_back(full_v[j]); }
    }
    CHECK_MSG((st == WX_ERR_FULL) == !still_k.empty(), "retry status %s but %zu keys still absent",
              wx_status_name(st), still_k.size());
    full_k.swap(still_k);
    full_v.swap(still_v);
    CHECK(t.size() == placed_k.size());
    expect_found(io, t.get(), placed_k, placed_v, true, "full table after retry");
  }
  // Resize recovers: room for everything, then the failed keys go in.
  CHECK_OK(wx_resize(t.get(), 2 * (placed_k.size() + full_k.size())));
  expect_found(io, t.get(), placed_k, placed_v, true, "after resize");
  std::vector<uint8_t> out(full_k.size(), 0);
  CHECK_OK(io.insert(t.get(), full_k.data(), full_v.data(), full_k.size(), out.data()));
  for (uint8_t o : out) CHECK(o == WX_OUT_INSERTED);
  expect_found(io, t.get(), full_k, full_v, true, "after resize, failed keys inserted");
  CHECK(t.size() == placed_k.size() + full_k.size());
}

// wx_resize below the size fails and leaves the table intact; resize up and down to the size works;
// clear empties the table, which stays usable.
inline void edge_resize_clear(const EdgeParams& p) {
  using namespace edge_detail;
  Rng rng(sub_seed(p.seed, 45));
  Io io(p.mem);
  Table t(make_config(p.kind, 1024));
  std::vector<uint32_t> keys = distinct_keys(rng, 3000);
  std::vector<uint32_t> vals = values_for(3000, 5);
  CHECK_OK(io.insert(t.get(), keys.data(), vals.data(), keys.size(), nullptr));
  CHECK(t.size() == 3000);
  CHECK_STATUS(wx_resize(t.get(), 2999), WX_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wx_resize(t.get(), 0), WX_ERR_INVALID_ARGUMENT);
  CHECK(t.size() == 3000);
  expect_found(io, t.get(), keys, vals, true, "after refused resize");
  CHECK_OK(wx_resize(t.get(), 100000));
  uint64_t cap = 0;
  CHECK_OK(wx_capacity(t.get(), &cap));
  CHECK_MSG(cap >= 100000, "capacity %llu after resize(100000)", (unsigned long long)cap);
  expect_found(io, t.get(), keys, vals, true, "after resize up");
  CHECK_OK(wx_resize(t.get(), 3000));
  CHECK(t.size() == 3000);
  expect_found(io, t.get(), keys, vals, true, "after resize to size");
  CHECK_OK(wx_clear(t.get()));
  CHECK(t.size() == 0);
  expect_found(io, t.get(), keys, vals, false, "after clear");
  std::vector<uint32_t> dk, dv;
  CHECK_OK(io.retrieve_all(t.get(), dk, dv));
  CHECK(dk.empty());
  std::vector<uint8_t> out(keys.size(), 0);
  CHECK_OK(io.insert(t.get(), keys.data(), vals.data(), keys.size(), out.data()));
  for (uint8_t o : out) CHECK(o == WX_OUT_INSERTED);
  expect_found(io, t.get(), keys, vals, true, "after clear and re-insert");
  // retrieve_all with too small an array: INVALID_ARGUMENT, count = size, nothing written.
  uint64_t count = 0;
  std::vector<uint32_t> small_k(10, 7), small_v(10, 7);
  if (p.mem == WX_MEM_HOST) {
    CHECK_STATUS(wx_retrieve_all(t.get(), small_k.data(), small_v.data(), 10, &count, WX_MEM_HOST, nullptr),
                 WX_ERR_INVALID_ARGUMENT);
    CHECK(count == 3000);
    for (int j = 0; j < 10; ++j) CHECK(small_k[j] == 7 && small_v[j] == 7);
  }
}

// Argument errors on a live table of this kind: each returns a status, sets a message, never crashes.
inline void edge_argument_errors(const EdgeParams& p) {
  Table t(make_config(p.kind, 1024));
  wx_table* tb = t.get();
  uint32_t k[4] = {1, 2, 3, 4}, v[4] = {0, 0, 0, 0};
  uint8_t o[4] = {0, 0, 0, 0}, ops[4] = {0, 0, 0, 0};
  uint64_t c = 0;
  const int32_t H = WX_MEM_HOST;
  auto bad = [](int32_t st, const char* what) {
    CHECK_MSG(st == WX_ERR_INVALID_ARGUMENT, "%s: %s", what, wx_status_name(st));
    CHECK_MSG(wx_last_error() && wx_last_error()[0], "%s: no message", what);
  };
  bad(wx_insert(tb, nullptr, v, 4, o, H, nullptr), "insert null keys");
  bad(wx_insert_or_assign(tb, nullptr, v, 4, o, H, nullptr), "insert_or_assign null keys");
  bad(wx_find(tb, nullptr, v, 4, 0, H, nullptr), "find null keys");
  bad(wx_find(tb, k, nullptr, 4, 0, H, nullptr), "find null values");
  bad(wx_contains(tb, nullptr, o, 4, H, nullptr), "contains null keys");
  bad(wx_contains(tb, k, nullptr, 4, H, nullptr), "contains null found");
  bad(wx_erase(tb, nullptr, 4, o, H, nullptr), "erase null keys");
  bad(wx_batch(tb, nullptr, k, v, 4, o, H, nullptr), "batch null ops");
  bad(wx_batch(tb, ops, nullptr, v, 4, o, H, nullptr), "batch null keys");
  bad(wx_batch(tb, ops, k, nullptr, 4, o, H, nullptr), "batch null values");
  for (int32_t m : {-1, 2, 7}) {
    bad(wx_insert(tb, k, v, 4, o, m, nullptr), "insert bad mem flag");
    bad(wx_find(tb, k, v, 4, 0, m, nullptr), "find bad mem flag");
    bad(wx_batch(tb, ops, k, v, 4, o, m, nullptr), "batch bad mem flag");
    bad(wx_retrieve_all(tb, k, v, 4, &c, m, nullptr), "retrieve_all bad mem flag");
  }
  bad(wx_retrieve_all(tb, k, v, 4, nullptr, H, nullptr), "retrieve_all null count");
  bad(wx_size(tb, nullptr), "size null out");
  bad(wx_stats_get(tb, nullptr), "stats null out");
  bad(wx_load_factor(tb, nullptr), "load_factor null out");
  bad(wx_capacity(tb, nullptr), "capacity null out");
  if (p.kind != WX_KIND_CPU) {
    // Host arrays flagged as device memory are refused by a GPU table (not read as device pointers)...
    bad(wx_insert(tb, k, v, 4, o, WX_MEM_DEVICE, nullptr), "GPU table given host arrays flagged device");
    bad(wx_find(tb, k, v, 4, 0, WX_MEM_DEVICE, nullptr), "GPU find given host arrays flagged device");
    // ... and real device buffers are refused by a CPU table.
    DeviceBuf dbuf;
    void* d = dbuf.reserve(64);
    Table cpu(make_config(WX_KIND_CPU, 64));
    bad(wx_insert(cpu.get(), d, d, 4, nullptr, WX_MEM_DEVICE, nullptr), "CPU table given device buffers");
    bad(wx_batch(cpu.get(), static_cast<uint8_t*>(d), d, d, 4, static_cast<uint8_t*>(d), WX_MEM_DEVICE, nullptr),
        "CPU batch given device buffers");
    CHECK(cpu.size() == 0);
  }
  CHECK(t.size() == 0);  // nothing above was applied
}

// Several host threads call one table at once, in rounds: in round c every thread makes its call c
// (the library serialises the calls), then all wait at a barrier before round c + 1. Each call's
// start and end are ticks of one atomic counter, so the checker (check_history) orders calls that
// did not overlap in real time — every round after the one before it, and any call that began after
// every earlier one had ended — and checks calls that overlapped as concurrent; keys outside every
// call must stay absent, value slots as wixlib.h allows.
inline void edge_threads(const EdgeParams& p) {
  const int threads = 4, calls = 6;
  const uint64_t n = 3000, range = 1001;
  Table t(make_config(p.kind, 2048));
  struct Call { std::vector<uint8_t> ops, out; std::vector<uint32_t> keys, vin, vout; uint64_t start = 0, end = 0; };
  std::vector<Call> log(threads * calls);
  std::atomic<uint64_t> clock{0};
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0, generation = 0;
  auto barrier = [&]() {
    std::unique_lock<std::mutex> lock(mu);
    const int g = generation;
    if (++arrived == threads) {
      arrived = 0;
      ++generation;
      cv.notify_all();
    } else {
      cv.wait(lock, [&]() { return generation != g; });
    }
  };
  std::vector<std::thread> pool;
  for (int th = 0; th < threads; ++th) {
    pool.emplace_back([&, th]() {
      Rng rng(sub_seed(p.seed, 100 + th));
      Io io(p.mem);
      for (int c = 0; c < calls; ++c) {
        Call& r = log[th * calls + c];
        r.ops.resize(n); r.out.assign(n, 0); r.keys.resize(n); r.vout.resize(n);
        const int kind = c % 3;  // 0: wx_batch, 1: wx_insert, 2: wx_erase
        for (uint64_t j = 0; j < n; ++j) {
          r.keys[j] = static_cast<uint32_t>(rng.below(range));
          const uint64_t x = rng.below(4);
          r.ops[j] = kind == 1 ? WX_OP_INSERT : kind == 2 ? WX_OP_ERASE : static_cast<uint8_t>(x);
          r.vout[j] = (static_cast<uint32_t>(th) << 28) | static_cast<uint32_t>(c * n + j);
        }
        r.vin = r.vout;
        r.start = clock.fetch_add(1);
        const int32_t st = kind == 0 ? io.batch(t.get(), r.ops.data(), r.keys.data(), r.vout.data(), n, r.out.data())
                         : kind == 1 ? io.insert(t.get(), r.keys.data(), r.vout.data(), n, r.out.data())
                                     : io.erase(t.get(), r.keys.data(), n, r.out.data());
        r.end = clock.fetch_add(1);
        CHECK_MSG(st == WX_OK, "thread %d call %d: %s", th, c, wx_status_name(st));
        barrier();
      }
    });
  }
  for (auto& th : pool) th.join();
  std::vector<CallRecord> history;
  for (const Call& r : log) {
    CallRecord c;
    c.rec.ops = r.ops.data(); c.rec.keys = r.keys.data(); c.rec.values_before = r.vin.data();
    c.rec.values_after = r.vout.data(); c.rec.outcomes = r.out.data(); c.rec.n = n;
    c.start = r.start; c.end = r.end;
    history.push_back(c);
  }
  Io io(p.mem);
  MapState before, after;
  std::vector<uint32_t> dk, dv;
  CHECK_OK(io.retrieve_all(t.get(), dk, dv));
  for (size_t j = 0; j < dk.size(); ++j) CHECK_MSG(after.map.emplace(dk[j], dv[j]).second, "key %u stored twice", dk[j]);
  Verdict v = check_history(history, before, after);
  if (!v.ok) { print_verdict(v, "calls from several threads"); std::exit(1); }
  // The barrier makes every round a cut at least.
  CHECK_MSG(v.steps >= static_cast<uint64_t>(calls), "%d rounds of calls formed only %llu real-time steps", calls,
            (unsigned long long)v.steps);
  std::printf("  threads: %d calls in %llu real-time steps\n", threads * calls, (unsigned long long)v.steps);
  CHECK(t.size() == after.map.size());
}

// With a minimum load factor set (Hive shrinks; others may ignore it), erasing most keys keeps the
// rest findable and the table usable.
inline void edge_shrink(const EdgeParams& p) {
  using namespace edge_detail;
  Rng rng(sub_seed(p.seed, 46));
  Io io(p.mem);
  wx_config c = make_config(p.kind, 1024);
  c.min_load_factor = 0.25;
  Table t(c);
  const uint64_t n = 1 << 16, keep = 1000;
  std::vector<uint32_t> keys = distinct_keys(rng, n);
  std::vector<uint32_t> vals = values_for(n, 3);
  CHECK_OK(io.insert(t.get(), keys.data(), vals.data(), n, nullptr));
  const uint64_t grown = t.stats().capacity;
  for (uint64_t pos = keep; pos < n; pos += 8192) {
    const uint64_t m = std::min<uint64_t>(8192, n - pos);
    std::vector<uint8_t> out(m, 0);
    CHECK_OK(io.erase(t.get(), keys.data() + pos, m, out.data()));
    for (uint8_t o : out) CHECK(o == WX_OUT_ERASED);
  }
  CHECK(t.size() == keep);
  std::vector<uint32_t> kept(keys.begin(), keys.begin() + keep), kept_v(vals.begin(), vals.begin() + keep);
  std::vector<uint32_t> gone(keys.begin() + keep, keys.end()), gone_v(vals.begin() + keep, vals.end());
  expect_found(io, t.get(), kept, kept_v, true, "after mass erase");
  expect_found(io, t.get(), gone, gone_v, false, "erased keys after mass erase");
  wx_stats s = t.stats();
  std::printf("  shrink: slots %llu -> %llu after erasing to %llu keys (resizes=%llu)\n", (unsigned long long)grown,
              (unsigned long long)s.capacity, (unsigned long long)keep, (unsigned long long)s.resizes);
  CHECK_OK(io.insert(t.get(), gone.data(), gone_v.data(), gone.size(), nullptr));
  CHECK(t.size() == n);
  expect_found(io, t.get(), keys, vals, true, "after re-insert");
}

inline void run_edge_tests(const EdgeParams& p) {
  std::printf("[edge] kind=%s mem=%s\n", kind_name(p.kind), mem_name(p.mem));
  std::fflush(stdout);
  edge_reserved_keys(p);
  edge_boundary_keys(p);
  edge_duplicates(p);
  edge_batch_sizes(p);
  edge_resize_clear(p);
  edge_full_never(p);
  edge_grow_auto(p);
  edge_shrink(p);
  edge_threads(p);
  if (p.mem == WX_MEM_HOST) edge_argument_errors(p);
  std::printf("  ok [t=%.1fs]\n", elapsed_s());
  std::fflush(stdout);
}

}  // namespace wxsuite
