// GLHT with 64-bit keys and 64-bit values (DESIGN.md "Wide tables"), driving the backend directly
// with device buffers: oracle runs at LF 0.5 / 0.8 / 0.9 ending in retrieve_all == oracle; keys above
// 2^32 and keys whose low half is a 32-bit sentinel; crafted keys with one home and one low half (only
// the high bits tell them apart) through neighbourhood, stash and FULL; reserved keys; duplicates and
// empty batches; WX_GROW_NEVER → FULL with the table intact; growth, resize, clear; lookups racing
// displacements; concurrent mixed batches (hot keys [0,100], [0,1000] and a wide range) checked per key
// (some order of the key's ops explains every outcome and value; values are 64-bit and unique per
// op, so a torn or foreign value fails); the invariant-check kernel after every step; the C API with
// host and device arrays.
// Env: WIXLIB_SMALL=1 → small sizes (compute-sanitizer); WIXLIB_SEED=n replays a run.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "check.hpp"
#include "common/table.hpp"
#include "glht/glht_table.cuh"
#include "suite/env.hpp"

using wx::Batch;
using wx::BatchResult;
using wx::glht::GlhtTableWide;
using U64s = std::vector<uint64_t>;
using Bytes = std::vector<uint8_t>;
using Oracle = std::unordered_map<uint64_t, uint64_t>;

