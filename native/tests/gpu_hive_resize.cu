// Hive linear-hashing resize (ALGORITHMS.md §4.3): grow/shrink rounds with the split pointer
// wrapping, 1000 grow/shrink cycles under mixed load against a host oracle, and growth from 2^10 to
// 2^LOG keys by inserts alone then shrink back by erases (LOG = 27 by default; argv[1] overrides).
#include <algorithm>
#include <chrono>
#include <cstring>

#include "gpu_hive_util.cuh"

using namespace hivetest;

namespace {

// Explicit resizes through several levels up and down; keys found after each step.
void split_pointer_rounds() {
  Stream st;
  HiveTable t(config(64, 0.9, 0.0));
  Ops o{t, st.s};
  const uint64_t n = 3000;
  auto keys = unique_keys(n, 11);
  std::vector<uint32_t> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = static_cast<uint32_t>(i) ^ 0x1234u;
  Dev<uint32_t> dk(keys), dv(vals);
  o.insert(dk, &dv, nullptr);
  VALID(t);
  const uint64_t caps[] = {3000, 3100, 3500, 4097, 6000, 9000, 20000, 70000, 131072, 20000, 9000, 5000, 3333, 3000, 3100};
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
    for (uint64_t i = 0; i < n; ++i) CHECK_MSG(f[i] == vals[i], "after resize(%llu): key %u lost", (unsigned long long)c, keys[i]);
  }
  CHECK_MSG(level_changes >= 4, "only %d level changes", level_changes);
  bool threw = false;
  try {
    t.resize(10);
  } catch (const wx::Error& e) {
    threw = e.status() == WX_ERR_INVALID_ARGUMENT;
  }
  CHECK(threw);
  // a shrink that cannot proceed (merged pairs would not fit) stops cleanly
  HiveTable u(config(1 << 14, 1.0, 0.0));
  Ops ou{u, st.s};
  auto k2 = unique_keys(static_cast<uint64_t>(0.95 * u.capacity()), 12);
  Dev<uint32_t> dk2(k2);
  ou.insert(dk2, &dk2, nullptr);
  const uint32_t before = u.active_buckets();
  u.resize(k2.size());  // asks for fewer buckets than the keys could be merged into: partial at most
  VALID(u);
  auto f2 = ou.find(dk2);
  for (uint64_t i = 0; i < k2.size(); ++i) CHECK(f2[i] == k2[i]);
  std::printf("split pointer rounds ok (%d level changes; stuck shrink %u -> %u buckets)\n", level_changes,
              before, u.active_buckets());
}

