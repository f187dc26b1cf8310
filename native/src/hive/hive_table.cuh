// Hive table (host side): owns the device buckets, stash and locks, drives the kernels of one bulk
// call (phase 1 lock-free, phase 2 eviction, growth, stash drain) and the linear-hashing resize.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "common/combine.hpp"
#include "common/cuda_util.cuh"
#include "common/read_back.cuh"
#include "common/table.hpp"
#include "hive/hive_kernels.cuh"
#include "hive/hive_layout.cuh"

namespace wx::hive {

// S = slot traits: Kv32 (8-byte slots, 32-bit keys/values) or Kv64 (16-byte slots, 64-bit keys/values),
// fixed by wx_config key_bits/value_bits at creation.
template <class S>
class HiveTableT final : public Table {
 public:
  using Key = typename S::Key;
  using Val = typename S::Val;
  using Word = typename S::Word;

  explicit HiveTableT(const wx_config& cfg);
  ~HiveTableT() override;
  HiveTableT(const HiveTableT&) = delete;
  HiveTableT& operator=(const HiveTableT&) = delete;

  bool on_device() const override { return true; }
  int device() const override { return device_; }

  BatchResult insert(const Batch& b) override { return run(b, Mode::Insert); }
  BatchResult insert_or_assign(const Batch& b) override { return run(b, Mode::Assign); }
  BatchResult find(const Batch& b) override { return run(b, Mode::Find); }
  BatchResult contains(const Batch& b) override { return run(b, Mode::Contains); }
  BatchResult erase(const Batch& b) override { return run(b, Mode::Erase); }
  BatchResult batch(const Batch& b) override;  // hot batches combined first (common/combine.hpp)

  uint64_t size() override { return size_; }
  uint64_t capacity() override { return uint64_t(n_) * kSlots; }
  void stats(wx_stats* s) override;
  void clear() override;
  void resize(uint64_t capacity) override;
  uint64_t retrieve_all(void* keys, void* values, void* stream) override;

  // ---- diagnostics for the design tests ----
  // Copies the table to the host and checks every invariant (addresses, uniqueness, counts, stash
  // rule, inactive buckets empty). Returns "" when all hold, else a description of the first breach.
  std::string validate();
  uint32_t active_buckets() const { return n_; }
  Place place(Key k) const { return place_of(k, geometry_of(n_, n0_), stash_nb_ - 1); }  // where k lives
  uint64_t stash_used() const { return stash_used_; }
  uint64_t stash_slots() const { return uint64_t(stash_nb_) * kSlots; }
  uint64_t errors() const { return errors_; }
  // Off: inserts leave overflow in the stash (tests fill it); drain_stash() empties what it can.
  void set_auto_drain(bool on) { auto_drain_ = on; }
  void drain_stash();

 private:
  using Args = ElemArgsT<S>;
  BatchResult run(const Batch& b, Mode mode);
  void run_chunk(const Args& a, Mode mode);
  void resolve_pending(const Args& a, Mode mode, uint32_t count);
  Args grouped_by_op(const Args& a);
  bool reserve_dedupe(uint32_t count, size_t& temp_bytes, uint64_t& scratch);
  uint32_t dedupe_pending(const Args& a, Mode mode, uint32_t count, uint32_t*& followers, uint32_t& nfollow);
  void drain_now();
  void relieve_stash(const Args& a, const uint32_t* jobs, uint32_t nf, uint32_t* scratch);
  void grow_to(uint64_t target_buckets);
  bool try_grow_to(uint64_t target_buckets);
  void shrink_to(uint64_t target_buckets);
  void after_erase_shrink();
  void ensure_alloc(uint64_t buckets);
  void ensure_workspace(uint64_t elements, uint64_t list_len);
  void prealloc_workspace(uint64_t elements);
  uint64_t buckets_for(uint64_t keys) const;
  uint64_t whole_level(uint64_t buckets) const;
  ViewT<S> view() const;

  void begin(cudaStream_t s);
  void read_back();  // counters and list lengths to the host (synchronises the stream)
  void commit();     // folds the call's counters into the table's totals
  uint64_t size_now() const { return size_ + hc_.inserted - hc_.erased; }
  uint64_t stash_now() const { return stash_used_ + hc_.stash_in - hc_.stash_out; }

  int device_ = 0;
  double max_lf_ = 0.9, min_lf_ = 0.0;
  bool grow_auto_ = true;
  int hot_share_ = 0;  // wx_config hot_share (common/combine.hpp)
  bool auto_drain_ = true;
  // ViewT::tidy holds (no EMPTY slot has come back since creation or clear()); cleared before every
  // erase to EMPTY, sweep, split and merge.
  bool tidy_ = true;

  uint32_t n_ = 1;      // active buckets (linear hashing state)
  uint32_t n0_ = 1;     // linear-hashing roots, fixed at creation (hive_layout.cuh): shrinks stop there
  uint64_t alloc_ = 0;  // buckets allocated
  uint32_t stash_nb_ = 1;
  DeviceArray<BucketT<Word>> buckets_, stash_;
  DeviceArray<uint32_t> locks_, ovf_;  // lock bits and overflow bits, one per bucket
  DeviceArray<Counters> counters_;
  DeviceArray<unsigned> lens_;  // [0] compaction, [1] retry, [2] full, [3] unfit
  DeviceArray<unsigned long long> count_;
  CombineScratchPtr hot_;  // hot-key combining buffers (common/combine.hpp), made on first use
  DeviceArray<uint32_t> bits_, lists_;  // pending bit set; three job lists of list_cap_ each
  DeviceArray<uint32_t> drain_lists_;   // two job lists for stash drains
  DeviceArray<uint32_t> dedupe_;        // hot-key dedupe: 3n sort scratch + n followers
  DeviceArray<unsigned char> dedupe_temp_;
  DeviceArray<unsigned> dedupe_lens_;   // [0] jobs left, [1] followers
  DeviceArray<uint32_t> group_;         // mixed chunks: elements in op order + sort scratch
  DeviceArray<unsigned char> group_temp_;
  uint64_t list_cap_ = 0;

  cudaStream_t own_stream_ = nullptr, s_ = nullptr;
  cudaEvent_t ev0_ = nullptr, ev1_ = nullptr;
  ReadBack read_back_;  // where read_back() lands
  Counters hc_{};      // this call's counters as last read back
  unsigned hl_[4]{};   // list lengths as last read back
  uint64_t marked_full_ = 0;  // elements marked FULL by the host loop in this call
  uint32_t seed_ = 1;

  uint64_t size_ = 0, stash_used_ = 0, tombs_ = 0, resizes_ = 0, displacements_ = 0, failed_ = 0,
           errors_ = 0, erased_since_rebuild_ = 0;
  double last_ms_ = 0.0;
};

using HiveTable = HiveTableT<Kv32>;
using HiveTable64 = HiveTableT<Kv64>;
extern template class HiveTableT<Kv32>;
extern template class HiveTableT<Kv64>;

}  // namespace wx::hive