namespace {

#define CUDA_OK(call) CHECK_MSG((call) == cudaSuccess, "%s", cudaGetErrorString(cudaGetLastError()))

template <typename T>
struct Dev {
  T* p = nullptr;
  size_t n = 0;
  explicit Dev(size_t n_) : n(n_) { CUDA_OK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T))); }
  explicit Dev(const std::vector<T>& v) : Dev(v.size()) {
    CUDA_OK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~Dev() { cudaFree(p); }
  std::vector<T> down() const {
    std::vector<T> v(n);
    CUDA_OK(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
};

cudaStream_t g_stream = nullptr;
uint64_t g_seed = 1;
constexpr uint64_t kNF = 0xDEADBEEFCAFEF00Dull;  // find's not_found value (all 64 bits used)
constexpr uint64_t kEmpty64 = WX_KEY64_EMPTY, kTomb64 = WX_KEY64_TOMBSTONE;

std::unique_ptr<GlhtTableWide> make(uint64_t capacity, double lf, int grow) {
  wx_config c{};
  c.kind = WX_KIND_GLHT;
  c.key_bits = 64;
  c.value_bits = 64;
  c.device = 0;
  c.capacity = capacity;
  c.max_load_factor = lf;
  c.grow = grow;
  wx::Table* t = wx::make_glht_table(c);
  auto* w = dynamic_cast<GlhtTableWide*>(t);
  CHECK(w != nullptr);
  return std::unique_ptr<GlhtTableWide>(w);
}

void check_clean(GlhtTableWide& t, const std::string& where, int64_t expect_keys = -1) {
  uint64_t seen = 0;
  const uint64_t errors = t.check_invariants(&seen);
  CHECK_MSG(errors == 0, "%s: %llu invariant violations / device errors", where.c_str(), (unsigned long long)errors);
  CHECK_MSG(seen == t.size(), "%s: %llu keys in slots, size() = %llu", where.c_str(), (unsigned long long)seen,
            (unsigned long long)t.size());
  if (expect_keys >= 0)
    CHECK_MSG(seen == (uint64_t)expect_keys, "%s: %llu keys, expected %lld", where.c_str(), (unsigned long long)seen,
              (long long)expect_keys);
}

// ---- bulk wrappers (device arrays in, host vectors out). which: 0 insert, 1 assign, 2 erase.
Bytes op_outcomes(GlhtTableWide& t, int which, const U64s& keys, const U64s* values, BatchResult* res = nullptr) {
  Dev<uint64_t> k(keys);
  std::unique_ptr<Dev<uint64_t>> v;
  if (values) v.reset(new Dev<uint64_t>(*values));
  Dev<uint8_t> o(keys.size());
  Batch b;
  b.keys = k.p;
  b.values_in = v ? v->p : nullptr;
  b.outcomes = o.p;
  b.n = keys.size();
  b.stream = g_stream;
  const BatchResult r = which == 0 ? t.insert(b) : which == 1 ? t.insert_or_assign(b) : t.erase(b);
  if (res) *res = r;
  return o.down();
}
Bytes insert(GlhtTableWide& t, const U64s& k, const U64s& v, BatchResult* r = nullptr) { return op_outcomes(t, 0, k, &v, r); }
Bytes assign(GlhtTableWide& t, const U64s& k, const U64s& v) { return op_outcomes(t, 1, k, &v); }
Bytes erase(GlhtTableWide& t, const U64s& k, BatchResult* r = nullptr) { return op_outcomes(t, 2, k, nullptr, r); }
U64s find(GlhtTableWide& t, const U64s& keys, BatchResult* res = nullptr) {
  Dev<uint64_t> k(keys), v(keys.size());
  Batch b;
  b.keys = k.p;
  b.values_out = v.p;
  b.n = keys.size();
  b.not_found = kNF;
  b.stream = g_stream;
  const BatchResult r = t.find(b);
  if (res) *res = r;
  return v.down();
}
Bytes contains(GlhtTableWide& t, const U64s& keys) {
  Dev<uint64_t> k(keys);
  Dev<uint8_t> o(keys.size());
  Batch b;
  b.keys = k.p;
  b.outcomes = o.p;
  b.n = keys.size();
  b.stream = g_stream;
  t.contains(b);
  return o.down();
}
Bytes mixed(GlhtTableWide& t, const Bytes& ops, const U64s& keys, U64s& values, BatchResult* res = nullptr) {
  Dev<uint8_t> op(ops), o(keys.size());
  Dev<uint64_t> k(keys), v(values);
  Batch b;
  b.ops = op.p;
  b.keys = k.p;
  b.values_in = v.p;
  b.values_out = v.p;
  b.outcomes = o.p;
  b.n = keys.size();
  b.stream = g_stream;
  const BatchResult r = t.batch(b);
  if (res) *res = r;
  values = v.down();
  return o.down();
}

size_t count_eq(const Bytes& v, uint8_t x) { return (size_t)std::count(v.begin(), v.end(), x); }

// A non-reserved 64-bit key of one of four shapes: any 64 bits, below 2^32, high half set with low
// half 0xFFFFFFFF, high half set with low half 0xFFFFFFFE (the low halves are the 32-bit sentinels).
uint64_t wide_key(wxsuite::Rng& r) {
  for (;;) {
    const uint64_t x = r.next();
    uint64_t k;
    switch (x & 3) {
      case 0: k = r.next(); break;
      case 1: k = r.next() >> 32; break;
      case 2: k = (r.next() & 0xFFFFFFFF00000000ull) | 0xFFFFFFFFull; break;
      default: k = (r.next() & 0xFFFFFFFF00000000ull) | 0xFFFFFFFEull; break;
    }
    if (k < kTomb64) return k;
  }
}

U64s unique_keys(wxsuite::Rng& r, size_t n, const std::unordered_set<uint64_t>* avoid = nullptr) {
  std::unordered_set<uint64_t> seen;
  U64s out;
  out.reserve(n);
  while (out.size() < n) {
    const uint64_t k = wide_key(r);
    if (avoid && avoid->count(k)) continue;
    if (seen.insert(k).second) out.push_back(k);
  }
  return out;
}

void expect_found(GlhtTableWide& t, const Oracle& oracle, const std::string& where) {
  U64s keys, want;
  for (auto& kv : oracle) keys.push_back(kv.first), want.push_back(kv.second);
  const U64s got = find(t, keys);
  for (size_t i = 0; i < keys.size(); ++i)
    CHECK_MSG(got[i] == want[i], "%s: key %llx value %llx expected %llx", where.c_str(), (unsigned long long)keys[i],
              (unsigned long long)got[i], (unsigned long long)want[i]);
}

// size == oracle, retrieve_all == oracle (no duplicates), invariants clean.
void expect_exact(GlhtTableWide& t, const Oracle& oracle, const std::string& where) {
  CHECK_MSG(t.size() == oracle.size(), "%s: size %llu, oracle %zu", where.c_str(), (unsigned long long)t.size(),
            oracle.size());
  const uint64_t n = t.size();
  Dev<uint64_t> k(n), v(n);
  const uint64_t got = t.retrieve_all(k.p, v.p, g_stream);
  CHECK_MSG(got == n, "%s: retrieve_all returned %llu of %llu", where.c_str(), (unsigned long long)got,
            (unsigned long long)n);
  const U64s ks = k.down(), vs = v.down();
  std::unordered_set<uint64_t> dup;
  for (size_t i = 0; i < n; ++i) {
    auto it = oracle.find(ks[i]);
    CHECK_MSG(it != oracle.end(), "%s: retrieved key %llx not in oracle", where.c_str(), (unsigned long long)ks[i]);
    CHECK_MSG(it->second == vs[i], "%s: key %llx value %llx expected %llx", where.c_str(), (unsigned long long)ks[i],
              (unsigned long long)vs[i], (unsigned long long)it->second);
    CHECK_MSG(dup.insert(ks[i]).second, "%s: key %llx retrieved twice", where.c_str(), (unsigned long long)ks[i]);
  }
  check_clean(t, where, (int64_t)n);
}

// ------------------------------------------------------------------------------------------------
// Oracle run: fill to `lf` of the homes, then rounds of insert / assign / erase / find / contains
// batches (with duplicates and absent keys) compared element by element with a host map. No growth,
// so the load factor is the one asked for; a FULL insert (rare: stash bucket full) is an absent key.
void test_oracle(size_t n, double lf, uint64_t step) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, step));
  auto t = make(n, lf, WX_GROW_NEVER);
  const uint64_t nb = t->homes();
  const size_t fill = (size_t)(lf * (double)nb);
  U64s pool = unique_keys(r, fill + fill / 2);
  U64s in(pool.begin(), pool.begin() + fill), vals(fill);
  Oracle oracle;
  for (size_t i = 0; i < fill; ++i) vals[i] = r.next(), oracle[in[i]] = vals[i];
  BatchResult res;
  Bytes o = insert(*t, in, vals, &res);
  const size_t placed = count_eq(o, WX_OUT_INSERTED);
  CHECK_MSG(placed + res.full == fill && count_eq(o, WX_OUT_FULL) == res.full && res.invalid == 0,
            "LF %.1f fill: %zu inserted, %llu full of %zu", lf, placed, (unsigned long long)res.full, fill);
  CHECK_MSG(placed >= fill - fill / 1000, "LF %.1f fill: only %zu of %zu placed", lf, placed, fill);
  for (size_t i = 0; i < fill; ++i)
    if (o[i] != WX_OUT_INSERTED) oracle.erase(in[i]);
  CHECK(t->homes() == nb);
  const std::string where = "oracle LF " + std::to_string(lf);
  expect_exact(*t, oracle, where + " fill");
  for (int round = 0; round < 4; ++round) {
    // A batch of random ops over the pool (present and absent keys, repeats allowed) per kind.
    const size_t m = fill / 4 + 1;
    U64s k(m), v(m);
    for (size_t i = 0; i < m; ++i) k[i] = pool[r.below(pool.size())], v[i] = r.next();
    const int kind = round % 4;
    if (kind == 0 || kind == 1) {  // erase, then re-insert; a key may repeat within a batch
      // Which copy of a repeated key gets ERASED / INSERTED is up to the kernel: check per key.
      std::unordered_map<uint64_t, std::vector<size_t>> copies;
      for (size_t i = 0; i < m; ++i) copies[k[i]].push_back(i);
      o = erase(*t, k);
      for (auto& [key, idx] : copies) {
        const bool had = oracle.erase(key) > 0;
        size_t erased = 0;
        for (size_t i : idx) {
          CHECK_MSG(o[i] == WX_OUT_ERASED || o[i] == WX_OUT_NOT_FOUND, "%s erase: key %llx outcome %d", where.c_str(),
                    (unsigned long long)key, o[i]);
          erased += o[i] == WX_OUT_ERASED;
        }
        CHECK_MSG(erased == (had ? 1u : 0u), "%s erase: key %llx erased %zu times (present before: %d)", where.c_str(),
                  (unsigned long long)key, erased, (int)had);
      }
      check_clean(*t, where + " erase", (int64_t)oracle.size());
      o = insert(*t, k, v);  // every key of the batch is absent now
      for (auto& [key, idx] : copies) {
        size_t inserted = 0, present = 0;
        for (size_t i : idx) {
          CHECK_MSG(o[i] == WX_OUT_INSERTED || o[i] == WX_OUT_PRESENT || o[i] == WX_OUT_FULL,
                    "%s insert: key %llx outcome %d", where.c_str(), (unsigned long long)key, o[i]);
          if (o[i] == WX_OUT_INSERTED) ++inserted, oracle[key] = v[i];
          present += o[i] == WX_OUT_PRESENT;
        }
        CHECK_MSG(inserted <= 1 && (present == 0 || inserted == 1), "%s insert: key %llx inserted %zu, present %zu",
                  where.c_str(), (unsigned long long)key, inserted, present);
      }
    } else if (kind == 2) {  // insert_or_assign on distinct keys: ASSIGNED / INSERTED
      std::unordered_set<uint64_t> seen;
      U64s dk, dv;
      for (size_t i = 0; i < m; ++i)
        if (seen.insert(k[i]).second) dk.push_back(k[i]), dv.push_back(v[i]);
      o = assign(*t, dk, dv);
      for (size_t i = 0; i < dk.size(); ++i) {
        const bool had = oracle.count(dk[i]) > 0;
        if (!had && o[i] == WX_OUT_FULL) continue;
        CHECK_MSG(o[i] == (had ? WX_OUT_ASSIGNED : WX_OUT_INSERTED), "%s assign: key %llx outcome %d", where.c_str(),
                  (unsigned long long)dk[i], o[i]);
        oracle[dk[i]] = dv[i];
      }
    } else {
      const U64s f = find(*t, k);
      const Bytes c = contains(*t, k);
      for (size_t i = 0; i < m; ++i) {
        auto it = oracle.find(k[i]);
        const uint64_t want = it == oracle.end() ? kNF : it->second;
        CHECK_MSG(f[i] == want, "%s find: key %llx got %llx want %llx", where.c_str(), (unsigned long long)k[i],
                  (unsigned long long)f[i], (unsigned long long)want);
        CHECK(c[i] == (it != oracle.end() ? 1 : 0));
      }
    }
    expect_exact(*t, oracle, where + " round " + std::to_string(round));
  }
  expect_found(*t, oracle, where + " end");
  wx_stats st{};
  t->stats(&st);
  CHECK(st.size == oracle.size() && st.capacity == t->homes() && st.last_kernel_ms > 0.0);
  std::printf("ok oracle LF %.1f (n=%zu homes=%llu displacements=%llu stashed=%llu)\n", lf, fill,
              (unsigned long long)t->homes(), (unsigned long long)st.displacements, (unsigned long long)st.stash_used);
}

