// The hot-key combining rules (common/combine_rules.hpp) on the host: random batches over small key
// ranges, the elections run in a random arrival order (as the device's CAS races would), every
// outcome and the final state from the rules, then the per-key linearizability checker of the GPU
// tests (suite/linearizability.hpp) must accept the batch. Also: exactly one INSERTED per key that
// was absent and got an insert, and a negative control (a wrong rule is caught).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "check.hpp"
#include "common/combine_rules.hpp"
#include "suite/linearizability.hpp"

using namespace wx;
using wxsuite::BatchRecord;
using wxsuite::DenseState;

namespace {

struct Run {
  std::vector<uint8_t> ops, out;
  std::vector<uint32_t> keys, vin, vout;
  DenseState before, after;
};

// Builds a batch and applies the rules; `wrong` breaks them on purpose (every insert of an absent
// key reports INSERTED) for the negative control.
Run run_batch(std::mt19937_64& rng, uint64_t range, uint64_t n, const int mix[4], bool wrong) {
  Run r;
  r.before = DenseState(range);
  for (uint64_t k = 0; k < range; ++k)
    if (rng() & 1) r.before.set(static_cast<uint32_t>(k), static_cast<uint32_t>(rng()));
  r.ops.resize(n);
  r.keys.resize(n);
  r.vin.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    const int x = static_cast<int>(rng() % 100);
    r.ops[i] = x < mix[0] ? WX_OP_INSERT
               : x < mix[0] + mix[1] ? WX_OP_INSERT_OR_ASSIGN
               : x < mix[0] + mix[1] + mix[2] ? WX_OP_ERASE : WX_OP_FIND;
    r.keys[i] = static_cast<uint32_t>(rng() % range);
    r.vin[i] = r.ops[i] == WX_OP_FIND ? 0xF00D0000u + static_cast<uint32_t>(i) : static_cast<uint32_t>(rng());
  }
  // Elections in a random arrival order (combine.cu elect_kernel, one op at a time).
  std::vector<Votes> votes(range);
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  auto elect = [](uint32_t& vote, uint32_t i) {
    if (vote != kNone) return false;
    vote = i;
    return true;
  };
  for (uint64_t i : order) {
    Votes& v = votes[r.keys[i]];
    const uint32_t e = static_cast<uint32_t>(i);
    if (r.ops[i] == WX_OP_INSERT_OR_ASSIGN && elect(v.t, e)) continue;
    if (r.ops[i] == WX_OP_INSERT || r.ops[i] == WX_OP_INSERT_OR_ASSIGN) elect(v.l, e);
    else if (r.ops[i] == WX_OP_ERASE) elect(v.e, e);
  }
  // Plans (resolve_kernel), then outcomes (outcome_kernel).
  std::vector<KeyPlan> plans(range);
  r.after = DenseState(range);
  for (uint64_t k = 0; k < range; ++k) {
    uint32_t v0 = 0;
    const bool p0 = r.before.get(static_cast<uint32_t>(k), &v0);
    plans[k] = plan_key(p0, v0, votes[k], [&](uint32_t i) { return r.vin[i]; });
    if (plans[k].p2) r.after.set(static_cast<uint32_t>(k), plans[k].v2);
  }
  r.vout = r.vin;
  r.out.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    const KeyPlan& p = plans[r.keys[i]];
    r.out[i] = outcome_of(r.ops[i], static_cast<uint32_t>(i), p, votes[r.keys[i]]);
    if (wrong && r.ops[i] == WX_OP_INSERT && !p.p0) r.out[i] = WX_OUT_INSERTED;
    if (r.out[i] == WX_OUT_FOUND) r.vout[i] = p.v0;
  }
  return r;
}

wxsuite::Verdict check(const Run& r) {
  BatchRecord b;
  b.ops = r.ops.data();
  b.keys = r.keys.data();
  b.values_before = r.vin.data();
  b.values_after = r.vout.data();
  b.outcomes = r.out.data();
  b.n = r.ops.size();
  return wxsuite::check_batch(b, r.before, r.after);
}

}  // namespace

int main() {
  std::mt19937_64 rng(20261203);
  const int mixes[][4] = {{20, 0, 20, 60}, {40, 0, 40, 20}, {15, 15, 20, 50}, {0, 50, 50, 0}, {0, 100, 0, 0},
                          {100, 0, 0, 0},  {0, 0, 100, 0},  {30, 30, 10, 30}};
  const uint64_t ranges[] = {1, 2, 3, 10, 101, 1001};
  uint64_t batches = 0, inserted_keys = 0;
  for (const auto& mix : mixes)
    for (uint64_t range : ranges)
      for (int rep = 0; rep < 40; ++rep) {
        const uint64_t n = 1 + rng() % (rep < 20 ? 8 : 4000);
        const Run r = run_batch(rng, range, n, mix, false);
        const wxsuite::Verdict v = check(r);
        if (!v.ok) wxsuite::print_verdict(v, "combining rules");
        CHECK_MSG(v.ok, "range %llu, n %llu, mix [%d,%d,%d,%d]", (unsigned long long)range, (unsigned long long)n,
                  mix[0], mix[1], mix[2], mix[3]);
        // Exactly one INSERTED for each key absent before that the batch inserts.
        std::vector<uint32_t> ins(range, 0), group(range, 0);
        for (uint64_t i = 0; i < n; ++i) {
          ins[r.keys[i]] += r.out[i] == WX_OUT_INSERTED;
          group[r.keys[i]] += r.ops[i] == WX_OP_INSERT || r.ops[i] == WX_OP_INSERT_OR_ASSIGN;
        }
        for (uint64_t k = 0; k < range; ++k) {
          uint32_t v0;
          const bool expect = group[k] > 0 && !r.before.get(static_cast<uint32_t>(k), &v0);
          CHECK_MSG(ins[k] == (expect ? 1u : 0u), "key %llu: %u INSERTED", (unsigned long long)k, ins[k]);
          inserted_keys += ins[k];
        }
        ++batches;
      }
  // Negative control: the checker must reject a batch in which two inserts of one key both insert.
  const int hot[4] = {100, 0, 0, 0};
  Run bad = run_batch(rng, 1, 64, hot, true);
  while (bad.before.count() != 0) bad = run_batch(rng, 1, 64, hot, true);  // the key must start absent
  CHECK_MSG(!check(bad).ok, "the checker accepted two INSERTED of one key");
  std::printf("combining rules: %llu batches accepted by the per-key checker (%llu keys inserted), wrong rule caught\n",
              (unsigned long long)batches, (unsigned long long)inserted_keys);
  return 0;
}
