// GLHT design tests, driving the backend directly with device buffers: hopscotch bitmap invariants
// after every step (DESIGN.md §Invariants), no leaked locks, the device error counter stays 0,
// regressions for the reference code's defects (ALGORITHMS.md §1.7), crafted collisions, displacement
// under concurrent lookups, mixed-batch consistency, growth, FULL, resize/clear.
// Env: WIXLIB_SMALL=1 → ~2^16 keys (compute-sanitizer); WIXLIB_SEED=n; GLHT_PERF_LOG2=k → also run
// the throughput probe with 2^k keys (kernel time from stats.last_kernel_ms); GLHT_ONLY_PERF=1 → only
// the probe; GLHT_SKIP_OOM=1 → skip the out-of-memory test (it holds nearly all free device memory).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
using wx::glht::GlhtTable;

namespace {

#define CUDA_OK(call) CHECK_MSG((call) == cudaSuccess, "%s", cudaGetErrorString(cudaGetLastError()))

template <typename T>
struct Dev {
  T* p = nullptr;
  size_t n = 0;
  explicit Dev(size_t n_) : n(n_) { CUDA_OK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T))); }
  Dev(const std::vector<T>& v) : Dev(v.size()) { up(v); }
  ~Dev() { cudaFree(p); }
  void up(const std::vector<T>& v) { CUDA_OK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice)); }
  std::vector<T> down() const {
    std::vector<T> v(n);
    CUDA_OK(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
};

cudaStream_t g_stream = nullptr;
uint64_t g_seed = 1;

using wxtest::EnvGuard;

std::unique_ptr<GlhtTable> make(uint64_t capacity, double lf, int grow) {
  wx_config c{};
  c.kind = WX_KIND_GLHT;
  c.key_bits = 32;
  c.value_bits = 32;
  c.device = 0;
  c.capacity = capacity;
  c.max_load_factor = lf;
  c.grow = grow;
  return std::unique_ptr<GlhtTable>(static_cast<GlhtTable*>(wx::make_glht_table(c)));
}

void check_clean(GlhtTable& t, const char* where, int64_t expect_keys = -1) {
  uint64_t seen = 0;
  const uint64_t errors = t.check_invariants(&seen);
  CHECK_MSG(errors == 0, "%s: %llu invariant violations / device errors", where, (unsigned long long)errors);
  CHECK_MSG(seen == t.size(), "%s: %llu keys in slots, size() = %llu", where, (unsigned long long)seen,
            (unsigned long long)t.size());
  if (expect_keys >= 0)
    CHECK_MSG(seen == (uint64_t)expect_keys, "%s: %llu keys, expected %lld", where, (unsigned long long)seen,
              (long long)expect_keys);
}

// ---- bulk wrappers (device arrays in, host vectors out)
std::vector<uint8_t> op_outcomes(GlhtTable& t, int which, const std::vector<uint32_t>& keys,
                                 const std::vector<uint32_t>* values, BatchResult* res = nullptr) {
  Dev<uint32_t> k(keys);
  std::unique_ptr<Dev<uint32_t>> v;
  if (values) v.reset(new Dev<uint32_t>(*values));
  Dev<uint8_t> o(keys.size());
  Batch b;
  b.keys = k.p;
  b.values_in = v ? v->p : nullptr;
  b.outcomes = o.p;
  b.n = keys.size();
  b.stream = g_stream;
  BatchResult r = which == 0 ? t.insert(b) : which == 1 ? t.insert_or_assign(b) : t.erase(b);
  if (res) *res = r;
  return o.down();
}
std::vector<uint8_t> insert(GlhtTable& t, const std::vector<uint32_t>& k, const std::vector<uint32_t>& v,
                            BatchResult* r = nullptr) {
  return op_outcomes(t, 0, k, &v, r);
}
std::vector<uint8_t> assign(GlhtTable& t, const std::vector<uint32_t>& k, const std::vector<uint32_t>& v) {
  return op_outcomes(t, 1, k, &v);
}
std::vector<uint8_t> erase(GlhtTable& t, const std::vector<uint32_t>& k, BatchResult* r = nullptr) {
  return op_outcomes(t, 2, k, nullptr, r);
}
constexpr uint32_t kNF = 0xDEADBEEFu;
std::vector<uint32_t> find(GlhtTable& t, const std::vector<uint32_t>& keys) {
  Dev<uint32_t> k(keys), v(keys.size());
  Batch b;
  b.keys = k.p;
  b.values_out = v.p;
  b.n = keys.size();
  b.not_found = kNF;
  b.stream = g_stream;
  t.find(b);
  return v.down();
}
std::vector<uint8_t> contains(GlhtTable& t, const std::vector<uint32_t>& keys) {
  Dev<uint32_t> k(keys);
  Dev<uint8_t> o(keys.size());
  Batch b;
  b.keys = k.p;
  b.outcomes = o.p;
  b.n = keys.size();
  b.stream = g_stream;
  t.contains(b);
  return o.down();
}
std::vector<uint8_t> mixed(GlhtTable& t, const std::vector<uint8_t>& ops, const std::vector<uint32_t>& keys,
                           std::vector<uint32_t>& values) {
  Dev<uint8_t> op(ops), o(keys.size());
  Dev<uint32_t> k(keys), v(values);
  Batch b;
  b.ops = op.p;
  b.keys = k.p;
  b.values_in = v.p;
  b.values_out = v.p;
  b.outcomes = o.p;
  b.n = keys.size();
  b.stream = g_stream;
  t.batch(b);
  values = v.down();
  return o.down();
}

std::vector<uint32_t> unique_keys(wxsuite::Rng& r, size_t n, std::unordered_set<uint32_t>* avoid = nullptr) {
  std::unordered_set<uint32_t> seen;
  std::vector<uint32_t> out;
  out.reserve(n);
  while (out.size() < n) {
    uint32_t k = r.key();
    if (avoid && avoid->count(k)) continue;
    if (seen.insert(k).second) out.push_back(k);
  }
  return out;
}

size_t count_eq(const std::vector<uint8_t>& v, uint8_t x) { return (size_t)std::count(v.begin(), v.end(), x); }

void expect_found(GlhtTable& t, const std::unordered_map<uint32_t, uint32_t>& oracle, const char* where) {
  std::vector<uint32_t> keys, want;
  for (auto& kv : oracle) keys.push_back(kv.first), want.push_back(kv.second);
  auto got = find(t, keys);
  for (size_t i = 0; i < keys.size(); ++i)
    CHECK_MSG(got[i] == want[i], "%s: key %u value %u expected %u", where, keys[i], got[i], want[i]);
}

void expect_exact(GlhtTable& t, const std::unordered_map<uint32_t, uint32_t>& oracle, const char* where) {
  CHECK_MSG(t.size() == oracle.size(), "%s: size %llu, oracle %zu", where, (unsigned long long)t.size(), oracle.size());
  const uint64_t n = t.size();
  Dev<uint32_t> k(n), v(n);
  const uint64_t got = t.retrieve_all(k.p, v.p, g_stream);
  CHECK_MSG(got == n, "%s: retrieve_all returned %llu of %llu", where, (unsigned long long)got, (unsigned long long)n);
  auto ks = k.down(), vs = v.down();
  std::unordered_set<uint32_t> dup;
  for (size_t i = 0; i < n; ++i) {
    auto it = oracle.find(ks[i]);
    CHECK_MSG(it != oracle.end(), "%s: retrieved key %u not in oracle", where, ks[i]);
    CHECK_MSG(it->second == vs[i], "%s: key %u value %u expected %u", where, ks[i], vs[i], it->second);
    CHECK_MSG(dup.insert(ks[i]).second, "%s: key %u retrieved twice", where, ks[i]);
  }
  check_clean(t, where, (int64_t)n);
}

// Keys whose home is `home` in a table of nb homes (host copy of the device hash).
std::vector<uint32_t> keys_with_home(uint64_t home, uint64_t nb, size_t count, uint32_t start = 1) {
  std::vector<uint32_t> out;
  for (uint32_t k = start; out.size() < count && k < 0xFFFFFFF0u; ++k)
    if (wx::glht::home_of(k, nb) == home) out.push_back(k);
  CHECK(out.size() == count);
  return out;
}

// ------------------------------------------------------------------------------------------------
void test_basic(size_t n) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 1));
  auto t = make(n, 0.8, WX_GROW_AUTO);
  auto keys = unique_keys(r, n + n / 2);
  std::vector<uint32_t> in(keys.begin(), keys.begin() + n), absent(keys.begin() + n, keys.end());
  std::vector<uint32_t> vals(n);
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (size_t i = 0; i < n; ++i) vals[i] = r.u32(), oracle[in[i]] = vals[i];
  BatchResult res;
  auto o = insert(*t, in, vals, &res);
  CHECK_MSG(count_eq(o, WX_OUT_INSERTED) == n, "inserted %zu of %zu", count_eq(o, WX_OUT_INSERTED), n);
  CHECK(res.full == 0 && res.invalid == 0);
  CHECK(t->resizes() == 0);
  expect_exact(*t, oracle, "basic insert");
  wx_stats st{};
  t->stats(&st);
  std::printf("  basic: n=%zu homes=%llu displacements=%llu last_kernel_ms=%.3f\n", n,
              (unsigned long long)st.capacity, (unsigned long long)st.displacements, st.last_kernel_ms);
  CHECK(st.size == n && st.last_kernel_ms > 0.0);

  auto nf = find(*t, absent);
  for (auto v : nf) CHECK(v == kNF);
  auto c = contains(*t, absent);
  CHECK(count_eq(c, 0) == absent.size());
  c = contains(*t, in);
  CHECK(count_eq(c, 1) == n);

  // Re-insert: PRESENT, values unchanged.
  std::vector<uint32_t> half(in.begin(), in.begin() + n / 2), other(n / 2, 7);
  o = insert(*t, half, other);
  CHECK(count_eq(o, WX_OUT_PRESENT) == half.size());
  // insert_or_assign: a quarter present (ASSIGNED), a quarter of the absent keys (INSERTED).
  std::vector<uint32_t> ak, av;
  for (size_t i = 0; i < n / 4; ++i) ak.push_back(in[i]), av.push_back(r.u32());
  for (size_t i = 0; i < absent.size() / 4; ++i) ak.push_back(absent[i]), av.push_back(r.u32());
  o = assign(*t, ak, av);
  for (size_t i = 0; i < ak.size(); ++i) {
    CHECK(o[i] == (i < n / 4 ? WX_OUT_ASSIGNED : WX_OUT_INSERTED));
    oracle[ak[i]] = av[i];
  }
  expect_found(*t, oracle, "after assign");
  // Erase every third key of `in`, twice.
  std::vector<uint32_t> ek;
  for (size_t i = 0; i < n; i += 3) ek.push_back(in[i]), oracle.erase(in[i]);
  o = erase(*t, ek);
  CHECK(count_eq(o, WX_OUT_ERASED) == ek.size());
  o = erase(*t, ek);
  CHECK(count_eq(o, WX_OUT_NOT_FOUND) == ek.size());
  nf = find(*t, ek);
  for (auto v : nf) CHECK(v == kNF);
  expect_exact(*t, oracle, "basic erase");
  // Re-insert the erased keys: they go into emptied slots whose meta words carry live bits.
  std::vector<uint32_t> ev(ek.size());
  for (size_t i = 0; i < ek.size(); ++i) ev[i] = r.u32(), oracle[ek[i]] = ev[i];
  o = insert(*t, ek, ev);
  CHECK(count_eq(o, WX_OUT_INSERTED) == ek.size());
  expect_exact(*t, oracle, "basic reinsert");
  std::printf("ok basic\n");
}