// Reserved keys get INVALID_KEY, the others in the batch are done; 32-bit sentinels are plain keys;
// empty batches; the 64-bit not_found value; pre-hashed calls are UNSUPPORTED.
void test_edges() {
  auto t = make(1000, 0.9, WX_GROW_AUTO);
  const U64s k = {0ull, 0xFFFFFFFFull, kEmpty64, 0xFFFFFFFEull, kTomb64, 0x1FFFFFFFFull,
                  kTomb64 - 1, 1ull << 32, 0x80000000FFFFFFFEull, 0x00000001FFFFFFFEull};
  U64s v(k.size());
  for (size_t i = 0; i < k.size(); ++i) v[i] = 0xA5A5A5A500000000ull + i * 0x0101010101ull;
  BatchResult r;
  Bytes o = insert(*t, k, v, &r);
  CHECK(r.invalid == 2 && r.full == 0);
  CHECK(o[2] == WX_OUT_INVALID_KEY && o[4] == WX_OUT_INVALID_KEY);
  CHECK(count_eq(o, WX_OUT_INSERTED) == k.size() - 2);
  U64s f = find(*t, k, &r);
  CHECK(r.invalid == 2);
  for (size_t i = 0; i < k.size(); ++i) CHECK(f[i] == ((i == 2 || i == 4) ? kNF : v[i]));
  const Bytes c = contains(*t, k);
  for (size_t i = 0; i < k.size(); ++i) CHECK(c[i] == ((i == 2 || i == 4) ? 0 : 1));
  // Keys that differ from the stored ones only in the high half are absent.
  const U64s near = {0x2FFFFFFFFull, 0x3FFFFFFFEull, (2ull << 32), 0x00000002FFFFFFFEull};
  f = find(*t, near);
  for (auto x : f) CHECK(x == kNF);
  // A mixed batch with reserved keys: INVALID_KEY there, the rest done.
  Bytes ops = {WX_OP_FIND, WX_OP_ERASE, WX_OP_INSERT, WX_OP_FIND, WX_OP_INSERT_OR_ASSIGN};
  U64s mk = {0x1FFFFFFFFull, kEmpty64, kTomb64, 1ull << 32, 0x00000001FFFFFFFEull};
  U64s mv = {7, 8, 9, 10, 0x123456789ABCDEF0ull};
  o = mixed(*t, ops, mk, mv, &r);
  CHECK(r.invalid == 2 && o[1] == WX_OUT_INVALID_KEY && o[2] == WX_OUT_INVALID_KEY);
  CHECK(o[0] == WX_OUT_FOUND && mv[0] == v[5]);
  CHECK(o[3] == WX_OUT_FOUND && mv[3] == v[7]);
  CHECK(o[4] == WX_OUT_ASSIGNED);
  CHECK(find(*t, {0x00000001FFFFFFFEull})[0] == 0x123456789ABCDEF0ull);
  o = erase(*t, k, &r);
  CHECK(r.invalid == 2 && count_eq(o, WX_OUT_ERASED) == k.size() - 2);
  check_clean(*t, "edges", 0);
  // Empty batches.
  Batch empty;
  empty.stream = g_stream;
  r = t->insert(empty);
  CHECK(r.full == 0 && r.invalid == 0);
  r = t->batch(empty);
  CHECK(r.full == 0 && r.invalid == 0);
  r = t->find(empty);
  CHECK(r.invalid == 0);
  // Pre-hashed calls stay 32-bit.
  int status = WX_OK;
  try {
    uint64_t h = 0;
    t->hash_keys(nullptr, &h, 0, g_stream);
  } catch (const wx::Error& e) {
    status = e.status();
  }
  CHECK(status == WX_ERR_UNSUPPORTED);
  check_clean(*t, "edges empty", 0);
  std::printf("ok edges\n");
}

