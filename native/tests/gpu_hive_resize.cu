// Hive linear-hashing resize (hive/DESIGN.md "Resize"), written once over the key width and built twice:
// gpu_hive_resize (HiveTable, 32-bit keys and values) and gpu_hive_resize_64 (HiveTable64),
// WX_TEST_KEY_BITS choosing. Covered: explicit resizes through several levels up and down with the
// split pointer wrapping (keys found after each, a shrink that cannot proceed stops cleanly); grow/
// shrink cycles under mixed load against a host oracle (no key lost, duplicated or changed); growth
// from a small table by inserts then shrink back by erases, checked against a host oracle; growth from
// 2^10 to 2^LOG keys by inserts alone then shrink back by erases, checked on the device (LOG = 27 by
// default; argv[1] overrides). validate() (every structural invariant) runs after each step.
// WIXLIB_SMALL=1 (suite/env.hpp): small sizes (compute-sanitizer).
#include <algorithm>
#include <chrono>
#include <cstring>

#include "gpu_hive_util.cuh"

using namespace hivetest;

namespace {

bool g_small = false;

// Explicit resizes through several levels up and down; keys found after each step.
template <class K>
void split_pointer_rounds() {
  Stream st;
  TableOf<K> t(config(64, 0.9, 0.0, WX_GROW_AUTO, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  const uint64_t n = 3000;
  auto keys = keys_of<K>(n, 11);
  std::vector<K> vals(n);
  OracleT<K> oracle;
  for (uint64_t i = 0; i < n; ++i) oracle[keys[i]] = vals[i] = static_cast<K>(i) ^ K(0x1234);
  Dev<K> dk(keys), dv(vals);
  o.insert(dk, &dv, nullptr);
  VALID(t);
  const uint64_t caps[] = {3000, 3100, 3500, 4097, 6000, 9000, 20000, 70000, 131072, 20000, 9000, 5000, 3333, 3000, 3001, 3100, 4097};
  uint32_t last = t.active_buckets();
  int level_changes = 0;
  for (uint64_t c : caps) {
    t.resize(c);
    const uint32_t nb = t.active_buckets();
    const auto lvl = [](uint32_t x) { int l = 0; while ((2u << l) <= x) ++l; return l; };
    if (lvl(nb) != lvl(last)) ++level_changes;
    last = nb;
    VALID(t);
    auto f = o.find(dk);
    for (uint64_t i = 0; i < n; ++i) CHECK_MSG(f[i] == vals[i], "after resize(%llu): key %llx lost", (unsigned long long)c, ull(keys[i]));
  }
  CHECK_MSG(level_changes >= 4, "only %d level changes", level_changes);
  same_contents(o, oracle, "resizes");
  bool threw = false;
  try {
    t.resize(10);
  } catch (const wx::Error& e) {
    threw = e.status() == WX_ERR_INVALID_ARGUMENT;
  }
  CHECK(threw);
  // a shrink that cannot proceed (merged pairs would not fit) stops cleanly
  TableOf<K> u(config(1 << 14, 1.0, 0.0, WX_GROW_AUTO, 8 * sizeof(K)));
  OpsT<K> ou{u, st.s};
  auto k2 = keys_of<K>(static_cast<uint64_t>(0.95 * u.capacity()), 12);
  Dev<K> dk2(k2);
  ou.insert(dk2, &dk2, nullptr);
  const uint32_t before = u.active_buckets();
  u.resize(k2.size());  // asks for fewer buckets than the keys could be merged into: partial at most
  VALID(u);
  auto f2 = ou.find(dk2);
  for (uint64_t i = 0; i < k2.size(); ++i) CHECK(f2[i] == k2[i]);
  std::printf("split pointer rounds ok (%d level changes; stuck shrink %u -> %u buckets)\n", level_changes,
              before, u.active_buckets());
}

// Cycles of a mixed batch of inserts (grows past max LF), then one of erases (shrinks below min LF),
// each checked against a host oracle: 1000 at 32 bits, 300 at 64, 20 in small runs.
template <class K>
void grow_shrink_cycles() {
  Stream st;
  TableOf<K> t(config(256, 0.9, 0.3, WX_GROW_AUTO, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  OracleT<K> oracle;
  std::mt19937 rng(21);
  uint64_t grows = 0, shrinks = 0;
  const int cycles = g_small ? 20 : sizeof(K) == 4 ? 1000 : 300;
  std::vector<K> pool = keys_of<K>(g_small ? 1 << 16 : 1 << 21, 77);  // fresh keys, taken from the back
  for (int cycle = 0; cycle < cycles; ++cycle) {
    for (int phase = 0; phase < 2; ++phase) {
      const uint64_t n = 1024 + rng() % 2048;
      std::vector<uint8_t> ops(n);
      std::vector<K> keys(n), vals(n);
      std::vector<K> present;
      present.reserve(oracle.size());
      for (auto& kv : oracle) present.push_back(kv.first);
      for (uint64_t i = 0; i < n; ++i) {
        const uint32_t r = rng() % 100;
        if (phase == 0) {  // mostly new keys: grows
          ops[i] = r < 70 ? WX_OP_INSERT : r < 85 ? WX_OP_INSERT_OR_ASSIGN : r < 95 ? WX_OP_FIND : WX_OP_ERASE;
        } else {  // mostly erases of present keys: shrinks
          ops[i] = r < 85 ? WX_OP_ERASE : WX_OP_FIND;
        }
        const bool fresh = phase == 0 && (ops[i] == WX_OP_INSERT || ops[i] == WX_OP_INSERT_OR_ASSIGN) && r % 3 != 0;
        if (fresh || present.empty()) {
          CHECK(!pool.empty());
          keys[i] = pool.back();
          pool.pop_back();
        } else {
          keys[i] = present[rng() % present.size()];
        }
        vals[i] = static_cast<K>(rng());
      }
      // Keys repeat inside a batch only when drawn from `present` twice; make each key appear once
      // so the oracle is sequential (same-key concurrency is covered by gpu_hive_invariants).
      std::unordered_map<K, int> seen;
      for (uint64_t i = 0; i < n; ++i)
        if (seen[keys[i]]++) ops[i] = WX_OP_FIND;
      const uint32_t nb_before = t.active_buckets();
      Dev<uint8_t> dops(ops);
      Dev<K> dk(keys), dv(vals);
      auto out = o.mixed(dops, dk, dv);
      auto hv = dv.get();
      // FIND elements of repeated keys run concurrently with that key's one update: accept either
      OracleT<K> prev = oracle;
      for (uint64_t i = 0; i < n; ++i) {
        const K k = keys[i];
        switch (ops[i]) {
          case WX_OP_INSERT:
            if (prev.count(k)) CHECK_MSG(out[i] == WX_OUT_PRESENT, "cycle %d: insert of present key %llx gave %d", cycle, ull(k), out[i]);
            else {
              CHECK_MSG(out[i] == WX_OUT_INSERTED, "cycle %d: insert of new key %llx gave %d", cycle, ull(k), out[i]);
              oracle[k] = vals[i];
            }
            break;
          case WX_OP_INSERT_OR_ASSIGN:
            CHECK(out[i] == (prev.count(k) ? WX_OUT_ASSIGNED : WX_OUT_INSERTED));
            oracle[k] = vals[i];
            break;
          case WX_OP_ERASE:
            CHECK(out[i] == (prev.count(k) ? WX_OUT_ERASED : WX_OUT_NOT_FOUND));
            oracle.erase(k);
            break;
          default:
            if (seen[k] == 1) {
              CHECK(out[i] == (prev.count(k) ? WX_OUT_FOUND : WX_OUT_NOT_FOUND));
              if (prev.count(k)) CHECK(hv[i] == prev[k]);
            }
            break;
        }
      }
      const uint32_t nb_after = t.active_buckets();
      if (nb_after > nb_before) ++grows;
      if (nb_after < nb_before) ++shrinks;
      CHECK(t.size() == oracle.size());
    }
    if (cycle % 25 == 24 || cycle == cycles - 1) {
      VALID(t);
      same_contents(o, oracle, "grow/shrink cycles");
    }
  }
  std::printf("%d grow/shrink cycles ok: %llu grows, %llu shrinks, final %zu keys in %u buckets\n", cycles,
              (unsigned long long)grows, (unsigned long long)shrinks, oracle.size(), t.active_buckets());
  // A tenth of the cycles grow and shrink at least (at 32 bits more than that: > 100 of 1000).
  const uint64_t need = uint64_t(cycles) / 10 + (sizeof(K) == 4 ? 1 : 0);
  CHECK_MSG(grows >= need && shrinks >= need, "%llu grows, %llu shrinks of %d cycles", (unsigned long long)grows,
            (unsigned long long)shrinks, cycles);
}

// Growth from a small table by inserts alone (n / 16 per batch), then shrink back by erases, checked
// against a host oracle: every outcome, the contents after growing, finds halfway down.
template <class K>
void grow_and_shrink_checked() {
  Stream st;
  TableOf<K> t(config(1 << 10, 0.9, 0.25, WX_GROW_AUTO, 8 * sizeof(K)));
  OpsT<K> o{t, st.s};
  const uint64_t n = g_small ? 1 << 15 : 1 << 21;
  auto keys = keys_of<K>(n, 40);
  std::vector<K> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = ~keys[i];
  OracleT<K> oracle;
  const uint64_t batch = n / 16;
  for (uint64_t off = 0; off < n; off += batch) {
    Dev<K> dk(std::vector<K>(keys.begin() + off, keys.begin() + off + batch));
    Dev<K> dv(std::vector<K>(vals.begin() + off, vals.begin() + off + batch));
    Dev<uint8_t> out(batch);
    auto r = o.insert(dk, &dv, &out);
    CHECK(r.full == 0 && r.invalid == 0);
    for (uint8_t x : out.get()) CHECK(x == WX_OUT_INSERTED);
    for (uint64_t i = off; i < off + batch; ++i) oracle[keys[i]] = vals[i];
  }
  CHECK(t.size() == n);
  const uint32_t grown = t.active_buckets();
  wx_stats s{};
  t.stats(&s);
  CHECK_MSG(s.resizes > 0, "no growth from 2^10");
  VALID(t);
  same_contents(o, oracle, "after growth");
  for (uint64_t off = 0; off < n; off += batch) {
    Dev<K> dk(std::vector<K>(keys.begin() + off, keys.begin() + off + batch));
    for (uint8_t x : o.erase(dk)) CHECK(x == WX_OUT_ERASED);
    for (uint64_t i = off; i < off + batch; ++i) oracle.erase(keys[i]);
    if (off + batch == n / 2) {
      VALID(t);
      finds_match(o, oracle, "halfway down");
    }
  }
  CHECK(t.size() == 0);
  CHECK_MSG(t.active_buckets() * 16ull < grown, "table did not shrink: %u of %u buckets", t.active_buckets(), grown);
  VALID(t);
  std::printf("grow 2^10 -> %llu keys (%u buckets) and back (%u buckets) ok\n", (unsigned long long)n, grown,
              t.active_buckets());
}

// The value of key number i: i times an odd number, which `inverse_of_multiplier` undoes.
template <class K>
constexpr K kMultiplier = sizeof(K) == 4 ? K(2654435761u) : K(0x9E3779B97F4A7C15ull);

// Distinct keys on the device: a bijection of the index (key_of_index at 32 bits, scramble at 64);
// a reserved result is replaced by the image of an index no other key uses.
template <class K>
__global__ void make_keys(K* k, K* v, uint64_t n, uint32_t seed) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    K x;
    if constexpr (sizeof(K) == 4) {
      x = hivetest::key_of_index(i, seed);
      if (x >= 0xFFFFFFFEu) x = hivetest::key_of_index(i + (1ull << 31), seed);  // bijection: still unique
    } else {
      const uint64_t base = uint64_t(seed) << 40;
      x = hivetest::scramble(base + i);
      if (x >= WX_KEY64_TOMBSTONE) x = hivetest::scramble(base + i + (1ull << 63));  // bijection: still unique
    }
    k[i] = x;
    v[i] = static_cast<K>(i) * kMultiplier<K>;
  }
}
template <class K>
__global__ void count_wrong(const K* got, const K* want, uint64_t n, unsigned long long* bad) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    if (got[i] != want[i]) atomicAdd(bad, 1ull);
}

// Each dumped pair (k, v) must be a key of the run with its own value: v = i * kMultiplier names
// index i (the multiplier is odd, so `inv` undoes it); a second pair naming the same i is a duplicate.
template <class K>
__global__ void check_dump(const K* dk, const K* dv, uint64_t count, const K* keys, uint64_t n, K inv, unsigned* seen,
                           unsigned long long* bad) {
  for (uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; j < count; j += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t i = K(dv[j] * inv);
    if (i >= n || keys[i] != dk[j]) { atomicAdd(bad, 1ull); continue; }
    if (atomicOr(&seen[i >> 5], 1u << (i & 31)) & (1u << (i & 31))) atomicAdd(bad, 1ull);
  }
}
__global__ void count_not(const uint8_t* out, uint64_t n, uint8_t want, unsigned long long* bad) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    if (out[i] != want) atomicAdd(bad, 1ull);
}

// retrieve_all holds every key of [0, n) exactly once with its value, and nothing else.
template <class K>
void check_exact_dump(TableOf<K>& t, const Dev<K>& k, uint64_t n, cudaStream_t s, const char* where) {
  const K a = kMultiplier<K>;
  K inv = a;  // Newton: x <- x (2 - a x) doubles the correct low bits each step (3 -> 96)
  for (int it = 0; it < 5; ++it) inv *= K(2) - a * inv;
  CHECK(K(inv * a) == K(1));
  const uint64_t room = n + n / 8 + 1024;  // a table with duplicates may report more than n
  Dev<K> dk(room), dv(room);
  Dev<unsigned> seen((n + 31) / 32);
  Dev<unsigned long long> bad(1);
  CUDA_OK(cudaMemset(seen.p, 0, seen.n * sizeof(unsigned)));
  CUDA_OK(cudaMemset(bad.p, 0, 8));
  const uint64_t got = t.retrieve_all(dk.p, dv.p, s);
  CUDA_OK(cudaStreamSynchronize(s));
  CHECK_MSG(got == n, "%s: retrieve_all returned %llu pairs for %llu keys", where, (unsigned long long)got,
            (unsigned long long)n);
  check_dump<<<1024, 256>>>(dk.p, dv.p, got, k.p, n, inv, seen.p, bad.p);
  CUDA_OK(cudaDeviceSynchronize());
  const auto nbad = bad.get()[0];
  CHECK_MSG(nbad == 0, "%s: %llu dumped pairs are foreign, changed or duplicated", where, nbad);
}

// 2^10 -> 2^log keys by inserts alone (batches of 2^20), then back down by erases: after growing, the
// dump holds every key once with its value; every erase reports ERASED; halfway down the remaining
// half is still found with its values (merges lose nothing).
template <class K>
void grow_from_small(int log) {
  Stream st;
  TableOf<K> t(config(1 << 10, 0.9, 0.25, WX_GROW_AUTO, 8 * sizeof(K)));
  const uint32_t created = t.active_buckets();  // its roots: shrinks stop there (hive_layout.cuh)
  const uint64_t n = 1ull << log;
  Dev<K> k(n), v(n), got(n);
  Dev<unsigned long long> bad(1);
  make_keys<K><<<1024, 256>>>(k.p, v.p, n, 31);
  CUDA_OK(cudaDeviceSynchronize());
  const uint64_t batch = 1 << 20;
  double ms = 0;
  uint64_t bucket_max = 0;
  for (uint64_t off = 0; off < n; off += batch) {
    wx::Batch b;
    b.keys = k.p + off;
    b.values_in = v.p + off;
    b.n = std::min(batch, n - off);
    b.stream = st.s;
    auto r = t.insert(b);
    CHECK(r.full == 0 && r.invalid == 0);
    // Inserts pre-grow to whole levels (hive_table.cu whole_level): created·2^k buckets.
    const uint32_t nb = t.active_buckets(), lv = nb / created;
    CHECK_MSG(nb % created == 0 && (lv & (lv - 1)) == 0, "%u buckets: not a whole level of %u roots", nb, created);
    wx_stats s{};
    t.stats(&s);
    ms += s.last_kernel_ms;
  }
  CHECK(t.size() == n);
  bucket_max = t.active_buckets();
  wx::Batch fb;
  fb.keys = k.p;
  fb.values_out = got.p;
  fb.n = n;
  fb.stream = st.s;
  t.find(fb);
  CUDA_OK(cudaMemset(bad.p, 0, 8));
  count_wrong<<<1024, 256>>>(got.p, v.p, n, bad.p);
  const auto nbad = bad.get()[0];
  CHECK_MSG(nbad == 0, "%llu keys wrong after growth", nbad);
  wx_stats s{};
  t.stats(&s);
  std::printf("grow 2^10 -> 2^%d: %.1f ms kernel time (%.2f G inserts/s), %llu resizes, LF %.3f, %llu MB\n", log, ms,
              n / ms / 1e6, (unsigned long long)s.resizes, double(t.size()) / t.capacity(),
              (unsigned long long)(s.bytes >> 20));
  if (log <= 22) VALID(t);
  check_exact_dump(t, k, n, st.s, "after growth");
  // shrink back by erases, every outcome ERASED
  const uint64_t ebatch = std::min<uint64_t>(batch, n / 2);  // n / 2 is a batch boundary
  Dev<uint8_t> eout(ebatch);
  CUDA_OK(cudaMemset(bad.p, 0, 8));
  for (uint64_t off = 0; off < n; off += ebatch) {
    wx::Batch b;
    b.keys = k.p + off;
    b.outcomes = eout.p;
    b.n = std::min(ebatch, n - off);
    b.stream = st.s;
    t.erase(b);
    CUDA_OK(cudaStreamSynchronize(st.s));
    count_not<<<1024, 256>>>(eout.p, b.n, WX_OUT_ERASED, bad.p);
    if (off + ebatch == n / 2) {  // halfway: the other half is intact
      CUDA_OK(cudaDeviceSynchronize());
      CHECK_MSG(bad.get()[0] == 0, "%llu erases of the first half did not report ERASED", bad.get()[0]);
      CHECK(t.size() == n - n / 2);
      wx::Batch hb;
      hb.keys = k.p + n / 2;
      hb.values_out = got.p + n / 2;
      hb.n = n - n / 2;
      hb.stream = st.s;
      t.find(hb);
      CUDA_OK(cudaStreamSynchronize(st.s));
      count_wrong<<<1024, 256>>>(got.p + n / 2, v.p + n / 2, n - n / 2, bad.p);
      CUDA_OK(cudaDeviceSynchronize());
      CHECK_MSG(bad.get()[0] == 0, "%llu keys of the second half lost or changed while shrinking", bad.get()[0]);
      std::printf("halfway down: %llu keys in %u buckets, all found\n", (unsigned long long)t.size(), t.active_buckets());
    }
  }
  CUDA_OK(cudaDeviceSynchronize());
  CHECK_MSG(bad.get()[0] == 0, "%llu erases did not report ERASED", bad.get()[0]);
  CHECK(t.size() == 0);
  t.stats(&s);
  std::printf("shrunk back: %u buckets (max %llu), %llu MB\n", t.active_buckets(), (unsigned long long)bucket_max,
              (unsigned long long)(s.bytes >> 20));
  CHECK_MSG(t.active_buckets() == created && created < bucket_max, "table did not shrink back to its %u buckets: %u of %llu",
            created, t.active_buckets(), (unsigned long long)bucket_max);
  VALID(t);
}

}  // namespace

int main(int argc, char** argv) {
  using K = TestKey;
  require_gpu();
  g_small = small_run();  // sanitizer runs: small sizes, 2^16 keys in the growth test
  const int log = argc > 1 ? std::atoi(argv[1]) : g_small ? 16 : 27;
  split_pointer_rounds<K>();
  grow_shrink_cycles<K>();
  grow_and_shrink_checked<K>();
  grow_from_small<K>(log);
  std::printf("%s: all passed\n", sizeof(K) == 8 ? "gpu_hive_resize_64" : "gpu_hive_resize");
  return 0;
}
