// Hive table host logic: the sequence of kernels behind each bulk call, growth and shrink policy,
// memory management. Kernels: hive_ops.cu (phase 1), hive_evict.cu (phase 2), hive_resize.cu.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "hive/hive_table.cuh"

#include "common/combine.hpp"
#include "common/env.hpp"

namespace wx::hive {
namespace {

constexpr uint64_t kMaxBuckets = 1ull << 31;  // 32-bit hashes address at most 2^31 buckets
constexpr uint64_t kChunk = 1ull << 28;       // elements per internal launch sequence
constexpr int kParallelRounds = 2048;         // phase-2 rounds before the serial straggler pass
constexpr int kMaxRounds = 2304;              // hard bound of phase-2 rounds per chunk
// An insert or mixed chunk drains the stash only when it holds more than kDrainAt/64 of its slots:
// a drain costs ~60 us however few entries it moves and 2.0 ms after an insert to LF 0.95 (stash 81 %
// full), while stash entries cost only misses behind two full buckets one more read. The price: later
// inserts of keys whose stash bucket is full wait for phase 2. At 7/8, LF 0.95 inserts ran 10.2 G/s
// against 7.9 draining at 1/2. Measurements: hive/DESIGN.md.
constexpr uint64_t kDrainAt = 56;
// Stash buckets per table bucket: 1/kStashShare, rounded up to a power of two (3-6 % more memory).
// 1/16 (6-12 %) holds an LF 0.95 insert's whole overflow (5.7 % of the keys in a simulation of the layout)
// without a drain, 6.2 -> 11.3 G inserts/s, but that is LF 0.85 of the memory: kept at 1/32.
constexpr uint64_t kStashShare = 32;
constexpr int kMaxGrowSteps = 64;             // growth steps per chunk before giving up (FULL)
constexpr uint32_t kDedupeMin = 4096;         // pending jobs from which same-key jobs are merged
constexpr uint64_t kMinListCap = 1024;        // job lists hold at least this many jobs (ensure_workspace)
constexpr uint32_t kReliefMax = 32;           // FULL jobs whose stash buckets are relieved (relieve_stash)
static_assert(2 * kReliefMax * kSlots <= kMinListCap, "a relief's slot list and retry list fit one job list");
// Reliefs per call before growing / draining (relieve_stash). Without them one or two FULL jobs of an
// LF 0.95 insert cost a 2.2 ms grow: one seed in three had a median of 8.4 G/s against 10.6.
constexpr int kReliefRounds = 2;
constexpr uint64_t kGroupMin = 1u << 16;      // mixed chunks from which elements run in op order

// WIXLIB_TRACE=1: each insert-type chunk prints where its time went (phase 1, phase 2, stash drain)
// to stderr. The marks synchronise the stream, so traced runs are slower; for diagnosis only.
struct Trace {
  bool on = trace_on();
  std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
  double lap(cudaStream_t s) {
    if (!on) return 0;
    cudaStreamSynchronize(s);
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t).count();
    t = now;
    return ms;
  }
};

uint64_t pow2_at_least(uint64_t x) {
  uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

}  // namespace

template <class S>
HiveTableT<S>::HiveTableT(const wx_config& cfg) : device_(cfg.device) {
  max_lf_ = cfg.max_load_factor;
  min_lf_ = cfg.min_load_factor;
  grow_auto_ = cfg.grow != WX_GROW_NEVER;
  hot_share_ = cfg.hot_share;
  DeviceScope scope(device_);
  WX_CUDA(cudaStreamCreateWithFlags(&own_stream_, cudaStreamNonBlocking));
  WX_CUDA(cudaEventCreate(&ev0_));
  WX_CUDA(cudaEventCreate(&ev1_));
  counters_ = DeviceArray<Counters>(1);
  lens_ = DeviceArray<unsigned>(4);
  count_ = DeviceArray<unsigned long long>(1);
  const Roots r = roots_for(buckets_for(cfg.capacity));
  if (r.buckets > kMaxBuckets) fail(WX_ERR_INVALID_ARGUMENT, "Hive capacity too large");
  s_ = own_stream_;
  ensure_alloc(r.buckets);
  n_ = static_cast<uint32_t>(r.buckets);
  n0_ = r.n0;
  prealloc_workspace(std::min<uint64_t>(cfg.capacity, kChunk));
  WX_CUDA(cudaStreamSynchronize(own_stream_));
}

template <class S>
HiveTableT<S>::~HiveTableT() {
  if (own_stream_) cudaStreamSynchronize(own_stream_);
  if (ev0_) cudaEventDestroy(ev0_);
  if (ev1_) cudaEventDestroy(ev1_);
  if (own_stream_) cudaStreamDestroy(own_stream_);
}

template <class S>
uint64_t HiveTableT<S>::buckets_for(uint64_t keys) const {
  const double slots = std::ceil(static_cast<double>(keys) / max_lf_);
  const uint64_t nb = static_cast<uint64_t>(std::ceil(slots / kSlots));
  return std::max<uint64_t>(nb, 1);
}

// The smallest whole level n0·2^k >= nb (at most kMaxBuckets). A table between two levels sends
// its unsplit buckets twice the keys of the split ones and the stash takes the excess: growing 2^20
// -> 2^26 keys in 4 M batches put 15.4 % of the keys through the stash when each batch pre-grew to
// its exact need, 2.8 % at whole levels (a simulation of the layout, matched by the H200 trace). The
// price: while it grows, a table may hold up to twice the buckets its keys need.
template <class S>
uint64_t HiveTableT<S>::whole_level(uint64_t nb) const {
  uint64_t l = n0_;
  while (l < nb) l *= 2;
  return l <= kMaxBuckets ? l : nb;
}

template <class S>
ViewT<S> HiveTableT<S>::view() const {
  ViewT<S> v;
  v.buckets = buckets_.get();
  v.stash = stash_.get();
  v.ovf = ovf_.get();
  v.geo = geometry_of(n_, n0_);
  v.stash_mask = stash_nb_ - 1;
  v.tidy = tidy_ && v.geo.split == 0;
  return v;
}

// ---------------------------------------------------------------- memory

template <class S>
void HiveTableT<S>::ensure_alloc(uint64_t nb) {
  if (nb <= alloc_) return;
  uint64_t na = std::max<uint64_t>(nb, alloc_ + alloc_ / 2);
  na = std::min<uint64_t>((na + 31) & ~31ull, kMaxBuckets);
  if (na < nb) fail(WX_ERR_OUT_OF_MEMORY, "Hive: more than 2^31 buckets requested");
  // Allocate everything first: a failure leaves the table as it was.
  DeviceArray<BucketT<Word>> nbk(na);
  DeviceArray<uint32_t> nlocks(na / 32 + 1), novf(na / 32 + 1);
  const uint64_t want_stash = pow2_at_least(std::max<uint64_t>(1, na / kStashShare));
  // A stash of another size is made only while empty; chunks leave up to kDrainAt/64 of it.
  if (stash_.get() && want_stash != stash_nb_ && stash_now() > 0 && auto_drain_) drain_now();
  DeviceArray<BucketT<Word>> nstash;
  const bool new_stash = !stash_.get() || (want_stash != stash_nb_ && stash_now() == 0);
  DeviceArray<uint32_t> nlists;  // the drain's job lists: two per stash slot, made with the stash
  if (new_stash) {
    nstash = DeviceArray<BucketT<Word>>(want_stash);
    nlists = DeviceArray<uint32_t>(2 * want_stash * kSlots);
  }
  WX_CUDA(cudaMemsetAsync(nbk.get() + alloc_, 0xFF, (na - alloc_) * sizeof(BucketT<Word>), s_));
  if (alloc_)
    WX_CUDA(cudaMemcpyAsync(nbk.get(), buckets_.get(), alloc_ * sizeof(BucketT<Word>), cudaMemcpyDeviceToDevice, s_));
  WX_CUDA(cudaMemsetAsync(nlocks.get(), 0, nlocks.bytes(), s_));
  WX_CUDA(cudaMemsetAsync(novf.get(), 0, novf.bytes(), s_));
  if (ovf_.get()) WX_CUDA(cudaMemcpyAsync(novf.get(), ovf_.get(), ovf_.bytes(), cudaMemcpyDeviceToDevice, s_));
  if (new_stash) {
    WX_CUDA(cudaMemsetAsync(nstash.get(), 0xFF, nstash.bytes(), s_));
    stash_ = std::move(nstash);
    drain_lists_ = std::move(nlists);
    stash_nb_ = static_cast<uint32_t>(want_stash);
  }
  WX_CUDA(cudaStreamSynchronize(s_));  // old buffers are freed below
  buckets_ = std::move(nbk);
  locks_ = std::move(nlocks);
  ovf_ = std::move(novf);
  alloc_ = na;
}

template <class S>
void HiveTableT<S>::ensure_workspace(uint64_t elements, uint64_t list_len) {
  const uint64_t words = 2 * ((elements + 31) / 32);  // pending bits, slow bits (launch_p1)
  if (bits_.size() < words) {
    bits_.reset();
    bits_ = DeviceArray<uint32_t>(words);
  }
  if (list_cap_ < list_len) {
    lists_.reset();
    const uint64_t cap = std::max<uint64_t>(list_len, kMinListCap);
    lists_ = DeviceArray<uint32_t>(3 * cap);
    list_cap_ = cap;
  }
}

// The workspace of a batch of n elements with up to n/64 pending jobs, made with the table (~0.7
// bytes per key, 7 % of the buckets' bytes). Made on first use, a fresh table's first call waited on
// cudaMalloc between its kernels with the device idle: mixed 2^24 batches 12.4-13.1 G ops/s against
// 17.1-17.7, LF 0.95 inserts 9.9 against 10.6. Best effort: without memory for it the calls allocate
// what they need, as they do past these sizes.
template <class S>
void HiveTableT<S>::prealloc_workspace(uint64_t n) {
  const uint64_t jobs = std::max<uint64_t>(n / 64, 1024);
  try {
    ensure_workspace(n, jobs);
    size_t bytes = 0;
    uint64_t scratch = 0;
    if (jobs >= kDedupeMin) reserve_dedupe(static_cast<uint32_t>(jobs), bytes, scratch);
  } catch (const Error& e) {
    if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
  }
}

// ---------------------------------------------------------------- call bookkeeping

template <class S>
void HiveTableT<S>::begin(cudaStream_t s) {
  s_ = s ? s : own_stream_;
  std::memset(&hc_, 0, sizeof(hc_));
  std::memset(hl_, 0, sizeof(hl_));
  marked_full_ = 0;
  WX_CUDA(cudaMemsetAsync(counters_.get(), 0, sizeof(Counters), s_));
  WX_CUDA(cudaEventRecord(ev0_, s_));
}

template <class S>
void HiveTableT<S>::read_back() {
  read_back_.fetch(counters_.get(), sizeof(Counters), 0, s_);
  read_back_.fetch(lens_.get(), sizeof(hl_), sizeof(Counters), s_);
  WX_CUDA(cudaStreamSynchronize(s_));
  read_back_.copy_to(&hc_, sizeof(Counters));
  read_back_.copy_to(hl_, sizeof(hl_), sizeof(Counters));
}

template <class S>
void HiveTableT<S>::commit() {
  size_ = size_now();
  stash_used_ = stash_now();
  tombs_ += hc_.tombs;
  erased_since_rebuild_ += hc_.erased;
  displacements_ += hc_.displacements;
  errors_ += hc_.errors;
  failed_ += hc_.full + marked_full_;
  std::memset(&hc_, 0, sizeof(hc_));
}

// ---------------------------------------------------------------- bulk calls

template <class S>
BatchResult HiveTableT<S>::run(const Batch& b, Mode mode) {
  DeviceScope scope(device_);
  begin(static_cast<cudaStream_t>(b.stream));
  BatchResult res;
  bool oom = false;
  std::string oom_msg;
  try {
    // Tombstones are never reused by phase 1: sweep them when they get numerous.
    if ((mode == Mode::Insert || mode == Mode::Assign || mode == Mode::Mixed) && tombs_ > capacity() / 8) {
      tidy_ = false;  // tombstones become EMPTY
      launch_sweep(view(), s_);
      if (stash_now() > 0) launch_settle(view(), counters_.get(), s_);
      launch_ovf_rebuild(view(), ovf_.size(), s_);
      tombs_ = 0;
      erased_since_rebuild_ = 0;
    } else if (mode != Mode::Find && mode != Mode::Contains && erased_since_rebuild_ > capacity() / 4) {
      launch_ovf_rebuild(view(), ovf_.size(), s_);  // erases leave overflow bits stale (set)
      erased_since_rebuild_ = 0;
    }
    for (uint64_t off = 0; off < b.n; off += kChunk) {
      Args a;
      a.n = std::min<uint64_t>(kChunk, b.n - off);
      a.keys = static_cast<const Key*>(b.keys) + off;
      if (b.values_in) a.vin = static_cast<const Val*>(b.values_in) + off;
      if (b.values_out) a.vout = static_cast<Val*>(b.values_out) + off;
      if (b.ops) a.ops = b.ops + off;
      if (b.outcomes) a.outcomes = b.outcomes + off;
      a.not_found = static_cast<Val>(b.not_found);
      run_chunk(a, mode);
    }
    if (mode == Mode::Erase || mode == Mode::Mixed) {
      Trace tr;
      after_erase_shrink();
      if (tr.on) std::fprintf(stderr, "[hive trace] after the erases: %.3f ms\n", tr.lap(s_));
    }
  } catch (const Error& e) {
    if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
    oom = true;
    oom_msg = e.what();
  }
  WX_CUDA(cudaEventRecord(ev1_, s_));
  read_back();
  float ms = 0;
  WX_CUDA(cudaEventElapsedTime(&ms, ev0_, ev1_));
  last_ms_ = ms;
  res.invalid = hc_.invalid;
  res.full = hc_.full + marked_full_;
  const uint64_t errs = hc_.errors;
  commit();
  if (oom) fail(WX_ERR_OUT_OF_MEMORY, oom_msg);
  if (errs) fail(WX_ERR_INTERNAL, "Hive: " + std::to_string(errs) + " broken invariants detected in a kernel");
  return res;
}

template <class S>
BatchResult HiveTableT<S>::batch(const Batch& b) {
  DeviceScope scope(device_);
  // The hot-key combining (common/combine.cu) is 32-bit: 64-bit tables run the plain mixed path.
  if constexpr (S::kWide) return run(b, Mode::Mixed);
  const Combined c = combine_hot_batch(b, hot_share_, hot_, [this](Call call, const Batch& x) {
    return run(x, call == Call::batch ? Mode::Mixed : call == Call::find ? Mode::Find : Mode::Contains);
  });
  if (!c.done) return run(b, Mode::Mixed);
  last_ms_ = c.kernel_ms;
  return c.result;
}

template <class S>
void HiveTableT<S>::run_chunk(const Args& a, Mode mode) {
  if (mode == Mode::Find || mode == Mode::Contains) {
    launch_p1(mode, view(), a, nullptr, stash_now() > 0, false, counters_.get(), s_);
    return;
  }
  if (mode == Mode::Erase) {
    const bool to_empty = stash_now() == 0;  // no stash entry to keep consistent: reuse slots at once
    if (to_empty) tidy_ = false;
    Trace tr;
    tr.lap(s_);
    launch_p1(mode, view(), a, nullptr, !to_empty, to_empty, counters_.get(), s_);
    if (tr.on)
      std::fprintf(stderr, "[hive trace] erase n %llu: phase 1 %.3f ms, %s, stash %llu\n", (unsigned long long)a.n,
                   tr.lap(s_), to_empty ? "to EMPTY" : "to TOMBSTONE", (unsigned long long)stash_now());
    return;
  }
  // Inserts: make room for the batch first (an upper bound: all keys new), up to a whole level.
  if (grow_auto_ && mode != Mode::Mixed) {
    const uint64_t keys = size_now() + a.n, target = buckets_for(keys);
    if (target > n_) {
      const uint64_t level = whole_level(target);
      // Not past the shrink threshold: the next erase would merge it back.
      const bool level_ok = double(keys) >= min_lf_ * double(level * kSlots);
      if (!(level_ok && try_grow_to(level))) try_grow_to(target);  // else what the batch needs, if it fits
    }
  }
  Trace tr;
  tr.lap(s_);
  ensure_workspace(a.n, 0);
  // Pending bits; assign and mixed batches also use the slow bits behind them (launch_p1).
  const uint64_t bit_words = (mode == Mode::Assign || mode == Mode::Mixed ? 2 : 1) * ((a.n + 31) / 32);
  WX_CUDA(cudaMemsetAsync(bits_.get(), 0, bit_words * sizeof(uint32_t), s_));
  const unsigned long long pending_before = hc_.pending;
  // Op grouping pays only where tiles run the ops (Kv64); one thread per op (Kv32) would gather its
  // elements out of order instead of reading them in a row.
  const bool group = mode == Mode::Mixed && S::kWide;
  launch_p1(mode, view(), group ? grouped_by_op(a) : a, bits_.get(), true, false, counters_.get(), s_);
  read_back();
  const uint64_t pending = hc_.pending - pending_before;
  const double p1_ms = tr.lap(s_);
  uint32_t jobs = 0, nfollow = 0;
  double prep_ms = 0;
  if (pending > 0) {
    ensure_workspace(a.n, pending);
    WX_CUDA(cudaMemsetAsync(lens_.get(), 0, sizeof(unsigned) * 4, s_));
    launch_compact(bits_.get(), a.n, lists_.get(), static_cast<uint32_t>(list_cap_), lens_.get(), s_);
    uint32_t* followers = nullptr;
    jobs = dedupe_pending(a, mode, static_cast<uint32_t>(pending), followers, nfollow);
    prep_ms = tr.lap(s_);
    try {
      resolve_pending(a, mode, jobs);
    } catch (const Error&) {
      launch_follow(view(), a, followers, nfollow, counters_.get(), s_);  // their outcomes too
      throw;
    }
    launch_follow(view(), a, followers, nfollow, counters_.get(), s_);
  }
  const double p2_ms = tr.lap(s_);
  const uint64_t stash = stash_now();
  if (auto_drain_ && stash > uint64_t(stash_nb_) * kSlots * kDrainAt / 64) drain_now();
  const double drain_ms = tr.lap(s_);
  if (grow_auto_ && size_now() > max_lf_ * capacity()) grow_to(buckets_for(size_now()));
  if (tr.on)
    std::fprintf(stderr,
                 "[hive trace] mode %d n %llu: phase 1 %.3f ms, pending %llu | compact+dedupe %.3f ms | phase 2 "
                 "%.3f ms, jobs %u, followers %u | drain %.3f ms of %llu stash entries | grow %.3f ms\n",
                 static_cast<int>(mode), (unsigned long long)a.n, p1_ms, (unsigned long long)pending, prep_ms, p2_ms, jobs,
                 nfollow, drain_ms, (unsigned long long)stash, tr.lap(s_));
}

// A mixed chunk with its elements visited in op order (hive_dedupe.cu); unchanged when small or
// when no scratch can be had (same results, more divergence).
template <class S>
typename HiveTableT<S>::Args HiveTableT<S>::grouped_by_op(const Args& a) {
  if (a.n < kGroupMin || a.index) return a;
  const uint32_t n = static_cast<uint32_t>(a.n);
  const size_t bytes = group_by_op_temp_bytes(n);
  const uint64_t words = 2ull * n + (n + 3) / 4;  // index, iota, sorted op bytes
  try {
    if (group_.size() < words) {
      group_.reset();
      group_ = DeviceArray<uint32_t>(words);
    }
    if (group_temp_.size() < bytes) {
      group_temp_.reset();
      group_temp_ = DeviceArray<unsigned char>(bytes);
    }
  } catch (const Error& e) {
    if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
    return a;
  }
  launch_group_by_op(a.ops, n, group_.get(), group_.get() + n, group_temp_.get(), bytes, s_);
  Args g = a;
  g.index = group_.get();
  return g;
}

// Many pending jobs (hot keys): only the first job of each key (and every insert_or_assign) goes to
// phase 2; the other plain inserts of that key follow its result (hive_dedupe.cu). Returns the jobs
// left in list 0.
template <class S>
uint32_t HiveTableT<S>::dedupe_pending(const Args& a, Mode mode, uint32_t count, uint32_t*& followers,
                                   uint32_t& nfollow) {
  if (count < kDedupeMin || mode == Mode::Assign) return count;
  size_t bytes = 0;
  uint64_t scratch = 0;
  // No scratch: phase 2 runs every job (slower, same results).
  if (!reserve_dedupe(count, bytes, scratch)) return count;
  followers = dedupe_.get() + scratch;
  launch_dedupe(a, mode, lists_.get(), count, dedupe_.get(), dedupe_temp_.get(), bytes, followers,
                dedupe_lens_.get(), s_);
  unsigned h[2];
  WX_CUDA(cudaMemcpyAsync(h, dedupe_lens_.get(), sizeof(h), cudaMemcpyDeviceToHost, s_));
  WX_CUDA(cudaStreamSynchronize(s_));
  nfollow = h[1];
  return h[0];
}

// Room for the dedupe of `count` jobs (temp_bytes of sort temp, scratch words before the followers);
// false when there is none (out of memory).
template <class S>
bool HiveTableT<S>::reserve_dedupe(uint32_t count, size_t& temp_bytes, uint64_t& scratch) {
  temp_bytes = dedupe_temp_bytes<S>(count);
  scratch = dedupe_scratch_words<S>(count);
  const uint64_t words = scratch + count;
  try {
    if (dedupe_.size() < words) {
      dedupe_.reset();
      dedupe_ = DeviceArray<uint32_t>(words);
    }
    if (dedupe_temp_.size() < temp_bytes) {
      dedupe_temp_.reset();
      dedupe_temp_ = DeviceArray<unsigned char>(temp_bytes);
    }
    if (dedupe_lens_.size() < 2) dedupe_lens_ = DeviceArray<unsigned>(2);
  } catch (const Error& e) {
    if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
    return false;
  }
  return true;
}

// Phase 2 rounds over the pending elements (list 0). Lock conflicts are retried next round; jobs with
// no room collect in the full list. Then: WX_GROW_AUTO grows and retries them; otherwise the stash is
// drained once (it may have filled in phase 1) and they are retried; what still fails is FULL.
template <class S>
void HiveTableT<S>::resolve_pending(const Args& a, Mode mode, uint32_t count) {
  uint32_t* cur = lists_.get();
  uint32_t* next = lists_.get() + list_cap_;
  uint32_t* full = lists_.get() + 2 * list_cap_;
  int rounds = 0, grows = 0, reliefs = 0;
  bool drained = false;
  Trace tr;
  WX_CUDA(cudaMemsetAsync(lens_.get(), 0, sizeof(unsigned) * 4, s_));
  tr.lap(s_);
  for (;;) {
    uint32_t last = 0;
    while (count > 0) {
      // Serial (one tile, no conflicts possible) for few stragglers, when a round made no progress
      // (e.g. thousands of jobs on one hot key) or after many rounds.
      const bool serial = count <= 32 || count == last || rounds >= kParallelRounds;
      last = count;
      WX_CUDA(cudaMemsetAsync(lens_.get() + 1, 0, sizeof(unsigned), s_));
      launch_evict(view(), locks_.get(), mode, a, cur, count, false, next, lens_.get() + 1, full,
                   lens_.get() + 2, seed_++, serial, counters_.get(), s_);
      read_back();
      if (tr.on)
        std::fprintf(stderr, "[hive trace] phase 2 round %d%s: %.3f ms, %u jobs -> %u retries, %u full\n", rounds,
                     serial ? " (serial)" : "", tr.lap(s_), last, hl_[1], hl_[2]);
      count = hl_[1];
      std::swap(cur, next);
      if (++rounds >= kMaxRounds && count > 0) {  // cannot happen (serial rounds never conflict)
        launch_mark_full(a.outcomes, cur, count, s_);
        marked_full_ += count;
        ++errors_;
        count = 0;
      }
    }
    const uint32_t nf = hl_[2];  // accumulated over the rounds
    if (nf == 0) return;
    if (reliefs < kReliefRounds && nf <= kReliefMax && stash_now() > 0) {
      relieve_stash(a, full, nf, next);
      ++reliefs;
    } else if (grow_auto_ && grows < kMaxGrowSteps) {
      try {
        grow_to(std::max<uint64_t>(uint64_t(n_) + n_ / 8 + 1, buckets_for(size_now() + nf)));
      } catch (const Error& e) {
        if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
        launch_mark_full(a.outcomes, full, nf, s_);
        marked_full_ += nf;
        throw;
      }
      ++grows;
    } else if (!drained && stash_now() > 0) {
      drain_now();  // own job lists: `full` stays intact
      drained = true;
    } else {
      launch_mark_full(a.outcomes, full, nf, s_);
      marked_full_ += nf;
      return;
    }
    WX_CUDA(cudaMemcpyAsync(cur, full, nf * sizeof(uint32_t), cudaMemcpyDeviceToDevice, s_));
    WX_CUDA(cudaMemsetAsync(lens_.get() + 2, 0, sizeof(unsigned), s_));
    hl_[2] = 0;
    count = nf;
    rounds = 0;
  }
}

// A few inserts found no path and a full stash bucket (at LF 0.95, with the stash ~80 % full, some
// calls end with one or two such jobs among ~375 k: traced, 1 rep in 18 and 3 in 8). Before a grow
// (2.2 ms at 2^26 keys, and the table is no longer at the load factor asked for) or a whole drain:
// move the entries of just those stash buckets into their own buckets (the drain's eviction, one
// tile: a slot listed twice is harmless), then the jobs run again. scratch: 2 * kSlots * nf words.
template <class S>
void HiveTableT<S>::relieve_stash(const Args& a, const uint32_t* jobs, uint32_t nf, uint32_t* scratch) {
  Trace tr;
  tr.lap(s_);
  launch_stash_slots(view(), a, jobs, nf, scratch, s_);
  const uint32_t slots = nf * kSlots;
  uint32_t* retry = scratch + slots;  // unused: one tile never conflicts
  WX_CUDA(cudaMemsetAsync(lens_.get() + 1, 0, sizeof(unsigned), s_));
  launch_evict(view(), locks_.get(), Mode::Insert, Args{}, scratch, slots, true, retry, lens_.get() + 1, nullptr,
               lens_.get() + 3, seed_++, true, counters_.get(), s_);
  read_back();
  if (tr.on)
    std::fprintf(stderr, "[hive trace] stash relief for %u jobs: %.3f ms, stash %llu\n", nf, tr.lap(s_),
                 (unsigned long long)stash_now());
}

template <class S>
void HiveTableT<S>::drain_stash() {
  DeviceScope scope(device_);
  begin(own_stream_);
  drain_now();
  WX_CUDA(cudaEventRecord(ev1_, s_));
  read_back();
  commit();
}

// Phase 2 over the stash slots: move entries into their buckets (evicting if needed).
template <class S>
void HiveTableT<S>::drain_now() {
  const uint64_t slots = uint64_t(stash_nb_) * kSlots;
  // Most entries move in the lock-free pass; it lists the slots of the others for the locked rounds.
  uint32_t* cur = drain_lists_.get();
  uint32_t* next = drain_lists_.get() + slots;
  Trace tr;
  tr.lap(s_);
  WX_CUDA(cudaMemsetAsync(lens_.get() + 1, 0, sizeof(unsigned), s_));
  launch_drain_swap(view(), cur, lens_.get() + 1, counters_.get(), s_);
  read_back();
  uint32_t count = hl_[1];
  if (tr.on) std::fprintf(stderr, "[hive trace] drain swap pass: %.3f ms, %u entries left\n", tr.lap(s_), count);
  uint32_t last = 0;
  for (int rounds = 0; count > 0 && rounds < kMaxRounds; ++rounds) {
    const bool serial = count <= 32 || count == last || rounds >= kParallelRounds;
    last = count;
    WX_CUDA(cudaMemsetAsync(lens_.get() + 1, 0, sizeof(unsigned), s_));
    launch_evict(view(), locks_.get(), Mode::Insert, Args{}, cur, count, true, next, lens_.get() + 1,
                 nullptr, lens_.get() + 3, seed_++, serial, counters_.get(), s_);
    read_back();
    if (tr.on)
      std::fprintf(stderr, "[hive trace] drain round %d: %.3f ms, %u jobs -> %u retries%s\n", rounds, tr.lap(s_),
                   count, hl_[1], serial ? " (serial)" : "");
    count = hl_[1];
    std::swap(cur, next);
  }
}

// ---------------------------------------------------------------- resize (linear hashing)

// grow_to, false where the device memory is not there (the table is unchanged; phase 2 then
// reports what does not fit).
template <class S>
bool HiveTableT<S>::try_grow_to(uint64_t target) {
  try {
    grow_to(target);
    return true;
  } catch (const Error& e) {
    if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
    return false;
  }
}

template <class S>
void HiveTableT<S>::grow_to(uint64_t target) {
  target = std::min<uint64_t>(target, kMaxBuckets);
  bool changed = false;
  while (n_ < target) {
    const Geometry g = geometry_of(n_, n0_);
    const uint32_t half = g.half;
    const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(target - n_, half - g.split));
    ensure_alloc(uint64_t(n_) + count);
    tidy_ = false;  // a split leaves EMPTY slots behind in the buckets it splits
    ViewT<S> va = view();
    va.geo = geometry_of(n_ + count, n0_);
    launch_split(va, g.split, count, half, counters_.get(), s_);
    n_ += count;
    ++resizes_;
    changed = true;
  }
  if (changed && stash_now() > 0) launch_settle(view(), counters_.get(), s_);
}

