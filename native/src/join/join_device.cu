// The join engine of GPU tables (GLHT, Hive; 32-bit keys): see join.hpp. Build: stable radix sort of
// (key, row) pairs into groups (MULTI) or one insert of key -> row (UNIQUE). Probe: the table's find,
// then count kernel, exclusive scan (cub) and write kernel. Scratch arrays are kept between calls
// (grown, never shrunk) so a timed probe does no allocation.
#include <cub/cub.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/cuda_util.cuh"
#include "common/device.hpp"
#include "common/env.hpp"
#include "common/host_transfer.cuh"
#include "cpu/thread_pool.hpp"
#include "join/join.hpp"

namespace wx::join {

namespace {

constexpr int kBlock = 256;
constexpr uint32_t kNone = 0xFFFFFFFFu;  // find's not-found value: no row / no group
constexpr unsigned long long kNoIndex = ~0ull;
// Rows of a chunk of a host probe: 16 MB of keys, 0.3 ms of the link.
constexpr uint64_t kProbeChunk = uint64_t(1) << 22;
// Probe rows per task when the host writes consecutive rows itself (1 MiB).
constexpr uint64_t kFillGrain = uint64_t(1) << 18;

unsigned grid_for(uint64_t n) { return unsigned(n ? (n + kBlock - 1) / kBlock : 1); }

__device__ __forceinline__ uint64_t index() { return uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; }

__global__ void k_iota(uint32_t* v, uint64_t n) {
  const uint64_t i = index();
  if (i < n) v[i] = uint32_t(i);
}

// *first = lowest index i with keys[i] reserved (kNoIndex when none).
__global__ void k_first_reserved(const uint32_t* keys, uint64_t n, unsigned long long* first) {
  const uint64_t i = index();
  if (i < n && keys[i] >= WX_KEY32_TOMBSTONE) atomicMin(first, (unsigned long long)i);
}

// *first = lowest index i with outcomes[i] == which.
__global__ void k_first_outcome(const uint8_t* outcomes, uint64_t n, uint8_t which, unsigned long long* first) {
  const uint64_t i = index();
  if (i < n && outcomes[i] == which) atomicMin(first, (unsigned long long)i);
}

// *first = lowest index i with keys[i] == key.
__global__ void k_first_equal(const uint32_t* keys, uint64_t n, uint32_t key, unsigned long long* first) {
  const uint64_t i = index();
  if (i < n && keys[i] == key) atomicMin(first, (unsigned long long)i);
}

__global__ void k_heads(const uint32_t* sorted, uint64_t n, uint32_t* head) {
  const uint64_t i = index();
  if (i < n) head[i] = i == 0 || sorted[i] != sorted[i - 1];
}

// gid = inclusive scan of the heads: group g (= gid - 1) starts at its head, where the sorted key changes.
__global__ void k_groups(const uint32_t* sorted, const uint32_t* gid, uint64_t n, uint32_t* offsets,
                         uint32_t* distinct) {
  const uint64_t i = index();
  if (i < n && (i == 0 || sorted[i] != sorted[i - 1])) {
    offsets[gid[i] - 1] = uint32_t(i);
    distinct[gid[i] - 1] = sorted[i];
  }
}

__global__ void k_set(uint32_t* p, uint32_t v) { *p = v; }

// Matches of each probe row; mode 0: pairs, 1: has a match (semi), 2: has none (anti). found[i] is a
// build row (UNIQUE) or group (MULTI) below `limit`, or kNone; anything else is a table fault: counted
// in *faults (the host then fails the call) and never used as an index.
__global__ void k_count(const uint32_t* keys, const uint32_t* found, const uint32_t* offsets, uint64_t limit,
                        uint64_t n, int mode, unsigned long long* cnt, unsigned long long* faults) {
  const uint64_t i = index();
  if (i >= n) return;
  const uint32_t g = found[i];
  // A reserved probe key matches nothing, whatever the table wrote for it.
  uint64_t m = 0;
  if (g != kNone && keys[i] < WX_KEY32_TOMBSTONE) {
    if (g < limit) m = offsets ? offsets[g + 1] - offsets[g] : 1;
    else atomicAdd(faults, 1ull);
  }
  cnt[i] = mode == 0 ? m : mode == 1 ? (m > 0) : (m == 0);
}

// Probe rows are numbered from `base` (a chunk's first row in its probe column).
__global__ void k_write_pairs(const uint32_t* found, const uint32_t* offsets, const uint32_t* rows,
                              const unsigned long long* pos, const unsigned long long* cnt, uint64_t n,
                              uint32_t* probe_rows, uint32_t* build_rows, uint32_t base) {
  const uint64_t i = index();
  if (i >= n) return;
  const uint64_t c = cnt[i];
  if (c == 0) return;
  const uint64_t o = pos[i];
  const uint32_t g = found[i];
  if (!offsets) {
    probe_rows[o] = base + uint32_t(i);
    build_rows[o] = g;
    return;
  }
  const uint32_t* r = rows + offsets[g];
  for (uint64_t j = 0; j < c; ++j) {
    probe_rows[o + j] = base + uint32_t(i);
    build_rows[o + j] = r[j];
  }
}

__global__ void k_write_rows(const unsigned long long* pos, const unsigned long long* cnt, uint64_t n, uint32_t* rows,
                             uint32_t base) {
  const uint64_t i = index();
  if (i < n && cnt[i]) rows[pos[i]] = base + uint32_t(i);
}

// WIXLIB_TRACE=1: the build prints where its time went, step by step (synchronising after each step).
class BuildTrace {
 public:
  explicit BuildTrace(cudaStream_t st) : st_(st), on_(trace_on()), t_(std::chrono::steady_clock::now()), t0_(t_) {}
  void step(const char* what) {
    if (!on_) return;
    WX_CUDA(cudaStreamSynchronize(st_));
    const auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "[join trace] build %s %.3f ms (total %.3f)\n", what,
                 std::chrono::duration<double, std::milli>(now - t_).count(),
                 std::chrono::duration<double, std::milli>(now - t0_).count());
    t_ = now;
  }

