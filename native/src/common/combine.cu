// Hot-key combining of mixed batches: see combine.hpp. Steps (all on the call's stream):
//  1. detect: sort a sample of 2^16 keys; hot when the share of distinct ones is below the backend's
//     threshold;
//  2. sort (key, element) pairs over the bits the largest key needs;
//  3. segments = runs of one key; the state of each key before the batch by contains + find;
//  4. each op is a function on a key's state (absent | present(v)); an exclusive scan by key of
//     their composition gives the state each op sees, hence its outcome;
//  5. one write per key whose final state differs (erase / insert_or_assign), through the backend;
//     a key whose write finds no room (FULL) has its ops re-run the normal way (nothing of them took
//     effect), so no outcome claims an effect the table does not have.
#include "common/combine.hpp"

#include <algorithm>
#include <vector>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "common/cuda_util.cuh"

namespace wx {
namespace {

constexpr uint64_t kMinBatch = 1ull << 16;  // smaller batches are not worth the sort
constexpr uint32_t kSample = 1u << 16;
constexpr int kBlock = 256;

unsigned grid_of(uint64_t n) { return static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>((n + kBlock - 1) / kBlock, 1u << 20))); }
#define WX_GRID_LOOP(i, n) \
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += uint64_t(gridDim.x) * blockDim.x)

// A key's state: absent, or present with a value.
struct State {
  bool present;
  uint32_t value;
};

// An op as a function on a key's state: absent -> (ka: 0 absent, 1 present(a));
// present(x) -> (kb: 0 present(x) unchanged, 1 absent, 2 present(b)).
struct Fn {
  uint32_t a, b;
  uint8_t ka, kb;
};

__host__ __device__ inline Fn identity_fn() { return Fn{0, 0, 0, 0}; }
__device__ inline State apply(const Fn& f, State s) {
  if (!s.present) return f.ka ? State{true, f.a} : State{false, 0};
  return f.kb == 0 ? s : f.kb == 1 ? State{false, 0} : State{true, f.b};
}
// First x, then y.
struct Compose {
  __device__ Fn operator()(const Fn& x, const Fn& y) const {
    const State abs_then = apply(y, apply(x, State{false, 0}));
    Fn r;
    r.ka = abs_then.present;
    r.a = abs_then.value;
    if (x.kb == 0) {
      r.kb = y.kb;
      r.b = y.b;
    } else {
      const State s = apply(y, x.kb == 1 ? State{false, 0} : State{true, x.b});
      r.kb = s.present ? 2 : 1;
      r.b = s.value;
    }
    return r;
  }
};

__device__ inline bool reserved(uint32_t k) { return k >= WX_KEY32_TOMBSTONE; }

__device__ inline Fn fn_of(uint8_t op, uint32_t v) {
  switch (op) {
    case WX_OP_INSERT: return Fn{v, 0, 1, 0};
    case WX_OP_INSERT_OR_ASSIGN: return Fn{v, v, 1, 2};
    case WX_OP_ERASE: return Fn{0, 0, 0, 1};
    default: return identity_fn();  // find
  }
}

