// GLHT design tests, driving the backend directly with device buffers, written once over the key
// width and built twice: gpu_glht_invariants (GlhtTable, 32-bit keys and values) and
// gpu_glht_invariants_64 (GlhtTableWide, 64/64; DESIGN.md "Wide tables"), WX_TEST_KEY_BITS choosing.
// Covered: hopscotch bitmap invariants after every step (the invariant-check kernel k_check;
// DESIGN.md "Layout" and "Protocol"), no leaked locks, the device error counter stays 0;
// regressions for the published reference code's defects (DESIGN.md "Protocol", last item);
// reserved keys, duplicates and empty batches; crafted collisions (one home; at 64 bits also one
// low half, so only the high bits tell the keys apart) through neighbourhood, stash and FULL; dense
// tables and WX_GROW_NEVER past the room; oracle runs at LF 0.5 / 0.8 / 0.9; growth, resize, clear;
// lookups racing displacements; concurrent mixed batches (hot and wide key ranges, grouped by op
// kind or not) checked per key against suite/linearizability.hpp; the C API with host and device
// arrays; out of device memory during growth; the bulk build (sorted inserts into an empty table);
// at 32 bits the throughput probe.
// Env (suite/env.hpp): WIXLIB_SMALL=1 → small sizes (compute-sanitizer); WIXLIB_SEED=n;
// WIXLIB_PARTS=build or core (the bulk build, the rest); GLHT_PERF_LOG2=k → also run the
// throughput probe with 2^k keys (kernel time from stats.last_kernel_ms); GLHT_ONLY_PERF=1 → only the
// probe; GLHT_SKIP_OOM=1 → skip the out-of-memory test (it holds nearly all free device memory).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "check.hpp"
#include "common/table.hpp"
#include "glht/glht_table.cuh"
#include "gpu_device.cuh"
#include "suite/env.hpp"
#include "suite/linearizability.hpp"

#ifndef WX_TEST_KEY_BITS
#define WX_TEST_KEY_BITS 32
#endif

using wx::Batch;
using wx::BatchResult;
using wxtest::Dev;
using Bytes = std::vector<uint8_t>;

namespace glhttest {

// What differs between the widths: key and value type, the not_found value, the key generators.
template <class Tr>
struct Width;

template <>
struct Width<wx::glht::Narrow> {
  using K = uint32_t;
  static constexpr int kBits = 32;
  static constexpr K kNF = 0xDEADBEEFu;  // find's not_found value
  static constexpr K kEmpty = WX_KEY32_EMPTY, kTomb = WX_KEY32_TOMBSTONE;
  static const char* name() { return "gpu_glht_invariants"; }
  static K key(wxsuite::Rng& r) { return r.key(); }
  // A random value other than kNF (so find's answer tells present from absent).
  static K value(wxsuite::Rng& r) {
    const K v = r.u32();
    return v == kNF ? v + 1 : v;
  }
  // `count` keys with home `home` in a table of nb homes (host copy of the device hash). variant: unused.
  static std::vector<K> keys_with_home(uint64_t home, uint64_t nb, size_t count, int /*variant*/) {
    std::vector<K> out;
    for (uint32_t k = 1; out.size() < count && k < 0xFFFFFFF0u; ++k)
      if (wx::glht::home_of(k, nb) == home) out.push_back(k);
    CHECK(out.size() == count);
    return out;
  }
  // Reserved keys among ordinary ones: INVALID_KEY for those, the rest of the batch done.
  static std::vector<K> edge_keys() { return {0u, 1u, kEmpty, kTomb, 0xFFFFFFFDu, 0x7FFFFFFFu, 0x80000000u}; }
};

template <>
struct Width<wx::glht::Wide> {
  using K = uint64_t;
  static constexpr int kBits = 64;
  static constexpr K kNF = 0xDEADBEEFCAFEF00Dull;  // all 64 bits used
  static constexpr K kEmpty = WX_KEY64_EMPTY, kTomb = WX_KEY64_TOMBSTONE;
  static const char* name() { return "gpu_glht_invariants_64"; }
  // A non-reserved key of one of four shapes: any 64 bits, below 2^32, high half set with low half
  // 0xFFFFFFFF, high half set with low half 0xFFFFFFFE (the low halves are the 32-bit sentinels).
  static K key(wxsuite::Rng& r) {
    for (;;) {
      const uint64_t x = r.next();
      uint64_t k;
      switch (x & 3) {
        case 0: k = r.next(); break;
        case 1: k = r.next() >> 32; break;
        case 2: k = (r.next() & 0xFFFFFFFF00000000ull) | 0xFFFFFFFFull; break;
        default: k = (r.next() & 0xFFFFFFFF00000000ull) | 0xFFFFFFFEull; break;
      }
      if (k < kTomb) return k;
    }
  }
  static K value(wxsuite::Rng& r) {
    const K v = r.next();
    return v == kNF ? v + 1 : v;
  }
  // `count` keys with home `home`, all with one low half (0xFFFFFFFE, or 0xFFFFFFFF for variant 1):
  // only the high 32 bits differ, so only a full 64-bit comparison tells them apart.
  static std::vector<K> keys_with_home(uint64_t home, uint64_t nb, size_t count, int variant) {
    const uint32_t low = variant ? 0xFFFFFFFFu : 0xFFFFFFFEu;
    std::vector<K> out;
    for (uint64_t hi = 1; out.size() < count && hi < 0xFFFFFFFFull; ++hi) {
      const uint64_t k = (hi << 32) | low;
      if (wx::glht::Wide::home(k, nb) == home) out.push_back(k);
    }
    CHECK(out.size() == count);
    return out;
  }
  static std::vector<K> edge_keys() {
    return {0ull,           0xFFFFFFFFull, kEmpty, 0xFFFFFFFEull,         kTomb, 0x1FFFFFFFFull,
            kTomb - 1,      1ull << 32,    0x80000000FFFFFFFEull,  0x00000001FFFFFFFEull};
  }
};

}  // namespace glhttest

namespace {

using glhttest::Width;

cudaStream_t g_stream = nullptr;
uint64_t g_seed = 1;

inline unsigned long long ull(uint64_t x) { return x; }

template <class Tr>
using TableT = wx::glht::GlhtTableT<Tr>;

// Table tuning for one test (wx_config fields; wx_config_init's defaults otherwise).
struct Tuning {
  int32_t mixed_group = -1;  // rounds of 32 ops per warp in mixed batches; 0 = by batch size
  int64_t build_min = -1;    // smallest insert into an empty table that is bulk-built
  bool any_fill = false;     // wide tables build at every fill too (not only above kWideBuildMinFill)
};

template <class Tr>
std::unique_ptr<TableT<Tr>> make(uint64_t capacity, double lf, int grow, Tuning tuning = {}) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_GLHT));
  c.key_bits = Width<Tr>::kBits;
  c.value_bits = Width<Tr>::kBits;
  c.device = 0;
  c.capacity = capacity;
  c.max_load_factor = lf;
  c.grow = grow;
  if (tuning.mixed_group >= 0) c.mixed_group = tuning.mixed_group;
  if (tuning.build_min >= 0) c.build_min = static_cast<uint64_t>(tuning.build_min);
  auto* w = dynamic_cast<TableT<Tr>*>(wx::make_glht_table(c));
  CHECK(w != nullptr);
  if (tuning.any_fill) w->build_at_any_fill();
  return std::unique_ptr<TableT<Tr>>(w);
}

template <class Tr>
void check_clean(TableT<Tr>& t, const std::string& where, int64_t expect_keys = -1) {
  uint64_t seen = 0;
  const uint64_t errors = t.check_invariants(&seen);
  CHECK_MSG(errors == 0, "%s: %llu invariant violations / device errors", where.c_str(), ull(errors));
  CHECK_MSG(seen == t.size(), "%s: %llu keys in slots, size() = %llu", where.c_str(), ull(seen), ull(t.size()));
  if (expect_keys >= 0)
    CHECK_MSG(seen == (uint64_t)expect_keys, "%s: %llu keys, expected %lld", where.c_str(), ull(seen),
              (long long)expect_keys);
}

