// GLHT kernels: bulk ops (one element per thread, warp path for hard inserts), init, rehash,
// retrieve_all and the invariant check.
#include "common/cuda_util.cuh"
#include "glht/glht_kernels.cuh"

namespace wx {
namespace glht {
namespace {

constexpr int kBlock = 256;
// Minimum resident blocks per SM asked of the compiler for the writing kernels (a register cap; 8
// would mean 32 registers and full occupancy, 1 no cap). Measured: glht/DESIGN.md "Decisions".
// Inserts keep 64 registers: capped at 48 they ran 4.6 G/s (6.6 uncapped); as a wave of 3 / 2
// blocks per SM 7.1 / 5.8 against 7.7 at 4.
constexpr int kWriteMinBlocks = 4;
// Mixed batches as one wave keep 64 registers: 12.6 G/s against 8.6-9.7 at 5-6 blocks.
constexpr int kMixedMinBlocks = 4;
// Erases run at 40 registers: 10.5 G/s against 8.8 at 32.
constexpr int kEraseMinBlocks = 6;
// Modes (bit 1 << Mode) whose kernel is one wave of blocks striding over the batch instead of one
// element per thread: no block then waits out its slowest warp with its SM slots idle. Inserts,
// erases and mixed batches gain (erase 8.0 -> 10.5 G/s, mixed +5 %), finds lose (27.7 -> 26.1).
constexpr int kWaveModes = (1 << int(Mode::insert)) | (1 << int(Mode::erase)) | (1 << int(Mode::mixed));
// Blocks per SM of the erase kernel's one wave when fewer than fit (0: as many as fit): fewer warps
// per SM contend less for the same lines (11.5 G/s against 10.3 uncapped, 11.25 at 2); inserts and
// mixed batches lost with such caps (inserts 7.1 / 5.8 at 3 / 2 against 7.7).
constexpr int kEraseWavePerSm = 3;
// Mixed batches: each warp takes up to 32 * kMixedGroup consecutive elements and runs them grouped by
// op kind, 32 per round (run_grouped): [20,20,60] 14.9 G/s at 8, 14.6 at 4, 15.1 at 16, 12.6 at 1.
constexpr int kMixedGroup = 8;
template <Mode M>
constexpr bool kWave = (kWaveModes >> static_cast<int>(M)) & 1;
template <Mode M>
constexpr int kMaxGroup = M == Mode::mixed && kWave<M> ? kMixedGroup : 1;
template <Mode M>
constexpr int kWavePerSm = M == Mode::erase ? kEraseWavePerSm : 0;
template <Mode M>
constexpr int kMinBlocks = M == Mode::find || M == Mode::contains ? 1
                           : M == Mode::mixed                     ? kMixedMinBlocks
                           : M == Mode::erase                     ? kEraseMinBlocks
                                                                  : kWriteMinBlocks;

inline unsigned grid_for(uint64_t n) {
  uint64_t g = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(g ? g : 1);
}

// A thread's outcome counts over the elements it ran.
struct Tally {
  int delta = 0;  // inserted - erased
  unsigned pending = 0, full = 0, invalid = 0;
};

// Warp-aggregated counter updates: one atomic per warp and counter, only when non-zero.
template <class Tr>
__device__ __forceinline__ void add_counters(const View<Tr>& t, const Tally& y) {
  const int lane = threadIdx.x & 31;
  const int d = __reduce_add_sync(kFull, y.delta);
  const unsigned p = __reduce_add_sync(kFull, y.pending);
  const unsigned f = __reduce_add_sync(kFull, y.full);
  const unsigned i = __reduce_add_sync(kFull, y.invalid);
  if (lane == 0) {
    if (d) atomicAdd(&t.c->size, static_cast<unsigned long long>(static_cast<long long>(d)));
    if (p) atomicAdd(&t.c->pending, static_cast<unsigned long long>(p));
    if (f) atomicAdd(&t.c->full, static_cast<unsigned long long>(f));
    if (i) atomicAdd(&t.c->invalid, static_cast<unsigned long long>(i));
  }
}

// Runs the warp path for every lane whose thread path answered kSlow, one op at a time.
template <class Tr>
__device__ __forceinline__ void run_slow_ops(const View<Tr>& t, int& out, typename Tr::Key k, typename Tr::Val v,
                                             int op, unsigned long long h) {
  const int lane = threadIdx.x & 31;
  uint32_t slow = __ballot_sync(kFull, out == kSlow);
  while (slow) {
    const int l = __ffs(slow) - 1;
    slow &= slow - 1;
    const typename Tr::Key kk = __shfl_sync(kFull, k, l);
    const typename Tr::Val vv = __shfl_sync(kFull, v, l);
    const int oo = __shfl_sync(kFull, op, l);
    const unsigned long long hh = __shfl_sync(kFull, h, l);
    const int r = warp_upsert(t, kk, vv, oo == WX_OP_INSERT_OR_ASSIGN, hh);
    if (lane == l) out = r;
  }
}

// Whether element e (< a.n) runs in this pass: a re-run pass (after a grow) takes only the elements
// still without an outcome, and FULL ones when asked to.
template <class Tr>
__device__ __forceinline__ bool runs_in_pass(const Args<Tr>& a, uint64_t e) {
  if (a.pass == 0) return true;
  const uint8_t o = a.outcomes[e];
  return o == WX_OUT_NONE || (a.rerun_full && o == WX_OUT_FULL);
}

// One element of a bulk op (every lane of the warp calls it: the warp path is collective).
template <class Tr, Mode M>
__device__ __forceinline__ void run_element(const View<Tr>& t, const Args<Tr>& a, uint64_t e, Tally& y) {
  constexpr bool kReadOnly = M == Mode::find || M == Mode::contains;
  constexpr bool kInserts = M == Mode::insert || M == Mode::assign || M == Mode::mixed;
  int op = -1;
  typename Tr::Key k = 0;
  typename Tr::Val v = 0;
  if (e < a.n) {
    if (kReadOnly || runs_in_pass(a, e)) {
      k = a.keys[e];
      if constexpr (M == Mode::mixed) {
        op = a.ops[e];
      } else if constexpr (M == Mode::insert) {
        op = WX_OP_INSERT;
      } else if constexpr (M == Mode::assign) {
        op = WX_OP_INSERT_OR_ASSIGN;
      } else if constexpr (M == Mode::erase) {
        op = WX_OP_ERASE;
      } else {
        op = WX_OP_FIND;
      }
      if ((op == WX_OP_INSERT || op == WX_OP_INSERT_OR_ASSIGN) && a.values_in) v = a.values_in[e];
    }
  }
  int out = -1;
  typename Tr::Val fv = 0;
  unsigned long long h = 0;
  if (op >= 0) {
    if (!Tr::is_user(k)) {
      out = WX_OUT_INVALID_KEY;
    } else {
      h = Tr::home(k, t.nb);
      if constexpr (kReadOnly) {
        out = lookup_ro_any(t, k, h, fv) ? WX_OUT_FOUND : WX_OUT_NOT_FOUND;
      } else {
        switch (op) {
          case WX_OP_INSERT: out = thread_upsert<Tr, M != Mode::mixed>(t, k, v, false, h); break;
          case WX_OP_INSERT_OR_ASSIGN: out = thread_upsert<Tr, M != Mode::mixed>(t, k, v, true, h); break;
          case WX_OP_ERASE: out = thread_erase(t, k, h); break;
          case WX_OP_FIND: out = thread_find(t, k, h, fv); break;
          default: out = WX_OUT_INVALID_KEY; break;  // api.cpp validates ops; never reached
        }
      }
    }
  }
  if constexpr (kInserts) run_slow_ops(t, out, k, v, op, h);
  if (op >= 0) {
    if constexpr (M == Mode::find) {
      a.values_out[e] = out == WX_OUT_FOUND ? fv : a.not_found;
    } else if constexpr (M == Mode::contains) {
      a.outcomes[e] = out == WX_OUT_FOUND ? 1 : 0;
    } else {
      a.outcomes[e] = static_cast<uint8_t>(out);
      if (M == Mode::mixed && out == WX_OUT_FOUND) a.values_out[e] = fv;
    }
  }
  y.delta += (out == WX_OUT_INSERTED) - (out == WX_OUT_ERASED);
  y.pending += op >= 0 && out == kPending;
  y.full += out == WX_OUT_FULL;
  y.invalid += out == WX_OUT_INVALID_KEY;
}

// The kind of a mixed-batch element for grouping: 0 insert / insert_or_assign, 1 erase, 2 find (and
// any other code, which run_element answers without memory traffic), 3 nothing to run (past the end, or
// settled in an earlier pass).
template <class Tr>
__device__ __forceinline__ int op_class(const Args<Tr>& a, uint64_t e) {
  if (e >= a.n || !runs_in_pass(a, e)) return 3;
  const uint8_t op = a.ops[e];
  return op == WX_OP_INSERT || op == WX_OP_INSERT_OR_ASSIGN ? 0 : op == WX_OP_ERASE ? 1 : 2;
}

// Mixed batches, one wave: warp w of a block round takes the g * 32 elements from c0 and runs them
// grouped by kind (inserts, erases, finds), 32 per round. The three thread paths are different code
// with their own dependent reads, so a warp whose lanes hold all three kinds runs them one after the
// other and waits out each one's memory latency; grouped, most rounds hold one kind (at most two of
// a chunk's g rounds hold two). Same elements, same protocols: only which lane runs an element, and
// when, changes (every element of a batch is concurrent with every other anyway).
// g (launch-uniform, 1..kMaxGroup) rounds per chunk: smaller for batches that would not fill the GPU.
template <class Tr>
__device__ __forceinline__ void run_grouped(const View<Tr>& t, const Args<Tr>& a, int g, Tally& y) {
  constexpr int G = kMaxGroup<Mode::mixed>;
  static_assert(G <= 16, "2 bits per round in one word");
  __shared__ uint16_t order[kBlock / 32][32 * G];  // chunk offsets of the elements, by kind
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const unsigned lt = (1u << lane) - 1u;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * kBlock * g;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * kBlock * g; base < a.n; base += stride) {
    const uint64_t c0 = base + static_cast<uint64_t>(w) * 32 * g;
    unsigned kinds = 0, total[3] = {0, 0, 0};  // kinds: 2 bits per round j
#pragma unroll
    for (int j = 0; j < G; ++j) {
      const unsigned c = j < g ? op_class(a, c0 + j * 32 + lane) : 3u;
      kinds |= c << (2 * j);
#pragma unroll
      for (unsigned q = 0; q < 3; ++q) total[q] += __popc(__ballot_sync(kFull, c == q));
    }
    const unsigned active = total[0] + total[1] + total[2];  // warp-uniform
    unsigned next[3] = {0, total[0], total[0] + total[1]};   // where each kind's next element goes
#pragma unroll
    for (int j = 0; j < G; ++j) {
      const unsigned c = (kinds >> (2 * j)) & 3u;
#pragma unroll
      for (unsigned q = 0; q < 3; ++q) {
        const unsigned b = __ballot_sync(kFull, c == q);
        if (c == q) order[w][next[q] + __popc(b & lt)] = static_cast<uint16_t>(j * 32 + lane);
        next[q] += __popc(b);
      }
    }
    __syncwarp();
    for (unsigned r = 0; r * 32 < active; ++r) {
      const unsigned q = r * 32 + lane;
      run_element<Tr, Mode::mixed>(t, a, q < active ? c0 + order[w][q] : a.n, y);
    }
    __syncwarp();  // every lane has read its offsets before the next chunk overwrites them
  }
}

// One wave of warps taking 32 elements at a time from the table's cursors: the batch is cut into
// kCursors segments, a warp starts on segment (warp mod kCursors) and moves to the next one when its
// own is used up. A warp held up by slow ops then leaves no work behind while others idle (a fixed
// stride left the SMs idle a quarter of a high-fill insert), and no one cursor takes every warp's
// atomics.
template <class Tr, Mode M>
__device__ __forceinline__ void run_from_cursors(const View<Tr>& t, const Args<Tr>& a, Tally& y) {
  const int lane = threadIdx.x & 31;
  const uint64_t warp = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const uint64_t seg = ((a.n + kCursors - 1) / kCursors + 31) & ~uint64_t(31);
  for (int i = 0; i < kCursors; ++i) {
    const int k = static_cast<int>((warp + i) % kCursors);
    const uint64_t lo = k * seg, len = lo < a.n ? (a.n - lo < seg ? a.n - lo : seg) : 0;
    unsigned long long* cur = cursor_of(t.c, k);
    if (len == 0 || ld_relaxed(cur) >= len) continue;  // used up: no atomic
    for (;;) {
      unsigned long long off = 0;
      if (lane == 0) off = atomicAdd(cur, 32ull);
      off = __shfl_sync(kFull, off, 0);
      if (off >= len) break;
      const uint64_t e = off + lane < len ? lo + off + lane : a.n;
      run_element<Tr, M>(t, a, e, y);
    }
  }
}

// One element per thread, or (kWave<M>) one wave of blocks striding over the batch: the round base is
// block-uniform, so every lane of a warp reaches the warp path's collectives together.
template <class Tr, Mode M>
__global__ void __launch_bounds__(kBlock, kMinBlocks<M>)
    k_batch(View<Tr> t, Args<Tr> a, int group) {
  Tally y;
  if constexpr (kMaxGroup<M> > 1) {
    run_grouped<Tr>(t, a, group, y);
  } else if constexpr (kWave<M> && M != Mode::mixed) {
    run_from_cursors<Tr, M>(t, a, y);
  } else if constexpr (kWave<M>) {
    const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
    for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < a.n; base += stride)
      run_element<Tr, M>(t, a, base + threadIdx.x, y);
  } else {
    run_element<Tr, M>(t, a, static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x, y);
  }
  add_counters(t, y);
}

template <class Tr>
__global__ void k_init(View<Tr> t) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < t.nt;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    t.s[i].kv = Tr::kEmpty;
    t.s[i].meta = 0;
    if constexpr (Tr::kWide) t.s[i].val = 0;
  }
}