__global__ void sample_kernel(const uint32_t* keys, uint64_t n, uint32_t* out) {
  WX_GRID_LOOP(i, kSample) out[i] = keys[i * (n / kSample)];
}
__global__ void count_runs_kernel(const uint32_t* sorted, uint64_t n, unsigned long long* runs) {
  WX_GRID_LOOP(i, n) if (i == 0 || sorted[i] != sorted[i - 1]) atomicAdd(runs, 1ull);
}
__global__ void iota_kernel(uint32_t* p, uint64_t n) {
  WX_GRID_LOOP(i, n) p[i] = static_cast<uint32_t>(i);
}
__global__ void head_flags_kernel(const uint32_t* skeys, uint64_t n, uint32_t* flags) {
  WX_GRID_LOOP(j, n) flags[j] = (j == 0 || skeys[j] != skeys[j - 1]) ? 1u : 0u;
}
// seg = inclusive sum of head flags (1-based); heads write their key.
__global__ void head_keys_kernel(const uint32_t* skeys, const uint32_t* seg, uint64_t n, uint32_t* hkeys) {
  WX_GRID_LOOP(j, n) if (j == 0 || skeys[j] != skeys[j - 1]) hkeys[seg[j] - 1] = skeys[j];
}
__global__ void fn_kernel(const uint32_t* skeys, const uint32_t* sidx, const uint8_t* ops, const uint32_t* vals,
                          uint64_t n, Fn* fns) {
  WX_GRID_LOOP(j, n) {
    const uint32_t e = sidx[j];
    fns[j] = reserved(skeys[j]) ? identity_fn() : fn_of(ops[e], vals[e]);
  }
}

// Outcomes of every op; the last op of each key that changes it appends one write.
__global__ void outcome_kernel(const uint32_t* skeys, const uint32_t* sidx, const uint32_t* seg, const uint8_t* ops,
                               uint8_t* outcomes, const Fn* fns, const Fn* pre,
                               const uint8_t* hfound, const uint32_t* hval, uint64_t n, uint32_t* fval,
                               uint8_t* fhit, uint32_t* wkeys,
                               uint8_t* wops, uint32_t* wvals, uint32_t* wseg, unsigned* nw,
                               unsigned long long* invalid) {
  WX_GRID_LOOP(j, n) {
    const uint32_t e = sidx[j];
    const uint32_t k = skeys[j];
    const uint8_t op = ops[e];
    fhit[j] = 0;
    if (reserved(k)) {
      if (outcomes) outcomes[e] = WX_OUT_INVALID_KEY;
      atomicAdd(invalid, 1ull);
      continue;
    }
    const uint32_t s = seg[j] - 1;
    const State st0{hfound[s] != 0, hval[s]};
    const State before = apply(pre[j], st0);
    uint8_t out;
    switch (op) {
      case WX_OP_INSERT: out = before.present ? WX_OUT_PRESENT : WX_OUT_INSERTED; break;
      case WX_OP_INSERT_OR_ASSIGN: out = before.present ? WX_OUT_ASSIGNED : WX_OUT_INSERTED; break;
      case WX_OP_ERASE: out = before.present ? WX_OUT_ERASED : WX_OUT_NOT_FOUND; break;
      default:
        out = before.present ? WX_OUT_FOUND : WX_OUT_NOT_FOUND;
        fhit[j] = before.present;  // published once the writes stand (publish_kernel)
        fval[j] = before.value;
        break;
    }
    if (outcomes) outcomes[e] = out;
    if (j + 1 == n || skeys[j + 1] != k) {
      const State after = apply(fns[j], before);
      const bool changed = after.present != st0.present || (after.present && after.value != st0.value);
      if (changed) {
        const unsigned w = atomicAdd(nw, 1u);
        wkeys[w] = k;
        wops[w] = after.present ? WX_OP_INSERT_OR_ASSIGN : WX_OP_ERASE;
        wvals[w] = after.value;
        wseg[w] = s;
      }
    }
  }
}

// Values of the finds that hit, except in keys whose ops are re-run (segfail may be null).
__global__ void publish_kernel(const uint32_t* sidx, const uint32_t* seg, const uint8_t* fhit, const uint32_t* fval,
                               const uint8_t* segfail, uint64_t n, uint32_t* vals) {
  WX_GRID_LOOP(j, n) if (fhit[j] && !(segfail && segfail[seg[j] - 1])) vals[sidx[j]] = fval[j];
}