 private:
  cudaStream_t st_;
  bool on_;
  std::chrono::steady_clock::time_point t_, t0_;
};

// WIXLIB_TRACE=1: a chunked probe prints where its time went: its uploads, the wait for its first
// results, its downloads (events on the copy streams) and its kernels.
class ChunkTrace {
 public:
  ChunkTrace() : on_(trace_on()), t0_(std::chrono::steady_clock::now()) {
    if (on_)
      for (auto& e : ev_) WX_CUDA(cudaEventCreate(&e));
  }
  ~ChunkTrace() {
    for (cudaEvent_t e : ev_)
      if (e) cudaEventDestroy(e);
  }
  // at: 0 uploads queued from here, 1 uploads done, 2 first download starts, 3 last download done.
  void mark(int at, cudaStream_t s) {
    if (on_) WX_CUDA(cudaEventRecord(ev_[at], s));
  }
  void print(uint64_t chunks, double kernels_ms, double table_ms) {
    if (!on_) return;
    float up = 0.f, first = 0.f, down = 0.f;
    WX_CUDA(cudaEventElapsedTime(&up, ev_[0], ev_[1]));
    WX_CUDA(cudaEventElapsedTime(&first, ev_[0], ev_[2]));
    WX_CUDA(cudaEventElapsedTime(&down, ev_[2], ev_[3]));
    std::fprintf(stderr,
                 "[join trace] chunked probe: %llu chunks, wall %.3f ms; uploads %.3f ms; first download at %.3f ms, "
                 "downloads %.3f ms; kernels %.3f ms (lookups %.3f)\n",
                 (unsigned long long)chunks,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count(), up, first,
                 down, kernels_ms, table_ms);
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point t0_;
  cudaEvent_t ev_[4] = {};
};

// A device array kept between calls: grown on demand, never shrunk.
template <typename T>
struct Scratch {
  DeviceArray<T> a;
  T* get(uint64_t n) {
    if (a.size() < n) {
      a.reset();
      a = DeviceArray<T>(n);
    }
    return a.get();
  }
};

class DeviceEngine final : public Engine {
 public:
  DeviceEngine(const TableMaker& make_table, int device, unsigned copy_threads, int32_t build, const void* keys,
               uint64_t n, int32_t mem, void* stream)
      : device_(device), copy_threads_(copy_threads), multi_(build == WX_JOIN_MULTI), rows_(n) {
    DeviceScope scope(device_);
    WX_CUDA(cudaEventCreate(&ev0_));
    WX_CUDA(cudaEventCreate(&ev1_));
    cudaStream_t st = static_cast<cudaStream_t>(stream);
    BuildTrace trace(st);
    if (n == 0) {
      table_ = &make_table(1);
      return;
    }
    const uint32_t* dk = static_cast<const uint32_t*>(keys);
    DeviceArray<uint32_t> staged;  // the keys in device memory of our own: the MULTI sort reorders them
    if (mem == WX_MEM_HOST || multi_) {
      staged = DeviceArray<uint32_t>(n);
      if (mem == WX_MEM_HOST) dev::upload(device_, staged.get(), keys, n * 4, st, copy_threads_);
      else WX_CUDA(cudaMemcpyAsync(staged.get(), keys, n * 4, cudaMemcpyDeviceToDevice, st));
      dk = staged.get();
    }
    trace.step("keys to device");
    // The lowest reserved key's row, read with the build's first result (nothing is built before).
    unsigned long long* bad = total_.get(1);
    WX_CUDA(cudaMemsetAsync(bad, 0xFF, 8, st));  // kNoIndex
    k_first_reserved<<<grid_for(n), kBlock, 0, st>>>(dk, n, bad);
    WX_CUDA_LAUNCHED("k_first_reserved");
    if (multi_) {
      build_groups(make_table, staged, n, st, trace);
    } else {
      check_reserved(read_word(bad, st));
      trace.step("reserved-key check");
      build_unique(make_table, dk, n, st, trace);
    }
    trace.step("scratch freed");
  }