template <class S>
void HiveTableT<S>::shrink_to(uint64_t target) {
  target = std::max<uint64_t>(target, n0_);  // the roots never merge
  bool changed = false;
  while (n_ > target) {
    const Geometry g = geometry_of(n_, n0_);
    uint32_t half, split;
    if (g.split == 0) {  // n_ = n0·2^m: merge the upper half of level m-1
      if (g.mask == 0) break;
      half = g.half / 2;
      split = half;
    } else {
      half = g.half;
      split = g.split;
    }
    const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(n_ - target, split));
    const uint32_t p_begin = split - count;
    WX_CUDA(cudaMemsetAsync(lens_.get() + 3, 0, sizeof(unsigned), s_));
    launch_fit(view(), p_begin, count, half, lens_.get() + 3, s_);
    read_back();
    const uint32_t begin = std::max<uint32_t>(p_begin, hl_[3]);
    if (begin >= split) break;  // the last pair does not fit one bucket: stop shrinking here
    ViewT<S> va = view();
    va.geo = geometry_of(half + begin, n0_);
    tidy_ = false;
    launch_merge(va, begin, split - begin, half, s_);
    n_ = half + begin;
    ++resizes_;
    changed = true;
    if (begin > p_begin) break;  // stopped early at a pair that does not fit
  }
  if (changed && stash_now() > 0) launch_settle(view(), counters_.get(), s_);
  if (changed) launch_ovf_rebuild(view(), ovf_.size(), s_);  // merges only accumulate bits
  // Give memory back when the table has become much smaller than its allocation.
  if (changed && alloc_ > 4 * uint64_t(n_) + 1024) {
    const uint64_t na = std::max<uint64_t>((2 * uint64_t(n_) + 31) & ~31ull, 32);
    try {
      DeviceArray<BucketT<Word>> nbk(na);
      DeviceArray<uint32_t> nlocks(na / 32 + 1), novf(na / 32 + 1);
      WX_CUDA(cudaMemsetAsync(nbk.get(), 0xFF, na * sizeof(BucketT<Word>), s_));
      WX_CUDA(cudaMemcpyAsync(novf.get(), ovf_.get(), novf.bytes(), cudaMemcpyDeviceToDevice, s_));
      WX_CUDA(cudaMemcpyAsync(nbk.get(), buckets_.get(), uint64_t(n_) * sizeof(BucketT<Word>),
                              cudaMemcpyDeviceToDevice, s_));
      WX_CUDA(cudaMemsetAsync(nlocks.get(), 0, nlocks.bytes(), s_));
      WX_CUDA(cudaStreamSynchronize(s_));
      buckets_ = std::move(nbk);
      locks_ = std::move(nlocks);
      ovf_ = std::move(novf);
      alloc_ = na;
    } catch (const Error&) {
      // keeping the larger allocation is fine
    }
  }
}

