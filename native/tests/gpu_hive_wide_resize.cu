// Hive with 64-bit keys and values (16-byte slots): resizing and the stash, on the backend directly:
//  1. growth from a small table by inserts, shrink back by erases (nothing lost or changed);
//  2. grow/shrink cycles under mixed load against an oracle (no key lost, duplicated or changed);
//  3. stash filled (drain off) and drained, nothing lost;
//  4. explicit resizes through several levels.
// validate() (every structural invariant) runs after each step. WIXLIB_SMALL=1: small sizes.
#include <algorithm>

#include "gpu_hive_util.cuh"

using namespace hivetest;

namespace {

const bool g_small = small_run();

// 1. Growth from a small table by inserts alone, then shrink back by erases.
void grow_from_small() {
  Stream st;
  HiveTable64 t(config64(1 << 10, 0.9, 0.25));
  Ops64 o{t, st.s};
  const uint64_t n = g_small ? 1 << 15 : 1 << 21;
  auto keys = unique_keys64(n, 40);
  std::vector<uint64_t> vals(n);
  for (uint64_t i = 0; i < n; ++i) vals[i] = ~keys[i];
  Oracle oracle;
  const uint64_t batch = n / 16;
  for (uint64_t off = 0; off < n; off += batch) {
    Dev<uint64_t> dk(std::vector<uint64_t>(keys.begin() + off, keys.begin() + off + batch));
    Dev<uint64_t> dv(std::vector<uint64_t>(vals.begin() + off, vals.begin() + off + batch));
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
    Dev<uint64_t> dk(std::vector<uint64_t>(keys.begin() + off, keys.begin() + off + batch));
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

// 2. Grow/shrink cycles under mixed load: inserts push past max LF, erases below min LF.
void grow_shrink_cycles() {
  Stream st;
  HiveTable64 t(config64(256, 0.9, 0.3));
  Ops64 o{t, st.s};
  Oracle oracle;
  std::mt19937_64 rng(21);
  auto pool = unique_keys64(g_small ? 1 << 16 : 1 << 21, 50);
  uint64_t grows = 0, shrinks = 0;
  const int cycles = g_small ? 20 : 300;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    for (int phase = 0; phase < 2; ++phase) {
      const uint64_t n = 512 + rng() % 1536;
      std::vector<uint64_t> present;
      for (auto& kv : oracle) present.push_back(kv.first);
      std::unordered_set<uint64_t> used;
      std::vector<uint8_t> ops;
      std::vector<uint64_t> keys, vals;
      for (uint64_t i = 0; i < n; ++i) {
        const uint32_t r = rng() % 100;
        uint8_t op;
        if (phase == 0) op = r < 70 ? WX_OP_INSERT : r < 85 ? WX_OP_INSERT_OR_ASSIGN : r < 95 ? WX_OP_FIND : WX_OP_ERASE;
        else op = r < 85 ? WX_OP_ERASE : WX_OP_FIND;
        const bool fresh = phase == 0 && op != WX_OP_FIND && op != WX_OP_ERASE && r % 3 != 0;
        uint64_t k;
        if ((fresh || present.empty()) && !pool.empty()) {
          k = pool.back();
          pool.pop_back();
        } else if (!present.empty()) {
          k = present[rng() % present.size()];
        } else {
          continue;
        }
        if (!used.insert(k).second) continue;
        ops.push_back(op);
        keys.push_back(k);
        vals.push_back(rng());
      }
      const uint32_t nb_before = t.active_buckets();
      Dev<uint8_t> dops(ops);
      Dev<uint64_t> dk(keys), dv(vals);
      auto out = o.mixed(dops, dk, dv);
      auto hv = dv.get();
      for (size_t i = 0; i < keys.size(); ++i) {
        const uint64_t k = keys[i];
        const bool had = oracle.count(k) != 0;
        switch (ops[i]) {
          case WX_OP_INSERT:
            CHECK_MSG(out[i] == (had ? WX_OUT_PRESENT : WX_OUT_INSERTED), "cycle %d: insert of %llx gave %d", cycle,
                      (unsigned long long)k, out[i]);
            if (!had) oracle[k] = vals[i];
            break;
          case WX_OP_INSERT_OR_ASSIGN:
            CHECK(out[i] == (had ? WX_OUT_ASSIGNED : WX_OUT_INSERTED));
            oracle[k] = vals[i];
            break;
          case WX_OP_ERASE:
            CHECK(out[i] == (had ? WX_OUT_ERASED : WX_OUT_NOT_FOUND));
            oracle.erase(k);
            break;
          default:
            CHECK(out[i] == (had ? WX_OUT_FOUND : WX_OUT_NOT_FOUND));
            if (had) CHECK(hv[i] == oracle[k]);
            break;
        }
      }
      const uint32_t nb_after = t.active_buckets();
      grows += nb_after > nb_before;
      shrinks += nb_after < nb_before;
      CHECK(t.size() == oracle.size());
    }
    if (cycle % 25 == 24 || cycle == cycles - 1) {
      VALID(t);
      same_contents(o, oracle, "grow/shrink cycles");
    }
  }
  std::printf("%d grow/shrink cycles ok: %llu grows, %llu shrinks, %zu keys in %u buckets\n", cycles,
              (unsigned long long)grows, (unsigned long long)shrinks, oracle.size(), t.active_buckets());
  CHECK(grows >= uint64_t(cycles) / 10 && shrinks >= uint64_t(cycles) / 10);
}

// 3. A GROW_NEVER table filled past its bucket slots with the drain off: the stash takes the rest;
// every INSERTED key is found; after erases the drain moves entries back and nothing is lost.
void stash_fill_and_drain() {
  Stream st;
  HiveTable64 t(config64(1 << 12, 1.0, 0.0, WX_GROW_NEVER));
  t.set_auto_drain(false);
  Ops64 o{t, st.s};
  const uint64_t slots = t.capacity();
  const uint64_t n = slots + slots / 16;
  auto keys = unique_keys64(n, 60);
  Oracle oracle;
  uint64_t full = 0;
  const uint64_t step = slots / 8;
  for (uint64_t off = 0; off < n; off += step) {
    const uint64_t m = std::min(step, n - off);
    std::vector<uint64_t> k(keys.begin() + off, keys.begin() + off + m), v(m);
    for (uint64_t i = 0; i < m; ++i) v[i] = k[i] * 3 + 1;
    Dev<uint64_t> dk(k), dv(v);
    Dev<uint8_t> out(m);
    full += o.insert(dk, &dv, &out).full;
    auto ho = out.get();
    for (uint64_t i = 0; i < m; ++i) {
      CHECK(ho[i] == WX_OUT_INSERTED || ho[i] == WX_OUT_FULL);
      if (ho[i] == WX_OUT_INSERTED) oracle[k[i]] = v[i];
    }
    VALID(t);
  }
  wx_stats s{};
  t.stats(&s);
  CHECK_MSG(s.stash_used > 0, "the stash was never used");
  CHECK(full > 0 && s.resizes == 0 && s.failed_inserts == full);
  same_contents(o, oracle, "stash filled");
  finds_match(o, oracle, "stash filled");
  const uint64_t before = t.stash_used();
  std::vector<uint64_t> er;
  for (auto& [k, v] : oracle)
    if (er.size() < oracle.size() / 4) er.push_back(k);
  for (uint64_t k : er) oracle.erase(k);
  Dev<uint64_t> der(er);
  for (uint8_t x : o.erase(der)) CHECK(x == WX_OUT_ERASED);
  VALID(t);
  t.drain_stash();
  VALID(t);
  CHECK_MSG(t.stash_used() < before, "drain did not move stash entries (%llu -> %llu)", (unsigned long long)before,
            (unsigned long long)t.stash_used());
  same_contents(o, oracle, "stash drained");
  finds_match(o, oracle, "stash drained");
  std::printf("stash fill (%llu entries, %llu FULL) and drain (-> %llu) ok\n", (unsigned long long)before,
              (unsigned long long)full, (unsigned long long)t.stash_used());
}

// 4. Explicit resizes through several levels, keys found after each.
void explicit_resizes() {
  Stream st;
  HiveTable64 t(config64(64, 0.9));
  Ops64 o{t, st.s};
  auto keys = unique_keys64(3000, 70);
  Oracle oracle;
  std::vector<uint64_t> vals(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) oracle[keys[i]] = vals[i] = keys[i] + 1;
  Dev<uint64_t> dk(keys), dv(vals);
  o.insert(dk, &dv, nullptr);
  for (uint64_t c : {3000ull, 5000ull, 20000ull, 70000ull, 9000ull, 3001ull, 3000ull, 4097ull}) {
    t.resize(c);
    VALID(t);
    finds_match(o, oracle, "after resize");
  }
  same_contents(o, oracle, "resizes");
  std::printf("explicit resizes ok (%u buckets)\n", t.active_buckets());
}

}  // namespace

int main() {
  require_gpu();
  grow_from_small();
  grow_shrink_cycles();
  stash_fill_and_drain();
  explicit_resizes();
  std::printf("gpu_hive_wide_resize: all passed\n");
  return 0;
}
