// Hash joins over a wixlib table (wx_join_*): the build side is a table key -> row id (UNIQUE) or
// key -> group of rows (MULTI, a CSR: offsets + row ids sorted by key); a probe is a table find
// followed by count, exclusive scan and write of the (probe row, build row) pairs. An Engine does
// the non-table steps where the table's memory lives: on the host (join_host.cpp) or on the device
// (join_device.cu); the table itself is any kind, driven through the wx::Table interface.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "common/table.hpp"
#include "wixlib.h"

namespace wx::join {

// Largest row count of a build or probe column: row ids are 32-bit and all ones marks "no row".
constexpr uint64_t kMaxRows = 0xFFFFFFFEull;

// A probe column: n keys (and optionally their hashes), in the engine's memory space or the host's.
struct Probe {
  const void* keys = nullptr;
  const uint64_t* hashes = nullptr;
  uint64_t n = 0;
  int32_t mem = WX_MEM_HOST;
  void* stream = nullptr;  // device engines: the stream to run on (never null there)
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual uint64_t count(const Probe& p) = 0;
  // Writes the pairs when they fit in `capacity`; always returns how many there are.
  virtual uint64_t probe(const Probe& p, uint32_t* probe_rows, uint32_t* build_rows, uint64_t capacity) = 0;
  // Probe rows with (anti = false) or without (anti = true) a match; rows has room for p.n.
  virtual uint64_t semi(const Probe& p, bool anti, uint32_t* rows) = 0;
  virtual void stats(wx_join_stats* s) = 0;
  // The join table's hash of each probe key (wx_join_hash), for engines that own no single table.
  virtual void hash(const Probe& /*p*/, uint64_t* /*hashes*/) { fail(WX_ERR_INTERNAL, "this join hashes through its table"); }
};

// Creates the join's table, sized for `capacity` keys, once the engine knows how many distinct keys
// the build has (so no kind ever needs to resize). The wx_join handle owns the table.
using TableMaker = std::function<Table&(uint64_t capacity)>;

std::unique_ptr<Engine> make_host_engine(const TableMaker& make_table, int32_t key_bits, int32_t build,
                                         const void* keys, uint64_t n);
// keys in host or device memory (mem); stream: the table's stream; copy_threads: of host columns'
// transfers. CUDA builds only (else NO_DEVICE).
std::unique_ptr<Engine> make_device_engine(const TableMaker& make_table, int device, unsigned copy_threads,
                                           int32_t build, const void* keys, uint64_t n, int32_t mem, void* stream);
// A join over config.shards (resolved) inner joins, one per shard on its device (sharded_join.cpp); keys
// in host or device memory (device keys are copied through host memory after the work queued on
// `stream`).
std::unique_ptr<Engine> make_sharded_engine(const wx_config& config, int32_t build, const void* keys, uint64_t n,
                                            int32_t mem, void* stream);

}  // namespace wx::join
