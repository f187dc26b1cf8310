// GLHT table object: owns the device slot array and counters, runs the bulk ops as kernel passes
// (re-running unfinished elements, growing by rehash when inserts find no room).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "common/combine.hpp"
#include "common/cuda_util.cuh"
#include "common/read_back.cuh"
#include "common/env.hpp"
#include "common/table.hpp"
#include "glht/glht_build.cuh"
#include "glht/glht_kernels.cuh"
#include "glht/glht_rehash.cuh"

namespace wx {
namespace glht {

// Tr = Narrow (32-bit keys and values) or Wide (64/64); see glht_traits.cuh.
template <class Tr>
class GlhtTableT final : public Table {
 public:
  using SlotT = typename Tr::SlotT;
  using V = View<Tr>;
  explicit GlhtTableT(const wx_config& config);
  ~GlhtTableT() override;

  bool on_device() const override { return true; }
  int device() const override { return device_; }

  BatchResult insert(const Batch& b) override { return run(Mode::insert, b); }
  BatchResult insert_or_assign(const Batch& b) override { return run(Mode::assign, b); }
  BatchResult find(const Batch& b) override { return run(Mode::find, b); }
  BatchResult contains(const Batch& b) override { return run(Mode::contains, b); }
  BatchResult erase(const Batch& b) override { return run(Mode::erase, b); }
  BatchResult batch(const Batch& b) override;  // hot batches combined first (common/combine.hpp)

  uint64_t size() override;
  uint64_t capacity() override { return nb_; }
  void stats(wx_stats* s) override;
  void clear() override;
  void resize(uint64_t capacity) override;
  uint64_t retrieve_all(void* keys, void* values, void* stream) override;
  // Pre-hashed calls (glht_hashed.cu): hash = mix64(key); pre-hashed insert stays UNSUPPORTED, and
  // wide tables have none (WX_ERR_UNSUPPORTED).
  void hash_keys(const void* keys, uint64_t* hashes, uint64_t n, void* stream) override;
  BatchResult find_hashed(const Batch& b, const uint64_t* hashes) override;

  // ---- for tests: run the invariant check kernel; returns the number of violations found now
  // plus every error the kernels counted since creation. keys_seen = keys found in slots.
  uint64_t check_invariants(uint64_t* keys_seen = nullptr);
  uint64_t homes() const { return nb_; }
  uint64_t resizes() const { return resizes_; }
  uint64_t builds() const { return builds_; }  // insert calls that ran as a bulk build
  uint64_t ordered_rehashes() const { return ordered_rehashes_; }  // rehashes laid out in home order
  void build_at_any_fill() { wide_min_fill_ = 0.0; }  // wide tables too (kWideBuildMinFill)

 private:
  BatchResult run(Mode mode, const Batch& b);
  // An insert or assign of n elements into a table of `size` keys that could take it past
  // max_load_factor grows it first (an empty table to n keys, else to at least twice the homes):
  // inserts into a table past its load factor are the slow ones, and it would grow during the call.
  void grow_before(uint64_t size, uint64_t n, cudaStream_t st);
  // An insert of n elements into the empty table: true when it runs as a bulk build (glht_build.cuh),
  // with the scratch allocated.
  bool prepare_build(uint64_t n, BuildBuffers& build);
  Counters read_counters(cudaStream_t st);
  void reset_call_counters(cudaStream_t st);
  // Rehash into a table of at least new_nb homes (doubling while a rehash finds no room).
  void rehash(uint64_t new_nb, cudaStream_t st);
  V view() const { return view_of(slots_.get(), nb_, ctr_.get()); }
  static uint64_t stash_buckets(uint64_t nb) { return nb / 4096 + 1; }
  static uint64_t total_slots(uint64_t nb) { return nb + kH + stash_buckets(nb) * kH; }
  static V view_of(SlotT* s, uint64_t nb, Counters* c) {
    return V{s, nb, nb + kH, stash_buckets(nb), total_slots(nb), c};
  }
  uint64_t nb_for_capacity(uint64_t keys) const;

  int device_ = 0;
  double max_lf_ = 0.9;
  int grow_ = WX_GROW_AUTO;
  uint64_t nb_ = 0;
  DeviceArray<SlotT> slots_;
  DeviceArray<Counters> ctr_;  // the Counters, then the work cursors (kCounterWords words in all)
  DeviceArray<uint8_t> scratch_outcomes_;
  CombineScratchPtr hot_;  // hot-key combining buffers (common/combine.hpp), made on first use
  ReadBack read_back_;    // where read_counters lands
  Counters host_ctr_{};  // the counters as last read
  cudaEvent_t ev0_ = nullptr, ev1_ = nullptr;
  uint64_t resizes_ = 0;
  uint64_t builds_ = 0;
  uint64_t ordered_rehashes_ = 0;
  uint64_t failed_inserts_ = 0;
  uint64_t displacements_base_ = 0;  // moves counted by tables replaced in rehashes
  uint64_t errors_base_ = 0;
  double last_ms_ = 0.0;
  bool trace_ = trace_on();
  int hot_share_ = 0;  // wx_config hot_share: mixed batches with fewer distinct keys are combined
  // wx_config build_min: smallest insert batch into an empty table that is built by sorting (0:
  // never). Default 2^24: from there the build also wins in wall time, its scratch's cudaMalloc and
  // cudaFree included (2^24 wall 2.20 against 2.24 ms, 2^22 0.91 against 0.63).
  uint64_t build_min_ = 0;
  double wide_min_fill_ = kWideBuildMinFill;  // a wide table's smallest fill that is built
  // wx_config mixed_group: rounds of 32 elements per warp in mixed batches (Args::group; 0 = by
  // batch size, up to 8). Tests force 8 on small batches so the grouped path runs under the sanitizers.
  int mixed_group_ = 0;
};

using GlhtTable = GlhtTableT<Narrow>;
using GlhtTableWide = GlhtTableT<Wide>;
extern template class GlhtTableT<Narrow>;
extern template class GlhtTableT<Wide>;

// Pre-hashed calls of 32-bit tables (glht_hashed.cu).
void launch_hash_keys(const uint32_t* keys, unsigned long long* hashes, uint64_t n, cudaStream_t st);
void launch_find_hashed(const View<Narrow>& t, const uint32_t* keys, const unsigned long long* hashes,
                        uint32_t* values, uint32_t not_found, uint64_t n, cudaStream_t st);

}  // namespace glht
}  // namespace wx