// ---- bulk wrappers (device arrays in, host vectors out). which: 0 insert, 1 assign, 2 erase.
template <class Tr, class K = typename Width<Tr>::K>
Bytes op_outcomes(TableT<Tr>& t, int which, const std::vector<K>& keys, const std::vector<K>* values,
                  BatchResult* res = nullptr) {
  Dev<K> k(keys);
  std::unique_ptr<Dev<K>> v;
  if (values) v.reset(new Dev<K>(*values));
  Dev<uint8_t> o(keys.size());
  Batch b;
  b.keys = k.p;
  b.values_in = v ? v->p : nullptr;
  b.outcomes = o.p;
  b.n = keys.size();
  b.stream = g_stream;
  const BatchResult r = which == 0 ? t.insert(b) : which == 1 ? t.insert_or_assign(b) : t.erase(b);
  if (res) *res = r;
  return o.get();
}
template <class Tr, class K = typename Width<Tr>::K>
Bytes insert(TableT<Tr>& t, const std::vector<K>& k, const std::vector<K>& v, BatchResult* r = nullptr) {
  return op_outcomes<Tr>(t, 0, k, &v, r);
}
template <class Tr, class K = typename Width<Tr>::K>
Bytes assign(TableT<Tr>& t, const std::vector<K>& k, const std::vector<K>& v) {
  return op_outcomes<Tr>(t, 1, k, &v);
}
template <class Tr, class K = typename Width<Tr>::K>
Bytes erase(TableT<Tr>& t, const std::vector<K>& k, BatchResult* r = nullptr) {
  return op_outcomes<Tr, K>(t, 2, k, nullptr, r);
}
template <class Tr, class K = typename Width<Tr>::K>
std::vector<K> find(TableT<Tr>& t, const std::vector<K>& keys, BatchResult* res = nullptr) {
  Dev<K> k(keys), v(keys.size());
  Batch b;
  b.keys = k.p;
  b.values_out = v.p;
  b.n = keys.size();
  b.not_found = Width<Tr>::kNF;
  b.stream = g_stream;
  const BatchResult r = t.find(b);
  if (res) *res = r;
  return v.get();
}
template <class Tr, class K = typename Width<Tr>::K>
Bytes contains(TableT<Tr>& t, const std::vector<K>& keys) {
  Dev<K> k(keys);
  Dev<uint8_t> o(keys.size());
  Batch b;
  b.keys = k.p;
  b.outcomes = o.p;
  b.n = keys.size();
  b.stream = g_stream;
  t.contains(b);
  return o.get();
}
template <class Tr, class K = typename Width<Tr>::K>
Bytes mixed(TableT<Tr>& t, const Bytes& ops, const std::vector<K>& keys, std::vector<K>& values,
            BatchResult* res = nullptr) {
  Dev<uint8_t> op(ops), o(keys.size());
  Dev<K> k(keys), v(values);
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
  values = v.get();
  return o.get();
}

size_t count_eq(const Bytes& v, uint8_t x) { return (size_t)std::count(v.begin(), v.end(), x); }

template <class Tr, class K = typename Width<Tr>::K>
std::vector<K> unique_keys(wxsuite::Rng& r, size_t n, const std::unordered_set<K>* avoid = nullptr) {
  std::unordered_set<K> seen;
  std::vector<K> out;
  out.reserve(n);
  while (out.size() < n) {
    const K k = Width<Tr>::key(r);
    if (avoid && avoid->count(k)) continue;
    if (seen.insert(k).second) out.push_back(k);
  }
  return out;
}

template <class K>
using Oracle = std::unordered_map<K, K>;

template <class Tr, class K = typename Width<Tr>::K>
void expect_found(TableT<Tr>& t, const Oracle<K>& oracle, const std::string& where) {
  std::vector<K> keys, want;
  for (auto& kv : oracle) keys.push_back(kv.first), want.push_back(kv.second);
  const std::vector<K> got = find<Tr>(t, keys);
  for (size_t i = 0; i < keys.size(); ++i)
    CHECK_MSG(got[i] == want[i], "%s: key %llx value %llx expected %llx", where.c_str(), ull(keys[i]), ull(got[i]),
              ull(want[i]));
}

// size == oracle, retrieve_all == oracle (no duplicates), invariants clean.
template <class Tr, class K = typename Width<Tr>::K>
void expect_exact(TableT<Tr>& t, const Oracle<K>& oracle, const std::string& where) {
  CHECK_MSG(t.size() == oracle.size(), "%s: size %llu, oracle %zu", where.c_str(), ull(t.size()), oracle.size());
  const uint64_t n = t.size();
  Dev<K> k(n), v(n);
  const uint64_t got = t.retrieve_all(k.p, v.p, g_stream);
  CHECK_MSG(got == n, "%s: retrieve_all returned %llu of %llu", where.c_str(), ull(got), ull(n));
  const std::vector<K> ks = k.get(), vs = v.get();
  std::unordered_set<K> dup;
  for (size_t i = 0; i < n; ++i) {
    auto it = oracle.find(ks[i]);
    CHECK_MSG(it != oracle.end(), "%s: retrieved key %llx not in oracle", where.c_str(), ull(ks[i]));
    CHECK_MSG(it->second == vs[i], "%s: key %llx value %llx expected %llx", where.c_str(), ull(ks[i]), ull(vs[i]),
              ull(it->second));
    CHECK_MSG(dup.insert(ks[i]).second, "%s: key %llx retrieved twice", where.c_str(), ull(ks[i]));
  }
  check_clean<Tr>(t, where, (int64_t)n);
}

template <class V>
void shuffle_together(wxsuite::Rng& r, std::vector<V>& k, std::vector<V>& v) {
  for (size_t i = k.size() - 1; i > 0; --i) {
    const size_t j = r.below(i + 1);
    std::swap(k[i], k[j]);
    std::swap(v[i], v[j]);
  }
}

// ------------------------------------------------------------------------------------------------
template <class Tr>
void test_basic(size_t n) {
  using W = Width<Tr>;
  using K = typename W::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 1));
  auto t = make<Tr>(n, 0.8, WX_GROW_AUTO);
  auto keys = unique_keys<Tr>(r, n + n / 2);
  std::vector<K> in(keys.begin(), keys.begin() + n), absent(keys.begin() + n, keys.end());
  std::vector<K> vals(n);
  Oracle<K> oracle;
  for (size_t i = 0; i < n; ++i) vals[i] = W::value(r), oracle[in[i]] = vals[i];
  BatchResult res;
  auto o = insert<Tr>(*t, in, vals, &res);
  CHECK_MSG(count_eq(o, WX_OUT_INSERTED) == n, "inserted %zu of %zu", count_eq(o, WX_OUT_INSERTED), n);
  CHECK(res.full == 0 && res.invalid == 0);
  CHECK(t->resizes() == 0);
  expect_exact<Tr>(*t, oracle, "basic insert");
  wx_stats st{};
  t->stats(&st);
  std::printf("  basic: n=%zu homes=%llu displacements=%llu last_kernel_ms=%.3f\n", n, ull(st.capacity),
              ull(st.displacements), st.last_kernel_ms);
  CHECK(st.size == n && st.last_kernel_ms > 0.0);

  auto nf = find<Tr>(*t, absent);
  for (auto v : nf) CHECK(v == W::kNF);
  auto c = contains<Tr>(*t, absent);
  CHECK(count_eq(c, 0) == absent.size());
  c = contains<Tr>(*t, in);
  CHECK(count_eq(c, 1) == n);

  // Re-insert: PRESENT, values unchanged.
  std::vector<K> half(in.begin(), in.begin() + n / 2), other(n / 2, 7);
  o = insert<Tr>(*t, half, other);
  CHECK(count_eq(o, WX_OUT_PRESENT) == half.size());
  // insert_or_assign: a quarter present (ASSIGNED), a quarter of the absent keys (INSERTED).
  std::vector<K> ak, av;
  for (size_t i = 0; i < n / 4; ++i) ak.push_back(in[i]), av.push_back(W::value(r));
  for (size_t i = 0; i < absent.size() / 4; ++i) ak.push_back(absent[i]), av.push_back(W::value(r));
  o = assign<Tr>(*t, ak, av);
  for (size_t i = 0; i < ak.size(); ++i) {
    CHECK(o[i] == (i < n / 4 ? WX_OUT_ASSIGNED : WX_OUT_INSERTED));
    oracle[ak[i]] = av[i];
  }
  expect_found<Tr>(*t, oracle, "after assign");
  // Erase every third key of `in`, twice.
  std::vector<K> ek;
  for (size_t i = 0; i < n; i += 3) ek.push_back(in[i]), oracle.erase(in[i]);
  o = erase<Tr>(*t, ek);
  CHECK(count_eq(o, WX_OUT_ERASED) == ek.size());
  o = erase<Tr>(*t, ek);
  CHECK(count_eq(o, WX_OUT_NOT_FOUND) == ek.size());
  nf = find<Tr>(*t, ek);
  for (auto v : nf) CHECK(v == W::kNF);
  expect_exact<Tr>(*t, oracle, "basic erase");
  // Re-insert the erased keys: they go into emptied slots whose meta words carry live bits.
  std::vector<K> ev(ek.size());
  for (size_t i = 0; i < ek.size(); ++i) ev[i] = W::value(r), oracle[ek[i]] = ev[i];
  o = insert<Tr>(*t, ek, ev);
  CHECK(count_eq(o, WX_OUT_INSERTED) == ek.size());
  expect_exact<Tr>(*t, oracle, "basic reinsert");
  std::printf("ok basic\n");
}