void test_edges() {
  auto t = make(1000, 0.9, WX_GROW_AUTO);
  std::vector<uint32_t> k = {0u, 1u, 0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFFDu, 0x7FFFFFFFu, 0x80000000u};
  std::vector<uint32_t> v = {10, 11, 12, 13, 14, 15, 16};
  BatchResult r;
  auto o = insert(*t, k, v, &r);
  CHECK(r.invalid == 2 && r.full == 0);
  CHECK(o[2] == WX_OUT_INVALID_KEY && o[3] == WX_OUT_INVALID_KEY);
  CHECK(count_eq(o, WX_OUT_INSERTED) == 5);
  auto f = find(*t, k);
  CHECK(f[0] == 10 && f[1] == 11 && f[2] == kNF && f[3] == kNF && f[4] == 14 && f[5] == 15 && f[6] == 16);
  o = erase(*t, k, &r);
  CHECK(r.invalid == 2 && count_eq(o, WX_OUT_ERASED) == 5);
  check_clean(*t, "edges", 0);
  // n = 1, n = 33 (not a multiple of 32), empty batch.
  o = insert(*t, {42u}, {43u});
  CHECK(o[0] == WX_OUT_INSERTED && find(*t, {42u})[0] == 43u);
  std::vector<uint32_t> k33(33), v33(33);
  for (uint32_t i = 0; i < 33; ++i) k33[i] = 1000 + i, v33[i] = i;
  o = insert(*t, k33, v33);
  CHECK(count_eq(o, WX_OUT_INSERTED) == 33);
  Batch empty;
  empty.stream = g_stream;
  r = t->insert(empty);
  CHECK(r.full == 0 && r.invalid == 0);
  check_clean(*t, "edges n", 34);
  std::printf("ok edges\n");
}