// Every key several times in one insert batch: exactly one INSERTED per key; erase likewise.
void test_duplicates(size_t distinct, int copies) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 3));
  auto t = make(distinct * 2, 0.8, WX_GROW_AUTO);
  const U64s base = unique_keys(r, distinct);
  U64s k, v;
  for (int c = 0; c < copies; ++c)
    for (auto x : base) k.push_back(x), v.push_back(~x);
  for (size_t i = k.size() - 1; i > 0; --i) {
    const size_t j = r.below(i + 1);
    std::swap(k[i], k[j]);
    std::swap(v[i], v[j]);
  }
  Bytes o = insert(*t, k, v);
  CHECK(count_eq(o, WX_OUT_INSERTED) == distinct && count_eq(o, WX_OUT_PRESENT) == k.size() - distinct);
  std::unordered_set<uint64_t> ins;
  for (size_t i = 0; i < k.size(); ++i)
    if (o[i] == WX_OUT_INSERTED) CHECK(ins.insert(k[i]).second);
  Oracle oracle;
  for (auto x : base) oracle[x] = ~x;
  expect_exact(*t, oracle, "duplicates insert");
  o = erase(*t, k);
  CHECK(count_eq(o, WX_OUT_ERASED) == distinct && count_eq(o, WX_OUT_NOT_FOUND) == k.size() - distinct);
  check_clean(*t, "duplicates erase", 0);
  std::printf("ok duplicates\n");
}

// `count` keys with home `home` in a table of nb homes, all with the same low half `low`: only the
// high 32 bits differ, so only a full 64-bit comparison tells them apart.
U64s keys_with_home(uint64_t home, uint64_t nb, size_t count, uint32_t low) {
  U64s out;
  for (uint64_t hi = 1; out.size() < count && hi < 0xFFFFFFFFull; ++hi) {
    const uint64_t k = (hi << 32) | low;
    if (wx::glht::Wide::home(k, nb) == home) out.push_back(k);
  }
  CHECK(out.size() == count);
  return out;
}