// Reserved keys get INVALID_KEY, the others in the batch are done (at 64 bits the 32-bit sentinels
// are plain keys); n = 1, n = 33 (not a multiple of 32); empty batches; the not_found value uses
// the whole width. At 64 bits also: keys differing only in the high half, a mixed batch with reserved
// keys, pre-hashed calls UNSUPPORTED.
template <class Tr>
void test_edges() {
  using W = Width<Tr>;
  using K = typename W::K;
  auto t = make<Tr>(1000, 0.9, WX_GROW_AUTO);
  const std::vector<K> k = W::edge_keys();
  std::vector<K> v(k.size());
  for (size_t i = 0; i < k.size(); ++i) v[i] = K(0xA5A5A5A500000010ull + i * 0x0101010101ull);
  auto reserved = [&](size_t i) { return k[i] == W::kEmpty || k[i] == W::kTomb; };
  BatchResult r;
  Bytes o = insert<Tr>(*t, k, v, &r);
  CHECK(r.invalid == 2 && r.full == 0);
  for (size_t i = 0; i < k.size(); ++i) CHECK(o[i] == (reserved(i) ? WX_OUT_INVALID_KEY : WX_OUT_INSERTED));
  CHECK(count_eq(o, WX_OUT_INSERTED) == k.size() - 2);
  std::vector<K> f = find<Tr>(*t, k, &r);
  CHECK(r.invalid == 2);
  for (size_t i = 0; i < k.size(); ++i) CHECK(f[i] == (reserved(i) ? W::kNF : v[i]));
  const Bytes c = contains<Tr>(*t, k);
  for (size_t i = 0; i < k.size(); ++i) CHECK(c[i] == (reserved(i) ? 0 : 1));
  if constexpr (Tr::kWide) {
    // Keys that differ from the stored ones only in the high half are absent.
    const std::vector<K> near = {0x2FFFFFFFFull, 0x3FFFFFFFEull, (2ull << 32), 0x00000002FFFFFFFEull};
    f = find<Tr>(*t, near);
    for (auto x : f) CHECK(x == W::kNF);
    // A mixed batch with reserved keys: INVALID_KEY there, the rest done.
    Bytes ops = {WX_OP_FIND, WX_OP_ERASE, WX_OP_INSERT, WX_OP_FIND, WX_OP_INSERT_OR_ASSIGN};
    std::vector<K> mk = {0x1FFFFFFFFull, W::kEmpty, W::kTomb, 1ull << 32, 0x00000001FFFFFFFEull};
    std::vector<K> mv = {7, 8, 9, 10, 0x123456789ABCDEF0ull};
    o = mixed<Tr>(*t, ops, mk, mv, &r);
    CHECK(r.invalid == 2 && o[1] == WX_OUT_INVALID_KEY && o[2] == WX_OUT_INVALID_KEY);
    CHECK(o[0] == WX_OUT_FOUND && mv[0] == v[5]);
    CHECK(o[3] == WX_OUT_FOUND && mv[3] == v[7]);
    CHECK(o[4] == WX_OUT_ASSIGNED);
    CHECK(find<Tr>(*t, {0x00000001FFFFFFFEull})[0] == 0x123456789ABCDEF0ull);
  }
  o = erase<Tr>(*t, k, &r);
  CHECK(r.invalid == 2 && count_eq(o, WX_OUT_ERASED) == k.size() - 2);
  check_clean<Tr>(*t, "edges", 0);
  // n = 1, n = 33 (not a multiple of 32).
  o = insert<Tr>(*t, {K(42)}, {K(43)});
  CHECK(o[0] == WX_OUT_INSERTED && find<Tr>(*t, {K(42)})[0] == K(43));
  std::vector<K> k33(33), v33(33);
  for (uint32_t i = 0; i < 33; ++i) k33[i] = 1000 + i, v33[i] = i;
  o = insert<Tr>(*t, k33, v33);
  CHECK(count_eq(o, WX_OUT_INSERTED) == 33);
  // Empty batches.
  Batch empty;
  empty.stream = g_stream;
  r = t->insert(empty);
  CHECK(r.full == 0 && r.invalid == 0);
  r = t->batch(empty);
  CHECK(r.full == 0 && r.invalid == 0);
  r = t->find(empty);
  CHECK(r.invalid == 0);
  check_clean<Tr>(*t, "edges n", 34);
  if constexpr (Tr::kWide) {
    // Pre-hashed calls stay 32-bit.
    int status = WX_OK;
    try {
      uint64_t h = 0;
      t->hash_keys(nullptr, &h, 0, g_stream);
    } catch (const wx::Error& e) {
      status = e.status();
    }
    CHECK(status == WX_ERR_UNSUPPORTED);
  }
  std::printf("ok edges\n");
}

// Every key several times in one insert batch: exactly one INSERTED per key; erase likewise.
template <class Tr>
void test_duplicates(size_t distinct, int copies) {
  using K = typename Width<Tr>::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 3));
  auto t = make<Tr>(distinct * 2, 0.8, WX_GROW_AUTO);
  const std::vector<K> base = unique_keys<Tr>(r, distinct);
  std::vector<K> k, v;
  for (int c = 0; c < copies; ++c)
    for (auto x : base) k.push_back(x), v.push_back(~x);
  shuffle_together(r, k, v);
  Bytes o = insert<Tr>(*t, k, v);
  CHECK(count_eq(o, WX_OUT_INSERTED) == distinct && count_eq(o, WX_OUT_PRESENT) == k.size() - distinct);
  std::unordered_set<K> ins;
  for (size_t i = 0; i < k.size(); ++i)
    if (o[i] == WX_OUT_INSERTED) CHECK(ins.insert(k[i]).second);
  Oracle<K> oracle;
  for (auto x : base) oracle[x] = ~x;
  expect_exact<Tr>(*t, oracle, "duplicates insert");
  o = erase<Tr>(*t, k);
  CHECK(count_eq(o, WX_OUT_ERASED) == distinct && count_eq(o, WX_OUT_NOT_FOUND) == k.size() - distinct);
  check_clean<Tr>(*t, "duplicates erase", 0);
  std::printf("ok duplicates\n");
}