void test_duplicates(size_t distinct, int copies) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 3));
  auto t = make(distinct * 2, 0.8, WX_GROW_AUTO);
  auto base = unique_keys(r, distinct);
  std::vector<uint32_t> k, v;
  for (int c = 0; c < copies; ++c)
    for (auto x : base) k.push_back(x), v.push_back(x ^ 0x5555u);
  for (size_t i = k.size() - 1; i > 0; --i) {
    size_t j = r.below(i + 1);
    std::swap(k[i], k[j]);
    std::swap(v[i], v[j]);
  }
  auto o = insert(*t, k, v);
  CHECK(count_eq(o, WX_OUT_INSERTED) == distinct && count_eq(o, WX_OUT_PRESENT) == k.size() - distinct);
  std::unordered_map<uint32_t, int> ins;
  for (size_t i = 0; i < k.size(); ++i)
    if (o[i] == WX_OUT_INSERTED) CHECK(++ins[k[i]] == 1);
  check_clean(*t, "duplicates insert", (int64_t)distinct);
  o = erase(*t, k);
  CHECK(count_eq(o, WX_OUT_ERASED) == distinct && count_eq(o, WX_OUT_NOT_FOUND) == k.size() - distinct);
  check_clean(*t, "duplicates erase", 0);
  std::printf("ok duplicates\n");
}