// Keys whose write found no room: flag their segments, then gather their ops for a normal re-run.
__global__ void failed_segments_kernel(const uint8_t* wout, const uint32_t* wseg, unsigned nw, uint8_t* segfail) {
  WX_GRID_LOOP(w, nw) if (wout[w] == WX_OUT_FULL) segfail[wseg[w]] = 1;
}
__global__ void gather_failed_kernel(const uint32_t* skeys, const uint32_t* sidx, const uint32_t* seg,
                                     const uint8_t* segfail, const uint8_t* ops, const uint32_t* vals, uint64_t n,
                                     uint32_t* fidx, uint32_t* fkeys, uint8_t* fops, uint32_t* fvals, unsigned* nf) {
  WX_GRID_LOOP(j, n) {
    if (reserved(skeys[j]) || !segfail[seg[j] - 1]) continue;
    const uint32_t e = sidx[j];
    const unsigned f = atomicAdd(nf, 1u);
    fidx[f] = e;
    fkeys[f] = skeys[j];
    fops[f] = ops[e];
    fvals[f] = vals[e];
  }
}
__global__ void scatter_failed_kernel(const uint32_t* fidx, const uint8_t* fout, const uint32_t* fvals, unsigned nf,
                                      uint8_t* outcomes, uint32_t* vals) {
  WX_GRID_LOOP(f, nf) {
    const uint32_t e = fidx[f];
    if (outcomes) outcomes[e] = fout[f];
    if (fout[f] == WX_OUT_FOUND) vals[e] = fvals[f];
  }
}

// Stream-ordered scratch freed at scope exit (also when a step throws).
class Scratch {
 public:
  explicit Scratch(cudaStream_t s) : s_(s) {}
  ~Scratch() {
    for (void* p : ptrs_) cudaFreeAsync(p, s_);
  }
  template <typename T>
  T* get(uint64_t n) {
    void* p = nullptr;
    WX_CUDA(cudaMallocAsync(&p, std::max<uint64_t>(n, 1) * sizeof(T), s_));
    ptrs_.push_back(p);
    return static_cast<T*>(p);
  }
  void* bytes(size_t n) { return get<unsigned char>(n); }

 private:
  cudaStream_t s_;
  std::vector<void*> ptrs_;
};

template <typename T>
T to_host(const T* d, cudaStream_t s) {
  T h{};
  WX_CUDA(cudaMemcpyAsync(&h, d, sizeof(T), cudaMemcpyDeviceToHost, s));
  WX_CUDA(cudaStreamSynchronize(s));
  return h;
}

bool is_hot(const uint32_t* keys, uint64_t n, double max_distinct, Scratch& sc, cudaStream_t s) {
  uint32_t* smp = sc.get<uint32_t>(2 * kSample);
  unsigned long long* runs = sc.get<unsigned long long>(1);
  sample_kernel<<<grid_of(kSample), kBlock, 0, s>>>(keys, n, smp);
  WX_CUDA_LAUNCHED("combine sample_kernel");
  size_t tb = 0;
  WX_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, tb, smp, smp + kSample, kSample, 0, 32, s));
  WX_CUDA(cub::DeviceRadixSort::SortKeys(sc.bytes(tb), tb, smp, smp + kSample, kSample, 0, 32, s));
  WX_CUDA(cudaMemsetAsync(runs, 0, sizeof(*runs), s));
  count_runs_kernel<<<grid_of(kSample), kBlock, 0, s>>>(smp + kSample, kSample, runs);
  WX_CUDA_LAUNCHED("combine count_runs_kernel");
  return static_cast<double>(to_host(runs, s)) < max_distinct * kSample;
}

}  // namespace

