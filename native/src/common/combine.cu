// Hot-key combining of mixed batches: see combine.hpp. Steps (all on the call's stream):
//  1. detect: count the distinct keys of a sample of 2^16 (a set on the device); hot below 90 %
//     (combine.hpp); the count also sizes the key map;
//  2. elect: every op finds (or claims) its key's record in a map of the batch's keys and runs the
//     elections of combine_rules.hpp (a read, and a CAS only while the vote is open);
//  3. the state of each key before the batch: contains + find of the map's keys, through the backend;
//  4. resolve: each key's plan (combine_rules.hpp); one write per key whose final state differs
//     (erase / insert_or_assign), through the backend; a key whose write finds no room (FULL) has its
//     ops re-run the normal way (nothing of them took effect), so no outcome claims an effect the
//     table does not have;
//  5. outcomes: every op reads its key's plan and votes.
// A map that overflows its probe bound is rebuilt 4x larger; past kMaxSlots (or out of memory) the
// batch runs the plain way.
#include "common/combine.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/combine_rules.hpp"
#include "common/cuda_util.cuh"

namespace wx {
namespace {

constexpr uint64_t kMinBatch = 1ull << 16;  // smaller batches are not worth it
constexpr uint32_t kSample = 1u << 16;
constexpr uint64_t kMinSlots = 1u << 12, kMaxSlots = 1u << 26;
constexpr int kMaxProbe = 256;  // linear probing at load <= 1/4: longer runs mean a too-small map
constexpr int kBlock = 256;
constexpr uint32_t kFree = 0xFFFFFFFFu;  // an unclaimed map slot (a reserved key: never a batch key)

unsigned grid_of(uint64_t n) { return static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>((n + kBlock - 1) / kBlock, 1u << 20))); }
#define WX_GRID_LOOP(i, n) \
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += uint64_t(gridDim.x) * blockDim.x)

// A key's map slot: the key and its three votes (combine_rules.hpp), 16 bytes read at once.
struct alignas(16) Rec {
  uint32_t key, l, t, e;
};
// What step 4 found for a key: its value before the batch, and flags.
struct Info {
  uint32_t v0;
  uint8_t p0, p1, fail;
};

__device__ inline bool reserved(uint32_t k) { return k >= WX_KEY32_TOMBSTONE; }
__device__ inline uint32_t slot_hash(uint32_t k) {  // murmur3's finalizer
  k ^= k >> 16;
  k *= 0x85EBCA6Bu;
  k ^= k >> 13;
  k *= 0xC2B2AE35u;
  return k ^ (k >> 16);
}
// A coherent read of a whole record (each word single-copy atomic; stale votes only cost a CAS).
__device__ inline uint4 load_rec(const Rec* r) {
  uint4 x;
  asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(x.x), "=r"(x.y), "=r"(x.z), "=r"(x.w)
               : "l"(r)
               : "memory");
  return x;
}
__device__ inline bool elect(uint32_t* vote, uint32_t seen, uint32_t i) {
  return seen == kNone && atomicCAS(vote, kNone, i) == kNone;
}

// Distinct keys among kSample evenly spaced ones: a set of 2^18 slots (load <= 1/4).
constexpr uint32_t kSetSlots = 1u << 18;
__global__ void sample_distinct_kernel(const uint32_t* keys, uint64_t n, uint32_t* set, unsigned* distinct) {
  WX_GRID_LOOP(i, kSample) {
    const uint32_t k = keys[i * (n / kSample)];
    uint32_t s = slot_hash(k) & (kSetSlots - 1);
    bool fresh = true;  // also when the probe bound runs out: counting too many only skips combining
    for (int p = 0; p < kMaxProbe; ++p, s = (s + 1) & (kSetSlots - 1)) {
      const uint32_t old = atomicCAS(&set[s], kFree, k);
      if (old == kFree) break;
      if (old == k) {
        fresh = false;
        break;
      }
    }
    const unsigned m = __ballot_sync(__activemask(), fresh);
    if (fresh && (threadIdx.x & 31) == __ffs(m) - 1) atomicAdd(distinct, __popc(m));
  }
}

