// Hot-key combining for mixed batches on GPU tables (combine.cu). A batch whose ops crowd onto few
// keys turns lock-free protocols into retry storms (every op on one key fights for one word). The
// ops of one key in a batch may take effect in any order (ALGORITHMS.md §4), so such a batch is
// sorted by key, each key's ops are applied in that order to its state before the batch (a segmented
// scan of per-op state functions), and the table sees one write per changed key.
#pragma once
#include <functional>

#include "common/table.hpp"

namespace wx {

struct Combined {
  bool done = false;  // false: the batch is not hot; run it the normal way
  BatchResult result;
  float kernel_ms = 0.f;  // device time of the whole combined call
};

// The batch counts as hot when fewer than max_distinct (a share, 0..1) of a 2^16-key sample are
// distinct: each backend sets where its own protocol starts losing to the sort (measured on the H200:
// GLHT keeps ~5.6 G/s on [0,10000) uncombined vs ~3.5 combined; Hive falls to ~1.4 G/s already on
// [0,100000)). `plain` runs a call through the backend's normal path (never recombined). Device
// arrays only; b.stream must be the table's stream for this call.
Combined combine_hot_batch(const Batch& b, double max_distinct,
                           const std::function<BatchResult(Call, const Batch&)>& plain);

}  // namespace wx