  ~DeviceEngine() override {
    if (ev0_) cudaEventDestroy(ev0_);
    if (ev1_) cudaEventDestroy(ev1_);
    for (const auto* evs : {&ev_up_, &ev_begin_, &ev_found_, &ev_end_})
      for (cudaEvent_t e : *evs) cudaEventDestroy(e);
    if (up_) cudaStreamDestroy(up_);
    if (down_) cudaStreamDestroy(down_);
    if (totals_) cudaFreeHost(totals_);
  }

  uint64_t count(const Probe& p) override {
    DeviceScope scope(device_);
    cudaStream_t st = static_cast<cudaStream_t>(p.stream);
    const uint32_t* keys = lookup(p, st);
    if (p.n == 0) {
      finish(st);
      return last_matches_ = 0;
    }
    unsigned long long* cnt = counts(keys, p.n, 0, st);
    unsigned long long* total = total_.get(1);
    size_t bytes = 0;
    WX_CUDA(cub::DeviceReduce::Sum(nullptr, bytes, cnt, total, p.n, st));
    WX_CUDA(cub::DeviceReduce::Sum(temp_.get(bytes), bytes, cnt, total, p.n, st));
    WX_CUDA(cudaEventRecord(ev1_, st));
    unsigned long long t = 0, faults = 0;
    WX_CUDA(cudaMemcpyAsync(&t, total, 8, cudaMemcpyDeviceToHost, st));
    WX_CUDA(cudaMemcpyAsync(&faults, faults_.a.get(), 8, cudaMemcpyDeviceToHost, st));
    finish(st);
    check_faults(faults);
    return last_matches_ = t;
  }

  uint64_t probe(const Probe& p, uint32_t* probe_rows, uint32_t* build_rows, uint64_t capacity) override {
    DeviceScope scope(device_);
    cudaStream_t st = static_cast<cudaStream_t>(p.stream);
    if (!multi_ && capacity >= p.n && chunked(p, probe_rows, build_rows))
      return last_matches_ = run_chunked(p, 0, probe_rows, build_rows);
    const uint32_t* keys = lookup(p, st);
    const uint64_t total = scan(keys, p.n, 0, st);
    if (total > 0 && total <= capacity) {
      uint32_t* pr = p.mem == WX_MEM_DEVICE ? probe_rows : out_a_.get(total);
      uint32_t* br = p.mem == WX_MEM_DEVICE ? build_rows : out_b_.get(total);
      k_write_pairs<<<grid_for(p.n), kBlock, 0, st>>>(found_.a.get(), multi_ ? offsets_.get() : nullptr, rows_arr_.get(),
                                                      pos_.a.get(), cnt_.a.get(), p.n, pr, br, 0);
      WX_CUDA_LAUNCHED("k_write_pairs");
      WX_CUDA(cudaEventRecord(ev1_, st));
      if (p.mem == WX_MEM_HOST) {
        // A UNIQUE build gives a probe row at most one pair: as many pairs as rows means pair i is row i.
        if (!multi_ && total == p.n) fill_rows(probe_rows, total, 0);
        else dev::download(device_, probe_rows, pr, total * 4, st, copy_threads_);
        dev::download(device_, build_rows, br, total * 4, st, copy_threads_);
      }
    }
    finish(st);
    return last_matches_ = total;
  }

  uint64_t semi(const Probe& p, bool anti, uint32_t* rows) override {
    DeviceScope scope(device_);
    cudaStream_t st = static_cast<cudaStream_t>(p.stream);
    if (chunked(p, rows, nullptr)) return last_matches_ = run_chunked(p, anti ? 2 : 1, rows, nullptr);
    const uint32_t* keys = lookup(p, st);
    const uint64_t total = scan(keys, p.n, anti ? 2 : 1, st);
    if (total > 0 && p.mem == WX_MEM_HOST && total == p.n) {
      fill_rows(rows, total, 0);  // every row qualified
    } else if (total > 0) {
      uint32_t* out = p.mem == WX_MEM_DEVICE ? rows : out_a_.get(total);
      k_write_rows<<<grid_for(p.n), kBlock, 0, st>>>(pos_.a.get(), cnt_.a.get(), p.n, out, 0);
      WX_CUDA_LAUNCHED("k_write_rows");
      WX_CUDA(cudaEventRecord(ev1_, st));
      if (p.mem == WX_MEM_HOST) dev::download(device_, rows, out, total * 4, st, copy_threads_);
    }
    finish(st);
    return last_matches_ = total;
  }