// 80 keys with one home: 32 fit the neighbourhood, 32 the home's stash bucket, 16 are FULL.
// Also the last home (padding side).
void test_collisions() {
  for (int last = 0; last < 2; ++last) {
    auto t = make(4096, 0.8, WX_GROW_NEVER);
    const uint64_t nb = t->homes();
    const uint64_t home = last ? nb - 1 : 100;
    auto k = keys_with_home(home, nb, 80);
    std::vector<uint32_t> v(k.begin(), k.end());
    BatchResult r;
    auto o = insert(*t, k, v, &r);
    CHECK_MSG(count_eq(o, WX_OUT_INSERTED) == 64 && r.full == 16, "inserted %zu full %llu",
              count_eq(o, WX_OUT_INSERTED), (unsigned long long)r.full);
    CHECK(count_eq(o, WX_OUT_FULL) == 16);
    std::unordered_map<uint32_t, uint32_t> oracle;
    for (size_t i = 0; i < k.size(); ++i)
      if (o[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
    expect_exact(*t, oracle, "collisions full");
    wx_stats st{};
    t->stats(&st);
    CHECK_MSG(st.failed_inserts == 16 && st.stash_used == 32, "failed %llu stash %llu",
              (unsigned long long)st.failed_inserts, (unsigned long long)st.stash_used);
    // insert_or_assign over neighbourhood and stash keys.
    std::vector<uint32_t> ak, av;
    for (auto& kv : oracle) ak.push_back(kv.first), av.push_back(kv.second + 1);
    auto ao = assign(*t, ak, av);
    CHECK(count_eq(ao, WX_OUT_ASSIGNED) == ak.size());
    for (size_t i = 0; i < ak.size(); ++i) oracle[ak[i]] = av[i];
    expect_found(*t, oracle, "collisions assign");
    // Defect 1.7-1 regression: erase the item sitting in the home slot, insert another key of the
    // same home: every other key of that home must stay visible.
    std::vector<uint32_t> all;
    for (auto& kv : oracle) all.push_back(kv.first);
    // erase half of the home's keys (including, with high probability, the one in the home slot)
    std::vector<uint32_t> gone(all.begin(), all.begin() + 16);  // some in the stash, some not
    auto eo = erase(*t, gone);
    CHECK(count_eq(eo, WX_OUT_ERASED) == 16);
    for (auto g : gone) oracle.erase(g);
    std::vector<uint32_t> fresh;
    for (size_t i = 0; i < k.size(); ++i)
      if (o[i] == WX_OUT_FULL) fresh.push_back(k[i]);
    o = insert(*t, fresh, fresh);
    CHECK(count_eq(o, WX_OUT_INSERTED) == fresh.size());
    for (auto f : fresh) oracle[f] = f;
    expect_exact(*t, oracle, "collisions refill");
    expect_found(*t, oracle, "collisions refill");
  }
  // Same with growth: all 80 land (after a rehash spreads them).
  auto t = make(4096, 0.8, WX_GROW_AUTO);
  auto k = keys_with_home(7, t->homes(), 80);
  BatchResult r;
  auto o = insert(*t, k, k, &r);
  CHECK(count_eq(o, WX_OUT_INSERTED) == 80 && r.full == 0 && t->resizes() >= 1);
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (auto x : k) oracle[x] = x;
  expect_exact(*t, oracle, "collisions grow");
  std::printf("ok collisions\n");
}

// Dense table without growth: displacement chains, FULL at the limit, and nothing lost.
void test_dense(size_t n) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 5));
  auto t = make(n, 1.0, WX_GROW_NEVER);
  const uint64_t nb = t->homes();
  auto k = unique_keys(r, (size_t)(nb * 0.97));
  std::vector<uint32_t> v(k.size());
  for (auto& x : v) x = r.u32();
  BatchResult res;
  auto o = insert(*t, k, v, &res);
  const size_t ins = count_eq(o, WX_OUT_INSERTED), full = count_eq(o, WX_OUT_FULL);
  CHECK_MSG(ins + full == k.size(), "dense: %zu inserted + %zu full != %zu", ins, full, k.size());
  CHECK(res.full == full);
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (size_t i = 0; i < k.size(); ++i)
    if (o[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
  wx_stats st{};
  t->stats(&st);
  std::printf("  dense: LF %.3f, %zu full, %llu displacements, %llu stashed\n", (double)ins / nb, full,
              (unsigned long long)st.displacements, (unsigned long long)st.stash_used);
  CHECK(st.displacements > 0);
  CHECK((double)ins / nb > 0.9);
  expect_exact(*t, oracle, "dense");
  std::vector<uint32_t> fk;
  for (size_t i = 0; i < k.size(); ++i)
    if (o[i] == WX_OUT_FULL) fk.push_back(k[i]);
  auto f = find(*t, fk);
  for (auto x : f) CHECK(x == kNF);
  std::printf("ok dense\n");
}

// Lookups of resident keys running in the same launch as inserts that displace them: never missed.
void test_lookups_during_moves(size_t n) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 6));
  auto t = make(n, 1.0, WX_GROW_NEVER);
  const uint64_t nb = t->homes();
  std::unordered_set<uint32_t> used;
  auto pre = unique_keys(r, (size_t)(nb * 0.86));
  for (auto x : pre) used.insert(x);
  std::vector<uint32_t> pv(pre.size());
  for (size_t i = 0; i < pre.size(); ++i) pv[i] = pre[i] * 2654435761u;
  auto o = insert(*t, pre, pv);
  CHECK(count_eq(o, WX_OUT_INSERTED) == pre.size());
  wx_stats s0{};
  t->stats(&s0);
  auto add = unique_keys(r, (size_t)(nb * 0.08), &used);
  std::vector<uint8_t> ops;
  std::vector<uint32_t> keys, vals;
  for (auto x : add) ops.push_back(WX_OP_INSERT), keys.push_back(x), vals.push_back(x + 1);
  for (int rep = 0; rep < 2; ++rep)
    for (size_t i = 0; i < pre.size(); ++i) ops.push_back(WX_OP_FIND), keys.push_back(pre[i]), vals.push_back(0);
  for (size_t i = keys.size() - 1; i > 0; --i) {
    size_t j = r.below(i + 1);
    std::swap(keys[i], keys[j]);
    std::swap(ops[i], ops[j]);
    std::swap(vals[i], vals[j]);
  }
  o = mixed(*t, ops, keys, vals);
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (size_t i = 0; i < pre.size(); ++i) oracle[pre[i]] = pv[i];
  size_t full = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (ops[i] == WX_OP_FIND) {
      CHECK_MSG(o[i] == WX_OUT_FOUND, "resident key %u missed during moves (outcome %d)", keys[i], o[i]);
      CHECK(vals[i] == oracle[keys[i]]);
    } else {
      CHECK(o[i] == WX_OUT_INSERTED || o[i] == WX_OUT_FULL);
      if (o[i] == WX_OUT_INSERTED) oracle[keys[i]] = keys[i] + 1;
      full += o[i] == WX_OUT_FULL;
    }
  }
  wx_stats s1{};
  t->stats(&s1);
  std::printf("  moves: %llu displacements during the mixed launch, %zu full\n",
              (unsigned long long)(s1.displacements - s0.displacements), full);
  CHECK(s1.displacements > s0.displacements);
  expect_exact(*t, oracle, "lookups during moves");
  std::printf("ok lookups_during_moves\n");
}

