// The design-agnostic suite through the public C API: one entry point per kind, sizes chosen per
// kind (GPU kinds get the full sizes, the CPU kind CI-friendly ones, WIXLIB_SMALL=1 ~2^16 keys).
#pragma once
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.hpp"
#include "suite/edge_tests.hpp"
#include "suite/env.hpp"
#include "suite/mixed_test.hpp"
#include "suite/oracle_test.hpp"
#include "suite/table_io.hpp"

namespace wxsuite {

struct Sizes {
  uint64_t oracle_keys, oracle_ops;        // oracle test: N and random ops
  uint64_t device_keys, device_ops;        // oracle test through device buffers (GPU kinds)
  uint64_t uniform_range, mixed_ops;       // mixed test: wide range and ops per batch
  int mixed_batches;
  uint64_t grow_to;                        // growth from a table made for 1024 keys
};

inline Sizes sizes_for(int32_t kind, const Env& env) {
  if (env.small) return {1u << 15, 1u << 16, 1u << 14, 1u << 15, 1u << 16, 1u << 16, 2, 1u << 16};
  if (kind == WX_KIND_CPU) return {1u << 18, 1u << 20, 0, 0, 1u << 20, 1u << 18, 2, 1u << 20};
  return {1u << 22, 1u << 24, 1u << 20, 1u << 22, 1u << 24, 1000000, 2, 1u << 22};
}

// The 2^28-element batch (GPU kinds, WIXLIB_BIG=1): bulk insert of distinct keys into a table made
// for them, then find them all through device buffers; checks counts and a sample of values.
inline void run_big_batch(int32_t kind, uint64_t seed) {
  const uint64_t n = 1ull << 28;
  std::printf("[big] kind=%s n=%llu (device buffers)\n", kind_name(kind), (unsigned long long)n);
  std::fflush(stdout);
  // Keys f(i) = i * odd + c (mod 2^32) are distinct for distinct i; a reserved image is replaced by
  // the image of an index >= n, which no other key uses.
  std::vector<uint32_t> keys(n), vals(n);
  const uint32_t c = static_cast<uint32_t>(seed);
  auto f = [&](uint64_t i) { return static_cast<uint32_t>(i) * 0x9E3779B1u + c; };
  uint64_t spare = n;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t k = f(i);
    while (k >= WX_KEY32_TOMBSTONE) k = f(spare++);
    keys[i] = k;
    vals[i] = static_cast<uint32_t>(i) ^ 0x5EED5EEDu;
  }
  Table t(make_config(kind, n, 0.8));
  Io io(WX_MEM_DEVICE);
  std::vector<uint8_t> out(n, 0);
  CHECK_OK(io.insert(t.get(), keys.data(), vals.data(), n, out.data()));
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(out[i] == WX_OUT_INSERTED, "big: element %llu outcome %u", (unsigned long long)i, out[i]);
  CHECK_MSG(t.size() == n, "big: size %llu", (unsigned long long)t.size());
  std::vector<uint32_t> got(n, 0);
  CHECK_OK(io.find(t.get(), keys.data(), got.data(), n, 0xFFFFFFFFull));
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(got[i] == vals[i], "big: key %u found value %u, expected %u", keys[i], got[i], vals[i]);
  std::printf("  ok: size=%llu\n", (unsigned long long)t.size());
}

inline void run_suite(int32_t kind, const char* program) {
  Env env = read_env(program);
  const Sizes z = sizes_for(kind, env);
  const bool gpu = kind != WX_KIND_CPU;
  // Fixed step numbers, so a part run alone (WIXLIB_PARTS) replays exactly as in the full run.
  auto seed = [&](uint64_t step) { return sub_seed(env.seed, step); };

  // 4: edge cases (host arrays; GPU kinds also through device buffers).
  if (env.wants("edge")) {
    EdgeParams e;
    e.kind = kind; e.grow_to = z.grow_to; e.seed = seed(1);
    run_edge_tests(e);
    if (gpu) { e.mem = WX_MEM_DEVICE; e.grow_to = std::min<uint64_t>(z.grow_to, 1u << 20); run_edge_tests(e); }
  }
  // 2: oracle comparison at several load factors.
  std::vector<double> lfs = {0.5, 0.8, 0.9};
  if (kind == WX_KIND_HIVE) lfs.push_back(0.95);
  if (!env.wants("oracle")) lfs.clear();
  for (size_t i = 0; i < lfs.size(); ++i) {
    OracleParams o;
    o.kind = kind; o.keys = z.oracle_keys; o.ops = z.oracle_ops; o.lf = lfs[i]; o.seed = seed(10 + i);
    run_oracle_test(o);
  }
  if (gpu && env.wants("oracle")) {
    OracleParams o;
    o.kind = kind; o.keys = z.device_keys; o.ops = z.device_ops; o.lf = 0.8; o.mem = WX_MEM_DEVICE; o.seed = seed(20);
    run_oracle_test(o);
  }
  // 3: mixed concurrent batches, checked per key.
  const Mix mixes[] = {{20, 0, 20, 60}, {40, 0, 40, 20}, {15, 15, 20, 50}};
  std::vector<uint64_t> ranges = {z.uniform_range, 101, 1001, 10001, 100001};
  if (!env.wants("mixed")) ranges.clear();
  for (size_t r = 0; r < ranges.size(); ++r) {
    for (size_t m = 0; m < 3; ++m) {
      MixedParams mp;
      mp.kind = kind; mp.range = ranges[r]; mp.ops = z.mixed_ops; mp.batches = z.mixed_batches; mp.mix = mixes[m];
      mp.seed = seed(100 + 10 * r + m);
      run_mixed_test(mp);
    }
  }
  if (env.wants("mixed")) {
    // Growth in the middle of mixed batches (a table made for an eighth of the range), with wx_resize
    // between batches; then Zipf-skewed keys (hot head, long tail).
    MixedParams mp;
    mp.kind = kind; mp.range = std::min<uint64_t>(z.uniform_range, 1u << 20); mp.ops = z.mixed_ops;
    mp.batches = z.mixed_batches + 1; mp.mix = {40, 10, 20, 30}; mp.capacity = mp.range / 8;
    mp.resize_between = true; mp.seed = seed(200);
    run_mixed_test(mp);
    MixedParams zp;
    zp.kind = kind; zp.range = std::min<uint64_t>(z.uniform_range, 1u << 20); zp.ops = z.mixed_ops;
    zp.batches = z.mixed_batches; zp.mix = {25, 10, 25, 40}; zp.zipf = 0.99; zp.seed = seed(201);
    run_mixed_test(zp);
    if (gpu) {
      mp.mem = WX_MEM_DEVICE; mp.capacity = 0; mp.range = 10001; mp.mix = {20, 0, 20, 60}; mp.seed = seed(202);
      run_mixed_test(mp);
    }
    // Hot keys in a table that may not grow: inserts end FULL, every other outcome still explained.
    MixedParams fp;
    fp.kind = kind; fp.range = 1001; fp.capacity = 256; fp.grow_never = true; fp.ops = z.mixed_ops;
    fp.batches = z.mixed_batches; fp.mix = {40, 10, 20, 30}; fp.seed = seed(203);
    run_mixed_test(fp);
  }
  if (gpu && env.big && !env.small) run_big_batch(kind, env.seed);
  std::printf("%s: all passed (seed=%llu, %.1f s)\n", program, static_cast<unsigned long long>(env.seed), elapsed_s());
}

}  // namespace wxsuite