  void stats(wx_join_stats* s) override {
    wx_stats ts{};
    table_->stats(&ts);
    s->build_rows = rows_;
    s->distinct_keys = distinct_;
    s->bytes = ts.bytes + offsets_.bytes() + rows_arr_.bytes() + keys_.a.bytes() + hashes_.a.bytes() + found_.a.bytes() +
               cnt_.a.bytes() + pos_.a.bytes() + out_a_.a.bytes() + out_b_.a.bytes() + temp_.a.bytes();
    s->last_matches = last_matches_;
    s->last_table_ms = last_table_ms_;
    s->last_kernel_ms = last_ms_;
  }

 private:
  // Host probes longer than a chunk whose output cannot overflow (a UNIQUE inner join given room for
  // every probe row, semi and anti joins) run chunk by chunk when every array of the call is
  // page-locked (see run_chunked). Other host arrays pass through the library's page-locked slots,
  // whose copies overlap their DMA only over a whole column: chunk by chunk the host copies and the
  // transfers ran one after the other, 2-3x slower on the H200 host.
  static bool chunked(const Probe& p, const uint32_t* out_a, const uint32_t* out_b) {
    const uint64_t bytes = p.n * 4;
    return p.mem == WX_MEM_HOST && p.n > kProbeChunk && dev::is_page_locked(p.keys, bytes) &&
           (!p.hashes || dev::is_page_locked(p.hashes, 2 * bytes)) && dev::is_page_locked(out_a, bytes) &&
           (!out_b || dev::is_page_locked(out_b, bytes));
  }