// One thread per old slot; the old table is quiescent. Re-running it is harmless (PRESENT).
template <class Tr>
__global__ void __launch_bounds__(kBlock) k_rehash(View<Tr> t, const typename Tr::SlotT* src, uint64_t src_ns) {
  const uint64_t e = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int op = -1;
  typename Tr::Key k = 0;
  typename Tr::Val v = 0;
  if (e < src_ns) {
    const unsigned long long kv = src[e].kv;
    if (Tr::is_user(Tr::key(kv))) {
      op = WX_OP_INSERT;
      k = Tr::key(kv);
      if constexpr (Tr::kWide) {
        v = src[e].val;
      } else {
        v = kv_value(kv);
      }
    }
  }
  int out = -1;
  unsigned long long h = 0;
  if (op >= 0) {
    h = Tr::home(k, t.nb);
    out = thread_upsert<Tr, true>(t, k, v, false, h);  // a fresh table, inserts only
  }
  run_slow_ops(t, out, k, v, op, h);
  Tally y;
  y.delta = out == WX_OUT_INSERTED;
  y.pending = op >= 0 && out == kPending;
  y.full = out == WX_OUT_FULL;
  add_counters(t, y);
}

template <class Tr>
__global__ void __launch_bounds__(kBlock) k_retrieve(View<Tr> t, typename Tr::Key* keys, typename Tr::Val* values) {
  const uint64_t j = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  unsigned long long kv = j < t.nt ? t.s[j].kv : Tr::kEmpty;
  const bool have = Tr::is_user(Tr::key(kv));
  const uint32_t mask = __ballot_sync(kFull, have);
  unsigned long long base = 0;
  if (lane == 0 && mask) base = atomicAdd(&t.c->count, static_cast<unsigned long long>(__popc(mask)));
  base = __shfl_sync(kFull, base, 0);
  if (have) {
    const unsigned long long at = base + __popc(mask & ((1u << lane) - 1u));
    keys[at] = Tr::key(kv);
    if constexpr (Tr::kWide) {
      values[at] = t.s[j].val;
    } else {
      values[at] = kv_value(kv);
    }
  }
}