// Mixed batch over a small key universe: per key, the net effect of the outcomes matches the final
// state, outcomes are legal, found values were written for that key. `universe` small = hot keys.
// group > 0: the table runs mixed batches with that many rounds per warp chunk at any batch size
// (WIXLIB_GLHT_MIXED_GROUP), so small cases, the sanitizer runs' included, take the grouped path.
void test_mixed(size_t n, size_t universe, int p_ins, int p_del, int p_find, uint64_t step, int group = 0) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, step));
  auto t = [&] {
    EnvGuard g("WIXLIB_GLHT_MIXED_GROUP", std::to_string(group));  // 0: by batch size, as unset
    return make(universe, 0.8, WX_GROW_AUTO);
  }();
  auto u = unique_keys(r, universe);
  std::unordered_map<uint32_t, uint32_t> start;
  std::vector<uint32_t> pk, pv;
  for (size_t i = 0; i < universe; i += 2) pk.push_back(u[i]), pv.push_back(u[i] ^ 0xA5A5A5A5u), start[u[i]] = pk.back() ^ 0xA5A5A5A5u;
  insert(*t, pk, pv);
  std::vector<uint8_t> ops(n);
  std::vector<uint32_t> keys(n), vals(n);
  const int total = p_ins + p_del + p_find;
  for (size_t i = 0; i < n; ++i) {
    keys[i] = u[r.below(universe)];
    int x = (int)r.below(total);
    ops[i] = x < p_ins ? (r.below(2) ? WX_OP_INSERT : WX_OP_INSERT_OR_ASSIGN) : x < p_ins + p_del ? WX_OP_ERASE : WX_OP_FIND;
    vals[i] = (ops[i] == WX_OP_FIND) ? 0xFFFFFFFFu : (uint32_t)i;
  }
  auto in_vals = vals;
  auto o = mixed(*t, ops, keys, vals);
  std::unordered_map<uint32_t, int64_t> net;
  std::unordered_map<uint32_t, std::unordered_set<uint32_t>> written;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t op = ops[i], out = o[i];
    switch (op) {
      case WX_OP_INSERT: CHECK(out == WX_OUT_INSERTED || out == WX_OUT_PRESENT); break;
      case WX_OP_INSERT_OR_ASSIGN: CHECK(out == WX_OUT_INSERTED || out == WX_OUT_ASSIGNED); break;
      case WX_OP_ERASE: CHECK(out == WX_OUT_ERASED || out == WX_OUT_NOT_FOUND); break;
      default: CHECK(out == WX_OUT_FOUND || out == WX_OUT_NOT_FOUND); break;
    }
    if (out == WX_OUT_INSERTED) ++net[keys[i]];
    if (out == WX_OUT_ERASED) --net[keys[i]];
    if (out == WX_OUT_INSERTED || out == WX_OUT_ASSIGNED) written[keys[i]].insert(in_vals[i]);
  }
  // Final state.
  std::vector<uint32_t> fv = find(*t, u);
  std::vector<uint8_t> present = contains(*t, u);
  size_t live = 0;
  for (size_t i = 0; i < universe; ++i) {
    const uint32_t k = u[i];
    const int64_t was = start.count(k), now = present[i];
    CHECK_MSG(now - was == net[k], "key %u: start %lld end %lld net outcomes %lld", k, (long long)was,
              (long long)now, (long long)net[k]);
    live += now;
    if (now) {
      const bool ok = written[k].count(fv[i]) || (start.count(k) && start[k] == fv[i]);
      CHECK_MSG(ok, "key %u ends with value %u never written for it", k, fv[i]);
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (ops[i] == WX_OP_FIND && o[i] == WX_OUT_FOUND) {
      const uint32_t k = keys[i];
      const bool ok = written[k].count(vals[i]) || (start.count(k) && start[k] == vals[i]);
      CHECK_MSG(ok, "find of key %u returned %u, never written for it", k, vals[i]);
    } else if (ops[i] == WX_OP_FIND) {
      CHECK(vals[i] == 0xFFFFFFFFu);  // a miss leaves the value alone
    }
  check_clean(*t, "mixed", (int64_t)live);
  std::printf("ok mixed n=%zu universe=%zu [%d,%d,%d]%s\n", n, universe, p_ins, p_del, p_find,
              group > 0 ? (" group " + std::to_string(group)).c_str() : "");
}

void test_growth(size_t n) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 8));
  auto t = make(1000, 0.9, WX_GROW_AUTO);
  auto k = unique_keys(r, n);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = r.u32();
  BatchResult res;
  auto o = insert(*t, k, v, &res);
  CHECK_MSG(count_eq(o, WX_OUT_INSERTED) == n && res.full == 0, "growth: %zu of %zu", count_eq(o, WX_OUT_INSERTED), n);
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (size_t i = 0; i < n; ++i) oracle[k[i]] = v[i];
  CHECK(t->resizes() >= 1);
  CHECK((double)t->size() <= 0.9 * (double)t->homes());
  expect_exact(*t, oracle, "growth");
  expect_found(*t, oracle, "growth");
  std::printf("  growth: %zu keys, %llu resizes, %llu homes\n", n, (unsigned long long)t->resizes(),
              (unsigned long long)t->homes());
  // resize up, resize to the size, clear.
  t->resize(n * 4);
  expect_exact(*t, oracle, "resize up");
  t->resize(n);
  expect_exact(*t, oracle, "resize down");
  t->clear();
  CHECK(t->size() == 0);
  auto f = find(*t, k);
  for (auto x : f) CHECK(x == kNF);
  check_clean(*t, "clear", 0);
  // No growth: FULL counted, everything placed is there.
  auto t2 = make(1000, 0.9, WX_GROW_NEVER);
  std::vector<uint32_t> k2(k.begin(), k.begin() + std::min<size_t>(n, 4000)), v2(k2.size(), 3);
  o = insert(*t2, k2, v2, &res);
  const size_t ins = count_eq(o, WX_OUT_INSERTED);
  CHECK(res.full > 0 && ins + res.full == k2.size() && count_eq(o, WX_OUT_FULL) == res.full);
  CHECK(t2->size() == ins && t2->homes() == t2->capacity());
  check_clean(*t2, "grow never", (int64_t)ins);
  std::printf("ok growth\n");
}

