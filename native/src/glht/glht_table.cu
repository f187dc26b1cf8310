// GLHT table: host-side driver of the kernels (passes, re-runs, growth, stats).
#include "glht/glht_table.cuh"

#include "common/combine.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <string>

namespace wx {
namespace glht {
namespace {

constexpr int kMaxPendingPasses = 256; // re-runs of unfinished elements per call
constexpr int kMaxGrows = 40;          // doublings per call
constexpr int kMaxRehashTries = 8;     // doublings inside one rehash that found no room

}  // namespace

template <class Tr>
GlhtTableT<Tr>::GlhtTableT(const wx_config& config) {
  device_ = config.device;
  DeviceScope scope(device_);
  max_lf_ = config.max_load_factor;
  grow_ = config.grow;
  hot_share_ = config.hot_share;
  build_min_ = config.build_min;
  mixed_group_ = config.mixed_group;
  nb_ = nb_for_capacity(config.capacity);
  slots_ = DeviceArray<SlotT>(total_slots(nb_));
  static_assert(kCounterWords * sizeof(unsigned long long) % sizeof(Counters) == 0, "whole Counters");
  ctr_ = DeviceArray<Counters>(kCounterWords * sizeof(unsigned long long) / sizeof(Counters));  // + cursors
  WX_CUDA(cudaMemset(ctr_.get(), 0, ctr_.bytes()));
  launch_init(view(), nullptr);
  WX_CUDA(cudaEventCreate(&ev0_));
  WX_CUDA(cudaEventCreate(&ev1_));
  WX_CUDA(cudaDeviceSynchronize());
}

template <class Tr>
GlhtTableT<Tr>::~GlhtTableT() {
  DeviceScope scope(device_);
  if (ev0_) cudaEventDestroy(ev0_);
  if (ev1_) cudaEventDestroy(ev1_);
}

template <class Tr>
uint64_t GlhtTableT<Tr>::nb_for_capacity(uint64_t keys) const {
  const double want = std::ceil(static_cast<double>(keys) / max_lf_ - 1e-6);
  const uint64_t nb = want < 64.0 ? 64 : static_cast<uint64_t>(want);
  return nb;
}

template <class Tr>
Counters GlhtTableT<Tr>::read_counters(cudaStream_t st) {
  read_back_.fetch(ctr_.get(), sizeof(Counters), 0, st);
  WX_CUDA(cudaStreamSynchronize(st));
  read_back_.copy_to(&host_ctr_, sizeof(Counters));
  return host_ctr_;
}

template <class Tr>
void GlhtTableT<Tr>::reset_call_counters(cudaStream_t st) {
  // pending, full, invalid end the Counters; the work cursors follow
  char* from = reinterpret_cast<char*>(&ctr_.get()->pending);
  WX_CUDA(cudaMemsetAsync(from, 0, reinterpret_cast<char*>(ctr_.get()) + ctr_.bytes() - from, st));
}

template <class Tr>
BatchResult GlhtTableT<Tr>::run(Mode mode, const Batch& b) {
  DeviceScope scope(device_);
  BatchResult r;
  if (b.n == 0) return r;
  cudaStream_t st = static_cast<cudaStream_t>(b.stream);
  const bool read_only = mode == Mode::find || mode == Mode::contains;
  const bool inserts = mode == Mode::insert || mode == Mode::assign || mode == Mode::mixed;
  if (!b.keys) fail(WX_ERR_INVALID_ARGUMENT, "GLHT: keys is NULL");
  if (mode == Mode::find && !b.values_out) fail(WX_ERR_INVALID_ARGUMENT, "GLHT find: values is NULL");
  if (mode == Mode::contains && !b.outcomes) fail(WX_ERR_INVALID_ARGUMENT, "GLHT contains: found is NULL");
  if (mode == Mode::mixed && (!b.ops || !b.values_in)) fail(WX_ERR_INVALID_ARGUMENT, "GLHT batch: ops/values NULL");

  using Key = typename Tr::Key;
  using Val = typename Tr::Val;
  Args<Tr> a;
  a.keys = static_cast<const Key*>(b.keys);
  a.values_in = static_cast<const Val*>(b.values_in);
  a.values_out = static_cast<Val*>(mode == Mode::mixed ? const_cast<void*>(b.values_in) : b.values_out);
  a.ops = b.ops;
  a.outcomes = b.outcomes;
  a.n = b.n;
  a.not_found = static_cast<Val>(b.not_found);
  a.group = mixed_group_;
  if (!read_only && !a.outcomes) {  // outcomes mark unfinished / full elements between passes
    if (scratch_outcomes_.size() < b.n) {
      scratch_outcomes_.reset();
      scratch_outcomes_ = DeviceArray<uint8_t>(b.n);
    }
    a.outcomes = scratch_outcomes_.get();
  }

  // Only an insert needs the counters as they are now (an empty table takes the bulk build). Other
  // calls compare the error count with the last one read: every call ends with a read, and a second
  // synchronisation per staged chunk held GLHT's page-locked lookups at about half of the link.
  const Counters before = mode == Mode::insert ? read_counters(st) : host_ctr_;
  const uint64_t errors_before = before.errors;
  if ((mode == Mode::insert || mode == Mode::assign) && grow_ == WX_GROW_AUTO) grow_before(before.size, a.n, st);
  BuildBuffers build;  // scratch of a bulk build, allocated before the timed part like the table itself
  const bool try_build = mode == Mode::insert && before.size == 0 && prepare_build(a.n, build);
  reset_call_counters(st);
  WX_CUDA(cudaEventRecord(ev0_, st));
  const bool built = try_build && run_build(view(), build, a.keys, a.values_in, a.outcomes, a.n, st);
  if (built) ++builds_;
  else launch_batch(mode, view(), a, st);
  WX_CUDA(cudaEventRecord(ev1_, st));  // re-recorded after every later launch of this call
  Counters c = read_counters(st);
  build = BuildBuffers{};  // the stream is idle here: freeing waits for nothing
  r.invalid = c.invalid;
  const uint64_t pending0 = c.pending;
  float pass0_ms = 0.f;
  if (trace_) WX_CUDA(cudaEventElapsedTime(&pass0_ms, ev0_, ev1_));

  bool some_full = c.full > 0;
  int passes = 0, grows = 0;
  bool launched_since_read = false;  // kernels ran after c was read
  while (!read_only) {
    if (some_full && inserts && grow_ == WX_GROW_AUTO && grows < kMaxGrows) {
      // Grow first: in a full table the unfinished elements are mostly contention on full homes.
      ++grows;
      try {
        rehash(nb_ * 2, st);
      } catch (const Error& err) {
        if (err.status() != WX_ERR_OUT_OF_MEMORY) throw;
        // Out of memory: the table is intact. Finish the unfinished elements in this table (each
        // ends placed or FULL), count the FULL ones, and report the allocation failure.
        for (int p = 0; p < kMaxPendingPasses && c.pending > 0; ++p) {
          a.pass = ++passes + grows;
          a.rerun_full = false;
          reset_call_counters(st);
          launch_batch(mode, view(), a, st);
          c = read_counters(st);
        }
        WX_CUDA(cudaMemsetAsync(&ctr_.get()->count, 0, sizeof(unsigned long long), st));
        launch_count_outcome(a.outcomes, a.n, WX_OUT_FULL, &ctr_.get()->count, st);
        failed_inserts_ += read_counters(st).count;
        throw;
      }
      a.pass = passes + grows;
      a.rerun_full = true;  // re-runs FULL and unfinished (NONE) elements
    } else if (c.pending > 0) {
      if (++passes > kMaxPendingPasses)
        fail(WX_ERR_INTERNAL, "GLHT: " + std::to_string(c.pending) + " operations did not finish after " +
                                  std::to_string(kMaxPendingPasses) + " passes (marked WX_OUT_NONE)");
      a.pass = passes + grows;
      a.rerun_full = false;
    } else {
      break;
    }
    reset_call_counters(st);
    launch_batch(mode, view(), a, st);
    WX_CUDA(cudaEventRecord(ev1_, st));
    c = read_counters(st);
    some_full = a.rerun_full ? c.full > 0 : (some_full || c.full > 0);
  }
  // Keep the load factor at or below the maximum (soft: an allocation failure here loses nothing).
  if (inserts && grow_ == WX_GROW_AUTO && static_cast<double>(c.size) > max_lf_ * static_cast<double>(nb_) + 0.5) {
    try {
      rehash(nb_ * 2, st);
      WX_CUDA(cudaEventRecord(ev1_, st));
      launched_since_read = true;
    } catch (const Error& err) {
      if (err.status() != WX_ERR_OUT_OF_MEMORY) throw;
    }
  }
  if (some_full) {
    WX_CUDA(cudaMemsetAsync(&ctr_.get()->count, 0, sizeof(unsigned long long), st));
    launch_count_outcome(a.outcomes, a.n, WX_OUT_FULL, &ctr_.get()->count, st);
    c = read_counters(st);
    launched_since_read = false;
    r.full = c.count;
    failed_inserts_ += r.full;
  }
  WX_CUDA(cudaEventSynchronize(ev1_));
  float ms = 0.f;
  WX_CUDA(cudaEventElapsedTime(&ms, ev0_, ev1_));
  last_ms_ = ms;
  if (trace_)  // WIXLIB_TRACE=1: where a call's time went (diagnosis only)
    std::fprintf(stderr, "[glht trace] mode %d n %llu: pass 0%s %.3f ms (%llu unfinished), %d more passes, %d grows, total %.3f ms\n",
                 static_cast<int>(mode), (unsigned long long)b.n, built ? " (bulk build)" : "", pass0_ms,
                 (unsigned long long)pending0, passes, grows, ms);
  // Every pass ends with a read; only a growth after the last one needs another (a synchronisation
  // per staged chunk).
  if (launched_since_read) c = read_counters(st);
  if (c.errors != errors_before)
    fail(WX_ERR_INTERNAL, "GLHT: kernels detected " + std::to_string(c.errors - errors_before) +
                              " broken invariants (leaked lock or misplaced key)");
  return r;
}

template <class Tr>
void GlhtTableT<Tr>::grow_before(uint64_t size, uint64_t n, cudaStream_t st) {
  const uint64_t keys = size + n;
  if (static_cast<double>(keys) <= max_lf_ * static_cast<double>(nb_) + 0.5) return;
  const uint64_t want = nb_for_capacity(keys);
  try {  // an empty table takes exactly the batch; a filled one at least doubles (amortised growth)
    rehash(size == 0 || want > 2 * nb_ ? want : 2 * nb_, st);
  } catch (const Error& err) {
    if (err.status() != WX_ERR_OUT_OF_MEMORY) throw;  // out of memory: the batch grows the table as it fills
  }
}

template <class Tr>
bool GlhtTableT<Tr>::prepare_build(uint64_t n, BuildBuffers& build) {
  if (build_min_ == 0 || n < build_min_) return false;
  if (static_cast<double>(n) > kBuildMaxFill * static_cast<double>(nb_)) return false;
  if (Tr::kWide && static_cast<double>(n) < wide_min_fill_ * static_cast<double>(nb_)) return false;
  return alloc_build(build, n, nb_, Tr::kWide);
}

template <class Tr>
BatchResult GlhtTableT<Tr>::batch(const Batch& b) {
  DeviceScope scope(device_);
  // Combining (common/combine.cu) is 32-bit: wide tables run every mixed batch the plain way.
  if constexpr (Tr::kWide) return run(Mode::mixed, b);
  const Combined c = combine_hot_batch(b, hot_share_, hot_, [this](Call call, const Batch& x) {
    return call == Call::batch ? run(Mode::mixed, x) : call == Call::find ? run(Mode::find, x) : run(Mode::contains, x);
  });
  if (!c.done) return run(Mode::mixed, b);
  last_ms_ = c.kernel_ms;
  return c.result;
}

template <class Tr>
void GlhtTableT<Tr>::rehash(uint64_t new_nb, cudaStream_t st) {
  if (new_nb < 64) new_nb = 64;
  const Counters now = read_counters(st);
  DeviceArray<Counters> tc(1);
  RehashBuffers ordered;  // scratch of the ordered rehash (32-bit tables), allocated after the first table
  for (int attempt = 0; attempt < kMaxRehashTries; ++attempt, new_nb *= 2) {
    DeviceArray<SlotT> fresh(total_slots(new_nb));  // may throw WX_ERR_OUT_OF_MEMORY: the old table is intact
    WX_CUDA(cudaMemsetAsync(tc.get(), 0, sizeof(Counters), st));
    const V nv = view_of(fresh.get(), new_nb, tc.get());
    launch_init(nv, st);
    // The keys the protocol inserts (re-running is idempotent: PRESENT): after an ordered rehash the
    // old stash, else every old slot.
    const SlotT* rest = slots_.get();
    uint64_t rest_n = total_slots(nb_);
    bool in_order = false;
    if constexpr (!Tr::kWide) {
      const bool fits = static_cast<double>(now.size) <= kBuildMaxFill * static_cast<double>(new_nb);
      if (fits && now.size > 0 && (ordered || alloc_rehash(ordered, now.size, nb_))) {
        if (rehash_in_order(view(), nv, ordered, st) > 0) continue;  // a stash bucket overflowed
        in_order = true;
        rest = slots_.get() + nb_ + kH;
        rest_n = stash_buckets(nb_) * kH;
      }
    }
    Counters c{};
    for (int pass = 0; pass <= kMaxPendingPasses; ++pass) {
      WX_CUDA(cudaMemsetAsync(&tc.get()->pending, 0, sizeof(unsigned long long), st));
      launch_rehash(nv, rest, rest_n, st);
      WX_CUDA(cudaMemcpyAsync(&c, tc.get(), sizeof(Counters), cudaMemcpyDeviceToHost, st));
      WX_CUDA(cudaStreamSynchronize(st));
      if (c.pending == 0 || c.full > 0) break;
    }
    if (c.full > 0 || c.pending > 0) continue;  // unlucky clustering: try twice the homes
    if (c.size != now.size || c.errors != 0)
      fail(WX_ERR_INTERNAL, "GLHT rehash placed " + std::to_string(c.size) + " of " + std::to_string(now.size) +
                                " keys (" + std::to_string(c.errors) + " invariant errors)");
    displacements_base_ += c.displacements;
    // The new table's stash count replaces the old one's.
    WX_CUDA(cudaMemcpyAsync(&ctr_.get()->stashed, &tc.get()->stashed, sizeof(unsigned long long),
                            cudaMemcpyDeviceToDevice, st));
    WX_CUDA(cudaStreamSynchronize(st));
    slots_ = std::move(fresh);
    nb_ = new_nb;
    ++resizes_;
    ordered_rehashes_ += in_order;
    return;
  }
  fail(WX_ERR_INTERNAL, "GLHT rehash found no room after " + std::to_string(kMaxRehashTries) + " doublings");
}

template <class Tr>
uint64_t GlhtTableT<Tr>::size() {
  DeviceScope scope(device_);
  unsigned long long s = 0;
  WX_CUDA(cudaMemcpy(&s, &ctr_.get()->size, sizeof(s), cudaMemcpyDeviceToHost));
  return s;
}

template <class Tr>
void GlhtTableT<Tr>::stats(wx_stats* s) {
  DeviceScope scope(device_);
  WX_CUDA(cudaDeviceSynchronize());
  const Counters c = read_counters(nullptr);
  s->size = c.size;
  s->capacity = nb_;
  s->bytes = slots_.bytes() + ctr_.bytes() + scratch_outcomes_.bytes() + combine_scratch_bytes(hot_.get());
  s->resizes = resizes_;
  s->stash_used = c.stashed;
  s->displacements = c.displacements + displacements_base_;
  s->failed_inserts = failed_inserts_;
  s->last_kernel_ms = last_ms_;
}

template <class Tr>
void GlhtTableT<Tr>::clear() {
  DeviceScope scope(device_);
  WX_CUDA(cudaDeviceSynchronize());
  launch_init(view(), nullptr);
  WX_CUDA(cudaMemset(&ctr_.get()->size, 0, sizeof(unsigned long long)));
  WX_CUDA(cudaMemset(&ctr_.get()->stashed, 0, sizeof(unsigned long long)));
  WX_CUDA(cudaDeviceSynchronize());
  read_counters(nullptr);  // calls other than inserts start from the last read (run)
}

template <class Tr>
void GlhtTableT<Tr>::resize(uint64_t capacity) {
  DeviceScope scope(device_);
  WX_CUDA(cudaDeviceSynchronize());
  if (capacity < size())
    fail(WX_ERR_INVALID_ARGUMENT, "GLHT resize: capacity " + std::to_string(capacity) + " is below the size");
  rehash(nb_for_capacity(capacity), nullptr);
  WX_CUDA(cudaDeviceSynchronize());
}

template <class Tr>
uint64_t GlhtTableT<Tr>::retrieve_all(void* keys, void* values, void* stream) {
  DeviceScope scope(device_);
  cudaStream_t st = static_cast<cudaStream_t>(stream);
  WX_CUDA(cudaMemsetAsync(&ctr_.get()->count, 0, sizeof(unsigned long long), st));
  launch_retrieve(view(), static_cast<typename Tr::Key*>(keys), static_cast<typename Tr::Val*>(values), st);
  return read_counters(st).count;
}

template <class Tr>
uint64_t GlhtTableT<Tr>::check_invariants(uint64_t* keys_seen) {
  DeviceScope scope(device_);
  WX_CUDA(cudaDeviceSynchronize());
  WX_CUDA(cudaMemset(&ctr_.get()->count, 0, sizeof(unsigned long long)));
  launch_check(view(), nullptr);
  const Counters c = read_counters(nullptr);
  if (keys_seen) *keys_seen = c.count;
  return c.errors;
}

template <class Tr>
void GlhtTableT<Tr>::hash_keys(const void* keys, uint64_t* hashes, uint64_t n, void* stream) {
  if constexpr (Tr::kWide) {
    fail(WX_ERR_UNSUPPORTED, "GLHT: pre-hashed calls (wx_hash_keys) are for 32-bit tables only");
  } else {
    DeviceScope scope(device_);
    if (n == 0) return;
    cudaStream_t st = static_cast<cudaStream_t>(stream);
    launch_hash_keys(static_cast<const uint32_t*>(keys), reinterpret_cast<unsigned long long*>(hashes), n, st);
    WX_CUDA(cudaStreamSynchronize(st));
  }
}

template <class Tr>
BatchResult GlhtTableT<Tr>::find_hashed(const Batch& b, const uint64_t* hashes) {
  if constexpr (Tr::kWide) {
    fail(WX_ERR_UNSUPPORTED, "GLHT: pre-hashed calls (wx_find_hashed) are for 32-bit tables only");
  } else {
    DeviceScope scope(device_);
    BatchResult r;
    if (b.n == 0) return r;
    if (!b.keys || !b.values_out || !hashes)
      fail(WX_ERR_INVALID_ARGUMENT, "GLHT find_hashed: keys, values or hashes is NULL");
    cudaStream_t st = static_cast<cudaStream_t>(b.stream);
    const uint64_t errors_before = host_ctr_.errors;  // as run(): the last read is current
    reset_call_counters(st);
    WX_CUDA(cudaEventRecord(ev0_, st));
    launch_find_hashed(view(), static_cast<const uint32_t*>(b.keys), reinterpret_cast<const unsigned long long*>(hashes),
                       static_cast<uint32_t*>(b.values_out), uint32_t(b.not_found), b.n, st);
    WX_CUDA(cudaEventRecord(ev1_, st));
    const Counters c = read_counters(st);
    r.invalid = c.invalid;
    WX_CUDA(cudaEventSynchronize(ev1_));
    float ms = 0.f;
    WX_CUDA(cudaEventElapsedTime(&ms, ev0_, ev1_));
    last_ms_ = ms;
    if (c.errors != errors_before)
      fail(WX_ERR_INTERNAL,
           "GLHT: find_hashed saw " + std::to_string(c.errors - errors_before) + " broken invariants (leaked lock)");
    return r;
  }
}

template class GlhtTableT<Narrow>;
template class GlhtTableT<Wide>;

}  // namespace glht

Table* make_glht_table(const wx_config& config) {
  if (config.key_bits == 64) return new glht::GlhtTableWide(config);
  return new glht::GlhtTable(config);
}

}  // namespace wx