Combined combine_hot_batch(const Batch& b, double max_distinct,
                           const std::function<BatchResult(Call, const Batch&)>& plain) {
  Combined c;
  if (b.n < kMinBatch || b.n > 0xFFFFFFFFull) return c;
  cudaStream_t s = static_cast<cudaStream_t>(b.stream);
  const uint64_t n = b.n;
  const uint32_t* keys = static_cast<const uint32_t*>(b.keys);
  uint32_t* vals = static_cast<uint32_t*>(b.values_out);
  Scratch sc(s);
  cudaEvent_t ev0, ev1;
  WX_CUDA(cudaEventCreate(&ev0));
  WX_CUDA(cudaEventCreate(&ev1));
  struct Events {
    cudaEvent_t a, b;
    ~Events() { cudaEventDestroy(a); cudaEventDestroy(b); }
  } evs{ev0, ev1};
  WX_CUDA(cudaEventRecord(ev0, s));
  if (!is_hot(keys, n, max_distinct, sc, s)) return c;

  // 2. sort (key, element) over the bits the largest key needs
  uint32_t* kmax = sc.get<uint32_t>(1);
  size_t tb = 0;
  WX_CUDA(cub::DeviceReduce::Max(nullptr, tb, keys, kmax, n, s));
  WX_CUDA(cub::DeviceReduce::Max(sc.bytes(tb), tb, keys, kmax, n, s));
  const uint32_t maxk = to_host(kmax, s);
  const int bits = maxk ? 32 - __builtin_clz(maxk) : 1;
  uint32_t* idx = sc.get<uint32_t>(n);
  uint32_t* skeys = sc.get<uint32_t>(n);
  uint32_t* sidx = sc.get<uint32_t>(n);
  iota_kernel<<<grid_of(n), kBlock, 0, s>>>(idx, n);
  WX_CUDA_LAUNCHED("combine iota_kernel");
  WX_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, tb, keys, skeys, idx, sidx, n, 0, bits, s));
  WX_CUDA(cub::DeviceRadixSort::SortPairs(sc.bytes(tb), tb, keys, skeys, idx, sidx, n, 0, bits, s));

  // 3. segments and the state of each key before the batch
  uint32_t* seg = idx;  // idx is free again
  uint32_t* flags = sc.get<uint32_t>(n);
  head_flags_kernel<<<grid_of(n), kBlock, 0, s>>>(skeys, n, flags);
  WX_CUDA_LAUNCHED("combine head_flags_kernel");
  WX_CUDA(cub::DeviceScan::InclusiveSum(nullptr, tb, flags, seg, n, s));
  WX_CUDA(cub::DeviceScan::InclusiveSum(sc.bytes(tb), tb, flags, seg, n, s));
  uint32_t nseg = 0;
  WX_CUDA(cudaMemcpyAsync(&nseg, seg + n - 1, sizeof(nseg), cudaMemcpyDeviceToHost, s));
  WX_CUDA(cudaStreamSynchronize(s));
  uint32_t* hkeys = sc.get<uint32_t>(nseg);
  uint8_t* hfound = sc.get<uint8_t>(nseg);
  uint32_t* hval = sc.get<uint32_t>(nseg);
  head_keys_kernel<<<grid_of(n), kBlock, 0, s>>>(skeys, seg, n, hkeys);
  WX_CUDA_LAUNCHED("combine head_keys_kernel");
  Batch q;
  q.keys = hkeys;
  q.n = nseg;
  q.stream = b.stream;
  q.outcomes = hfound;
  plain(Call::contains, q);  // reserved keys among the heads are counted there and ignored here
  q.outcomes = nullptr;
  q.values_out = hval;
  plain(Call::find, q);

  // 4. the state each op sees
  Fn* fns = sc.get<Fn>(n);
  Fn* pre = sc.get<Fn>(n);
  fn_kernel<<<grid_of(n), kBlock, 0, s>>>(skeys, sidx, b.ops, vals, n, fns);
  WX_CUDA_LAUNCHED("combine fn_kernel");
  WX_CUDA(cub::DeviceScan::ExclusiveScanByKey(nullptr, tb, skeys, fns, pre, Compose{}, identity_fn(), n,
                                              cuda::std::equal_to<uint32_t>{}, s));
  WX_CUDA(cub::DeviceScan::ExclusiveScanByKey(sc.bytes(tb), tb, skeys, fns, pre, Compose{}, identity_fn(), n,
                                              cuda::std::equal_to<uint32_t>{}, s));

  // 5. outcomes, then one write per changed key
  uint32_t* wkeys = sc.get<uint32_t>(nseg);
  uint8_t* wops = sc.get<uint8_t>(nseg);
  uint32_t* wvals = sc.get<uint32_t>(nseg);
  uint32_t* wseg = sc.get<uint32_t>(nseg);
  uint8_t* wout = sc.get<uint8_t>(nseg);
  unsigned* counts = sc.get<unsigned>(2);  // [0] writes, [1] failed ops
  unsigned long long* invalid = sc.get<unsigned long long>(1);
  WX_CUDA(cudaMemsetAsync(counts, 0, 2 * sizeof(unsigned), s));
  WX_CUDA(cudaMemsetAsync(invalid, 0, sizeof(*invalid), s));
  uint32_t* fval = flags;  // flags is free again
  uint8_t* fhit = sc.get<uint8_t>(n);
  outcome_kernel<<<grid_of(n), kBlock, 0, s>>>(skeys, sidx, seg, b.ops, b.outcomes, fns, pre, hfound, hval, n, fval,
                                               fhit, wkeys, wops, wvals, wseg, counts, invalid);
  WX_CUDA_LAUNCHED("combine outcome_kernel");
  c.result.invalid = to_host(invalid, s);
  const unsigned nw = to_host(counts, s);
  uint8_t* segfail = nullptr;
  if (nw > 0) {
    Batch w;
    w.keys = wkeys;
    w.ops = wops;
    w.values_in = wvals;
    w.values_out = wvals;
    w.outcomes = wout;
    w.n = nw;
    w.stream = b.stream;
    const BatchResult wr = plain(Call::batch, w);
    if (wr.full > 0) {  // those keys' ops never took effect: run them the normal way
      segfail = sc.get<uint8_t>(nseg);
      WX_CUDA(cudaMemsetAsync(segfail, 0, nseg, s));
      failed_segments_kernel<<<grid_of(nw), kBlock, 0, s>>>(wout, wseg, nw, segfail);
      WX_CUDA_LAUNCHED("combine failed_segments_kernel");
      uint32_t* fidx = sc.get<uint32_t>(n);
      uint32_t* fkeys = sc.get<uint32_t>(n);
      uint8_t* fops = sc.get<uint8_t>(n);
      uint32_t* fvals = sc.get<uint32_t>(n);
      uint8_t* fout = sc.get<uint8_t>(n);
      gather_failed_kernel<<<grid_of(n), kBlock, 0, s>>>(skeys, sidx, seg, segfail, b.ops, vals, n, fidx, fkeys, fops,
                                                         fvals, counts + 1);
      WX_CUDA_LAUNCHED("combine gather_failed_kernel");
      Batch f;
      f.keys = fkeys;
      f.ops = fops;
      f.values_in = fvals;
      f.values_out = fvals;
      f.outcomes = fout;
      f.n = to_host(counts + 1, s);
      f.stream = b.stream;
      c.result.full = plain(Call::batch, f).full;
      scatter_failed_kernel<<<grid_of(f.n), kBlock, 0, s>>>(fidx, fout, fvals, static_cast<unsigned>(f.n), b.outcomes,
                                                            vals);
      WX_CUDA_LAUNCHED("combine scatter_failed_kernel");
    }
  }
  publish_kernel<<<grid_of(n), kBlock, 0, s>>>(sidx, seg, fhit, fval, segfail, n, vals);
  WX_CUDA_LAUNCHED("combine publish_kernel");
  WX_CUDA(cudaEventRecord(ev1, s));
  WX_CUDA(cudaEventSynchronize(ev1));
  WX_CUDA(cudaEventElapsedTime(&c.kernel_ms, ev0, ev1));
  c.done = true;
  return c;
}

}  // namespace wx