// 80 keys with one home: 32 fit the neighbourhood, 32 the home's stash bucket, 16 are FULL
// (WX_GROW_NEVER); assign, erase, refill; the home at the start and at the padding end; then the
// same with growth (all 80 land, after a rehash spreads them).
template <class Tr>
void test_collisions() {
  using W = Width<Tr>;
  using K = typename W::K;
  for (int last = 0; last < 2; ++last) {
    auto t = make<Tr>(4096, 0.8, WX_GROW_NEVER);
    const uint64_t nb = t->homes();
    const uint64_t home = last ? nb - 1 : 100;
    const std::vector<K> k = W::keys_with_home(home, nb, 80, last);
    std::vector<K> v(k.size());
    for (size_t i = 0; i < k.size(); ++i) v[i] = k[i] ^ K(0x0F0F0F0F0F0F0F0Full);
    BatchResult r;
    Bytes o = insert<Tr>(*t, k, v, &r);
    CHECK_MSG(count_eq(o, WX_OUT_INSERTED) == 64 && r.full == 16, "inserted %zu full %llu",
              count_eq(o, WX_OUT_INSERTED), ull(r.full));
    CHECK(count_eq(o, WX_OUT_FULL) == 16);
    Oracle<K> oracle;
    for (size_t i = 0; i < k.size(); ++i)
      if (o[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
    expect_exact<Tr>(*t, oracle, "collisions full");
    expect_found<Tr>(*t, oracle, "collisions full");
    wx_stats st{};
    t->stats(&st);
    CHECK_MSG(st.failed_inserts == 16 && st.stash_used == 32, "failed %llu stash %llu", ull(st.failed_inserts),
              ull(st.stash_used));
    std::vector<K> fullk;
    for (size_t i = 0; i < k.size(); ++i)
      if (o[i] == WX_OUT_FULL) fullk.push_back(k[i]);
    for (auto x : find<Tr>(*t, fullk)) CHECK(x == W::kNF);
    // insert_or_assign over neighbourhood and stash keys (thread path and warp path).
    std::vector<K> ak, av;
    for (auto& kv : oracle) ak.push_back(kv.first), av.push_back(kv.second + K(0x100000001ull));
    Bytes ao = assign<Tr>(*t, ak, av);
    CHECK(count_eq(ao, WX_OUT_ASSIGNED) == ak.size());
    for (size_t i = 0; i < ak.size(); ++i) oracle[ak[i]] = av[i];
    expect_found<Tr>(*t, oracle, "collisions assign");
    // Defect 1.7-1 regression: erase items of the home (some in the array, among them with high
    // probability the one in the home slot, some in the stash), insert other keys of the same home:
    // every other key of that home must stay visible.
    std::vector<K> all;
    for (auto& kv : oracle) all.push_back(kv.first);
    const std::vector<K> gone(all.begin(), all.begin() + 16);
    CHECK(count_eq(erase<Tr>(*t, gone), WX_OUT_ERASED) == 16);
    for (auto g : gone) oracle.erase(g);
    for (auto x : find<Tr>(*t, gone)) CHECK(x == W::kNF);
    o = insert<Tr>(*t, fullk, fullk);
    CHECK(count_eq(o, WX_OUT_INSERTED) == fullk.size());
    for (auto x : fullk) oracle[x] = x;
    expect_exact<Tr>(*t, oracle, "collisions refill");
    expect_found<Tr>(*t, oracle, "collisions refill");
  }
  auto t = make<Tr>(4096, 0.8, WX_GROW_AUTO);
  const std::vector<K> k = W::keys_with_home(7, t->homes(), 80, 1);
  BatchResult r;
  const Bytes o = insert<Tr>(*t, k, k, &r);
  CHECK(count_eq(o, WX_OUT_INSERTED) == 80 && r.full == 0 && t->resizes() >= 1);
  Oracle<K> oracle;
  for (auto x : k) oracle[x] = x;
  expect_exact<Tr>(*t, oracle, "collisions grow");
  expect_found<Tr>(*t, oracle, "collisions grow");
  std::printf("ok collisions\n");
}

// Dense table without growth (97 % of the homes, or 105 % for `past_room`): displacement chains,
// FULL at the limit, everything placed is there and nothing else.
template <class Tr>
void test_dense(size_t n, bool past_room) {
  using W = Width<Tr>;
  using K = typename W::K;
  const char* what = past_room ? "full" : "dense";
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, past_room ? 16 : 5));
  auto t = make<Tr>(n, 1.0, WX_GROW_NEVER);
  const uint64_t nb = t->homes();
  const std::vector<K> k = unique_keys<Tr>(r, (size_t)((double)nb * (past_room ? 1.05 : 0.97)));
  std::vector<K> v(k.size());
  for (auto& x : v) x = W::value(r);
  BatchResult res;
  const Bytes o = insert<Tr>(*t, k, v, &res);
  const size_t ins = count_eq(o, WX_OUT_INSERTED), full = count_eq(o, WX_OUT_FULL);
  CHECK_MSG(ins + full == k.size(), "%s: %zu inserted + %zu full != %zu", what, ins, full, k.size());
  CHECK(res.full == full && t->homes() == nb);
  if (past_room) CHECK(full > 0);
  Oracle<K> oracle;
  std::vector<K> fk;
  for (size_t i = 0; i < k.size(); ++i) {
    if (o[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
    else fk.push_back(k[i]);
  }
  wx_stats st{};
  t->stats(&st);
  std::printf("  %s: LF %.3f, %zu full, %llu displacements, %llu stashed\n", what, (double)ins / nb, full,
              ull(st.displacements), ull(st.stash_used));
  CHECK(st.displacements > 0 && st.failed_inserts == full);
  CHECK((double)ins / nb > 0.9);
  expect_exact<Tr>(*t, oracle, what);
  expect_found<Tr>(*t, oracle, what);
  for (auto x : find<Tr>(*t, fk)) CHECK(x == W::kNF);
  std::printf("ok %s\n", what);
}

// Batch sizes around the writing kernels' work cursors (16 segments of whole 32-element rounds, some
// of them empty for small batches) into a table near full, so that many elements take the warp path:
// every element of every batch gets its own outcome, and the content matches the oracle after each
// size's inserts, re-inserts and erases (the cursors are zeroed before every launch).
template <class Tr>
void test_batch_shapes() {
  using W = Width<Tr>;
  using K = typename W::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 41));
  const size_t sizes[] = {1, 31, 32, 33, 511, 512, 513, 1041, 4099, 20011};
  size_t total = 0;
  for (size_t n : sizes) total += n;
  auto t = make<Tr>(total * 8, 1.0, WX_GROW_NEVER);
  const uint64_t nb = t->homes();
  // Fill to 0.88 of the homes first; the shaped batches (half of each erased again) end near 0.94.
  const size_t base = (size_t)((double)nb * 0.88);
  const std::vector<K> all = unique_keys<Tr>(r, base + total);
  std::vector<K> head(all.begin(), all.begin() + base), hv(base);
  Oracle<K> oracle;
  for (size_t i = 0; i < base; ++i) hv[i] = W::value(r), oracle[head[i]] = hv[i];
  Bytes o = insert<Tr>(*t, head, hv);
  CHECK(count_eq(o, WX_OUT_INSERTED) == base);
  size_t at = base;
  for (size_t n : sizes) {
    std::vector<K> k(all.begin() + at, all.begin() + at + n), v(n);
    at += n;
    for (auto& x : v) x = W::value(r);
    o = insert<Tr>(*t, k, v);
    CHECK(o.size() == n);
    for (size_t i = 0; i < n; ++i) {
      CHECK_MSG(o[i] == WX_OUT_INSERTED || o[i] == WX_OUT_FULL, "shape %zu: element %zu outcome %d", n, i, o[i]);
      if (o[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
    }
    // Again: PRESENT where placed. Where not, INSERTED or FULL: a displacement search that met other
    // inserts' locks may find its path once they are gone.
    const Oracle<K> placed = oracle;
    o = insert<Tr>(*t, k, v);
    for (size_t i = 0; i < n; ++i) {
      const bool was = placed.count(k[i]) > 0;
      CHECK_MSG(was ? o[i] == WX_OUT_PRESENT : (o[i] == WX_OUT_INSERTED || o[i] == WX_OUT_FULL),
                "shape %zu: element %zu placed before: %d, outcome %d", n, i, int(was), o[i]);
      if (o[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
    }
    expect_exact<Tr>(*t, oracle, "shape " + std::to_string(n));
    std::vector<K> half;
    for (size_t i = 0; i < n; i += 2) half.push_back(k[i]);
    o = erase<Tr>(*t, half);
    for (size_t i = 0; i < half.size(); ++i) {
      CHECK(o[i] == (oracle.count(half[i]) ? WX_OUT_ERASED : WX_OUT_NOT_FOUND));
      oracle.erase(half[i]);
    }
    expect_exact<Tr>(*t, oracle, "shape " + std::to_string(n) + " erased");
  }
  wx_stats st{};
  t->stats(&st);
  std::printf("  batch shapes: LF %.3f, %llu displacements\n", (double)st.size / nb, ull(st.displacements));
  check_clean<Tr>(*t, "batch shapes", (int64_t)oracle.size());
  std::printf("ok batch shapes\n");
}

// Oracle run: fill to `lf` of the homes, then rounds of insert / assign / erase / find / contains
// batches (with duplicates and absent keys) compared element by element with a host map. No growth,
// so the load factor is the one asked for; a FULL insert (rare: stash bucket full) is an absent key.
template <class Tr>
void test_oracle(size_t n, double lf, uint64_t step) {
  using W = Width<Tr>;
  using K = typename W::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, step));
  auto t = make<Tr>(n, lf, WX_GROW_NEVER);
  const uint64_t nb = t->homes();
  const size_t fill = (size_t)(lf * (double)nb);
  const std::vector<K> pool = unique_keys<Tr>(r, fill + fill / 2);
  std::vector<K> in(pool.begin(), pool.begin() + fill), vals(fill);
  Oracle<K> oracle;
  for (size_t i = 0; i < fill; ++i) vals[i] = W::value(r), oracle[in[i]] = vals[i];
  BatchResult res;
  Bytes o = insert<Tr>(*t, in, vals, &res);
  const size_t placed = count_eq(o, WX_OUT_INSERTED);
  CHECK_MSG(placed + res.full == fill && count_eq(o, WX_OUT_FULL) == res.full && res.invalid == 0,
            "LF %.1f fill: %zu inserted, %llu full of %zu", lf, placed, ull(res.full), fill);
  CHECK_MSG(placed >= fill - fill / 1000, "LF %.1f fill: only %zu of %zu placed", lf, placed, fill);
  for (size_t i = 0; i < fill; ++i)
    if (o[i] != WX_OUT_INSERTED) oracle.erase(in[i]);
  CHECK(t->homes() == nb);
  const std::string where = "oracle LF " + std::to_string(lf);
  expect_exact<Tr>(*t, oracle, where + " fill");
  for (int round = 0; round < 4; ++round) {
    // A batch of random ops over the pool (present and absent keys, repeats allowed) per kind.
    const size_t m = fill / 4 + 1;
    std::vector<K> k(m), v(m);
    for (size_t i = 0; i < m; ++i) k[i] = pool[r.below(pool.size())], v[i] = W::value(r);
    const int kind = round % 4;
    if (kind == 0 || kind == 1) {  // erase, then re-insert; a key may repeat within a batch
      // Which copy of a repeated key gets ERASED / INSERTED is up to the kernel: check per key.
      std::unordered_map<K, std::vector<size_t>> copies;
      for (size_t i = 0; i < m; ++i) copies[k[i]].push_back(i);
      o = erase<Tr>(*t, k);
      for (auto& [key, idx] : copies) {
        const bool had = oracle.erase(key) > 0;
        size_t erased = 0;
        for (size_t i : idx) {
          CHECK_MSG(o[i] == WX_OUT_ERASED || o[i] == WX_OUT_NOT_FOUND, "%s erase: key %llx outcome %d", where.c_str(),
                    ull(key), o[i]);
          erased += o[i] == WX_OUT_ERASED;
        }
        CHECK_MSG(erased == (had ? 1u : 0u), "%s erase: key %llx erased %zu times (present before: %d)", where.c_str(),
                  ull(key), erased, (int)had);
      }
      check_clean<Tr>(*t, where + " erase", (int64_t)oracle.size());
      o = insert<Tr>(*t, k, v);  // every key of the batch is absent now
      for (auto& [key, idx] : copies) {
        size_t inserted = 0, present = 0;
        for (size_t i : idx) {
          CHECK_MSG(o[i] == WX_OUT_INSERTED || o[i] == WX_OUT_PRESENT || o[i] == WX_OUT_FULL,
                    "%s insert: key %llx outcome %d", where.c_str(), ull(key), o[i]);
          if (o[i] == WX_OUT_INSERTED) ++inserted, oracle[key] = v[i];
          present += o[i] == WX_OUT_PRESENT;
        }
        CHECK_MSG(inserted <= 1 && (present == 0 || inserted == 1), "%s insert: key %llx inserted %zu, present %zu",
                  where.c_str(), ull(key), inserted, present);
      }
    } else if (kind == 2) {  // insert_or_assign on distinct keys: ASSIGNED / INSERTED
      std::unordered_set<K> seen;
      std::vector<K> dk, dv;
      for (size_t i = 0; i < m; ++i)
        if (seen.insert(k[i]).second) dk.push_back(k[i]), dv.push_back(v[i]);
      o = assign<Tr>(*t, dk, dv);
      for (size_t i = 0; i < dk.size(); ++i) {
        const bool had = oracle.count(dk[i]) > 0;
        if (!had && o[i] == WX_OUT_FULL) continue;
        CHECK_MSG(o[i] == (had ? WX_OUT_ASSIGNED : WX_OUT_INSERTED), "%s assign: key %llx outcome %d", where.c_str(),
                  ull(dk[i]), o[i]);
        oracle[dk[i]] = dv[i];
      }
    } else {
      const std::vector<K> f = find<Tr>(*t, k);
      const Bytes c = contains<Tr>(*t, k);
      for (size_t i = 0; i < m; ++i) {
        auto it = oracle.find(k[i]);
        const K want = it == oracle.end() ? W::kNF : it->second;
        CHECK_MSG(f[i] == want, "%s find: key %llx got %llx want %llx", where.c_str(), ull(k[i]), ull(f[i]),
                  ull(want));
        CHECK(c[i] == (it != oracle.end() ? 1 : 0));
      }
    }
    expect_exact<Tr>(*t, oracle, where + " round " + std::to_string(round));
  }
  expect_found<Tr>(*t, oracle, where + " end");
  wx_stats st{};
  t->stats(&st);
  CHECK(st.size == oracle.size() && st.capacity == t->homes() && st.last_kernel_ms > 0.0);
  std::printf("ok oracle LF %.1f (n=%zu homes=%llu displacements=%llu stashed=%llu)\n", lf, fill, ull(t->homes()),
              ull(st.displacements), ull(st.stash_used));
}

// Growth from 1000 keys, resize up, resize to the size, resize below the size refused, clear, refill;
// without growth FULL is counted and everything placed is there.
template <class Tr>
void test_growth(size_t n) {
  using W = Width<Tr>;
  using K = typename W::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 8));
  auto t = make<Tr>(1000, 0.9, WX_GROW_AUTO);
  const std::vector<K> k = unique_keys<Tr>(r, n);
  std::vector<K> v(n);
  for (auto& x : v) x = W::value(r);
  BatchResult res;
  Bytes o = insert<Tr>(*t, k, v, &res);
  CHECK_MSG(count_eq(o, WX_OUT_INSERTED) == n && res.full == 0, "growth: %zu of %zu", count_eq(o, WX_OUT_INSERTED), n);
  Oracle<K> oracle;
  for (size_t i = 0; i < n; ++i) oracle[k[i]] = v[i];
  CHECK(t->resizes() >= 1);
  CHECK((double)t->size() <= 0.9 * (double)t->homes());
  expect_exact<Tr>(*t, oracle, "growth");
  expect_found<Tr>(*t, oracle, "growth");
  std::printf("  growth: %zu keys, %llu resizes, %llu homes\n", n, ull(t->resizes()), ull(t->homes()));
  t->resize(n * 4);
  expect_exact<Tr>(*t, oracle, "resize up");
  t->resize(n);
  expect_exact<Tr>(*t, oracle, "resize down");
  expect_found<Tr>(*t, oracle, "resize down");
  int status = WX_OK;
  try {
    t->resize(n / 2);
  } catch (const wx::Error& e) {
    status = e.status();
  }
  CHECK(status == WX_ERR_INVALID_ARGUMENT);
  expect_exact<Tr>(*t, oracle, "resize below size refused");
  t->clear();
  CHECK(t->size() == 0);
  for (auto x : find<Tr>(*t, k)) CHECK(x == W::kNF);
  check_clean<Tr>(*t, "clear", 0);
  o = insert<Tr>(*t, k, v);
  CHECK(count_eq(o, WX_OUT_INSERTED) == n);
  expect_exact<Tr>(*t, oracle, "refill after clear");
  // No growth: FULL counted, everything placed is there.
  auto t2 = make<Tr>(1000, 0.9, WX_GROW_NEVER);
  std::vector<K> k2(k.begin(), k.begin() + std::min<size_t>(n, 4000)), v2(k2.size(), 3);
  o = insert<Tr>(*t2, k2, v2, &res);
  const size_t ins = count_eq(o, WX_OUT_INSERTED);
  CHECK(res.full > 0 && ins + res.full == k2.size() && count_eq(o, WX_OUT_FULL) == res.full);
  CHECK(t2->size() == ins && t2->homes() == t2->capacity());
  check_clean<Tr>(*t2, "grow never", (int64_t)ins);
  std::printf("ok growth\n");
}