  // A chunked host probe of page-locked arrays (mode as k_count; out_b: build rows of an inner join,
  // else NULL). Every chunk's keys are queued for upload at once; chunk i's lookups, count, scan and
  // write start when its keys are in, and while they run the host waits for chunk i - 1's totals and
  // queues its download, straight to its place in the caller's arrays: the copy engines and the SMs
  // never wait for the host. Returns the rows or pairs written.
  uint64_t run_chunked(const Probe& p, int mode, uint32_t* out_a, uint32_t* out_b) {
    cudaStream_t st = static_cast<cudaStream_t>(p.stream);
    const uint64_t n = p.n, chunks = (n + kProbeChunk - 1) / kProbeChunk;
    uint32_t* keys = keys_.get(n);
    uint64_t* hashes = p.hashes ? hashes_.get(n) : nullptr;
    uint32_t* found = found_.get(n);
    unsigned long long* cnt = cnt_.get(n);
    unsigned long long* pos = pos_.get(n);
    uint32_t* da = out_a_.get(n);
    uint32_t* db = out_b ? out_b_.get(n) : nullptr;
    unsigned long long* faults = faults_.get(1);
    prepare_chunks(chunks);
    unsigned long long* tot = totals_;  // pinned: per chunk its last position and count, then faults
    const uint32_t* host_keys = static_cast<const uint32_t*>(p.keys);
    auto lo_of = [&](uint64_t i) { return i * kProbeChunk; };
    auto size_of = [&](uint64_t i) { return std::min(kProbeChunk, n - lo_of(i)); };
    auto upload = [&](uint64_t i) {
      const uint64_t lo = lo_of(i), m = size_of(i);
      WX_CUDA(cudaMemcpyAsync(keys + lo, host_keys + lo, m * 4, cudaMemcpyHostToDevice, up_));
      if (hashes) WX_CUDA(cudaMemcpyAsync(hashes + lo, p.hashes + lo, m * 8, cudaMemcpyHostToDevice, up_));
      WX_CUDA(cudaEventRecord(ev_up_[i], up_));
    };
    // Chunk i's kernels, into its own rows of the scratch (at most one pair or row per probe row).
    auto launch = [&](uint64_t i) {
      const uint64_t lo = lo_of(i), m = size_of(i);
      WX_CUDA(cudaStreamWaitEvent(st, ev_up_[i], 0));
      WX_CUDA(cudaEventRecord(ev_begin_[i], st));
      Batch b;
      b.keys = keys + lo;
      b.values_out = found + lo;
      b.n = m;
      b.not_found = kNone;
      b.stream = st;
      if (hashes) table_->find_hashed(b, hashes + lo);
      else table_->find(b);
      WX_CUDA(cudaEventRecord(ev_found_[i], st));
      launch_count(keys + lo, found + lo, m, mode, cnt + lo, faults, st);
      launch_scan(cnt + lo, pos + lo, m, st);
      if (out_b)
        k_write_pairs<<<grid_for(m), kBlock, 0, st>>>(found + lo, nullptr, nullptr, pos + lo, cnt + lo, m, da + lo,
                                                       db + lo, uint32_t(lo));
      else
        k_write_rows<<<grid_for(m), kBlock, 0, st>>>(pos + lo, cnt + lo, m, da + lo, uint32_t(lo));
      WX_CUDA_LAUNCHED("k_write");
      WX_CUDA(cudaMemcpyAsync(&tot[2 * i], pos + lo + m - 1, 8, cudaMemcpyDeviceToHost, st));
      WX_CUDA(cudaMemcpyAsync(&tot[2 * i + 1], cnt + lo + m - 1, 8, cudaMemcpyDeviceToHost, st));
      WX_CUDA(cudaEventRecord(ev_end_[i], st));
    };
    uint64_t written = 0;
    ChunkTrace trace;
    // Once chunk i's kernels are done: its results to the caller, after those of the chunks before.
    auto deliver = [&](uint64_t i) {
      WX_CUDA(cudaEventSynchronize(ev_end_[i]));
      const uint64_t got = tot[2 * i] + tot[2 * i + 1], lo = lo_of(i);
      WX_CUDA(cudaStreamWaitEvent(down_, ev_end_[i], 0));
      if (i == 0) trace.mark(2, down_);
      // Every row of the chunk gave one pair: its probe rows are lo, lo + 1, ..., written here while
      // the copy engines carry the build rows (half the bytes of the link's busier way). A semi or anti
      // join downloads its rows: that download overlaps an upload as large, so writing them costs more.
      const bool consecutive = out_b && got == size_of(i);
      if (got) {
        if (out_b) WX_CUDA(cudaMemcpyAsync(out_b + written, db + lo, got * 4, cudaMemcpyDeviceToHost, down_));
        if (!consecutive) WX_CUDA(cudaMemcpyAsync(out_a + written, da + lo, got * 4, cudaMemcpyDeviceToHost, down_));
        else fill_rows(out_a + written, got, uint32_t(lo));
      }
      written += got;
    };
    try {
      WX_CUDA(cudaMemsetAsync(faults, 0, sizeof(unsigned long long), st));
      trace.mark(0, up_);
      for (uint64_t i = 0; i < chunks; ++i) upload(i);
      trace.mark(1, up_);
      for (uint64_t i = 0; i < chunks; ++i) {
        launch(i);
        if (i > 0) deliver(i - 1);
      }
      deliver(chunks - 1);
      trace.mark(3, down_);
      WX_CUDA(cudaMemcpyAsync(&tot[2 * chunks], faults, 8, cudaMemcpyDeviceToHost, st));
      WX_CUDA(cudaStreamSynchronize(st));
      WX_CUDA(cudaStreamSynchronize(down_));
    } catch (...) {
      // Nothing may still be copying into the caller's arrays or from its keys once the call returns.
      cudaStreamSynchronize(up_);
      cudaStreamSynchronize(down_);
      cudaStreamSynchronize(st);
      cudaGetLastError();
      throw;
    }
    check_faults(tot[2 * chunks]);
    float ms = 0.f, sum = 0.f, table = 0.f;
    for (uint64_t i = 0; i < chunks; ++i) {
      WX_CUDA(cudaEventElapsedTime(&ms, ev_begin_[i], ev_end_[i]));
      sum += ms;
      WX_CUDA(cudaEventElapsedTime(&ms, ev_begin_[i], ev_found_[i]));
      table += ms;
    }
    last_ms_ = sum;
    last_table_ms_ = table;
    looked_up_ = true;
    trace.print(chunks, sum, table);
    return written;
  }

  // dst[i] = first + i for i < n, on the copy threads: the probe rows of a column or chunk whose every
  // row gave one pair or qualified, written by the host instead of crossing the link.
  void fill_rows(uint32_t* dst, uint64_t n, uint32_t first) {
    if (!fill_pool_) fill_pool_ = std::make_unique<cpu::ThreadPool>(copy_threads_);
    fill_pool_->parallel_for(n, kFillGrain, [&](uint64_t b, uint64_t e, unsigned) {
      for (uint64_t i = b; i < e; ++i) dst[i] = first + uint32_t(i);
    });
  }