// 80 keys with one home and one low half: 32 in the neighbourhood, 32 in the home's stash bucket,
// 16 FULL (WX_GROW_NEVER); assign, erase, refill; the home at the start and at the padding end; then
// the same with growth (all 80 land).
void test_collisions() {
  for (int last = 0; last < 2; ++last) {
    auto t = make(4096, 0.8, WX_GROW_NEVER);
    const uint64_t nb = t->homes();
    const uint64_t home = last ? nb - 1 : 100;
    const U64s k = keys_with_home(home, nb, 80, last ? 0xFFFFFFFFu : 0xFFFFFFFEu);
    U64s v(k.size());
    for (size_t i = 0; i < k.size(); ++i) v[i] = k[i] ^ 0x0F0F0F0F0F0F0F0Full;
    BatchResult r;
    Bytes o = insert(*t, k, v, &r);
    CHECK_MSG(count_eq(o, WX_OUT_INSERTED) == 64 && r.full == 16 && count_eq(o, WX_OUT_FULL) == 16,
              "inserted %zu full %llu", count_eq(o, WX_OUT_INSERTED), (unsigned long long)r.full);
    Oracle oracle;
    for (size_t i = 0; i < k.size(); ++i)
      if (o[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
    expect_exact(*t, oracle, "collisions full");
    expect_found(*t, oracle, "collisions full");
    wx_stats st{};
    t->stats(&st);
    CHECK_MSG(st.failed_inserts == 16 && st.stash_used == 32, "failed %llu stash %llu",
              (unsigned long long)st.failed_inserts, (unsigned long long)st.stash_used);
    U64s fullk;
    for (size_t i = 0; i < k.size(); ++i)
      if (o[i] == WX_OUT_FULL) fullk.push_back(k[i]);
    for (auto x : find(*t, fullk)) CHECK(x == kNF);
    // insert_or_assign over neighbourhood and stash keys (thread path and warp path).
    U64s ak, av;
    for (auto& kv : oracle) ak.push_back(kv.first), av.push_back(kv.second + 0x100000001ull);
    Bytes ao = assign(*t, ak, av);
    CHECK(count_eq(ao, WX_OUT_ASSIGNED) == ak.size());
    for (size_t i = 0; i < ak.size(); ++i) oracle[ak[i]] = av[i];
    expect_found(*t, oracle, "collisions assign");
    // Erase 16 (some in the array, some in the stash), then the FULL ones fit.
    U64s all;
    for (auto& kv : oracle) all.push_back(kv.first);
    const U64s gone(all.begin(), all.begin() + 16);
    CHECK(count_eq(erase(*t, gone), WX_OUT_ERASED) == 16);
    for (auto g : gone) oracle.erase(g);
    for (auto x : find(*t, gone)) CHECK(x == kNF);
    o = insert(*t, fullk, fullk);
    CHECK(count_eq(o, WX_OUT_INSERTED) == fullk.size());
    for (auto x : fullk) oracle[x] = x;
    expect_exact(*t, oracle, "collisions refill");
    expect_found(*t, oracle, "collisions refill");
  }
  auto t = make(4096, 0.8, WX_GROW_AUTO);
  const U64s k = keys_with_home(7, t->homes(), 80, 0xFFFFFFFFu);
  BatchResult r;
  const Bytes o = insert(*t, k, k, &r);
  CHECK(count_eq(o, WX_OUT_INSERTED) == 80 && r.full == 0 && t->resizes() >= 1);
  Oracle oracle;
  for (auto x : k) oracle[x] = x;
  expect_exact(*t, oracle, "collisions grow");
  expect_found(*t, oracle, "collisions grow");
  std::printf("ok collisions\n");
}

// WX_GROW_NEVER past the table's room: FULL statuses, everything placed is there and nothing else.
void test_full(size_t n) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 5));
  auto t = make(n, 1.0, WX_GROW_NEVER);
  const uint64_t nb = t->homes();
  const U64s k = unique_keys(r, (size_t)((double)nb * 1.05));
  U64s v(k.size());
  for (auto& x : v) x = r.next();
  BatchResult res;
  const Bytes o = insert(*t, k, v, &res);
  const size_t ins = count_eq(o, WX_OUT_INSERTED), full = count_eq(o, WX_OUT_FULL);
  CHECK_MSG(ins + full == k.size(), "full: %zu inserted + %zu full != %zu", ins, full, k.size());
  CHECK(full > 0 && res.full == full && t->homes() == nb);
  Oracle oracle;
  U64s fk;
  for (size_t i = 0; i < k.size(); ++i) {
    if (o[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
    else fk.push_back(k[i]);
  }
  wx_stats st{};
  t->stats(&st);
  std::printf("  full: LF %.3f, %zu full, %llu displacements, %llu stashed\n", (double)ins / nb, full,
              (unsigned long long)st.displacements, (unsigned long long)st.stash_used);
  CHECK(st.displacements > 0 && st.failed_inserts == full);
  CHECK((double)ins / nb > 0.9);
  expect_exact(*t, oracle, "full");
  expect_found(*t, oracle, "full");
  for (auto x : find(*t, fk)) CHECK(x == kNF);
  std::printf("ok full\n");
}

void test_growth(size_t n) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 8));
  auto t = make(1000, 0.9, WX_GROW_AUTO);
  const U64s k = unique_keys(r, n);
  U64s v(n);
  for (auto& x : v) x = r.next();
  BatchResult res;
  Bytes o = insert(*t, k, v, &res);
  CHECK_MSG(count_eq(o, WX_OUT_INSERTED) == n && res.full == 0, "growth: %zu of %zu", count_eq(o, WX_OUT_INSERTED), n);
  Oracle oracle;
  for (size_t i = 0; i < n; ++i) oracle[k[i]] = v[i];
  CHECK(t->resizes() >= 1);
  CHECK((double)t->size() <= 0.9 * (double)t->homes());
  expect_exact(*t, oracle, "growth");
  expect_found(*t, oracle, "growth");
  std::printf("  growth: %zu keys, %llu resizes, %llu homes\n", n, (unsigned long long)t->resizes(),
              (unsigned long long)t->homes());
  t->resize(n * 4);
  expect_exact(*t, oracle, "resize up");
  t->resize(n);
  expect_exact(*t, oracle, "resize down");
  expect_found(*t, oracle, "resize down");
  int status = WX_OK;
  try {
    t->resize(n / 2);
  } catch (const wx::Error& e) {
    status = e.status();
  }
  CHECK(status == WX_ERR_INVALID_ARGUMENT);
  expect_exact(*t, oracle, "resize below size refused");
  t->clear();
  CHECK(t->size() == 0);
  for (auto x : find(*t, k)) CHECK(x == kNF);
  check_clean(*t, "clear", 0);
  o = insert(*t, k, v);
  CHECK(count_eq(o, WX_OUT_INSERTED) == n);
  expect_exact(*t, oracle, "refill after clear");
  std::printf("ok growth\n");
}

