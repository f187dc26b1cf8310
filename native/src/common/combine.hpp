// Hot-key combining for mixed batches on GPU tables (combine.cu). A batch whose ops crowd onto few
// keys turns lock-free protocols into retry storms (every op on one key fights for one word). The
// ops of one key in a batch may take effect in any order (they are concurrent), so combining picks one
// that three elections per key decide (combine_rules.hpp: finds, then inserts, then erases), reads
// each key's state once, and the table sees one write per changed key.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>

#include "common/table.hpp"

namespace wx {

struct Combined {
  bool done = false;  // false: the batch is not hot; run it the normal way
  BatchResult result;
  float kernel_ms = 0.f;  // device time of the whole combined call
};

// The batch counts as hot when fewer than hot_share % (wx_config hot_share, default 90) of 2^16
// evenly spaced keys are distinct (at 90: keys uniform over up to ~3·10^5 values); 0 never combines.
// Measured on the H200 (2^24 ops): combining runs 13–26 G ops/s on [0,100] … [0,100000] on both
// backends, where the plain paths run 0.8–10 (GLHT) and 1.3–3.1 (Hive); on [0,2^24) it would run 3.1
// against 8–12. `plain` runs a call through the backend's normal path (never recombined). Device
// arrays only; b.stream must be the table's stream.
// Device buffers kept across calls by each table (combine.cu); created on first use.
class CombineScratch;
struct CombineScratchFree {
  void operator()(CombineScratch* p) const;
};
using CombineScratchPtr = std::unique_ptr<CombineScratch, CombineScratchFree>;
uint64_t combine_scratch_bytes(const CombineScratch* p);  // 0 for none

Combined combine_hot_batch(const Batch& b, int hot_share, CombineScratchPtr& scratch,
                           const std::function<BatchResult(Call, const Batch&)>& plain);

}  // namespace wx