// Inserts keys (none present) with random values: every one INSERTED; the oracle gets them.
template <class Tr, class K = typename Width<Tr>::K>
void insert_new(TableT<Tr>& t, const std::vector<K>& keys, wxsuite::Rng& r, Oracle<K>& oracle) {
  std::vector<K> v(keys.size());
  for (auto& x : v) x = Width<Tr>::value(r);
  CHECK(count_eq(insert<Tr>(t, keys, v), WX_OUT_INSERTED) == keys.size());
  for (size_t i = 0; i < keys.size(); ++i) oracle[keys[i]] = v[i];
}

// Growth by batches: each new 32-bit table is laid out in home order from the old one's windows
// (the ordered rehash), the old stash carried over by the protocol; wide tables rehash by the
// protocol. A crowd of one home keeps keys in the stash throughout. Then a resize into a table whose
// one stash bucket cannot take a crowd's overflow: twice the homes are tried until it fits.
template <class Tr>
void test_ordered_rehash(size_t n) {
  using W = Width<Tr>;
  using K = typename W::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 21));
  auto t = make<Tr>(1000, 0.8, WX_GROW_AUTO);
  const std::vector<K> crowd = W::keys_with_home(5, t->homes(), 60, 0);
  Oracle<K> oracle;
  insert_new<Tr>(*t, crowd, r, oracle);
  wx_stats st{};
  t->stats(&st);
  CHECK_MSG(st.stash_used >= 28, "crowd: %llu stashed", ull(st.stash_used));
  const std::unordered_set<K> avoid(crowd.begin(), crowd.end());
  const std::vector<K> k = unique_keys<Tr>(r, n, &avoid);
  const size_t batches = 16;
  for (size_t b = 0; b < batches; ++b) {
    insert_new<Tr>(*t, std::vector<K>(k.begin() + b * n / batches, k.begin() + (b + 1) * n / batches), r, oracle);
  }
  const uint64_t ordered = Tr::kWide ? 0 : t->resizes();
  CHECK_MSG(t->resizes() >= 4 && t->ordered_rehashes() == ordered, "%llu resizes, %llu ordered", ull(t->resizes()),
            ull(t->ordered_rehashes()));
  CHECK((double)t->size() <= 0.8 * (double)t->homes() + 0.5);
  expect_exact<Tr>(*t, oracle, "ordered growth");
  expect_found<Tr>(*t, oracle, "ordered growth");

  // 70 keys of home 0 in the 78 homes that resize(70) asks for: 32 fit the window, 38 overflow into a
  // stash of one 32-slot bucket. The rehash tries 156, 312, ... homes until they fit.
  auto small = make<Tr>(10000, 0.9, WX_GROW_AUTO);
  Oracle<K> po;
  insert_new<Tr>(*small, W::keys_with_home(0, 78, 70, 1), r, po);
  small->resize(70);
  CHECK_MSG(small->homes() >= 156 && small->homes() < 10000, "resize(70) of a pile: %llu homes", ull(small->homes()));
  expect_exact<Tr>(*small, po, "pile resized");
  expect_found<Tr>(*small, po, "pile resized");
  std::printf("ok ordered rehash (%llu resizes, %llu ordered; pile in %llu homes)\n", ull(t->resizes()),
              ull(t->ordered_rehashes()), ull(small->homes()));
}

