// Hive with 64-bit keys and 64-bit values (16-byte slots), on the backend directly:
//  1. oracle runs at load factor 0.5 / 0.8 / 0.9 / 0.95 (fill, then mixed churn batches checked per
//     element), then retrieve_all == oracle;
//  2. the key domain: keys above 2^32, keys whose low half is 0xFFFFFFFF / 0xFFFFFFFE, keys whose
//     high half is all ones, values 0 and all ones; reserved keys rejected (INVALID_KEY, the others of
//     the batch done); empty batches; the full 64-bit not_found value; pre-hashed calls UNSUPPORTED;
//  3. duplicates in one batch: exactly one INSERTED per key, never two copies;
//  4. hot keys in concurrent mixed batches (on a full and on a half-empty table): per key, presence
//     = before + INSERTED - ERASED and every found value was written for that key (catches torn or
//     foreign values);
//  5. a C API smoke run (host arrays through the staging copies, device arrays, retrieve_all both ways).
// Growth, shrink, stash and resizes: gpu_hive_wide_resize.cu. validate() (every structural invariant)
// runs after each step. WIXLIB_SMALL=1: small sizes (sanitizer).
#include <algorithm>
#include <map>

#include "gpu_hive_util.cuh"

using namespace hivetest;

namespace {

const bool g_small = small_run();

// One mixed batch whose keys are distinct (so the oracle is sequential), checked element by element
// and applied to the oracle. new_keys supplies absent keys. FULL (GROW_NEVER tables) leaves the key
// absent. Returns the FULL count.
uint64_t churn_batch(Ops64& o, Oracle& oracle, std::mt19937_64& rng, uint64_t m, std::vector<uint64_t>& new_keys,
                     const char* where) {
  std::vector<uint64_t> present;
  present.reserve(oracle.size());
  for (auto& kv : oracle) present.push_back(kv.first);
  std::unordered_set<uint64_t> used;
  std::vector<uint8_t> ops;
  std::vector<uint64_t> keys, vals;
  for (uint64_t i = 0; i < m; ++i) {
    const uint32_t r = rng() % 100;
    // about as many keys come (fresh inserts/assigns: 0.4 x 0.5) as go (present erases: 0.6 x 0.35)
    const uint8_t op = r < 30 ? WX_OP_INSERT : r < 50 ? WX_OP_INSERT_OR_ASSIGN : r < 85 ? WX_OP_ERASE : WX_OP_FIND;
    const bool fresh = (r % 5 < 2 || present.empty()) && !new_keys.empty();
    uint64_t k;
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
    const uint64_t v = rng();
    vals.push_back(r % 17 == 0 ? ~0ull : r % 19 == 0 ? 0ull : v);  // all-ones and zero values too
  }
  const uint64_t n = keys.size();
  Dev<uint8_t> dops(ops);
  Dev<uint64_t> dk(keys), dv(vals);
  auto out = o.mixed(dops, dk, dv);
  auto hv = dv.get();
  uint64_t full = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t k = keys[i];
    const bool had = oracle.count(k) != 0;
    switch (ops[i]) {
      case WX_OP_INSERT:
        if (had) {
          CHECK_MSG(out[i] == WX_OUT_PRESENT, "%s: insert of present %llx gave %d", where, (unsigned long long)k, out[i]);
        } else if (out[i] == WX_OUT_FULL) {
          ++full;
        } else {
          CHECK_MSG(out[i] == WX_OUT_INSERTED, "%s: insert of new %llx gave %d", where, (unsigned long long)k, out[i]);
          oracle[k] = vals[i];
        }
        break;
      case WX_OP_INSERT_OR_ASSIGN:
        if (!had && out[i] == WX_OUT_FULL) {
          ++full;
        } else {
          CHECK_MSG(out[i] == (had ? WX_OUT_ASSIGNED : WX_OUT_INSERTED), "%s: assign of %llx gave %d", where,
                    (unsigned long long)k, out[i]);
          oracle[k] = vals[i];
        }
        break;
      case WX_OP_ERASE:
        CHECK_MSG(out[i] == (had ? WX_OUT_ERASED : WX_OUT_NOT_FOUND), "%s: erase of %llx gave %d", where,
                  (unsigned long long)k, out[i]);
        oracle.erase(k);
        break;
      default:
        CHECK_MSG(out[i] == (had ? WX_OUT_FOUND : WX_OUT_NOT_FOUND), "%s: find of %llx gave %d", where,
                  (unsigned long long)k, out[i]);
        if (had)
          CHECK_MSG(hv[i] == oracle[k], "%s: find of %llx = %llx, want %llx", where, (unsigned long long)k,
                    (unsigned long long)hv[i], (unsigned long long)oracle[k]);
        break;
    }
  }
  CHECK_MSG(o.t.size() == oracle.size(), "%s: size %llu, oracle %zu", where, (unsigned long long)o.t.size(),
            oracle.size());
  return full;
}