template <class S>
void HiveTableT<S>::after_erase_shrink() {
  if (min_lf_ <= 0 || !grow_auto_) return;
  read_back();  // the erase counts decide
  const uint64_t sz = size_now();
  if (sz >= min_lf_ * capacity()) return;
  const double target_lf = (min_lf_ + max_lf_) / 2;
  const uint64_t target = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(sz / target_lf / kSlots)));
  if (target < n_) shrink_to(target);
}

template <class S>
void HiveTableT<S>::resize(uint64_t cap) {
  DeviceScope scope(device_);
  if (cap < size_) fail(WX_ERR_INVALID_ARGUMENT, "resize below the current size");
  const uint64_t target = buckets_for(cap);
  if (target > kMaxBuckets) fail(WX_ERR_INVALID_ARGUMENT, "Hive: capacity too large");
  begin(own_stream_);
  try {
    if (target > n_) grow_to(target);
    else if (target < n_) shrink_to(target);
  } catch (...) {
    read_back();
    commit();
    throw;
  }
  WX_CUDA(cudaEventRecord(ev1_, s_));
  read_back();
  commit();
}

template <class S>
void HiveTableT<S>::clear() {
  DeviceScope scope(device_);
  WX_CUDA(cudaMemsetAsync(buckets_.get(), 0xFF, buckets_.bytes(), own_stream_));
  WX_CUDA(cudaMemsetAsync(stash_.get(), 0xFF, stash_.bytes(), own_stream_));
  WX_CUDA(cudaMemsetAsync(locks_.get(), 0, locks_.bytes(), own_stream_));
  WX_CUDA(cudaMemsetAsync(ovf_.get(), 0, ovf_.bytes(), own_stream_));
  WX_CUDA(cudaStreamSynchronize(own_stream_));
  size_ = stash_used_ = tombs_ = erased_since_rebuild_ = 0;
  tidy_ = true;
}