// Lookups of resident keys in the same launch as inserts that displace them: never missed, and
// the value is the key's own (a move copies the value before the key).
template <class Tr>
void test_lookups_during_moves(size_t n) {
  using K = typename Width<Tr>::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 6));
  auto t = make<Tr>(n, 1.0, WX_GROW_NEVER);
  const uint64_t nb = t->homes();
  const std::vector<K> pre = unique_keys<Tr>(r, (size_t)((double)nb * 0.86));
  std::unordered_set<K> used(pre.begin(), pre.end());
  std::vector<K> pv(pre.size());
  for (size_t i = 0; i < pre.size(); ++i) pv[i] = K(pre[i] * 0x9E3779B97F4A7C15ull + 1);
  CHECK(count_eq(insert<Tr>(*t, pre, pv), WX_OUT_INSERTED) == pre.size());
  wx_stats s0{};
  t->stats(&s0);
  const std::vector<K> add = unique_keys<Tr>(r, (size_t)((double)nb * 0.08), &used);
  Bytes ops;
  std::vector<K> keys, vals;
  for (auto x : add) ops.push_back(WX_OP_INSERT), keys.push_back(x), vals.push_back(~x);
  for (int rep = 0; rep < 2; ++rep)
    for (size_t i = 0; i < pre.size(); ++i) ops.push_back(WX_OP_FIND), keys.push_back(pre[i]), vals.push_back(0);
  for (size_t i = keys.size() - 1; i > 0; --i) {
    const size_t j = r.below(i + 1);
    std::swap(keys[i], keys[j]);
    std::swap(ops[i], ops[j]);
    std::swap(vals[i], vals[j]);
  }
  const Bytes o = mixed<Tr>(*t, ops, keys, vals);
  Oracle<K> oracle;
  for (size_t i = 0; i < pre.size(); ++i) oracle[pre[i]] = pv[i];
  size_t full = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (ops[i] == WX_OP_FIND) {
      CHECK_MSG(o[i] == WX_OUT_FOUND, "resident key %llx missed during moves (outcome %d)", ull(keys[i]), o[i]);
      CHECK_MSG(vals[i] == oracle[keys[i]], "resident key %llx: value %llx, expected %llx", ull(keys[i]),
                ull(vals[i]), ull(oracle[keys[i]]));
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
              ull(s1.displacements - s0.displacements), full);
  CHECK(s1.displacements > s0.displacements);
  expect_exact<Tr>(*t, oracle, "lookups during moves");
  std::printf("ok lookups_during_moves\n");
}

// `universe` distinct keys for the mixed tests: random at 32 bits; at 64 bits keys above 2^32 whose
// low halves cycle through the 32-bit sentinels.
template <class Tr, class K = typename Width<Tr>::K>
std::vector<K> universe_keys(wxsuite::Rng& r, size_t universe) {
  if constexpr (Tr::kWide) {
    std::vector<K> u(universe);
    for (uint64_t i = 0; i < universe; ++i) {
      const uint32_t low = i % 3 == 0 ? 0xFFFFFFFFu : i % 3 == 1 ? 0xFFFFFFFEu : (uint32_t)i;
      u[i] = ((i + 1) << 32) | low;
    }
    return u;
  } else {
    return unique_keys<Tr>(r, universe);
  }
}

// Concurrent mixed batches of n ops over `universe` keys (hot when small), each checked per key
// (suite/linearizability.hpp, check_batch): some sequential order of the key's ops, from the state
// before the batch, explains every outcome, every found value and the state after; values are unique
// per op, so a torn or foreign value fails; keys without ops keep their state; only FOUND finds write
// their value slot. group > 0: the table runs mixed batches with that many rounds per
// warp chunk at any batch size (wx_config.mixed_group), so small cases, the sanitizer runs'
// included, take the grouped path.
template <class Tr>
void test_mixed(size_t n, size_t universe, int p_ins, int p_del, int p_find, uint64_t step, int batches,
                int group = 0) {
  using W = Width<Tr>;
  using K = typename W::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, step));
  Tuning tuning;
  tuning.mixed_group = group;  // 0: by batch size
  auto t = make<Tr>(universe, 0.8, WX_GROW_AUTO, tuning);
  const std::vector<K> u = universe_keys<Tr>(r, universe);
  Oracle<K> state;
  std::vector<K> pk, pv;
  for (size_t i = 0; i < universe; i += 2) pk.push_back(u[i]), pv.push_back(W::value(r)), state[u[i]] = pv.back();
  CHECK(count_eq(insert<Tr>(*t, pk, pv), WX_OUT_INSERTED) == pk.size());
  const int total = p_ins + p_del + p_find;
  const std::string where = "mixed universe " + std::to_string(universe);
  for (int bi = 0; bi < batches; ++bi) {
    Bytes ops(n);
    std::vector<K> keys(n), vals(n);
    for (size_t i = 0; i < n; ++i) {
      keys[i] = u[r.below(universe)];
      const int x = (int)r.below(total);
      ops[i] = x < p_ins ? (r.below(2) ? WX_OP_INSERT : WX_OP_INSERT_OR_ASSIGN) : x < p_ins + p_del ? WX_OP_ERASE : WX_OP_FIND;
      // Unique per op (an odd multiplier is a bijection at either width), varying per batch.
      vals[i] = K(((uint64_t)(bi + 1) << 56) ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull) ^ (0x5A5A0000A5A5ull * (bi + 1)));
      if (vals[i] == W::kNF) vals[i] ^= 1;  // find's answer must tell present from absent
    }
    const std::vector<K> in_vals = vals;
    BatchResult res;
    const Bytes o = mixed<Tr>(*t, ops, keys, vals, &res);
    CHECK(res.full == 0 && res.invalid == 0);
    // State after: find (values) and contains (presence) of the whole universe.
    const std::vector<K> fv = find<Tr>(*t, u);
    const Bytes present = contains<Tr>(*t, u);
    wxsuite::MapStateT<K> before, after;
    before.map = state;
    for (size_t j = 0; j < universe; ++j) {
      CHECK_MSG((fv[j] != W::kNF) == (present[j] == 1), "key %llx: find and contains disagree", ull(u[j]));
      if (present[j]) after.map[u[j]] = fv[j];
    }
    // Keys without ops keep their state: checked with the batch (check_batch).
    wxsuite::BatchRecordT<K> rec;
    rec.ops = ops.data();
    rec.keys = keys.data();
    rec.values_before = in_vals.data();
    rec.values_after = vals.data();
    rec.outcomes = o.data();
    rec.n = n;
    const wxsuite::Verdict verdict = wxsuite::check_batch(rec, before, after);
    if (!verdict.ok) wxsuite::print_verdict(verdict, (where + " batch " + std::to_string(bi)).c_str());
    CHECK(verdict.ok);
    state = after.map;
    expect_exact<Tr>(*t, state, where);
  }
  std::printf("ok mixed n=%zu universe=%zu [%d,%d,%d] x%d%s\n", n, universe, p_ins, p_del, p_find, batches,
              group > 0 ? (" group " + std::to_string(group)).c_str() : "");
}

