// Mixed concurrent batches checked per key (linearizability.hpp): keys drawn uniformly from a range
// [0, R) — wide (2^24) or hot (the GLHT paper's [0,100] … [0,100000]) — ops drawn from a mix of
// insert / insert_or_assign / erase / find. The table is pre-filled with a random half of the range.
// After each batch the whole table is dumped: no duplicates, nothing outside the range, untouched keys
// unchanged, size() equal to the dump, every touched key linearizable and value slots as wixlib.h
// allows (check_batch, suite/linearizability.hpp).
// Every written value is unique, so a found value identifies its writer.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.hpp"
#include "suite/env.hpp"
#include "suite/linearizability.hpp"
#include "suite/table_io.hpp"

namespace wxsuite {

struct Mix {
  int insert, assign, erase, find;  // percentages, sum 100
};

struct MixedParams {
  int32_t kind = WX_KIND_CPU;
  uint64_t range = 101;      // keys in [0, range)
  uint64_t ops = 1 << 16;    // per batch
  int batches = 2;
  Mix mix{20, 0, 20, 60};
  uint64_t capacity = 0;     // 0: the range (never needs to grow); smaller forces growth mid-batch
  double zipf = 0;           // > 0: keys Zipf-distributed with this exponent (key 0 hottest), else uniform
  bool resize_between = false;  // wx_resize between batches (up, then back down to the size)
  bool grow_never = false;   // WX_GROW_NEVER: a small capacity makes inserts FULL (status WX_ERR_FULL)
  int32_t mem = WX_MEM_HOST;
  uint64_t seed = 1;
};

// Dumps the table into a DenseState over [0, range); fails on duplicates or foreign keys.
inline DenseState dump_dense(Io& io, wx_table* t, uint64_t range, const char* what) {
  std::vector<uint32_t> k, v;
  CHECK_OK(io.retrieve_all(t, k, v));
  DenseState s(range);
  for (size_t j = 0; j < k.size(); ++j) {
    CHECK_MSG(k[j] < range, "%s: retrieve_all returned key %u outside [0,%llu)", what, k[j], (unsigned long long)range);
    CHECK_MSG(!s.present[k[j]], "%s: key %u stored twice", what, k[j]);
    s.set(k[j], v[j]);
  }
  uint64_t size = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK_MSG(size == k.size(), "%s: size()=%llu but retrieve_all returned %zu keys", what, (unsigned long long)size, k.size());
  return s;
}

inline void run_mixed_test(const MixedParams& p) {
  const Mix& m = p.mix;
  CHECK(m.insert + m.assign + m.erase + m.find == 100);
  std::printf("[mixed] kind=%s range=[0,%llu)%s ops/batch=%llu batches=%d mix(ins,ioa,del,find)=[%d,%d,%d,%d] cap=%llu%s mem=%s\n",
              kind_name(p.kind), (unsigned long long)p.range, p.zipf > 0 ? " zipf" : "", (unsigned long long)p.ops, p.batches,
              m.insert, m.assign, m.erase, m.find,
              (unsigned long long)(p.capacity ? p.capacity : p.range), p.resize_between ? " resize-between" : "",
              mem_name(p.mem));
  std::fflush(stdout);
  Rng rng(p.seed);
  // Zipf: cumulative weights 1/(k+1)^s, sampled by binary search.
  std::vector<double> cdf;
  if (p.zipf > 0) {
    cdf.resize(p.range);
    double acc = 0;
    for (uint64_t k = 0; k < p.range; ++k) cdf[k] = (acc += 1.0 / std::pow(static_cast<double>(k + 1), p.zipf));
  }
  auto draw_key = [&]() -> uint32_t {
    if (cdf.empty()) return static_cast<uint32_t>(rng.below(p.range));
    const double x = static_cast<double>(rng.next() >> 11) * 0x1.0p-53 * cdf.back();
    return static_cast<uint32_t>(std::min<uint64_t>(std::lower_bound(cdf.begin(), cdf.end(), x) - cdf.begin(), p.range - 1));
  };
  Table table(make_config(p.kind, p.capacity ? p.capacity : p.range, 0.0, p.grow_never ? WX_GROW_NEVER : WX_GROW_AUTO));
  Io io(p.mem);
  uint32_t next_value = rng.u32();

  // Pre-fill a random half of the range (each key with probability 1/2, one insert call).
  std::vector<uint32_t> keys, vals, before_vals;
  std::vector<uint8_t> ops, out;
  for (uint64_t k = 0; k < p.range && !(p.grow_never && keys.size() >= p.capacity / 2); ++k)
    if (rng.below(2)) { keys.push_back(static_cast<uint32_t>(k)); vals.push_back(next_value++); }
  out.assign(keys.size(), 0);
  CHECK_OK(io.insert(table.get(), keys.data(), vals.data(), keys.size(), out.data()));
  for (size_t j = 0; j < keys.size(); ++j) CHECK_MSG(out[j] == WX_OUT_INSERTED, "prefill key %u outcome %u", keys[j], out[j]);
  DenseState before = dump_dense(io, table.get(), p.range, "prefill");
  CHECK(before.count() == keys.size());

  uint64_t total_ins = 0, total_era = 0, total_found = 0;
  for (int round = 0; round < p.batches; ++round) {
    const uint64_t n = p.ops;
    keys.resize(n); vals.resize(n); ops.resize(n); out.assign(n, WX_OUT_NONE);
    for (uint64_t j = 0; j < n; ++j) {
      keys[j] = draw_key();
      const int r = static_cast<int>(rng.below(100));
      ops[j] = r < m.insert ? WX_OP_INSERT
             : r < m.insert + m.assign ? WX_OP_INSERT_OR_ASSIGN
             : r < m.insert + m.assign + m.erase ? WX_OP_ERASE : WX_OP_FIND;
      // Find slots start with a value no op writes (the counter never reaches them in one run).
      vals[j] = ops[j] == WX_OP_FIND ? ~static_cast<uint32_t>(j) ^ 0x5A5A0000u : next_value++;
    }
    before_vals = vals;
    const int32_t st = io.batch(table.get(), ops.data(), keys.data(), vals.data(), n, out.data());
    CHECK_MSG(st == WX_OK || (p.grow_never && st == WX_ERR_FULL), "wx_batch returned %s: %s", wx_status_name(st),
              wx_last_error());
    DenseState after = dump_dense(io, table.get(), p.range, "mixed batch");

    // Whole table: untouched keys unchanged, touched keys linearizable, value slots (check_batch).
    BatchRecord rec;
    rec.ops = ops.data(); rec.keys = keys.data(); rec.values_before = before_vals.data();
    rec.values_after = vals.data(); rec.outcomes = out.data(); rec.n = n;
    Verdict v = check_batch(rec, before, after, /*allow_full=*/p.grow_never);
    if (!v.ok) {
      print_verdict(v, "mixed batch");
      std::fprintf(stderr, "  (round %d, seed %llu)\n", round, (unsigned long long)p.seed);
      std::exit(1);
    }
    for (uint64_t j = 0; j < n; ++j) {
      total_ins += out[j] == WX_OUT_INSERTED;
      total_era += out[j] == WX_OUT_ERASED;
      total_found += out[j] == WX_OUT_FOUND;
    }
    before = std::move(after);
    if (p.resize_between) {
      // Rehash between batches: up to room for the whole range, or back down to the size.
      CHECK_OK(wx_resize(table.get(), round % 2 == 0 ? 2 * p.range : before.count()));
      DenseState again = dump_dense(io, table.get(), p.range, "after wx_resize");
      for (uint64_t k = 0; k < p.range; ++k)
        CHECK_MSG(again.present[k] == before.present[k] && (!again.present[k] || again.value[k] == before.value[k]),
                  "key %llu changed by wx_resize", (unsigned long long)k);
    }
  }
  wx_stats s = table.stats();
  std::printf("  ok: live=%llu inserted=%llu erased=%llu found=%llu resizes=%llu [t=%.1fs]\n",
              (unsigned long long)before.count(), (unsigned long long)total_ins, (unsigned long long)total_era,
              (unsigned long long)total_found, (unsigned long long)s.resizes, elapsed_s());
  std::fflush(stdout);
}

}  // namespace wxsuite