// Invariants (DESIGN.md "Layout", "Protocol"): every key lies in its home's neighbourhood and has
// its bit, or in its home's stash bucket with the home's STASH bit set; every bit names a key of that
// home; no key twice; STASH set only while the bucket holds a key of that home; no lock bit; no
// reserved slot; padding and stash slots are never homes.
template <class Tr>
__global__ void __launch_bounds__(kBlock) k_check(View<Tr> t) {
  using Key = typename Tr::Key;
  const uint64_t j = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long bad = 0;
  bool key_here = false;
  if (j >= t.ns && j < t.nt) {  // stash slot
    const Key k = Tr::key(t.s[j].kv);
    if (k == Key(Tr::kReserved) || t.s[j].meta != 0) ++bad;
    if (Tr::is_user(k)) {
      key_here = true;
      const unsigned long long hk = Tr::home(k, t.nb);
      const unsigned long long m = t.s[hk].meta;
      const unsigned long long sb = stash_base(t, hk);
      if (!stashed(m) || j < sb || j >= sb + kH) ++bad;
      for (int i = 0; i < kH; ++i)
        if (((bitmap_of(m) >> i) & 1u) && Tr::key(t.s[hk + i].kv) == k) ++bad;  // also in the array
      for (unsigned long long q = sb; q < sb + kH; ++q)
        if (q != j && Tr::key(t.s[q].kv) == k) ++bad;  // twice in the bucket
    }
  }
  if (j < t.ns) {
    const unsigned long long kv = t.s[j].kv;
    const Key k = Tr::key(kv);
    if (k == Key(Tr::kReserved)) ++bad;
    if (Tr::is_user(k)) {
      key_here = true;
      const unsigned long long hk = Tr::home(k, t.nb);
      if (hk > j || j - hk >= static_cast<unsigned long long>(kH) || !((bitmap_of(t.s[hk].meta) >> (j - hk)) & 1u))
        ++bad;
    }
    const unsigned long long m = t.s[j].meta;
    if (j >= t.nb) {
      if (m != 0) ++bad;
    } else {
      if (locked(m)) ++bad;
      if (stashed(m)) {  // the bucket must hold a key of this home
        const unsigned long long sb = stash_base(t, j);
        bool any = false;
        for (unsigned long long q = sb; q < sb + kH; ++q) {
          const Key kq = Tr::key(t.s[q].kv);
          any |= Tr::is_user(kq) && Tr::home(kq, t.nb) == j;
        }
        if (!any) ++bad;
      }
      const uint32_t b = bitmap_of(m);
      for (int i = 0; i < kH; ++i) {
        if (!((b >> i) & 1u)) continue;
        const Key ki = Tr::key(t.s[j + i].kv);
        if (!Tr::is_user(ki) || Tr::home(ki, t.nb) != j) ++bad;
        for (int q = i + 1; q < kH; ++q)
          if (((b >> q) & 1u) && Tr::key(t.s[j + q].kv) == ki) ++bad;
      }
    }
  }
  const unsigned c = __popc(__ballot_sync(kFull, key_here));
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(&t.c->count, static_cast<unsigned long long>(c));
  if (bad) atomicAdd(&t.c->errors, bad);
}