// Out of device memory during growth: WX_ERR_OUT_OF_MEMORY, the table intact and usable.
void test_oom() {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 9));
  const size_t n = size_t(1) << 20;
  auto t = make(n, 0.9, WX_GROW_AUTO);
  auto k = unique_keys(r, 2 * n);
  std::vector<uint32_t> k1(k.begin(), k.begin() + n), k2(k.begin() + n, k.end());
  auto o = insert(*t, k1, k1);
  CHECK(count_eq(o, WX_OUT_INSERTED) == n);
  // Hold almost all free device memory (the batch buffers below are allocated first).
  Dev<uint32_t> dk(k2), dv(k2);
  Dev<uint8_t> doc(n);
  std::vector<void*> hog;
  for (size_t chunk = size_t(1) << 30; chunk >= (size_t(1) << 20); chunk /= 2) {
    for (;;) {
      size_t free_b = 0, total_b = 0;
      cudaMemGetInfo(&free_b, &total_b);
      if (free_b < chunk + (size_t(24) << 20)) break;
      void* p = nullptr;
      if (cudaMalloc(&p, chunk) != cudaSuccess) {
        cudaGetLastError();
        break;
      }
      hog.push_back(p);
    }
  }
  Batch b;
  b.keys = dk.p;
  b.values_in = dv.p;
  b.outcomes = doc.p;
  b.n = n;
  b.stream = g_stream;
  int status = WX_OK;
  try {
    t->insert(b);
  } catch (const wx::Error& e) {
    status = e.status();
    std::printf("  oom: %s\n", e.what());
  }
  for (void* p : hog) cudaFree(p);
  CHECK_MSG(status == WX_ERR_OUT_OF_MEMORY, "growth without memory gave status %d", status);
  o = doc.down();
  std::unordered_map<uint32_t, uint32_t> oracle;
  for (auto x : k1) oracle[x] = x;
  for (size_t i = 0; i < n; ++i) {
    CHECK(o[i] == WX_OUT_INSERTED || o[i] == WX_OUT_FULL);
    if (o[i] == WX_OUT_INSERTED) oracle[k2[i]] = k2[i];
  }
  CHECK(count_eq(o, WX_OUT_FULL) > 0);
  expect_exact(*t, oracle, "after oom");
  // Usable: the FULL ones go in now that memory is back.
  t->insert(b);
  for (auto x : k2) oracle[x] = x;
  expect_exact(*t, oracle, "after oom retry");
  std::printf("ok oom\n");
}

// ------------------------------------------------------------------------------------------------
void perf(int log2n) {
  const size_t n = size_t(1) << log2n;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 99));
  // Distinct keys without a host set: murmur3 fmix32 is a bijection of the 32-bit integers.
  auto fmix32 = [](uint32_t h) {
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    return h;
  };
  std::vector<uint32_t> in(n), absent(n), vals(n);
  for (size_t i = 0; i < n; ++i) {
    in[i] = fmix32((uint32_t)i);
    absent[i] = fmix32((uint32_t)(i + n));
    if (in[i] >= 0xFFFFFFFEu) in[i] = fmix32((uint32_t)(i + 2 * n));
    if (absent[i] >= 0xFFFFFFFEu) absent[i] = fmix32((uint32_t)(i + 3 * n));
  }
  for (size_t i = 0; i < n; ++i) vals[i] = (uint32_t)i;
  Dev<uint32_t> dk(in), da(absent), dv(vals), dout(n);
  Dev<uint8_t> doc(n);
  auto t = make(n, 0.8, WX_GROW_NEVER);  // no rehash inside timed calls
  wx_stats st{};
  auto gops = [&](uint64_t ops) {
    t->stats(&st);
    return (double)ops / (st.last_kernel_ms * 1e-3) / 1e9;
  };
  Batch b;
  b.stream = g_stream;
  b.n = n;
  b.keys = dk.p;
  b.values_in = dv.p;
  b.outcomes = doc.p;
  auto ins = [&]() {
    BatchResult res = t->insert(b);
    CHECK(res.full == 0);
    return gops(n);
  };
  double g_ins = ins();
  CHECK(t->size() == n);
  Batch f;
  f.stream = g_stream;
  f.n = n;
  f.values_out = dout.p;
  f.not_found = kNF;
  double g_fp = 0, g_fa = 0, g_c = 0;
  for (int rep = 0; rep < 3; ++rep) {
    f.keys = dk.p;
    t->find(f);
    g_fp = std::max(g_fp, gops(n));
    f.keys = da.p;
    t->find(f);
    g_fa = std::max(g_fa, gops(n));
  }
  Batch c;
  c.stream = g_stream;
  c.n = n;
  c.keys = dk.p;
  c.outcomes = doc.p;
  t->contains(c);
  g_c = gops(n);
  CHECK(count_eq(doc.down(), 1) == n);
  f.keys = dk.p;
  t->find(f);
  auto fv = dout.down();
  for (size_t i = 0; i < n; ++i) CHECK(fv[i] == vals[i]);
  Batch e;
  e.stream = g_stream;
  e.n = n;
  e.keys = dk.p;
  e.outcomes = doc.p;
  t->erase(e);
  double g_er = gops(n);
  CHECK(t->size() == 0 && count_eq(doc.down(), WX_OUT_ERASED) == n);
  double g_ins2 = ins();
  check_clean(*t, "perf fill", (int64_t)n);
  t->stats(&st);
  std::printf("PERF n=2^%d homes=%llu LF=%.3f displacements=%llu stashed=%llu\n", log2n,
              (unsigned long long)st.capacity, (double)n / st.capacity, (unsigned long long)st.displacements,
              (unsigned long long)st.stash_used);
  // Mixed batches of 2^(log2n-2) ops on the full table: inserts of absent keys, erases of present
  // keys, finds of present keys (half of them absent by the time they run for erased ones).
  const size_t m = n / 4;
  double g_mix[2];
  const int mixes[2][3] = {{20, 20, 60}, {40, 40, 20}};
  for (int mi = 0; mi < 2; ++mi) {
    std::vector<uint8_t> ops(m);
    std::vector<uint32_t> mk(m), mv(m);
    for (size_t i = 0; i < m; ++i) {
      int x = (int)r.below(100);
      ops[i] = x < mixes[mi][0] ? WX_OP_INSERT : x < mixes[mi][0] + mixes[mi][1] ? WX_OP_ERASE : WX_OP_FIND;
      mk[i] = ops[i] == WX_OP_INSERT ? absent[r.below(n)] : in[r.below(n)];
      mv[i] = (uint32_t)i;
    }
    Dev<uint8_t> dop(ops), dmo(m);
    Dev<uint32_t> dmk(mk), dmv(mv);
    Batch mb;
    mb.stream = g_stream;
    mb.n = m;
    mb.ops = dop.p;
    mb.keys = dmk.p;
    mb.values_in = dmv.p;
    mb.values_out = dmv.p;
    mb.outcomes = dmo.p;
    t->batch(mb);
    g_mix[mi] = gops(m);
    check_clean(*t, "perf mixed");
  }
  std::printf("PERF insert %.2f (refill %.2f) | find present %.2f | find absent %.2f | contains %.2f | erase %.2f | "
              "mixed[20,20,60] %.2f | mixed[40,40,20] %.2f  G ops/s (kernel time)\n",
              g_ins, g_ins2, g_fp, g_fa, g_c, g_er, g_mix[0], g_mix[1]);
}

}  // namespace

