// Long randomized stress: many large mixed concurrent batches, checked batch by batch.
// Batches alternate between uniform keys over [0, R) and Zipf-skewed keys (a few keys get a large
// share of every batch); the mix cycles through insert-heavy, balanced and erase-heavy phases so the
// table grows and shrinks by itself (it starts at R/16, WX_GROW_AUTO); every `resize_every` batches an
// explicit wx_resize moves it up or back down to its size. GPU kinds alternate between host arrays
// and device buffers. After every batch the whole table is dumped and checked: no duplicate or foreign
// key, size() equal to the dump, keys the batch did not touch unchanged, every touched key
// linearizable, value slots as wixlib.h allows (check_batch, suite/linearizability.hpp); after every
// resize the dump must be unchanged.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.hpp"
#include "suite/env.hpp"
#include "suite/linearizability.hpp"
#include "suite/mixed_test.hpp"
#include "suite/table_io.hpp"

namespace wxsuite {

struct StressParams {
  int32_t kind = WX_KIND_CPU;
  uint64_t ops = 10000000;  // total ops checked
  uint64_t batch = 1 << 20;
  uint64_t range = 1 << 20;  // rounded up to a power of two
  int resize_every = 3;      // batches between explicit wx_resize calls (0: none)
  double zipf = 0.99;        // exponent of the skewed batches
  bool device_too = false;   // every third batch through device buffers (GPU kinds)
  uint64_t seed = 1;
};

struct StressTotals {
  uint64_t ops = 0, batches = 0, uniform_batches = 0, zipf_batches = 0, explicit_resizes = 0;
  uint64_t inserted = 0, erased = 0, found = 0, max_live = 0, hottest_share_ppm = 0;
};

namespace stress_detail {

// Zipf-like ranks in [0, n) by inverting the continuous power law x^-s on [1, n+1): O(1) per draw
// (a table-based sampler over 2^22 keys costs seconds per batch). Rank 0 is the hottest.
class Zipf {
 public:
  Zipf(uint64_t n, double s) : n_(n), s1_(1.0 - s) {
    span_ = std::pow(static_cast<double>(n) + 1.0, s1_) - 1.0;
  }
  uint64_t draw(Rng& rng) const {
    const double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
    const double x = std::pow(span_ * u + 1.0, 1.0 / s1_);  // in [1, n+1)
    return std::min<uint64_t>(static_cast<uint64_t>(x) - 1, n_ - 1);
  }