  // Streams, events and the page-locked totals of a chunked probe of `chunks` chunks (kept, grown).
  void prepare_chunks(uint64_t chunks) {
    if (!up_) WX_CUDA(cudaStreamCreateWithFlags(&up_, cudaStreamNonBlocking));
    if (!down_) WX_CUDA(cudaStreamCreateWithFlags(&down_, cudaStreamNonBlocking));
    while (ev_up_.size() < chunks) {
      cudaEvent_t up = nullptr, begin = nullptr, found = nullptr, end = nullptr;
      WX_CUDA(cudaEventCreateWithFlags(&up, cudaEventDisableTiming));
      ev_up_.push_back(up);
      WX_CUDA(cudaEventCreate(&begin));
      ev_begin_.push_back(begin);
      WX_CUDA(cudaEventCreate(&found));
      ev_found_.push_back(found);
      WX_CUDA(cudaEventCreate(&end));
      ev_end_.push_back(end);
    }
    if (totals_chunks_ < chunks) {
      if (totals_) dev::host_free(totals_);
      totals_ = nullptr;
      totals_chunks_ = 0;
      totals_ = static_cast<unsigned long long*>(dev::host_alloc((2 * chunks + 1) * sizeof(unsigned long long)));
      totals_chunks_ = chunks;
    }
  }

  // Runs launch(first) on a fresh device word set to kNoIndex and returns the index it found.
  template <typename F>
  uint64_t first_index(F&& launch, cudaStream_t st) {
    unsigned long long* d = total_.get(1);
    WX_CUDA(cudaMemsetAsync(d, 0xFF, 8, st));  // kNoIndex
    launch(d);
    WX_CUDA_LAUNCHED("first-index kernel");
    return read_word(d, st);
  }

  // Waits for the stream and returns the device word d.
  static unsigned long long read_word(const unsigned long long* d, cudaStream_t st) {
    unsigned long long h = 0;
    WX_CUDA(cudaMemcpyAsync(&h, d, 8, cudaMemcpyDeviceToHost, st));
    WX_CUDA(cudaStreamSynchronize(st));
    return h;
  }

  // Fails the build when the reserved-key check found a row (before anything was built).
  static void check_reserved(unsigned long long row) {
    if (row != kNoIndex)
      fail(WX_ERR_INVALID_KEY, "build key at row " + std::to_string(row) + " is a reserved value; nothing was built");
  }

  void insert(const uint32_t* keys, const uint32_t* values, uint8_t* outcomes, uint64_t n, cudaStream_t st) {
    Batch b;
    b.keys = keys;
    b.values_in = values;
    b.outcomes = outcomes;
    b.n = n;
    b.stream = st;
    const BatchResult r = table_->insert(b);
    if (r.full > 0)
      fail(WX_ERR_FULL, std::to_string(r.full) + " build keys found no room (table not allowed to grow, or out of memory)");
  }

  void build_unique(const TableMaker& make_table, const uint32_t* keys, uint64_t n, cudaStream_t st,
                    BuildTrace& trace) {
    table_ = &make_table(n);
    trace.step("table made");
    DeviceArray<uint32_t> rows(n);
    DeviceArray<uint8_t> out(n);
    k_iota<<<grid_for(n), kBlock, 0, st>>>(rows.get(), n);
    WX_CUDA_LAUNCHED("k_iota");
    trace.step("row ids");
    insert(keys, rows.get(), out.get(), n, st);
    trace.step("insert");
    const uint64_t dup = first_index([&](unsigned long long* f) {
      k_first_outcome<<<grid_for(n), kBlock, 0, st>>>(out.get(), n, WX_OUT_PRESENT, f);
    }, st);
    if (dup != kNoIndex) {
      uint32_t key = 0;
      WX_CUDA(cudaMemcpy(&key, keys + dup, 4, cudaMemcpyDeviceToHost));
      const uint64_t first = first_index([&](unsigned long long* f) {
        k_first_equal<<<grid_for(n), kBlock, 0, st>>>(keys, n, key, f);
      }, st);
      const uint64_t other = first_index([&](unsigned long long* f) {
        k_first_equal<<<grid_for(n - first - 1), kBlock, 0, st>>>(keys + first + 1, n - first - 1, key, f);
      }, st);
      fail(WX_ERR_INVALID_ARGUMENT, "build key " + std::to_string(key) + " appears at rows " + std::to_string(first) +
                                        " and " + std::to_string(first + 1 + other) +
                                        ": a UNIQUE build needs distinct keys (use WX_JOIN_MULTI)");
    }
    distinct_ = n;
    trace.step("duplicate check");
  }