// ---- bulk build (glht_build.cu): inserts into an empty table placed by sorting. Tables made while
// WIXLIB_GLHT_BUILD_MIN=1 (EnvGuard) build every insert batch into an empty table, whatever its size.

// Checks a batch's insert outcomes against its keys: per user key exactly one INSERTED whose value
// the table holds, every other copy PRESENT (or FULL when `full_ok`), reserved keys INVALID_KEY.
void expect_insert_outcomes(GlhtTable& t, const std::vector<uint32_t>& k, const std::vector<uint32_t>& v,
                            const std::vector<uint8_t>& o, std::unordered_map<uint32_t, uint32_t>& oracle,
                            const char* where) {
  std::unordered_map<uint32_t, size_t> winner;
  for (size_t i = 0; i < k.size(); ++i) {
    if (k[i] >= 0xFFFFFFFEu) {
      CHECK_MSG(o[i] == WX_OUT_INVALID_KEY, "%s: reserved key %u outcome %d", where, k[i], o[i]);
    } else if (o[i] == WX_OUT_INSERTED) {
      CHECK_MSG(winner.emplace(k[i], i).second, "%s: key %u INSERTED twice", where, k[i]);
      oracle[k[i]] = v[i];
    } else {
      CHECK_MSG(o[i] == WX_OUT_PRESENT, "%s: key %u outcome %d", where, k[i], o[i]);
    }
  }
  for (size_t i = 0; i < k.size(); ++i)
    if (k[i] < 0xFFFFFFFEu) CHECK_MSG(winner.count(k[i]), "%s: no copy of key %u INSERTED", where, k[i]);
  expect_exact(t, oracle, where);
}