template <class S>
uint64_t HiveTableT<S>::retrieve_all(void* keys, void* values, void* stream) {
  DeviceScope scope(device_);
  cudaStream_t s = stream ? static_cast<cudaStream_t>(stream) : own_stream_;
  WX_CUDA(cudaMemsetAsync(count_.get(), 0, sizeof(unsigned long long), s));
  auto* k = static_cast<Key*>(keys);
  auto* v = static_cast<Val*>(values);
  launch_collect<S>(buckets_.get()->w, uint64_t(n_) * kSlots, k, v, count_.get(), s);
  launch_collect<S>(stash_.get()->w, uint64_t(stash_nb_) * kSlots, k, v, count_.get(), s);
  unsigned long long n = 0;
  WX_CUDA(cudaMemcpyAsync(&n, count_.get(), sizeof(n), cudaMemcpyDeviceToHost, s));
  WX_CUDA(cudaStreamSynchronize(s));
  if (n != size_) fail(WX_ERR_INTERNAL, "Hive retrieve_all found " + std::to_string(n) + " keys, size is " + std::to_string(size_));
  return n;
}

template <class S>
void HiveTableT<S>::stats(wx_stats* s) {
  s->size = size_;
  s->capacity = capacity();
  s->bytes = buckets_.bytes() + stash_.bytes() + locks_.bytes() + ovf_.bytes() + bits_.bytes() + lists_.bytes() +
             drain_lists_.bytes() + dedupe_.bytes() + dedupe_temp_.bytes() + group_.bytes() + group_temp_.bytes() +
             combine_scratch_bytes(hot_.get());
  s->resizes = resizes_;
  s->stash_used = stash_used_;
  s->displacements = displacements_;
  s->failed_inserts = failed_;
  s->last_kernel_ms = last_ms_;
}