 private:
  uint64_t n_;
  double s1_, span_;
};

inline uint64_t pow2_at_least(uint64_t x) {
  uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

}  // namespace stress_detail

inline StressTotals run_stress_test(StressParams p) {
  using namespace stress_detail;
  p.range = pow2_at_least(std::max<uint64_t>(p.range, 1024));
  CHECK(p.range <= (1ull << 31));
  const uint64_t mask = p.range - 1;
  std::printf("[stress] kind=%s ops=%llu batch=%llu range=[0,%llu) zipf=%.2f resize_every=%d device_too=%d seed=%llu\n",
              kind_name(p.kind), (unsigned long long)p.ops, (unsigned long long)p.batch, (unsigned long long)p.range,
              p.zipf, p.resize_every, p.device_too ? 1 : 0, (unsigned long long)p.seed);
  std::fflush(stdout);
  Rng rng(p.seed);
  const Zipf zipf(p.range, p.zipf);
  // Insert-heavy, balanced, erase-heavy (insert, insert_or_assign, erase, find, in %).
  const Mix phases[] = {{45, 10, 15, 30}, {20, 10, 20, 50}, {10, 5, 55, 30}};
  Table table(make_config(p.kind, std::max<uint64_t>(p.range / 16, 1024), 0.0, WX_GROW_AUTO));
  Io host_io(WX_MEM_HOST), dev_io(WX_MEM_DEVICE);
  DenseState before = dump_dense(host_io, table.get(), p.range, "stress start");
  StressTotals tot;
  // Writers get values below 2^31 from a counter (unique for < 2^31 ops); find slots start with the
  // high bit set, so no op ever writes what a find slot held before.
  uint32_t next_value = 0;
  std::vector<uint32_t> keys, vals, vals_in;
  std::vector<uint8_t> ops, out;
  std::vector<uint64_t> hits;
  uint64_t last_report = 0;
  for (uint64_t b = 0; tot.ops < p.ops; ++b) {
    const uint64_t n = std::min<uint64_t>(p.batch, p.ops - tot.ops);
    const bool skewed = b % 2 == 1;
    const Mix& m = phases[(b / 2) % 3];
    Io& io = (p.device_too && b % 3 == 2) ? dev_io : host_io;
    keys.resize(n); vals.resize(n); ops.resize(n); out.assign(n, WX_OUT_NONE);
    for (uint64_t j = 0; j < n; ++j) {
      // Skewed ranks are spread over the range by an odd multiplier (a bijection mod 2^k), so the hot
      // keys are not all neighbours.
      const uint64_t r = skewed ? zipf.draw(rng) : rng.below(p.range);
      keys[j] = static_cast<uint32_t>(skewed ? (r * 0x9E3779B1ull) & mask : r);
      const int x = static_cast<int>(rng.below(100));
      ops[j] = x < m.insert ? WX_OP_INSERT
             : x < m.insert + m.assign ? WX_OP_INSERT_OR_ASSIGN
             : x < m.insert + m.assign + m.erase ? WX_OP_ERASE : WX_OP_FIND;
      vals[j] = ops[j] == WX_OP_FIND ? 0x80000000u | static_cast<uint32_t>(j) : (next_value++ & 0x7FFFFFFFu);
    }
    vals_in = vals;
    const int32_t st = io.batch(table.get(), ops.data(), keys.data(), vals.data(), n, out.data());
    CHECK_MSG(st == WX_OK, "stress batch %llu: wx_batch returned %s: %s", (unsigned long long)b, wx_status_name(st),
              wx_last_error());
    DenseState after = dump_dense(host_io, table.get(), p.range, "stress batch");
    // Whole table: untouched keys unchanged, touched keys linearizable, value slots (check_batch).
    BatchRecord rec;
    rec.ops = ops.data(); rec.keys = keys.data(); rec.values_before = vals_in.data();
    rec.values_after = vals.data(); rec.outcomes = out.data(); rec.n = n;
    const Verdict v = check_batch(rec, before, after, /*allow_full=*/false);
    if (!v.ok) {
      print_verdict(v, "stress batch");
      std::fprintf(stderr, "  (batch %llu, %s keys, %s memory, seed %llu)\n", (unsigned long long)b,
                   skewed ? "zipf" : "uniform", mem_name(io.mem()), (unsigned long long)p.seed);
      std::exit(1);
    }
    if (skewed) {
      // The share of the hottest key, to show the skew is real.
      uint64_t hot = 0;
      const uint32_t k0 = 0;  // rank 0 maps to key 0
      for (uint64_t j = 0; j < n; ++j) hot += keys[j] == k0;
      tot.hottest_share_ppm = std::max<uint64_t>(tot.hottest_share_ppm, hot * 1000000 / n);
    }
    for (uint64_t j = 0; j < n; ++j) {
      tot.inserted += out[j] == WX_OUT_INSERTED;
      tot.erased += out[j] == WX_OUT_ERASED;
      tot.found += out[j] == WX_OUT_FOUND;
    }
    before = std::move(after);
    const uint64_t live = before.count();
    tot.max_live = std::max(tot.max_live, live);
    tot.ops += n;
    ++tot.batches;
    (skewed ? tot.zipf_batches : tot.uniform_batches) += 1;
    if (p.resize_every > 0 && (b + 1) % p.resize_every == 0) {
      // Up to room for the whole range, or back down to the size.
      const bool up = (tot.explicit_resizes % 2) == 0;
      const uint64_t cap = up ? 2 * p.range : std::max<uint64_t>(live, 1);
      CHECK_MSG(wx_resize(table.get(), cap) == WX_OK, "stress: wx_resize(%llu) with %llu keys: %s",
                (unsigned long long)cap, (unsigned long long)live, wx_last_error());
      ++tot.explicit_resizes;
      DenseState again = dump_dense(host_io, table.get(), p.range, "stress after wx_resize");
      for (uint64_t k = 0; k < p.range; ++k)
        CHECK_MSG(again.present[k] == before.present[k] && (!again.present[k] || again.value[k] == before.value[k]),
                  "stress: key %llu changed by wx_resize(%llu) (seed %llu)", (unsigned long long)k,
                  (unsigned long long)cap, (unsigned long long)p.seed);
    }
    if (tot.ops - last_report >= p.ops / 10 || tot.ops >= p.ops) {
      last_report = tot.ops;
      std::printf("  %llu/%llu ops checked, %llu live keys [t=%.1fs]\n", (unsigned long long)tot.ops,
                  (unsigned long long)p.ops, (unsigned long long)live, elapsed_s());
      std::fflush(stdout);
    }
  }
  const wx_stats s = table.stats();
  CHECK_MSG(s.failed_inserts == 0, "stress: failed_inserts=%llu under WX_GROW_AUTO", (unsigned long long)s.failed_inserts);
  std::printf("  ok: %llu ops in %llu batches (%llu uniform, %llu zipf; hottest key %.2f%% of a zipf batch), "
              "violations 0, inserted=%llu erased=%llu found=%llu, max live %llu, table resizes=%llu "
              "(explicit %llu) [t=%.1fs]\n",
              (unsigned long long)tot.ops, (unsigned long long)tot.batches, (unsigned long long)tot.uniform_batches,
              (unsigned long long)tot.zipf_batches, tot.hottest_share_ppm / 1e4, (unsigned long long)tot.inserted,
              (unsigned long long)tot.erased, (unsigned long long)tot.found, (unsigned long long)tot.max_live,
              (unsigned long long)s.resizes, (unsigned long long)tot.explicit_resizes, elapsed_s());
  std::fflush(stdout);
  return tot;
}

// Sizes: WIXLIB_STRESS_OPS overrides the total; WIXLIB_SMALL=1 (sanitizer runs) shrinks everything.
inline StressParams stress_params_for(int32_t kind, const Env& env, uint64_t default_ops) {
  StressParams p;
  p.kind = kind;
  p.seed = sub_seed(env.seed, 300);
  p.device_too = kind != WX_KIND_CPU;
  if (env.small) {
    p.ops = 1 << 17; p.batch = 1 << 14; p.range = 1 << 14;
  } else if (kind == WX_KIND_CPU) {
    p.ops = default_ops; p.batch = 1 << 20; p.range = 1 << 20;
  } else {
    p.ops = default_ops; p.batch = 1 << 22; p.range = 1 << 22;
  }
  p.ops = stress_ops(p.ops);
  return p;
}

}  // namespace wxsuite