void test_bulk_build(size_t n) {
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 20));
  EnvGuard guard("WIXLIB_GLHT_BUILD_MIN", "1");
  // Unique keys at three fills, then erase everything and build again (versions are no longer 0).
  for (double lf : {0.5, 0.8, 0.9}) {
    auto t = make(n, lf, WX_GROW_AUTO);
    std::unordered_map<uint32_t, uint32_t> oracle;
    for (int round = 1; round <= 2; ++round) {
      auto k = unique_keys(r, n);
      std::vector<uint32_t> v(n);
      for (auto& x : v) x = r.u32();
      auto o = insert(*t, k, v);
      CHECK_MSG(t->builds() == (uint64_t)round, "lf %.1f: %llu builds", lf, (unsigned long long)t->builds());
      expect_insert_outcomes(*t, k, v, o, oracle, "build unique");
      CHECK(count_eq(erase(*t, k), WX_OUT_ERASED) == n);
      oracle.clear();
      check_clean(*t, "build erased", 0);
    }
  }
  // Duplicates (a quarter of the keys come 2-5 times, each copy with its own value) and reserved
  // keys, shuffled.
  {
    auto t = make(n, 0.8, WX_GROW_AUTO);
    auto base = unique_keys(r, n / 2);
    std::vector<uint32_t> k, v;
    for (auto x : base)
      for (int c = r.below(4) ? 1 : 2 + (int)r.below(4); c > 0; --c) k.push_back(x), v.push_back(r.u32());
    for (int i = 0; i < 40; ++i) k.push_back(0xFFFFFFFEu + (i & 1)), v.push_back(i);
    for (size_t i = k.size() - 1; i > 0; --i) {
      size_t j = r.below(i + 1);
      std::swap(k[i], k[j]);
      std::swap(v[i], v[j]);
    }
    BatchResult res;
    std::unordered_map<uint32_t, uint32_t> oracle;
    auto o = insert(*t, k, v, &res);
    CHECK_MSG(t->builds() == 1 && res.invalid == 40, "builds %llu invalid %llu", (unsigned long long)t->builds(),
              (unsigned long long)res.invalid);
    expect_insert_outcomes(*t, k, v, o, oracle, "build duplicates");
  }
  // Overflowing windows: 80 keys of one home among random keys. 32 are placed by the build; the rest
  // go to the normal passes (displacement, stash). Key 0 of the run comes again last (its first copy
  // is placed, the second overflows) and key 40 twice (both copies overflow).
  for (int last = 0; last < 2; ++last) {
    auto t = make(n, 0.8, WX_GROW_AUTO);
    const uint64_t nb = t->homes();
    auto crowd = keys_with_home(last ? nb - 1 : nb / 2, nb, 80);
    std::unordered_set<uint32_t> avoid(crowd.begin(), crowd.end());
    auto k = unique_keys(r, n / 2, &avoid);
    k.insert(k.end(), crowd.begin(), crowd.end());
    k.push_back(crowd[0]);
    k.push_back(crowd[40]);
    std::vector<uint32_t> v(k.size());
    for (auto& x : v) x = r.u32();
    std::unordered_map<uint32_t, uint32_t> oracle;
    auto o = insert(*t, k, v);
    CHECK(t->builds() == 1);
    expect_insert_outcomes(*t, k, v, o, oracle, "build overflow");
  }
  // The same crowd with WX_GROW_NEVER in a small table: 32 in the window, 32 in the stash, 16 FULL.
  {
    auto t = make(4096, 0.8, WX_GROW_NEVER);
    auto k = keys_with_home(100, t->homes(), 80);
    BatchResult res;
    auto o = insert(*t, k, k, &res);
    CHECK_MSG(t->builds() == 1 && count_eq(o, WX_OUT_INSERTED) == 64 && res.full == 16 && count_eq(o, WX_OUT_FULL) == 16,
              "builds %llu inserted %zu full %llu", (unsigned long long)t->builds(), count_eq(o, WX_OUT_INSERTED),
              (unsigned long long)res.full);
    check_clean(*t, "build crowd full", 64);
    wx_stats st{};
    t->stats(&st);
    CHECK_MSG(st.stash_used == 32, "stash %llu", (unsigned long long)st.stash_used);
  }
  // A table made for 1000 keys takes n at once: resized before the build, not grown by doublings.
  {
    auto t = make(1000, 0.8, WX_GROW_AUTO);
    auto k = unique_keys(r, n);
    std::vector<uint32_t> v(n);
    for (auto& x : v) x = r.u32();
    std::unordered_map<uint32_t, uint32_t> oracle;
    auto o = insert(*t, k, v);
    CHECK_MSG(t->builds() == 1 && t->resizes() == 1, "builds %llu resizes %llu", (unsigned long long)t->builds(),
              (unsigned long long)t->resizes());
    expect_insert_outcomes(*t, k, v, o, oracle, "build after resize");
  }
  // 3n/4 copies of 8 keys: more exceptional keys than the build tracks (half of the largest power
  // of two <= 2 x 3n/4, i.e. n/2), so the table is given back empty and the batch runs the normal way.
  {
    const size_t m = n / 4 * 3;
    auto t = make(m, 0.8, WX_GROW_AUTO);
    std::vector<uint32_t> k(m), v(m);
    auto few = unique_keys(r, 8);
    for (size_t i = 0; i < m; ++i) k[i] = few[r.below(8)], v[i] = r.u32();
    std::unordered_map<uint32_t, uint32_t> oracle;
    auto o = insert(*t, k, v);
    CHECK_MSG(t->builds() == 0, "builds %llu", (unsigned long long)t->builds());
    expect_insert_outcomes(*t, k, v, o, oracle, "build given up");
  }
  std::printf("ok bulk build\n");
}

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
  wxsuite::Env env = wxsuite::read_env("gpu_glht_invariants");
  g_seed = env.seed;
  CUDA_OK(cudaStreamCreate(&g_stream));
  const size_t n = env.small ? (size_t(1) << 16) : (size_t(1) << 20);
  const char* only_perf = std::getenv("GLHT_ONLY_PERF");
  try {
    if (only_perf && *only_perf == '1') {
      perf(std::atoi(std::getenv("GLHT_PERF_LOG2") ? std::getenv("GLHT_PERF_LOG2") : "26"));
      return 0;
    }
    if (env.wants("build")) test_bulk_build(n);
    if (!env.wants("core")) return 0;  // WIXLIB_PARTS=build: the bulk build only (compute-sanitizer)
    test_edges();
    test_basic(n);
    test_duplicates(env.small ? 500 : 4000, 64);
    test_collisions();
    test_dense(n);
    test_lookups_during_moves(n);
    test_mixed(n, n / 4, 20, 20, 60, 11);
    test_mixed(n, n / 4, 40, 40, 20, 12);
    test_mixed(n, n / 4, 20, 20, 60, 14, 8);  // grouped by op kind, 8 rounds per warp
    test_mixed(n / 16, 64, 40, 40, 20, 13);  // hot keys
    test_mixed(n / 16, 64, 40, 40, 20, 15, 8);
    test_growth(env.small ? 20000 : 300000);
    // test_oom holds nearly all free device memory for a moment: GLHT_SKIP_OOM=1 when GPU tests run
    // in parallel on one device.
    const char* skip_oom = std::getenv("GLHT_SKIP_OOM");
    if (!env.small && !(skip_oom && *skip_oom == '1')) test_oom();
    const char* p = std::getenv("GLHT_PERF_LOG2");
    if (p && *p) perf(std::atoi(p));
  } catch (const wx::Error& e) {
    std::fprintf(stderr, "FAIL: wx::Error %d: %s\n", (int)e.status(), e.what());
    return 1;
  }
  cudaStreamDestroy(g_stream);
  std::printf("gpu_glht_invariants: all passed\n");
  return 0;
}