// Lookups of resident keys in the same launch as inserts that displace them: never missed, and
// the value is the key's own (a move copies the value before the key).
void test_lookups_during_moves(size_t n) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 6));
  auto t = make(n, 1.0, WX_GROW_NEVER);
  const uint64_t nb = t->homes();
  const U64s pre = unique_keys(r, (size_t)((double)nb * 0.86));
  std::unordered_set<uint64_t> used(pre.begin(), pre.end());
  U64s pv(pre.size());
  for (size_t i = 0; i < pre.size(); ++i) pv[i] = pre[i] * 0x9E3779B97F4A7C15ull + 1;
  CHECK(count_eq(insert(*t, pre, pv), WX_OUT_INSERTED) == pre.size());
  wx_stats s0{};
  t->stats(&s0);
  const U64s add = unique_keys(r, (size_t)((double)nb * 0.08), &used);
  Bytes ops;
  U64s keys, vals;
  for (auto x : add) ops.push_back(WX_OP_INSERT), keys.push_back(x), vals.push_back(~x);
  for (int rep = 0; rep < 2; ++rep)
    for (size_t i = 0; i < pre.size(); ++i) ops.push_back(WX_OP_FIND), keys.push_back(pre[i]), vals.push_back(0);
  for (size_t i = keys.size() - 1; i > 0; --i) {
    const size_t j = r.below(i + 1);
    std::swap(keys[i], keys[j]);
    std::swap(ops[i], ops[j]);
    std::swap(vals[i], vals[j]);
  }
  const Bytes o = mixed(*t, ops, keys, vals);
  Oracle oracle;
  for (size_t i = 0; i < pre.size(); ++i) oracle[pre[i]] = pv[i];
  size_t full = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (ops[i] == WX_OP_FIND) {
      CHECK_MSG(o[i] == WX_OUT_FOUND, "resident key %llx missed during moves (outcome %d)", (unsigned long long)keys[i], o[i]);
      CHECK_MSG(vals[i] == oracle[keys[i]], "resident key %llx: value %llx, expected %llx", (unsigned long long)keys[i],
                (unsigned long long)vals[i], (unsigned long long)oracle[keys[i]]);
    } else {
      CHECK(o[i] == WX_OUT_INSERTED || o[i] == WX_OUT_FULL);
      full += o[i] == WX_OUT_FULL;
    }
  }
  for (size_t i = 0; i < keys.size(); ++i)
    if (ops[i] == WX_OP_INSERT && o[i] == WX_OUT_INSERTED) oracle[keys[i]] = ~keys[i];
  wx_stats s1{};
  t->stats(&s1);
  std::printf("  moves: %llu displacements during the mixed launch, %zu full\n",
              (unsigned long long)(s1.displacements - s0.displacements), full);
  CHECK(s1.displacements > s0.displacements);
  expect_exact(*t, oracle, "lookups during moves");
  std::printf("ok lookups_during_moves\n");
}