  // MULTI: the keys are sorted with their row ids (LSD radix: each key's rows stay ascending); group g
  // is the g-th distinct key, its rows rows_arr_[offsets_[g] .. offsets_[g+1]). Four arrays of n words
  // serve the whole build: the sort's two double buffers, whose spare halves then hold the run heads,
  // the group ids, the distinct keys and their values.
  void build_groups(const TableMaker& make_table, DeviceArray<uint32_t>& keys, uint64_t n, cudaStream_t st,
                    BuildTrace& trace) {
    DeviceArray<uint32_t> keys_alt(n), rows(n), rows_alt(n);
    trace.step("group arrays");
    k_iota<<<grid_for(n), kBlock, 0, st>>>(rows.get(), n);
    WX_CUDA_LAUNCHED("k_iota");
    cub::DoubleBuffer<uint32_t> k(keys.get(), keys_alt.get()), v(rows.get(), rows_alt.get());
    size_t bytes = 0;
    WX_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, 0, 32, st));
    WX_CUDA(cub::DeviceRadixSort::SortPairs(temp_.get(bytes), bytes, k, v, n, 0, 32, st));
    uint32_t *sorted = k.Current(), *spare = k.Alternate(), *gid = v.Alternate();
    rows_arr_ = std::move(v.Current() == rows.get() ? rows : rows_alt);
    trace.step("sort");
    k_heads<<<grid_for(n), kBlock, 0, st>>>(sorted, n, spare);
    WX_CUDA_LAUNCHED("k_heads");
    WX_CUDA(cub::DeviceScan::InclusiveSum(nullptr, bytes, spare, gid, n, st));
    WX_CUDA(cub::DeviceScan::InclusiveSum(temp_.get(bytes), bytes, spare, gid, n, st));
    unsigned long long bad = kNoIndex;  // the reserved-key check's row, launched by the constructor
    uint32_t groups = 0;
    WX_CUDA(cudaMemcpyAsync(&bad, total_.get(1), 8, cudaMemcpyDeviceToHost, st));
    WX_CUDA(cudaMemcpyAsync(&groups, gid + n - 1, 4, cudaMemcpyDeviceToHost, st));
    WX_CUDA(cudaStreamSynchronize(st));
    check_reserved(bad);
    distinct_ = groups;
    trace.step("groups counted");
    offsets_ = DeviceArray<uint32_t>(uint64_t(groups) + 1);
    uint32_t* distinct = spare;  // the heads are read no more: k_groups finds them in the sorted keys
    k_groups<<<grid_for(n), kBlock, 0, st>>>(sorted, gid, n, offsets_.get(), distinct);
    WX_CUDA_LAUNCHED("k_groups");
    k_set<<<1, 1, 0, st>>>(offsets_.get() + groups, uint32_t(n));
    WX_CUDA_LAUNCHED("k_set");
    uint32_t* values = gid;  // group ids, once k_groups has read gid
    k_iota<<<grid_for(groups), kBlock, 0, st>>>(values, groups);
    WX_CUDA_LAUNCHED("k_iota");
    uint8_t* out = reinterpret_cast<uint8_t*>(sorted);  // the sorted keys are read no more
    trace.step("groups made");
    table_ = &make_table(groups);
    trace.step("table made");
    insert(distinct, values, out, groups, st);
    trace.step("insert");
    const uint64_t present = first_index([&](unsigned long long* f) {
      k_first_outcome<<<grid_for(groups), kBlock, 0, st>>>(out, groups, WX_OUT_PRESENT, f);
    }, st);
    if (present != kNoIndex) fail(WX_ERR_INTERNAL, "join build: a distinct key was reported present");
  }

  // Stages a host probe, records the start event, runs the table's find into found_. Returns the
  // device keys.
  const uint32_t* lookup(const Probe& p, cudaStream_t st) {
    const uint32_t* keys = static_cast<const uint32_t*>(p.keys);
    const uint64_t* hashes = p.hashes;
    if (p.mem == WX_MEM_HOST && p.n) {
      uint32_t* k = keys_.get(p.n);
      dev::upload(device_, k, keys, p.n * 4, st, copy_threads_);
      keys = k;
      if (hashes) {
        uint64_t* h = hashes_.get(p.n);
        dev::upload(device_, h, hashes, p.n * 8, st, copy_threads_);
        hashes = h;
      }
    }
    found_.get(p.n);
    cnt_.get(p.n);
    pos_.get(p.n);
    WX_CUDA(cudaEventRecord(ev0_, st));
    WX_CUDA(cudaEventRecord(ev1_, st));
    looked_up_ = false;
    if (p.n == 0) return keys;
    Batch b;
    b.keys = keys;
    b.values_out = found_.a.get();
    b.n = p.n;
    b.not_found = kNone;
    b.stream = st;
    if (hashes) table_->find_hashed(b, hashes);
    else table_->find(b);  // reserved keys are counted invalid there; k_count ignores them
    looked_up_ = true;
    return keys;
  }

  // k_count over n probe rows (mode as k_count) into cnt, table faults counted in *faults.
  void launch_count(const uint32_t* keys, const uint32_t* found, uint64_t n, int mode, unsigned long long* cnt,
                    unsigned long long* faults, cudaStream_t st) {
    k_count<<<grid_for(n), kBlock, 0, st>>>(keys, found, multi_ ? offsets_.get() : nullptr, multi_ ? distinct_ : rows_,
                                            n, mode, cnt, faults);
    WX_CUDA_LAUNCHED("k_count");
  }