__global__ void k_count_outcome(const uint8_t* o, uint64_t n, uint8_t which, unsigned long long* counter) {
  const uint64_t j = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned c = __popc(__ballot_sync(kFull, j < n && o[j] == which));
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(counter, static_cast<unsigned long long>(c));
}

}  // namespace

template <class Tr, Mode M>
void launch_mode(const View<Tr>& t, const Args<Tr>& a, cudaStream_t st) {
  // Mixed: a.group, else the largest power of two that still gives every resident thread a chunk.
  int group = 1;
  if constexpr (kMaxGroup<M> > 1) {
    if (a.group > 0) {
      group = a.group < kMaxGroup<M> ? a.group : kMaxGroup<M>;
    } else {
      const uint64_t wave = uint64_t(blocks_per_sm(k_batch<Tr, M>, kBlock)) * current_sms() * kBlock;  // resident threads
      while (group < kMaxGroup<M> && a.n >= wave * group * 2) group *= 2;
    }
  }
  const unsigned g =
      kWave<M> ? wave_grid(k_batch<Tr, M>, kBlock, a.n, kBlock * group, kWavePerSm<M>) : grid_for(a.n);
  k_batch<Tr, M><<<g, kBlock, 0, st>>>(t, a, group);
}

template <class Tr>
void launch_batch(Mode mode, const View<Tr>& t, const Args<Tr>& a, cudaStream_t st) {
  switch (mode) {
    case Mode::insert: launch_mode<Tr, Mode::insert>(t, a, st); break;
    case Mode::assign: launch_mode<Tr, Mode::assign>(t, a, st); break;
    case Mode::erase: launch_mode<Tr, Mode::erase>(t, a, st); break;
    case Mode::find: launch_mode<Tr, Mode::find>(t, a, st); break;
    case Mode::contains: launch_mode<Tr, Mode::contains>(t, a, st); break;
    case Mode::mixed: launch_mode<Tr, Mode::mixed>(t, a, st); break;
  }
  WX_CUDA_LAUNCHED("glht batch kernel");
}