// ---- per-key linearizability of one concurrent batch (ALGORITHMS.md §4; the same conditions as
// suite/linearizability.hpp, for 64-bit keys and values): some sequential order of each key's ops,
// from the state before the batch, explains every outcome, every found value and the state after.
std::string check_key(const Bytes& ops, const U64s& vin, const U64s& vout, const Bytes& out,
                      const std::vector<size_t>& idx, bool p0, uint64_t v0, bool p1, uint64_t v1) {
  int64_t ins = 0, era = 0, present_reads = 0, absent_reads = 0;
  U64s inserted, assigned, found;
  for (size_t i : idx) {
    const uint8_t op = ops[i], o = out[i];
    const bool fits = (op == WX_OP_INSERT && (o == WX_OUT_INSERTED || o == WX_OUT_PRESENT)) ||
                      (op == WX_OP_INSERT_OR_ASSIGN && (o == WX_OUT_INSERTED || o == WX_OUT_ASSIGNED)) ||
                      (op == WX_OP_ERASE && (o == WX_OUT_ERASED || o == WX_OUT_NOT_FOUND)) ||
                      (op == WX_OP_FIND && (o == WX_OUT_FOUND || o == WX_OUT_NOT_FOUND));
    if (!fits) return "outcome " + std::to_string(o) + " impossible for op " + std::to_string(op);
    switch (o) {
      case WX_OUT_INSERTED: ++ins; inserted.push_back(vin[i]); break;
      case WX_OUT_ERASED: ++era; break;
      case WX_OUT_PRESENT: ++present_reads; break;
      case WX_OUT_ASSIGNED: ++present_reads; assigned.push_back(vin[i]); break;
      case WX_OUT_FOUND: ++present_reads; found.push_back(vout[i]); break;
      default:  // NOT_FOUND
        ++absent_reads;
        if (op == WX_OP_FIND && vout[i] != vin[i]) return "find NOT_FOUND overwrote its value slot";
        break;
    }
  }
  if (ins - era != (int64_t)p1 - (int64_t)p0) return "C1: INSERTED - ERASED does not match the presence change";
  if (present_reads > 0 && !p0 && ins == 0) return "C2: PRESENT/ASSIGNED/FOUND but never present";
  if (absent_reads > 0 && p0 && era == 0) return "C3: NOT_FOUND but never absent";
  U64s writers(inserted);
  writers.insert(writers.end(), assigned.begin(), assigned.end());
  if (p0) writers.push_back(v0);
  std::sort(writers.begin(), writers.end());
  for (uint64_t w : found)
    if (!std::binary_search(writers.begin(), writers.end(), w))
      return "C4: a find returned a value never written for this key (torn or foreign)";
  if (p1) {
    const bool in_assigned = std::find(assigned.begin(), assigned.end(), v1) != assigned.end();
    if (!in_assigned) {
      if (ins >= 1) {
        if (std::find(inserted.begin(), inserted.end(), v1) == inserted.end())
          return "C5: final value not written by any INSERTED/ASSIGNED";
        if (!assigned.empty() && (int64_t)p0 + ins < 2) return "C5: an ASSIGNED would overwrite the final value";
      } else {
        if (!assigned.empty()) return "C5: final value is not the last ASSIGNED value";
        if (v1 != v0) return "C5: value changed with no INSERTED/ASSIGNED";
      }
    }
  }
  return "";
}

// Universe key i → a 64-bit key above 2^32 whose low half cycles through the 32-bit sentinels.
uint64_t universe_key(uint64_t i) {
  const uint32_t low = i % 3 == 0 ? 0xFFFFFFFFu : i % 3 == 1 ? 0xFFFFFFFEu : (uint32_t)i;
  return ((i + 1) << 32) | low;
}

// Concurrent mixed batches over `universe` keys (hot when small), each checked per key.
void test_mixed(size_t n, size_t universe, int p_ins, int p_del, int p_find, uint64_t step, int batches) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, step));
  auto t = make(universe, 0.8, WX_GROW_AUTO);
  U64s u(universe);
  for (size_t i = 0; i < universe; ++i) u[i] = universe_key(i);
  Oracle state;
  U64s pk, pv;
  for (size_t i = 0; i < universe; i += 2) pk.push_back(u[i]), pv.push_back(r.next()), state[u[i]] = pv.back();
  CHECK(count_eq(insert(*t, pk, pv), WX_OUT_INSERTED) == pk.size());
  const int total = p_ins + p_del + p_find;
  for (int bi = 0; bi < batches; ++bi) {
    Bytes ops(n);
    U64s keys(n), vals(n);
    for (size_t i = 0; i < n; ++i) {
      keys[i] = u[r.below(universe)];
      const int x = (int)r.below(total);
      ops[i] = x < p_ins ? (r.below(2) ? WX_OP_INSERT : WX_OP_INSERT_OR_ASSIGN) : x < p_ins + p_del ? WX_OP_ERASE : WX_OP_FIND;
      // Unique per op and per batch, both halves varying: a foreign or torn value is never a writer.
      vals[i] = ((uint64_t)(bi + 1) << 56) ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull) ^ 0x5A5A0000A5A5ull;
    }
    const U64s in_vals = vals;
    BatchResult res;
    const Bytes o = mixed(*t, ops, keys, vals, &res);
    CHECK(res.full == 0 && res.invalid == 0);
    // State after: find (values) and contains (presence) of the whole universe.
    const U64s fv = find(*t, u);
    const Bytes present = contains(*t, u);
    std::unordered_map<uint64_t, std::vector<size_t>> by_key;
    for (size_t i = 0; i < n; ++i) by_key[keys[i]].push_back(i);
    Oracle after;
    for (size_t j = 0; j < universe; ++j) {
      CHECK_MSG((fv[j] != kNF) == (present[j] == 1), "key %llx: find and contains disagree", (unsigned long long)u[j]);
      if (present[j]) after[u[j]] = fv[j];
    }
    for (size_t j = 0; j < universe; ++j) {
      const uint64_t k = u[j];
      auto b = state.find(k), a = after.find(k);
      const bool p0 = b != state.end(), p1 = a != after.end();
      auto it = by_key.find(k);
      if (it == by_key.end()) {
        CHECK_MSG(p0 == p1 && (!p0 || b->second == a->second), "key %llx changed without ops", (unsigned long long)k);
        continue;
      }
      const std::string why = check_key(ops, in_vals, vals, o, it->second, p0, p0 ? b->second : 0, p1,
                                        p1 ? a->second : 0);
      CHECK_MSG(why.empty(), "mixed universe=%zu batch %d key %llx (%zu ops): %s", universe, bi, (unsigned long long)k,
                it->second.size(), why.c_str());
    }
    state = after;
    expect_exact(*t, state, "mixed universe " + std::to_string(universe));
  }
  std::printf("ok mixed n=%zu universe=%zu [%d,%d,%d] x%d\n", n, universe, p_ins, p_del, p_find, batches);
}