// Step 2. The map's records start as {kFree, kNone, kNone, kNone} (all ones).
__global__ void elect_kernel(const uint32_t* keys, const uint8_t* ops, uint64_t n, Rec* map, uint32_t mask,
                             unsigned* overflow) {
  WX_GRID_LOOP(i, n) {
    const uint32_t k = keys[i];
    if (reserved(k)) continue;
    uint32_t s = slot_hash(k) & mask;
    uint4 seen{};
    bool have = false;
    for (int p = 0; p < kMaxProbe; ++p, s = (s + 1) & mask) {
      seen = load_rec(map + s);
      if (seen.x == k) have = true;
      else if (seen.x == kFree) {
        const uint32_t old = atomicCAS(&map[s].key, kFree, k);
        have = old == kFree || old == k;  // votes seen as open: at worst a CAS that fails
      }
      if (have) break;
    }
    if (!have) {
      atomicExch(overflow, 1u);
      continue;
    }
    Rec* r = map + s;
    const uint8_t op = ops[i];
    const uint32_t e = static_cast<uint32_t>(i);
    if (op == WX_OP_INSERT_OR_ASSIGN && elect(&r->t, seen.z, e)) continue;
    if (op == WX_OP_INSERT || op == WX_OP_INSERT_OR_ASSIGN) elect(&r->l, seen.y, e);
    else if (op == WX_OP_ERASE) elect(&r->e, seen.w, e);
  }
}

// The claimed slots, as a dense key list for the backend's lookups.
__global__ void list_kernel(const Rec* map, uint64_t slots, uint32_t* rkeys, uint32_t* rslot, unsigned* nr) {
  WX_GRID_LOOP(s, slots) {
    const uint32_t k = map[s].key;
    if (k == kFree) continue;
    const unsigned at = atomicAdd(nr, 1u);
    rkeys[at] = k;
    rslot[at] = static_cast<uint32_t>(s);
  }
}

// Step 4: each key's plan; a changed key appends its write.
__global__ void resolve_kernel(const Rec* map, const uint32_t* rslot, const uint8_t* rfound, const uint32_t* rval,
                               unsigned nr, const uint32_t* vin, Info* info, uint32_t* wkeys, uint8_t* wops,
                               uint32_t* wvals, uint32_t* wslot, unsigned* nw) {
  WX_GRID_LOOP(j, nr) {
    const uint32_t s = rslot[j];
    const Rec r = map[s];
    const Votes v{r.l, r.t, r.e};
    const KeyPlan k = plan_key(rfound[j] != 0, rval[j], v, [&](uint32_t i) { return vin ? vin[i] : 0u; });
    info[s] = Info{k.v0, k.p0, k.p1, 0};
    if (!k.changed()) continue;
    const unsigned w = atomicAdd(nw, 1u);
    wkeys[w] = r.key;
    wops[w] = k.p2 ? WX_OP_INSERT_OR_ASSIGN : WX_OP_ERASE;
    wvals[w] = k.v2;
    wslot[w] = s;
  }
}

__global__ void mark_failed_kernel(const uint8_t* wout, const uint32_t* wslot, unsigned nw, Info* info) {
  WX_GRID_LOOP(w, nw) if (wout[w] == WX_OUT_FULL) info[wslot[w]].fail = 1;
}