template <class Tr>
void launch_init(const View<Tr>& t, cudaStream_t st) {
  uint64_t g = (t.nt + kBlock - 1) / kBlock;
  if (g > 65536) g = 65536;
  k_init<Tr><<<static_cast<unsigned>(g ? g : 1), kBlock, 0, st>>>(t);
  WX_CUDA_LAUNCHED("glht init kernel");
}

template <class Tr>
void launch_rehash(const View<Tr>& t, const typename Tr::SlotT* src, uint64_t src_ns, cudaStream_t st) {
  k_rehash<Tr><<<grid_for(src_ns), kBlock, 0, st>>>(t, src, src_ns);
  WX_CUDA_LAUNCHED("glht rehash kernel");
}

template <class Tr>
void launch_retrieve(const View<Tr>& t, typename Tr::Key* keys, typename Tr::Val* values, cudaStream_t st) {
  k_retrieve<Tr><<<grid_for(t.nt), kBlock, 0, st>>>(t, keys, values);
  WX_CUDA_LAUNCHED("glht retrieve kernel");
}

template <class Tr>
void launch_check(const View<Tr>& t, cudaStream_t st) {
  k_check<Tr><<<grid_for(t.nt), kBlock, 0, st>>>(t);
  WX_CUDA_LAUNCHED("glht check kernel");
}

#define GLHT_INSTANTIATE(Tr)                                                                                 \
  template void launch_batch<Tr>(Mode, const View<Tr>&, const Args<Tr>&, cudaStream_t);                      \
  template void launch_init<Tr>(const View<Tr>&, cudaStream_t);                                               \
  template void launch_rehash<Tr>(const View<Tr>&, const typename Tr::SlotT*, uint64_t, cudaStream_t);       \
  template void launch_retrieve<Tr>(const View<Tr>&, typename Tr::Key*, typename Tr::Val*, cudaStream_t);   \
  template void launch_check<Tr>(const View<Tr>&, cudaStream_t);
GLHT_INSTANTIATE(Narrow)
GLHT_INSTANTIATE(Wide)
#undef GLHT_INSTANTIATE

void launch_count_outcome(const uint8_t* outcomes, uint64_t n, uint8_t which, unsigned long long* counter,
                          cudaStream_t st) {
  k_count_outcome<<<grid_for(n), kBlock, 0, st>>>(outcomes, n, which, counter);
  WX_CUDA_LAUNCHED("glht count kernel");
}

}  // namespace glht
}  // namespace wx