// Through the public C API with host arrays (staged in 8-byte elements) and device arrays: insert,
// find with the full 64-bit not_found, batch, erase, retrieve_all, size; pre-hashed calls refused.
void test_c_api(size_t n) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 40));
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_GLHT));
  c.key_bits = c.value_bits = 64;
  c.capacity = 64;  // grows during the inserts
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  const U64s k = unique_keys(r, n);
  U64s v(n);
  for (auto& x : v) x = r.next();
  Bytes o(n);
  CHECK_OK(wx_insert(t, k.data(), v.data(), n, o.data(), WX_MEM_HOST, nullptr));
  CHECK(count_eq(o, WX_OUT_INSERTED) == n);
  uint64_t size = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK(size == n);
  U64s probe(k.begin(), k.begin() + n / 2), absent = unique_keys(r, n / 2);
  for (auto x : absent) probe.push_back(x);
  U64s got(probe.size());
  CHECK_OK(wx_find(t, probe.data(), got.data(), probe.size(), kNF, WX_MEM_HOST, nullptr));
  Oracle oracle;
  for (size_t i = 0; i < n; ++i) oracle[k[i]] = v[i];
  for (size_t i = 0; i < probe.size(); ++i) {
    auto it = oracle.find(probe[i]);
    CHECK(got[i] == (it == oracle.end() ? kNF : it->second));
  }
  // Device arrays.
  Dev<uint64_t> dk(probe), dv(probe.size());
  CHECK_OK(wx_find(t, dk.p, dv.p, probe.size(), kNF, WX_MEM_DEVICE, nullptr));
  CHECK(dv.down() == got);
  // A mixed batch: assign the first key, erase the second, find the third, reserved key rejected.
  Bytes ops = {WX_OP_INSERT_OR_ASSIGN, WX_OP_ERASE, WX_OP_FIND, WX_OP_INSERT};
  U64s bk = {k[0], k[1], k[2], kEmpty64}, bv = {0x1111222233334444ull, 0, 0, 5};
  Bytes bo(4);
  CHECK_STATUS(wx_batch(t, ops.data(), bk.data(), bv.data(), 4, bo.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(bo[0] == WX_OUT_ASSIGNED && bo[1] == WX_OUT_ERASED && bo[2] == WX_OUT_FOUND && bo[3] == WX_OUT_INVALID_KEY);
  CHECK(bv[2] == v[2]);
  oracle[k[0]] = 0x1111222233334444ull;
  oracle.erase(k[1]);
  // retrieve_all into host arrays equals the oracle.
  CHECK_OK(wx_size(t, &size));
  CHECK(size == oracle.size());
  U64s rk(size), rv(size);
  uint64_t count = 0;
  CHECK_OK(wx_retrieve_all(t, rk.data(), rv.data(), size, &count, WX_MEM_HOST, nullptr));
  CHECK(count == size);
  std::unordered_set<uint64_t> seen;
  for (uint64_t i = 0; i < count; ++i) {
    auto it = oracle.find(rk[i]);
    CHECK_MSG(it != oracle.end() && it->second == rv[i] && seen.insert(rk[i]).second, "retrieve_all pair %llx",
              (unsigned long long)rk[i]);
  }
  CHECK_OK(wx_erase(t, k.data(), n, o.data(), WX_MEM_HOST, nullptr));
  CHECK(count_eq(o, WX_OUT_ERASED) == n - 1 && o[1] == WX_OUT_NOT_FOUND);
  CHECK_OK(wx_size(t, &size));
  CHECK(size == 0);
  std::vector<uint64_t> h(n);
  CHECK_STATUS(wx_hash_keys(t, k.data(), h.data(), n, WX_MEM_HOST, nullptr), WX_ERR_UNSUPPORTED);
  CHECK_OK(wx_table_destroy(t));
  std::printf("ok c_api\n");
}

}  // namespace

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    const char* req = std::getenv("WIXLIB_REQUIRE_GPU");
    if (req && std::string(req) == "1") {
      std::fprintf(stderr, "FAIL: no CUDA device\n");
      return 1;
    }
    std::fprintf(stderr, "SKIP: no CUDA device\n");
    return wxtest::kSkip;
  }
  const wxsuite::Env env = wxsuite::read_env("gpu_glht_wide");
  g_seed = env.seed;
  CUDA_OK(cudaStreamCreate(&g_stream));
  const size_t n = env.small ? (size_t(1) << 14) : (size_t(1) << 20);
  try {
    test_edges();
    test_c_api(env.small ? 5000 : 200000);
    test_duplicates(env.small ? 500 : 4000, env.small ? 16 : 64);
    test_collisions();
    int step = 20;
    for (double lf : {0.5, 0.8, 0.9}) test_oracle(n, lf, ++step);
    test_full(n);
    test_growth(env.small ? 20000 : 300000);
    test_lookups_during_moves(n);
    test_mixed(n, n / 4, 20, 20, 60, 31, 2);
    test_mixed(n, n / 4, 40, 40, 20, 32, 2);
    test_mixed(n / 4, 101, 40, 40, 20, 33, 3);    // hot keys [0,100]
    test_mixed(n / 4, 1001, 40, 40, 20, 34, 3);   // hot keys [0,1000]
    test_mixed(n / 4, 101, 20, 20, 60, 35, 3);
  } catch (const wx::Error& e) {
    std::fprintf(stderr, "FAIL: wx::Error %d: %s\n", (int)e.status(), e.what());
    return 1;
  }
  cudaStreamDestroy(g_stream);
  std::printf("gpu_glht_wide: all passed\n");
  return 0;
}