// Step 5. Ops of keys whose write failed are gathered (f*) for a plain re-run instead.
__global__ void outcome_kernel(const uint32_t* keys, const uint8_t* ops, uint64_t n, const Rec* map, uint32_t mask,
                               const Info* info, uint8_t* outcomes, uint32_t* vals, unsigned long long* invalid,
                               unsigned* lost, const uint32_t* vin, uint32_t* fidx, uint32_t* fkeys, uint8_t* fops,
                               uint32_t* fvals, unsigned* nf) {
  WX_GRID_LOOP(i, n) {
    const uint32_t k = keys[i];
    if (reserved(k)) {
      if (outcomes) outcomes[i] = WX_OUT_INVALID_KEY;
      atomicAdd(invalid, 1ull);
      continue;
    }
    uint32_t s = slot_hash(k) & mask;
    int p = 0;
    for (; p < kMaxProbe && __ldg(&map[s].key) != k; ++p) s = (s + 1) & mask;
    if (p == kMaxProbe) {  // cannot happen: step 2 placed every key
      atomicAdd(lost, 1u);
      continue;
    }
    const Info in = info[s];
    const uint8_t op = ops[i];
    if (in.fail) {
      const unsigned f = atomicAdd(nf, 1u);
      fidx[f] = static_cast<uint32_t>(i);
      fkeys[f] = k;
      fops[f] = op;
      fvals[f] = vin ? vin[i] : 0u;
      continue;
    }
    const Rec r = map[s];
    const Votes v{r.l, r.t, r.e};
    const uint8_t out = outcome_of(op, static_cast<uint32_t>(i), outcome_plan(in.p0, in.p1, v), v);
    if (outcomes) outcomes[i] = out;
    if (out == WX_OUT_FOUND && vals) vals[i] = in.v0;
  }
}
__global__ void scatter_failed_kernel(const uint32_t* fidx, const uint8_t* fout, const uint32_t* fvals, unsigned nf,
                                      uint8_t* outcomes, uint32_t* vals) {
  WX_GRID_LOOP(f, nf) {
    const uint32_t e = fidx[f];
    if (outcomes) outcomes[e] = fout[f];
    if (fout[f] == WX_OUT_FOUND && vals) vals[e] = fvals[f];
  }
}

template <typename T>
T to_host(const T* d, cudaStream_t s) {
  T h{};
  WX_CUDA(cudaMemcpyAsync(&h, d, sizeof(T), cudaMemcpyDeviceToHost, s));
  WX_CUDA(cudaStreamSynchronize(s));
  return h;
}

// Map slots for a batch whose sample of kSample keys has d distinct: if keys were uniform over U, a
// sample would show U(1 - e^(-kSample/U)) distinct; solve for U, and keep the map at most 1/4 full.
uint64_t slots_for(uint64_t d, uint64_t n) {
  double lo = 0, hi = 64;  // U / kSample
  const double share = static_cast<double>(d) / kSample;
  for (int it = 0; it < 60; ++it) {
    const double x = (lo + hi) / 2;
    (x * (1 - std::exp(-1 / x)) < share ? lo : hi) = x;
  }
  const double u = std::min<double>(static_cast<double>(n), hi * kSample);
  uint64_t slots = kMinSlots;
  while (slots < 4 * u && slots < kMaxSlots) slots *= 2;
  return slots;
}

}  // namespace

// What step 5 reports back, read in one copy: ops of keys whose write failed, keys missing from the
// map (never), elements with reserved keys.
struct Tail {
  unsigned failed, lost;
  unsigned long long invalid;
};

// Device buffers of the combining path, kept by the table across calls (allocating per call cost
// ~0.5 ms of wall time per mixed batch: the stream-ordered pool hands memory back at every sync).
// Two allocations: the detection's (fixed) and one arena carved into the map and the key lists
// (grown when a call needs more; dropped after a call that needed more than kKeepBytes).
class CombineScratch {
 public:
  CombineScratch() : fixed(kSetSlots + 16) {
    WX_CUDA(cudaEventCreate(&ev0));
    WX_CUDA(cudaEventCreate(&ev1));
  }
  ~CombineScratch() {
    cudaEventDestroy(ev0);
    cudaEventDestroy(ev1);
  }
  uint32_t* set() const { return fixed.get(); }
  // [0] distinct / map overflow, [1] list length, [2] writes, [4..7] the Tail of step 5.
  unsigned* counts() const { return fixed.get() + kSetSlots; }
  Tail* tail() const { return reinterpret_cast<Tail*>(counts() + 4); }  // 16-byte aligned