// Through the public C API with host arrays (staged at the table's width) and device arrays: insert,
// find with the full-width not_found, batch, erase, retrieve_all, size; at 64 bits pre-hashed calls
// refused.
template <class Tr>
void test_c_api(size_t n) {
  using W = Width<Tr>;
  using K = typename W::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 40));
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_GLHT));
  c.key_bits = c.value_bits = W::kBits;
  c.capacity = 64;  // grows during the inserts
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  const std::vector<K> k = unique_keys<Tr>(r, n);
  std::vector<K> v(n);
  for (auto& x : v) x = W::value(r);
  Bytes o(n);
  CHECK_OK(wx_insert(t, k.data(), v.data(), n, o.data(), WX_MEM_HOST, nullptr));
  CHECK(count_eq(o, WX_OUT_INSERTED) == n);
  uint64_t size = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK(size == n);
  std::unordered_set<K> have(k.begin(), k.end());
  std::vector<K> probe(k.begin(), k.begin() + n / 2), absent = unique_keys<Tr>(r, n / 2, &have);
  for (auto x : absent) probe.push_back(x);
  std::vector<K> got(probe.size());
  CHECK_OK(wx_find(t, probe.data(), got.data(), probe.size(), W::kNF, WX_MEM_HOST, nullptr));
  Oracle<K> oracle;
  for (size_t i = 0; i < n; ++i) oracle[k[i]] = v[i];
  for (size_t i = 0; i < probe.size(); ++i) {
    auto it = oracle.find(probe[i]);
    CHECK(got[i] == (it == oracle.end() ? W::kNF : it->second));
  }
  // Device arrays.
  Dev<K> dk(probe), dv(probe.size());
  CHECK_OK(wx_find(t, dk.p, dv.p, probe.size(), W::kNF, WX_MEM_DEVICE, nullptr));
  CHECK(dv.get() == got);
  // A mixed batch: assign the first key, erase the second, find the third, reserved key rejected.
  Bytes ops = {WX_OP_INSERT_OR_ASSIGN, WX_OP_ERASE, WX_OP_FIND, WX_OP_INSERT};
  const K assigned = K(0x1111222233334444ull);
  std::vector<K> bk = {k[0], k[1], k[2], W::kEmpty}, bv = {assigned, 0, 0, 5};
  Bytes bo(4);
  CHECK_STATUS(wx_batch(t, ops.data(), bk.data(), bv.data(), 4, bo.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(bo[0] == WX_OUT_ASSIGNED && bo[1] == WX_OUT_ERASED && bo[2] == WX_OUT_FOUND && bo[3] == WX_OUT_INVALID_KEY);
  CHECK(bv[2] == v[2]);
  oracle[k[0]] = assigned;
  oracle.erase(k[1]);
  // retrieve_all into host arrays equals the oracle.
  CHECK_OK(wx_size(t, &size));
  CHECK(size == oracle.size());
  std::vector<K> rk(size), rv(size);
  uint64_t count = 0;
  CHECK_OK(wx_retrieve_all(t, rk.data(), rv.data(), size, &count, WX_MEM_HOST, nullptr));
  CHECK(count == size);
  std::unordered_set<K> seen;
  for (uint64_t i = 0; i < count; ++i) {
    auto it = oracle.find(rk[i]);
    CHECK_MSG(it != oracle.end() && it->second == rv[i] && seen.insert(rk[i]).second, "retrieve_all pair %llx",
              ull(rk[i]));
  }
  CHECK_OK(wx_erase(t, k.data(), n, o.data(), WX_MEM_HOST, nullptr));
  CHECK(count_eq(o, WX_OUT_ERASED) == n - 1 && o[1] == WX_OUT_NOT_FOUND);
  CHECK_OK(wx_size(t, &size));
  CHECK(size == 0);
  if constexpr (Tr::kWide) {
    std::vector<uint64_t> h(n);
    CHECK_STATUS(wx_hash_keys(t, k.data(), h.data(), n, WX_MEM_HOST, nullptr), WX_ERR_UNSUPPORTED);
  }
  CHECK_OK(wx_table_destroy(t));
  std::printf("ok c_api\n");
}

// Out of device memory during growth: WX_ERR_OUT_OF_MEMORY, the table intact and usable.
template <class Tr>
void test_oom() {
  using K = typename Width<Tr>::K;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 9));
  const size_t n = size_t(1) << 20;
  auto t = make<Tr>(n, 0.9, WX_GROW_AUTO);
  const std::vector<K> k = unique_keys<Tr>(r, 2 * n);
  std::vector<K> k1(k.begin(), k.begin() + n), k2(k.begin() + n, k.end());
  auto o = insert<Tr>(*t, k1, k1);
  CHECK(count_eq(o, WX_OUT_INSERTED) == n);
  // Hold almost all free device memory (the batch buffers below are allocated first).
  Dev<K> dk(k2), dv(k2);
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
  o = doc.get();
  Oracle<K> oracle;
  for (auto x : k1) oracle[x] = x;
  for (size_t i = 0; i < n; ++i) {
    CHECK(o[i] == WX_OUT_INSERTED || o[i] == WX_OUT_FULL);
    if (o[i] == WX_OUT_INSERTED) oracle[k2[i]] = k2[i];
  }
  CHECK(count_eq(o, WX_OUT_FULL) > 0);
  expect_exact<Tr>(*t, oracle, "after oom");
  // Usable: the FULL ones go in now that memory is back.
  t->insert(b);
  for (auto x : k2) oracle[x] = x;
  expect_exact<Tr>(*t, oracle, "after oom retry");
  std::printf("ok oom\n");
}

// ------------------------------------------------------------------------------------------------
// Throughput probe (32-bit table).
using wx::glht::Narrow;

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
  auto t = make<Narrow>(n, 0.8, WX_GROW_NEVER);  // no rehash inside timed calls
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
  f.not_found = Width<Narrow>::kNF;
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
  CHECK(count_eq(doc.get(), 1) == n);
  f.keys = dk.p;
  t->find(f);
  auto fv = dout.get();
  for (size_t i = 0; i < n; ++i) CHECK(fv[i] == vals[i]);
  Batch e;
  e.stream = g_stream;
  e.n = n;
  e.keys = dk.p;
  e.outcomes = doc.p;
  t->erase(e);
  double g_er = gops(n);
  CHECK(t->size() == 0 && count_eq(doc.get(), WX_OUT_ERASED) == n);
  double g_ins2 = ins();
  check_clean<Narrow>(*t, "perf fill", (int64_t)n);
  t->stats(&st);
  std::printf("PERF n=2^%d homes=%llu LF=%.3f displacements=%llu stashed=%llu\n", log2n, ull(st.capacity),
              (double)n / st.capacity, ull(st.displacements), ull(st.stash_used));
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
    check_clean<Narrow>(*t, "perf mixed");
  }
  std::printf("PERF insert %.2f (refill %.2f) | find present %.2f | find absent %.2f | contains %.2f | erase %.2f | "
              "mixed[20,20,60] %.2f | mixed[40,40,20] %.2f  G ops/s (kernel time)\n",
              g_ins, g_ins2, g_fp, g_fa, g_c, g_er, g_mix[0], g_mix[1]);
}

// ---- bulk build (glht_build.cu, both widths): inserts into an empty table placed by sorting.
// Tables made with wx_config.build_min = 1 build every insert batch into an empty table, whatever
// its size. Wide tables sort batch indices and read keys and values when placing; their exception
// set of 8-byte keys is allocated when a batch has exceptions.

// Checks a batch's insert outcomes against its keys: per user key exactly one INSERTED whose value
// the table holds, every other copy PRESENT, reserved keys INVALID_KEY.
template <class Tr, class K = typename Width<Tr>::K>
void expect_insert_outcomes(TableT<Tr>& t, const std::vector<K>& k, const std::vector<K>& v, const Bytes& o,
                            Oracle<K>& oracle, const char* where) {
  std::unordered_map<K, size_t> winner;
  for (size_t i = 0; i < k.size(); ++i) {
    if (!Tr::is_user(k[i])) {
      CHECK_MSG(o[i] == WX_OUT_INVALID_KEY, "%s: reserved key %llx outcome %d", where, ull(k[i]), o[i]);
    } else if (o[i] == WX_OUT_INSERTED) {
      CHECK_MSG(winner.emplace(k[i], i).second, "%s: key %llx INSERTED twice", where, ull(k[i]));
      oracle[k[i]] = v[i];
    } else {
      CHECK_MSG(o[i] == WX_OUT_PRESENT, "%s: key %llx outcome %d", where, ull(k[i]), o[i]);
    }
  }
  for (size_t i = 0; i < k.size(); ++i)
    if (Tr::is_user(k[i])) CHECK_MSG(winner.count(k[i]), "%s: no copy of key %llx INSERTED", where, ull(k[i]));
  expect_exact<Tr>(t, oracle, where);
}