// ---------------------------------------------------------------- validation (tests)

template <class S>
std::string HiveTableT<S>::validate() {
  DeviceScope scope(device_);
  WX_CUDA(cudaDeviceSynchronize());
  std::vector<BucketT<Word>> hb(alloc_), hs(stash_nb_);
  WX_CUDA(cudaMemcpy(hb.data(), buckets_.get(), alloc_ * sizeof(BucketT<Word>), cudaMemcpyDeviceToHost));
  WX_CUDA(cudaMemcpy(hs.data(), stash_.get(), stash_nb_ * sizeof(BucketT<Word>), cudaMemcpyDeviceToHost));
  std::vector<uint32_t> lk(locks_.size()), ov(ovf_.size());
  WX_CUDA(cudaMemcpy(lk.data(), locks_.get(), locks_.bytes(), cudaMemcpyDeviceToHost));
  WX_CUDA(cudaMemcpy(ov.data(), ovf_.get(), ovf_.bytes(), cudaMemcpyDeviceToHost));
  for (uint32_t w : lk)
    if (w) return "a bucket lock is still held";
  auto ovf_set_for = [&](uint32_t b) { return (ov[b >> 5] >> (b & 31)) & 1u; };
  const Geometry g = geometry_of(n_, n0_);
  const bool tidy = view().tidy;
  std::unordered_set<Key> seen;
  seen.reserve(size_ * 2 + 16);
  auto has_empty = [&](uint32_t b) {
    for (int s = 0; s < kSlots; ++s)
      if (is_empty(hb[b].w[s])) return true;
    return false;
  };
  uint64_t live = 0, in_stash = 0;
  for (uint64_t b = 0; b < alloc_; ++b) {
    for (int s = 0; s < kSlots; ++s) {
      const Word w = hb[b].w[s];
      if (b >= n_) {
        if (!is_empty(w)) return "inactive bucket " + std::to_string(b) + " is not empty";
        continue;
      }
      if (!is_live(w)) continue;
      const Key k = key_of(w);
      const Place p = place_of(k, g, stash_nb_ - 1);
      if (b != p.b0 && b != p.b1)
        return "key " + std::to_string(k) + " in bucket " + std::to_string(b) + " but addresses " +
               std::to_string(p.b0) + "/" + std::to_string(p.b1);
      if (!seen.insert(k).second) return "key " + std::to_string(k) + " stored twice";
      if (b != p.b0 && !ovf_set_for(p.b0))
        return "key " + std::to_string(k) + " outside its b0 " + std::to_string(p.b0) + " whose overflow bit is clear";
      if (b != p.b0 && tidy && has_empty(p.b0))
        return "tidy table, but key " + std::to_string(k) + " is outside its b0 " + std::to_string(p.b0) +
               ", which has an EMPTY slot";
      ++live;
    }
  }
  for (uint32_t b = 0; b < stash_nb_; ++b) {
    for (int s = 0; s < kSlots; ++s) {
      const Word w = hs[b].w[s];
      if (!is_live(w)) continue;
      const Key k = key_of(w);
      const Place p = place_of(k, g, stash_nb_ - 1);
      if (b != p.s) return "stash key " + std::to_string(k) + " in the wrong stash bucket";
      if (has_empty(p.b0) || has_empty(p.b1))
        return "stash key " + std::to_string(k) + " while its bucket has an EMPTY slot";
      if (!seen.insert(k).second) return "key " + std::to_string(k) + " stored twice (stash)";
      if (!ovf_set_for(p.b0)) return "stash key " + std::to_string(k) + " but the overflow bit of its b0 is clear";
      ++live;
      ++in_stash;
    }
  }
  if (live != size_) return "size() is " + std::to_string(size_) + " but " + std::to_string(live) + " keys are stored";
  if (in_stash != stash_used_)
    return "stash_used is " + std::to_string(stash_used_) + " but the stash holds " + std::to_string(in_stash);
  if (errors_) return std::to_string(errors_) + " kernel errors recorded";
  return "";
}

template class HiveTableT<Kv32>;
template class HiveTableT<Kv64>;

}  // namespace wx::hive

namespace wx {
Table* make_hive_table(const wx_config& cfg) {
  if (cfg.key_bits == 64) return new hive::HiveTable64(cfg);
  return new hive::HiveTable(cfg);
}
}  // namespace wx