  // The arena for a map of `slots` and lists of `most` keys; then take() carves it in call order.
  void reserve(uint64_t slots, uint64_t most) {
    const uint64_t need = slots * (sizeof(Rec) + sizeof(Info)) + most * (6 * sizeof(uint32_t) + 3) + 16 * kAlign;
    if (arena.size() < need) {
      arena.reset();
      arena = DeviceArray<unsigned char>(need);
    }
    used = 0;
  }
  template <typename T>
  T* take(uint64_t n) {
    used = (used + kAlign - 1) / kAlign * kAlign;
    T* p = reinterpret_cast<T*>(arena.get() + used);
    used += n * sizeof(T);
    if (used > arena.size()) fail(WX_ERR_INTERNAL, "hot-key combining: arena too small");
    return p;
  }
  void trim() {
    if (arena.size() > kKeepBytes) arena.reset();
  }
  uint64_t bytes() const { return fixed.bytes() + arena.bytes(); }

  static constexpr uint64_t kAlign = 256, kKeepBytes = uint64_t(64) << 20;
  cudaEvent_t ev0{}, ev1{};
  DeviceArray<uint32_t> fixed;  // the detection's set, then counts() and tail()
  DeviceArray<unsigned char> arena;
  uint64_t used = 0;
};

void CombineScratchFree::operator()(CombineScratch* p) const { delete p; }
uint64_t combine_scratch_bytes(const CombineScratch* p) { return p ? p->bytes() : 0; }

namespace {

uint64_t sample_distinct(const uint32_t* keys, uint64_t n, CombineScratch& sc, cudaStream_t s) {
  uint32_t* set = sc.set();
  unsigned* distinct = sc.counts();
  WX_CUDA(cudaMemsetAsync(set, 0xFF, kSetSlots * sizeof(uint32_t), s));
  WX_CUDA(cudaMemsetAsync(distinct, 0, sizeof(unsigned), s));
  sample_distinct_kernel<<<grid_of(kSample), kBlock, 0, s>>>(keys, n, set, distinct);
  WX_CUDA_LAUNCHED("combine sample_distinct_kernel");
  return to_host(distinct, s);
}

}  // namespace