// 1. Fill a GROW_NEVER table to the load factor, then churn at about that load factor.
void oracle_at_load(double lf) {
  Stream st;
  HiveTable64 t(config64(g_small ? 1 << 12 : 1 << 20, 1.0, 0.0, WX_GROW_NEVER));
  Ops64 o{t, st.s};
  const uint64_t n = static_cast<uint64_t>(lf * t.capacity());
  auto keys = unique_keys64(n + n / 2 + 4096, 10 + static_cast<uint32_t>(lf * 100));
  std::vector<uint64_t> fresh(keys.begin() + n, keys.end());
  keys.resize(n);
  std::mt19937_64 rng(static_cast<uint64_t>(lf * 1000));
  std::vector<uint64_t> vals(n);
  for (auto& v : vals) v = rng();
  Oracle oracle;
  const uint64_t step = std::max<uint64_t>(n / 4, 1);
  for (uint64_t off = 0; off < n; off += step) {  // a few batches: later ones meet fuller buckets
    const uint64_t m = std::min(step, n - off);
    Dev<uint64_t> dk(std::vector<uint64_t>(keys.begin() + off, keys.begin() + off + m));
    Dev<uint64_t> dv(std::vector<uint64_t>(vals.begin() + off, vals.begin() + off + m));
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
  // absent keys: not found, full 64-bit not_found value
  Dev<uint64_t> dabsent(std::vector<uint64_t>(fresh.begin(), fresh.begin() + std::min<size_t>(fresh.size(), 4096)));
  for (uint64_t x : o.find(dabsent)) CHECK(x == 0xFEDCBA9876543210ull);
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

// 2. The key domain, reserved keys, empty batches, not_found, pre-hashed calls.
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
  // a 32-bit Hive table refuses a 64-bit config and vice versa
  bool refused = false;
  try {
    HiveTable bad(config64(16, 0.9));
  } catch (const wx::Error& ex) {
    refused = ex.status() == WX_ERR_UNSUPPORTED;
  }
  CHECK(refused);
  t.clear();
  CHECK(t.size() == 0);
  for (uint8_t x : o.contains(dk)) CHECK(x == 0);
  VALID(t);
  std::printf("key domain ok\n");
}

// 3. Many copies of few keys in one insert batch: one INSERTED per key, the winner's value stored.
void same_key_batch() {
  Stream st;
  HiveTable64 t(config64(1 << 12, 0.9));
  Ops64 o{t, st.s};
  const uint64_t n = g_small ? 1 << 14 : 1 << 18;
  auto distinct = unique_keys64(3000, 20);
  std::vector<uint64_t> keys(n), vals(n);
  std::mt19937_64 rng(3);
  for (uint64_t i = 0; i < n; ++i) {
    keys[i] = distinct[rng() % distinct.size()];
    vals[i] = (i << 32) ^ keys[i];
  }
  Dev<uint64_t> dk(keys), dv(vals);
  Dev<uint8_t> out(n);
  o.insert(dk, &dv, &out);
  auto ho = out.get();
  std::unordered_map<uint64_t, int> inserted;
  Oracle oracle;
  for (uint64_t i = 0; i < n; ++i) {
    CHECK(ho[i] == WX_OUT_INSERTED || ho[i] == WX_OUT_PRESENT);
    if (ho[i] == WX_OUT_INSERTED) {
      inserted[keys[i]]++;
      oracle[keys[i]] = vals[i];
    }
  }
  std::unordered_set<uint64_t> all(keys.begin(), keys.end());
  for (auto& [k, c] : inserted) CHECK_MSG(c == 1, "key %llx inserted %d times", (unsigned long long)k, c);
  CHECK(inserted.size() == all.size());
  VALID(t);
  same_contents(o, oracle, "same-key batch");
  // the same with insert_or_assign: the stored value is one of that key's values
  for (uint64_t i = 0; i < n; ++i) vals[i] = (i << 32) ^ keys[i] ^ 0xF0F0ull;
  dv.put(vals);
  o.insert(dk, &dv, &out, true);
  for (uint8_t x : out.get()) CHECK(x == WX_OUT_ASSIGNED);
  for (auto& [k, v] : o.dump()) {
    const uint64_t i = (v ^ k ^ 0xF0F0ull) >> 32;
    CHECK_MSG(i < n && keys[i] == k && ((v ^ k ^ 0xF0F0ull) & 0xFFFFFFFFull) == 0,
              "key %llx holds %llx, not one of its assigned values", (unsigned long long)k, (unsigned long long)v);
  }
  VALID(t);
  std::printf("same-key batch ok (%zu keys)\n", all.size());
}

// 4. Hot keys: all four ops on a few keys in one concurrent mixed batch, several rounds.
void hot_keys_mixed(double fill_lf) {
  Stream st;
  HiveTable64 t(config64(g_small ? 1 << 11 : 1 << 14, 1.0, 0.0, WX_GROW_NEVER));
  Ops64 o{t, st.s};
  const uint64_t fill = static_cast<uint64_t>(fill_lf * t.capacity());
  auto base = unique_keys64(fill, 30);
  Dev<uint64_t> dbase(base);
  o.insert(dbase, &dbase, nullptr);
  const uint64_t nhot = 64, n = g_small ? 1 << 13 : 1 << 18;
  const std::unordered_set<uint64_t> base_set(base.begin(), base.end());
  std::vector<uint64_t> hot;  // first half absent, second half present before
  for (uint64_t k : unique_keys64(nhot * 4, 31))
    if (hot.size() < nhot * 2 && !base_set.count(k)) hot.push_back(k);
  CHECK(hot.size() == nhot * 2);
  std::vector<uint64_t> pre(hot.begin() + nhot, hot.end());
  Dev<uint64_t> dpre(pre);
  o.insert(dpre, &dpre, nullptr);  // value = key
  const Oracle initial = o.dump();  // at 0.98 some base keys may not have fit (GROW_NEVER)
  std::mt19937_64 rng(9);
  const int rounds = g_small ? 2 : 6;
  for (int round = 0; round < rounds; ++round) {
    auto snapshot = o.dump();
    std::vector<uint8_t> ops(n);
    std::vector<uint64_t> keys(n), vals(n);
    for (uint64_t i = 0; i < n; ++i) {
      ops[i] = static_cast<uint8_t>(rng() % 4);
      keys[i] = hot[rng() % hot.size()];
      // a value names its writer: (round, i) in the high bits, the key's low half below
      vals[i] = ops[i] == WX_OP_FIND ? ~0ull : (uint64_t(round) << 56) | (i << 32) | (keys[i] & 0xFFFFFFFFull);
    }
    Dev<uint8_t> dops(ops);
    Dev<uint64_t> dk(keys), dv(vals);
    auto out = o.mixed(dops, dk, dv);
    auto hv = dv.get();
    std::unordered_map<uint64_t, std::unordered_set<uint64_t>> written;
    for (uint64_t i = 0; i < n; ++i)
      if (ops[i] == WX_OP_INSERT || ops[i] == WX_OP_INSERT_OR_ASSIGN) written[keys[i]].insert(vals[i]);
    auto was_written = [&](uint64_t k, uint64_t v) {
      auto s = snapshot.find(k);
      if (s != snapshot.end() && s->second == v) return true;
      auto w = written.find(k);
      return w != written.end() && w->second.count(v) != 0;
    };
    std::map<uint64_t, long> delta;
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
      if (ops[i] == WX_OP_FIND && x == WX_OUT_FOUND)
        CHECK_MSG(was_written(keys[i], hv[i]), "round %d: find of %llx returned %llx, never written for it", round,
                  (unsigned long long)keys[i], (unsigned long long)hv[i]);
    }
    auto now = o.dump();
    for (uint64_t k : hot) {
      const long before = snapshot.count(k) ? 1 : 0, after = now.count(k) ? 1 : 0;
      CHECK_MSG(before + delta[k] == after, "key %llx: before %ld, inserted-erased %ld, after %ld",
                (unsigned long long)k, before, delta[k], after);
      if (after)
        CHECK_MSG(was_written(k, now[k]), "key %llx holds %llx, never written for it", (unsigned long long)k,
                  (unsigned long long)now[k]);
    }
    for (auto& [k, v] : now)  // the cold keys are untouched
      if (!written.count(k) && !snapshot.count(k)) CHECK_MSG(false, "key %llx appeared from nowhere", (unsigned long long)k);
    for (uint64_t k : base) {  // the cold keys are exactly as they were
      const bool was = initial.count(k) != 0;
      CHECK_MSG(now.count(k) == (was ? 1u : 0u) && (!was || now[k] == k), "cold key %llx changed",
                (unsigned long long)k);
    }
    VALID(t);
  }
  std::printf("hot keys mixed ok (fill %.2f)\n", fill_lf);
}

// 5. Through the C API (host arrays go through the staging copies, which must use 8-byte widths;
// device arrays go straight to the table): insert, find, batch, retrieve_all, both memory kinds.
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

}  // namespace

int main() {
  require_gpu();
  key_domain();
  c_api_smoke();
  for (double lf : {0.5, 0.8, 0.9, 0.95}) oracle_at_load(lf);
  same_key_batch();
  hot_keys_mixed(0.98);
  hot_keys_mixed(0.5);
  std::printf("gpu_hive_wide: all passed\n");
  return 0;
}