template <class Tr>
void test_bulk_build(size_t n) {
  using K = typename Width<Tr>::K;
  using W = Width<Tr>;
  wxsuite::Rng r(wxsuite::sub_seed(g_seed, 20));
  Tuning build_all;
  build_all.build_min = 1;
  build_all.any_fill = true;
  auto make_b = [&](uint64_t capacity, double lf, int grow) { return make<Tr>(capacity, lf, grow, build_all); };
  // The fill rule: 32-bit tables build at every fill, wide ones only from kWideBuildMinFill.
  for (double lf : {0.5, 0.8, 0.9, 0.95}) {
    Tuning rule;
    rule.build_min = 1;
    auto t = make<Tr>(n, lf, WX_GROW_AUTO, rule);
    auto k = unique_keys<Tr>(r, n);
    Oracle<K> oracle;
    auto o = insert<Tr>(*t, k, k);
    const uint64_t want = !Tr::kWide || lf >= wx::glht::kWideBuildMinFill;
    CHECK_MSG(t->builds() == want, "lf %.2f: %llu builds, want %llu", lf, ull(t->builds()), ull(want));
    expect_insert_outcomes<Tr>(*t, k, k, o, oracle, "build fill rule");
  }
  // Unique keys at four fills, then erase everything and build again (versions are no longer 0).
  for (double lf : {0.5, 0.8, 0.9, 0.95}) {
    auto t = make_b(n, lf, WX_GROW_AUTO);
    Oracle<K> oracle;
    for (int round = 1; round <= 2; ++round) {
      auto k = unique_keys<Tr>(r, n);
      std::vector<K> v(n);
      for (auto& x : v) x = W::value(r);
      auto o = insert<Tr>(*t, k, v);
      CHECK_MSG(t->builds() == (uint64_t)round, "lf %.1f: %llu builds", lf, ull(t->builds()));
      expect_insert_outcomes<Tr>(*t, k, v, o, oracle, "build unique");
      CHECK(count_eq(erase<Tr>(*t, k), WX_OUT_ERASED) == n);
      oracle.clear();
      check_clean<Tr>(*t, "build erased", 0);
    }
  }
  // Duplicates (a quarter of the keys come 2-5 times, each copy with its own value) and reserved
  // keys, shuffled.
  {
    auto t = make_b(n, 0.8, WX_GROW_AUTO);
    auto base = unique_keys<Tr>(r, n / 2);
    std::vector<K> k, v;
    for (auto x : base)
      for (int c = r.below(4) ? 1 : 2 + (int)r.below(4); c > 0; --c) k.push_back(x), v.push_back(W::value(r));
    for (int i = 0; i < 40; ++i) k.push_back(i & 1 ? W::kEmpty : W::kTomb), v.push_back(i);
    shuffle_together(r, k, v);
    BatchResult res;
    Oracle<K> oracle;
    auto o = insert<Tr>(*t, k, v, &res);
    CHECK_MSG(t->builds() == 1 && res.invalid == 40, "builds %llu invalid %llu", ull(t->builds()), ull(res.invalid));
    expect_insert_outcomes<Tr>(*t, k, v, o, oracle, "build duplicates");
  }
  // Overflowing windows: 80 keys of one home among random keys. 32 are placed by the build; the rest
  // go to the normal passes (displacement, stash). Key 0 of the run comes again last (its first copy
  // is placed, the second overflows) and key 40 twice (both copies overflow).
  for (int last = 0; last < 2; ++last) {
    auto t = make_b(n, 0.8, WX_GROW_AUTO);
    const uint64_t nb = t->homes();
    auto crowd = W::keys_with_home(last ? nb - 1 : nb / 2, nb, 80, 0);
    std::unordered_set<K> avoid(crowd.begin(), crowd.end());
    auto k = unique_keys<Tr>(r, n / 2, &avoid);
    k.insert(k.end(), crowd.begin(), crowd.end());
    k.push_back(crowd[0]);
    k.push_back(crowd[40]);
    std::vector<K> v(k.size());
    for (auto& x : v) x = W::value(r);
    Oracle<K> oracle;
    auto o = insert<Tr>(*t, k, v);
    CHECK(t->builds() == 1);
    expect_insert_outcomes<Tr>(*t, k, v, o, oracle, "build overflow");
  }
  // The same crowd with WX_GROW_NEVER in a small table: 32 in the window, 32 in the stash, 16 FULL.
  {
    auto t = make_b(4096, 0.8, WX_GROW_NEVER);
    auto k = W::keys_with_home(100, t->homes(), 80, 0);
    BatchResult res;
    auto o = insert<Tr>(*t, k, k, &res);
    CHECK_MSG(t->builds() == 1 && count_eq(o, WX_OUT_INSERTED) == 64 && res.full == 16 && count_eq(o, WX_OUT_FULL) == 16,
              "builds %llu inserted %zu full %llu", ull(t->builds()), count_eq(o, WX_OUT_INSERTED), ull(res.full));
    check_clean<Tr>(*t, "build crowd full", 64);
    wx_stats st{};
    t->stats(&st);
    CHECK_MSG(st.stash_used == 32, "stash %llu", ull(st.stash_used));
  }
  // A table made for 1000 keys takes n at once: resized before the build, not grown by doublings.
  {
    auto t = make_b(1000, 0.8, WX_GROW_AUTO);
    auto k = unique_keys<Tr>(r, n);
    std::vector<K> v(n);
    for (auto& x : v) x = W::value(r);
    Oracle<K> oracle;
    auto o = insert<Tr>(*t, k, v);
    CHECK_MSG(t->builds() == 1 && t->resizes() == 1, "builds %llu resizes %llu", ull(t->builds()), ull(t->resizes()));
    expect_insert_outcomes<Tr>(*t, k, v, o, oracle, "build after resize");
  }
  // 3n/4 copies of 8 keys: more exceptional keys than the build tracks (half of the largest power
  // of two <= 2 x 3n/4, i.e. n/2), so the table is given back empty and the batch runs the normal way.
  {
    const size_t m = n / 4 * 3;
    auto t = make_b(m, 0.8, WX_GROW_AUTO);
    std::vector<K> k(m), v(m);
    auto few = unique_keys<Tr>(r, 8);
    for (size_t i = 0; i < m; ++i) k[i] = few[r.below(8)], v[i] = W::value(r);
    Oracle<K> oracle;
    auto o = insert<Tr>(*t, k, v);
    CHECK_MSG(t->builds() == 0, "builds %llu", ull(t->builds()));
    expect_insert_outcomes<Tr>(*t, k, v, o, oracle, "build given up");
  }
  std::printf("ok bulk build (%d-bit)\n", W::kBits);
}

// Every test of one width. n: keys of the large cases.
template <class Tr>
void run_all(const wxsuite::Env& env, size_t n) {
  if (env.wants("build")) test_bulk_build<Tr>(n);
  if (!env.wants("core")) return;  // WIXLIB_PARTS=build: the bulk build only (compute-sanitizer)
  test_edges<Tr>();
  test_c_api<Tr>(env.small ? 5000 : 200000);
  test_basic<Tr>(n);
  test_duplicates<Tr>(env.small ? 500 : 4000, env.small ? 16 : 64);
  test_collisions<Tr>();
  test_dense<Tr>(n, false);
  test_dense<Tr>(n, true);
  test_batch_shapes<Tr>();
  uint64_t step = 20;
  for (double lf : {0.5, 0.8, 0.9}) test_oracle<Tr>(n, lf, ++step);
  test_lookups_during_moves<Tr>(n);
  test_mixed<Tr>(n, n / 4, 20, 20, 60, 11, 2);
  test_mixed<Tr>(n, n / 4, 40, 40, 20, 12, 2);
  test_mixed<Tr>(n, n / 4, 20, 20, 60, 14, 1, 8);  // grouped by op kind, 8 rounds per warp
  test_mixed<Tr>(n / 16, 64, 40, 40, 20, 13, 1);   // hot keys
  test_mixed<Tr>(n / 16, 64, 40, 40, 20, 15, 1, 8);
  test_mixed<Tr>(n / 4, 101, 40, 40, 20, 33, 3);   // hot keys [0,100]
  test_mixed<Tr>(n / 4, 1001, 40, 40, 20, 34, 3);  // hot keys [0,1000]
  test_mixed<Tr>(n / 4, 101, 20, 20, 60, 35, 3);
  test_growth<Tr>(env.small ? 20000 : 300000);
  test_ordered_rehash<Tr>(n);
  // test_oom holds nearly all free device memory for a moment: GLHT_SKIP_OOM=1 when GPU tests run
  // in parallel on one device.
  if (!env.small && !wxsuite::glht_skip_oom()) test_oom<Tr>();
}

}  // namespace

int main() {
  using Tr = std::conditional_t<WX_TEST_KEY_BITS == 64, wx::glht::Wide, wx::glht::Narrow>;
  wxtest::require_cuda_device();
  const wxsuite::Env env = wxsuite::read_env(Width<Tr>::name());
  g_seed = env.seed;
  CUDA_OK(cudaStreamCreate(&g_stream));
  const size_t n = env.small ? (Tr::kWide ? size_t(1) << 14 : size_t(1) << 16) : (size_t(1) << 20);
  try {
    if constexpr (!Tr::kWide) {
      if (wxsuite::glht_only_perf()) {
        const int log2n = wxsuite::glht_perf_log2();
        perf(log2n > 0 ? log2n : 26);
        return 0;
      }
    }
    run_all<Tr>(env, n);
    if constexpr (!Tr::kWide) {
      if (env.wants("core") && wxsuite::glht_perf_log2() > 0) perf(wxsuite::glht_perf_log2());
    }
  } catch (const wx::Error& e) {
    std::fprintf(stderr, "FAIL: wx::Error %d: %s\n", (int)e.status(), e.what());
    return 1;
  }
  cudaStreamDestroy(g_stream);
  std::printf("%s: all passed\n", Width<Tr>::name());
  return 0;
}