Combined combine_hot_batch(const Batch& b, int hot_share, CombineScratchPtr& scratch,
                           const std::function<BatchResult(Call, const Batch&)>& plain) {
  Combined c;
  const double max_distinct = hot_share / 100.0;
  if (b.n < kMinBatch || b.n > 0xFFFFFFFFull || max_distinct <= 0) return c;
  if (!scratch) scratch.reset(new CombineScratch());
  CombineScratch& sc = *scratch;
  cudaStream_t s = static_cast<cudaStream_t>(b.stream);
  const uint64_t n = b.n;
  const uint32_t* keys = static_cast<const uint32_t*>(b.keys);
  const uint32_t* vin = static_cast<const uint32_t*>(b.values_in);
  uint32_t* vals = static_cast<uint32_t*>(b.values_out);
  WX_CUDA(cudaEventRecord(sc.ev0, s));
  const uint64_t d = sample_distinct(keys, n, sc, s);
  if (static_cast<double>(d) >= max_distinct * kSample) return c;

  // 2. the map and the votes
  unsigned* counts = sc.counts();
  Tail* tail = sc.tail();
  uint64_t slots = slots_for(d, n);
  Rec* map = nullptr;
  uint32_t *rkeys = nullptr, *rslot = nullptr;
  for (;; slots *= 4) {
    if (slots > kMaxSlots) return c;  // far from hot after all: the plain way
    const uint64_t most = std::min<uint64_t>(slots, n);  // claimed slots
    try {  // no room for the map: the plain way (nothing has changed yet)
      sc.reserve(slots, most);
    } catch (const Error& e) {
      if (e.status() != WX_ERR_OUT_OF_MEMORY) throw;
      return c;
    }
    map = sc.take<Rec>(slots);
    rkeys = sc.take<uint32_t>(most);
    rslot = sc.take<uint32_t>(most);
    WX_CUDA(cudaMemsetAsync(map, 0xFF, slots * sizeof(Rec), s));
    WX_CUDA(cudaMemsetAsync(counts, 0, 8 * sizeof(unsigned), s));  // the counters and the tail
    elect_kernel<<<grid_of(n), kBlock, 0, s>>>(keys, b.ops, n, map, static_cast<uint32_t>(slots - 1), counts);
    WX_CUDA_LAUNCHED("combine elect_kernel");
    if (to_host(counts, s) == 0) break;
  }
  struct Trim {
    CombineScratch& sc;
    ~Trim() { sc.trim(); }
  } trim{sc};
  const uint32_t mask = static_cast<uint32_t>(slots - 1);

  // 3. the keys' state before the batch
  list_kernel<<<grid_of(slots), kBlock, 0, s>>>(map, slots, rkeys, rslot, counts + 1);
  WX_CUDA_LAUNCHED("combine list_kernel");
  const unsigned nr = to_host(counts + 1, s);
  uint8_t* rfound = sc.take<uint8_t>(nr);
  uint32_t* rval = sc.take<uint32_t>(nr);
  Batch q;
  q.keys = rkeys;
  q.n = nr;
  q.stream = b.stream;
  q.outcomes = rfound;
  plain(Call::contains, q);
  q.outcomes = nullptr;
  q.values_out = rval;
  plain(Call::find, q);

  // 4. plans, then one write per changed key
  Info* info = sc.take<Info>(slots);
  uint32_t* wkeys = sc.take<uint32_t>(nr);
  uint8_t* wops = sc.take<uint8_t>(nr);
  uint32_t* wvals = sc.take<uint32_t>(nr);
  uint32_t* wslot = sc.take<uint32_t>(nr);
  uint8_t* wout = sc.take<uint8_t>(nr);
  resolve_kernel<<<grid_of(nr), kBlock, 0, s>>>(map, rslot, rfound, rval, nr, vin, info, wkeys, wops, wvals, wslot,
                                                counts + 2);
  WX_CUDA_LAUNCHED("combine resolve_kernel");
  const unsigned nw = to_host(counts + 2, s);
  bool failed = false;
  if (nw > 0) {
    Batch w;
    w.keys = wkeys;
    w.ops = wops;
    w.values_in = wvals;
    w.values_out = wvals;
    w.outcomes = wout;
    w.n = nw;
    w.stream = b.stream;
    if (plain(Call::batch, w).full > 0) {
      failed = true;
      mark_failed_kernel<<<grid_of(nw), kBlock, 0, s>>>(wout, wslot, nw, info);
      WX_CUDA_LAUNCHED("combine mark_failed_kernel");
    }
  }

  // 5. outcomes (and the plain re-run of the keys whose write failed: rare, so its arrays are not kept)
  const uint64_t fcap = failed ? n : 0;
  DeviceArray<uint32_t> fidx(fcap), fkeys(fcap), fvals(fcap);
  DeviceArray<uint8_t> fops(fcap);
  outcome_kernel<<<grid_of(n), kBlock, 0, s>>>(keys, b.ops, n, map, mask, info, b.outcomes, vals, &tail->invalid,
                                               &tail->lost, vin, fidx.get(), fkeys.get(), fops.get(), fvals.get(),
                                               &tail->failed);
  WX_CUDA_LAUNCHED("combine outcome_kernel");
  const Tail t = to_host(tail, s);
  if (t.lost != 0) fail(WX_ERR_INTERNAL, "hot-key combining lost " + std::to_string(t.lost) + " keys of its map");
  c.result.invalid = t.invalid;
  if (t.failed > 0) {
    DeviceArray<uint8_t> fout(t.failed);
    Batch f;
    f.keys = fkeys.get();
    f.ops = fops.get();
    f.values_in = fvals.get();
    f.values_out = fvals.get();
    f.outcomes = fout.get();
    f.n = t.failed;
    f.stream = b.stream;
    c.result.full = plain(Call::batch, f).full;
    scatter_failed_kernel<<<grid_of(f.n), kBlock, 0, s>>>(fidx.get(), fout.get(), fvals.get(), t.failed, b.outcomes,
                                                          vals);
    WX_CUDA_LAUNCHED("combine scatter_failed_kernel");
    WX_CUDA(cudaStreamSynchronize(s));  // before fout and the f* arrays are freed
  }
  WX_CUDA(cudaEventRecord(sc.ev1, s));
  WX_CUDA(cudaEventSynchronize(sc.ev1));
  WX_CUDA(cudaEventElapsedTime(&c.kernel_ms, sc.ev0, sc.ev1));
  c.done = true;
  return c;
}

}  // namespace wx
