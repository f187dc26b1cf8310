// wx::Table on the host: the concurrent hopscotch core (hop_core.hpp) driven by a persistent thread
// pool. Bulk calls split their elements over all participants; elements of one call run concurrently
// and each key's outcomes fit a sequential order (per-key linearizability).
//
// Growth (WX_GROW_AUTO) happens only between parallel phases, by the calling thread with the workers
// idle, so it needs no table-wide lock:
//  - insert-type calls run in chunks of at most the room left below max_load_factor (at least
//    buckets/64), and the table doubles before a chunk once the load has reached max_load_factor;
//  - an element that found no empty slot within kMaxProbe, or could not hop one into its
//    neighbourhood, is set aside, the table doubles, and the set-aside elements run again;
//  - if the allocation fails the rest of the call runs without growing (unplaced inserts = FULL) and
//    the call then throws WX_ERR_OUT_OF_MEMORY; the table stays complete and usable.
// Under WX_GROW_NEVER such elements are WX_OUT_FULL at once (the load factor alone never refuses).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/table.hpp"
#include "cpu/hop_core.hpp"
#include "cpu/thread_pool.hpp"

namespace wx::cpu {

template <typename KV>
class CpuTable final : public Table {
 public:
  explicit CpuTable(const wx_config& config);

  bool on_device() const override { return false; }
  BatchResult insert(const Batch& b) override { return run(b, Op::insert); }
  BatchResult insert_or_assign(const Batch& b) override { return run(b, Op::assign); }
  BatchResult find(const Batch& b) override { return run(b, Op::find); }
  BatchResult contains(const Batch& b) override { return run(b, Op::contains); }
  BatchResult erase(const Batch& b) override { return run(b, Op::erase); }
  BatchResult batch(const Batch& b) override { return run(b, Op::mixed); }

  uint64_t size() override { return size_; }
  // Every slot that can hold a key: the homes plus the H padding slots after the last home.
  uint64_t capacity() override { return core_->slot_count(); }  // the hopscotch array and the overflow stash
  void stats(wx_stats* s) override;
  void clear() override;
  void resize(uint64_t capacity) override;
  uint64_t retrieve_all(void* keys, void* values, void* stream) override;

  // Pre-hashed calls: hashes[i] = KV::hash(keys[i]) (size-independent, so they survive growth).
  void hash_keys(const void* keys, uint64_t* hashes, uint64_t n, void* stream) override;
  BatchResult find_hashed(const Batch& b, const uint64_t* hashes) override;
  BatchResult insert_hashed(const Batch& b, const uint64_t* hashes) override;

  unsigned threads() const { return pool_->size(); }
  // Full structural check for tests: "" when every invariant holds, else what is broken.
  std::string check_invariants() const;

 private:
  using K = typename KV::key_type;
  using V = typename KV::value_type;
  using W = typename KV::word_type;
  enum class Op { insert, assign, find, contains, erase, mixed };

  // Counters of one participant during one parallel phase (own cache line: no false sharing).
  struct alignas(64) Worker {
    int64_t size_delta = 0;
    uint64_t displacements = 0, full = 0, invalid = 0;
    std::vector<uint64_t> retry;  // elements that found no room, to run again after growing
  };

  BatchResult run(const Batch& b, Op op);
  BatchResult run_hashed(const Batch& b, Op op, const uint64_t* hashes);
  uint64_t home_of(K k, uint64_t i) const { return hashes_ ? core_->home_of_hash(hashes_[i]) : core_->home(k); }
  // Runs elements [begin, end) (or idx[begin..end) when idx != null) of the call.
  void run_elements(const Batch& b, Op op, uint64_t begin, uint64_t end, const uint64_t* idx, bool can_retry,
                    Worker& w);
  void run_phase(const Batch& b, Op op, uint64_t begin, uint64_t end, const uint64_t* idx, bool can_retry,
                 BatchResult& result, std::vector<uint64_t>* retry);
  uint8_t apply(uint8_t op, K k, const Batch& b, uint64_t i, Worker& w);

  uint64_t buckets_for(uint64_t keys) const;
  uint64_t load_limit() const;
  void rehash(uint64_t buckets);  // throws WX_ERR_OUT_OF_MEMORY with the table intact

  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<HopCore<KV>> core_;
  std::vector<Worker> workers_;
  double max_lf_;
  bool grow_auto_;
  uint64_t size_ = 0, resizes_ = 0, displacements_ = 0, failed_ = 0;
  const uint64_t* hashes_ = nullptr;  // the running call's hashes (pre-hashed calls), else null
};

}  // namespace wx::cpu