// 1000 cycles: a mixed batch of inserts (grows past max LF), then one of erases (shrinks below min
// LF), each checked against a host oracle.
void grow_shrink_cycles() {
  Stream st;
  HiveTable t(config(256, 0.9, 0.3));
  Ops o{t, st.s};
  std::unordered_map<uint32_t, uint32_t> oracle;
  std::mt19937 rng(21);
  uint64_t grows = 0, shrinks = 0;
  uint32_t next_key = 0;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    for (int phase = 0; phase < 2; ++phase) {
      const uint64_t n = 1024 + rng() % 2048;
      std::vector<uint8_t> ops(n);
      std::vector<uint32_t> keys(n), vals(n);
      std::vector<uint32_t> present;
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
        if (fresh || present.empty()) keys[i] = key_of_index(next_key++, 77) & 0x7FFFFFFFu;
        else keys[i] = present[rng() % present.size()];
        vals[i] = rng();
      }
      // Keys repeat inside a batch only when drawn from `present` twice; make each key appear once
      // so the oracle is sequential (same-key concurrency is covered by gpu_hive_invariants).
      std::unordered_map<uint32_t, int> seen;
      for (uint64_t i = 0; i < n; ++i)
        if (seen[keys[i]]++) ops[i] = WX_OP_FIND;
      const uint32_t nb_before = t.active_buckets();
      Dev<uint8_t> dops(ops);
      Dev<uint32_t> dk(keys), dv(vals);
      auto out = o.mixed(dops, dk, dv);
      auto hv = dv.get();
      // FIND elements of repeated keys run concurrently with that key's one update: accept either
      std::unordered_map<uint32_t, uint32_t> prev = oracle;
      for (uint64_t i = 0; i < n; ++i) {
        const uint32_t k = keys[i];
        switch (ops[i]) {
          case WX_OP_INSERT:
            if (prev.count(k)) CHECK_MSG(out[i] == WX_OUT_PRESENT, "cycle %d: insert of present key %u gave %d", cycle, k, out[i]);
            else {
              CHECK_MSG(out[i] == WX_OUT_INSERTED, "cycle %d: insert of new key %u gave %d", cycle, k, out[i]);
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
    if (cycle % 100 == 99) {
      VALID(t);
      same_contents(o, oracle, "grow/shrink cycles");
    }
  }
  std::printf("1000 grow/shrink cycles ok: %llu grows, %llu shrinks, final %zu keys in %u buckets\n",
              (unsigned long long)grows, (unsigned long long)shrinks, oracle.size(), t.active_buckets());
  CHECK(grows > 100 && shrinks > 100);
}

__global__ void make_keys(uint32_t* k, uint32_t* v, uint64_t n, uint32_t seed) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    uint32_t x = hivetest::key_of_index(i, seed);
    if (x >= 0xFFFFFFFEu) x = hivetest::key_of_index(i + (1ull << 31), seed);  // bijection: still unique
    k[i] = x;
    v[i] = static_cast<uint32_t>(i) * 2654435761u;
  }
}
__global__ void count_wrong(const uint32_t* got, const uint32_t* want, uint64_t n, unsigned long long* bad) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    if (got[i] != want[i]) atomicAdd(bad, 1ull);
}

// Each dumped pair (k, v) must be a key of the run with its own value: v = i * 2654435761 names
// index i (the multiplier is odd, so `inv` undoes it); a second pair naming the same i is a duplicate.
__global__ void check_dump(const uint32_t* dk, const uint32_t* dv, uint64_t count, const uint32_t* keys, uint64_t n,
                           uint32_t inv, unsigned* seen, unsigned long long* bad) {
  for (uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; j < count; j += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t i = uint32_t(dv[j] * inv);
    if (i >= n || keys[i] != dk[j]) { atomicAdd(bad, 1ull); continue; }
    if (atomicOr(&seen[i >> 5], 1u << (i & 31)) & (1u << (i & 31))) atomicAdd(bad, 1ull);
  }
}
__global__ void count_not(const uint8_t* out, uint64_t n, uint8_t want, unsigned long long* bad) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    if (out[i] != want) atomicAdd(bad, 1ull);
}

// retrieve_all holds every key of [0, n) exactly once with its value, and nothing else.
void check_exact_dump(HiveTable& t, const Dev<uint32_t>& k, uint64_t n, cudaStream_t s, const char* where) {
  uint32_t inv = 2654435761u;  // Newton: x <- x (2 - a x) doubles the correct low bits each step
  for (int it = 0; it < 5; ++it) inv *= 2u - 2654435761u * inv;
  CHECK(inv * 2654435761u == 1u);
  const uint64_t room = n + n / 8 + 1024;  // a table with duplicates may report more than n
  Dev<uint32_t> dk(room), dv(room);
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
void grow_from_small(int log) {
  Stream st;
  HiveTable t(config(1 << 10, 0.9, 0.25));
  const uint32_t created = t.active_buckets();  // its roots: shrinks stop there (hive_layout.cuh)
  const uint64_t n = 1ull << log;
  Dev<uint32_t> k(n), v(n), got(n);
  Dev<unsigned long long> bad(1);
  make_keys<<<1024, 256>>>(k.p, v.p, n, 31);
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
  require_gpu();
  const char* small = std::getenv("WIXLIB_SMALL");
  const bool is_small = small && std::strcmp(small, "1") == 0;  // sanitizer runs: rounds and 2^16 keys
  const int log = argc > 1 ? std::atoi(argv[1]) : is_small ? 16 : 27;
  split_pointer_rounds();
  if (!is_small) grow_shrink_cycles();
  grow_from_small(log);
  std::printf("gpu_hive_resize: all passed\n");
  return 0;
}