  // pos = exclusive scan of n counts (cub, scratch in temp_).
  void launch_scan(const unsigned long long* cnt, unsigned long long* pos, uint64_t n, cudaStream_t st) {
    size_t bytes = 0;
    WX_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, cnt, pos, n, st));
    WX_CUDA(cub::DeviceScan::ExclusiveSum(temp_.get(bytes), bytes, cnt, pos, n, st));
  }

  // Launches k_count; its fault counter is faults_[0], read back by check_faults().
  unsigned long long* counts(const uint32_t* keys, uint64_t n, int mode, cudaStream_t st) {
    if (n) {
      unsigned long long* f = faults_.get(1);
      WX_CUDA(cudaMemsetAsync(f, 0, sizeof(unsigned long long), st));
      launch_count(keys, found_.a.get(), n, mode, cnt_.a.get(), f, st);
    }
    return cnt_.a.get();
  }

  // After a synchronisation: fails the call if k_count saw a value that is no build row or group.
  void check_faults(uint64_t faults) const {
    if (faults)
      fail(WX_ERR_INTERNAL, "join probe: the table returned " + std::to_string(faults) +
                                " values that are no build row or group (a broken table)");
  }

  // Counts (mode as k_count), scans them into pos_, returns the total.
  uint64_t scan(const uint32_t* keys, uint64_t n, int mode, cudaStream_t st) {
    if (n == 0) return 0;
    unsigned long long* cnt = counts(keys, n, mode, st);
    launch_scan(cnt, pos_.a.get(), n, st);
    WX_CUDA(cudaEventRecord(ev1_, st));
    unsigned long long last[3] = {0, 0, 0};
    WX_CUDA(cudaMemcpyAsync(&last[0], pos_.a.get() + n - 1, 8, cudaMemcpyDeviceToHost, st));
    WX_CUDA(cudaMemcpyAsync(&last[1], cnt + n - 1, 8, cudaMemcpyDeviceToHost, st));
    WX_CUDA(cudaMemcpyAsync(&last[2], faults_.a.get(), 8, cudaMemcpyDeviceToHost, st));
    WX_CUDA(cudaStreamSynchronize(st));
    check_faults(last[2]);
    return last[0] + last[1];
  }

  // Waits for the call; reads its times (the table's, after the timed span: stats may synchronise).
  void finish(cudaStream_t st) {
    WX_CUDA(cudaStreamSynchronize(st));
    float ms = 0.f;
    WX_CUDA(cudaEventElapsedTime(&ms, ev0_, ev1_));
    last_ms_ = ms;
    last_table_ms_ = 0.0;
    if (looked_up_) {
      wx_stats ts{};
      table_->stats(&ts);
      last_table_ms_ = ts.last_kernel_ms;
    }
  }

  Table* table_ = nullptr;  // the join's table, made once the distinct keys are known
  int device_;
  unsigned copy_threads_;  // of host columns' transfers (common/host_transfer.cuh)
  std::unique_ptr<cpu::ThreadPool> fill_pool_;  // copy_threads_ participants, made on first use
  bool multi_;
  uint64_t rows_, distinct_ = 0, last_matches_ = 0;
  double last_ms_ = 0.0, last_table_ms_ = 0.0;
  bool looked_up_ = false;  // the last call ran a table find
  cudaEvent_t ev0_ = nullptr, ev1_ = nullptr;
  cudaStream_t up_ = nullptr, down_ = nullptr;             // chunked probes: uploads, downloads
  std::vector<cudaEvent_t> ev_up_, ev_begin_, ev_found_, ev_end_;  // per chunk: keys in; kernels' start, lookups' end, end
  unsigned long long* totals_ = nullptr;                   // page-locked, 2 * totals_chunks_ + 1 words
  uint64_t totals_chunks_ = 0;
  DeviceArray<uint32_t> offsets_, rows_arr_;  // MULTI: rows of group g = rows_arr_[offsets_[g] .. offsets_[g+1])
  Scratch<uint32_t> keys_, found_, out_a_, out_b_;
  Scratch<uint64_t> hashes_;
  Scratch<unsigned long long> cnt_, pos_, total_, faults_;
  Scratch<uint8_t> temp_;
};

}  // namespace

std::unique_ptr<Engine> make_device_engine(const TableMaker& make_table, int device, unsigned copy_threads,
                                           int32_t build, const void* keys, uint64_t n, int32_t mem, void* stream) {
  return std::make_unique<DeviceEngine>(make_table, device, copy_threads, build, keys, n, mem, stream);
}

}  // namespace wx::join
