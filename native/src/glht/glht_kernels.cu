// GLHT kernels: bulk ops (one element per thread, warp path for hard inserts), init, rehash,
// retrieve_all and the invariant check.
#include "common/cuda_util.cuh"
#include "glht/glht_kernels.cuh"

namespace wx {
namespace glht {
namespace {

constexpr int kBlock = 256;
// Minimum resident blocks per SM requested for the writing kernels (caps their registers; 8 would
// mean 32 registers and full occupancy). 1 = no cap. A tuning knob, see DESIGN.md "Measured".
#ifndef GLHT_WRITE_MIN_BLOCKS
#define GLHT_WRITE_MIN_BLOCKS 1
#endif

inline unsigned grid_for(uint64_t n) {
  uint64_t g = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(g ? g : 1);
}

// Warp-aggregated counter updates: one atomic per warp and counter, only when non-zero.
__device__ __forceinline__ void add_counters(const View& t, int delta, bool pending, bool full, bool invalid) {
  const int lane = threadIdx.x & 31;
  const int d = __reduce_add_sync(kFull, delta);
  const unsigned p = __popc(__ballot_sync(kFull, pending));
  const unsigned f = __popc(__ballot_sync(kFull, full));
  const unsigned i = __popc(__ballot_sync(kFull, invalid));
  if (lane == 0) {
    if (d) atomicAdd(&t.c->size, static_cast<unsigned long long>(static_cast<long long>(d)));
    if (p) atomicAdd(&t.c->pending, static_cast<unsigned long long>(p));
    if (f) atomicAdd(&t.c->full, static_cast<unsigned long long>(f));
    if (i) atomicAdd(&t.c->invalid, static_cast<unsigned long long>(i));
  }
}

// Runs the warp path for every lane whose thread path answered kSlow, one op at a time.
__device__ __forceinline__ void run_slow_ops(const View& t, int& out, uint32_t k, uint32_t v, int op,
                                             unsigned long long h) {
  const int lane = threadIdx.x & 31;
  uint32_t slow = __ballot_sync(kFull, out == kSlow);
  while (slow) {
    const int l = __ffs(slow) - 1;
    slow &= slow - 1;
    const uint32_t kk = __shfl_sync(kFull, k, l);
    const uint32_t vv = __shfl_sync(kFull, v, l);
    const int oo = __shfl_sync(kFull, op, l);
    const unsigned long long hh = __shfl_sync(kFull, h, l);
    const int r = warp_upsert(t, kk, vv, oo == WX_OP_INSERT_OR_ASSIGN, hh);
    if (lane == l) out = r;
  }
}

template <Mode M>
__global__ void __launch_bounds__(kBlock, (M == Mode::find || M == Mode::contains) ? 1 : GLHT_WRITE_MIN_BLOCKS)
    k_batch(View t, Args a) {
  constexpr bool kReadOnly = M == Mode::find || M == Mode::contains;
  constexpr bool kInserts = M == Mode::insert || M == Mode::assign || M == Mode::mixed;
  const uint64_t e = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int op = -1;
  uint32_t k = 0, v = 0;
  if (e < a.n) {
    bool take = true;
    if (!kReadOnly && a.pass > 0) {
      const uint8_t o = a.outcomes[e];
      take = o == WX_OUT_NONE || (a.rerun_full && o == WX_OUT_FULL);
    }
    if (take) {
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
  uint32_t fv = 0;
  unsigned long long h = 0;
  if (op >= 0) {
    if (!is_user_key(k)) {
      out = WX_OUT_INVALID_KEY;
    } else {
      h = home_of(k, t.nb);
      if constexpr (kReadOnly) {
        out = lookup_ro(t, k, h, fv) ? WX_OUT_FOUND : WX_OUT_NOT_FOUND;
      } else {
        switch (op) {
          case WX_OP_INSERT: out = thread_upsert(t, k, v, false, h); break;
          case WX_OP_INSERT_OR_ASSIGN: out = thread_upsert(t, k, v, true, h); break;
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
  const int delta = (out == WX_OUT_INSERTED) - (out == WX_OUT_ERASED);
  add_counters(t, delta, op >= 0 && out == kPending, out == WX_OUT_FULL, out == WX_OUT_INVALID_KEY);
}

__global__ void k_init(View t) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < t.nt;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    t.s[i].kv = kEmptyKv;
    t.s[i].meta = 0;
  }
}

// One thread per old slot; the old table is quiescent. Re-running it is harmless (PRESENT).
__global__ void __launch_bounds__(kBlock) k_rehash(View t, const Slot* src, uint64_t src_ns) {
  const uint64_t e = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int op = -1;
  uint32_t k = 0, v = 0;
  if (e < src_ns) {
    const unsigned long long kv = src[e].kv;
    if (is_user_key(kv_key(kv))) {
      op = WX_OP_INSERT;
      k = kv_key(kv);
      v = kv_value(kv);
    }
  }
  int out = -1;
  unsigned long long h = 0;
  if (op >= 0) {
    h = home_of(k, t.nb);
    out = thread_upsert(t, k, v, false, h);
  }
  run_slow_ops(t, out, k, v, op, h);
  add_counters(t, out == WX_OUT_INSERTED ? 1 : 0, op >= 0 && out == kPending, out == WX_OUT_FULL, false);
}

__global__ void __launch_bounds__(kBlock) k_retrieve(View t, uint32_t* keys, uint32_t* values) {
  const uint64_t j = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  unsigned long long kv = j < t.nt ? t.s[j].kv : kEmptyKv;
  const bool have = is_user_key(kv_key(kv));
  const uint32_t mask = __ballot_sync(kFull, have);
  unsigned long long base = 0;
  if (lane == 0 && mask) base = atomicAdd(&t.c->count, static_cast<unsigned long long>(__popc(mask)));
  base = __shfl_sync(kFull, base, 0);
  if (have) {
    const unsigned long long at = base + __popc(mask & ((1u << lane) - 1u));
    keys[at] = kv_key(kv);
    values[at] = kv_value(kv);
  }
}

// Invariants (DESIGN.md): every key lies in its home's neighbourhood and has its bit, or in its
// home's stash bucket with the home's STASH bit set; every bit names a key of that home; no key twice;
// STASH set only while the bucket holds a key of that home; no lock bit; no reserved slot; padding
// and stash slots are never homes.
__global__ void __launch_bounds__(kBlock) k_check(View t) {
  const uint64_t j = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long bad = 0;
  bool key_here = false;
  if (j >= t.ns && j < t.nt) {  // stash slot
    const uint32_t k = kv_key(t.s[j].kv);
    if (k == kReservedKey || t.s[j].meta != 0) ++bad;
    if (is_user_key(k)) {
      key_here = true;
      const unsigned long long hk = home_of(k, t.nb);
      const unsigned long long m = t.s[hk].meta;
      const unsigned long long sb = stash_base(t, hk);
      if (!stashed(m) || j < sb || j >= sb + kH) ++bad;
      for (int i = 0; i < kH; ++i)
        if (((bitmap_of(m) >> i) & 1u) && kv_key(t.s[hk + i].kv) == k) ++bad;  // also in the array
      for (unsigned long long q = sb; q < sb + kH; ++q)
        if (q != j && kv_key(t.s[q].kv) == k) ++bad;  // twice in the bucket
    }
  }
  if (j < t.ns) {
    const unsigned long long kv = t.s[j].kv;
    const uint32_t k = kv_key(kv);
    if (k == kReservedKey) ++bad;
    if (is_user_key(k)) {
      key_here = true;
      const unsigned long long hk = home_of(k, t.nb);
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
          const uint32_t kq = kv_key(t.s[q].kv);
          any |= is_user_key(kq) && home_of(kq, t.nb) == j;
        }
        if (!any) ++bad;
      }
      const uint32_t b = bitmap_of(m);
      for (int i = 0; i < kH; ++i) {
        if (!((b >> i) & 1u)) continue;
        const uint32_t ki = kv_key(t.s[j + i].kv);
        if (!is_user_key(ki) || home_of(ki, t.nb) != j) ++bad;
        for (int q = i + 1; q < kH; ++q)
          if (((b >> q) & 1u) && kv_key(t.s[j + q].kv) == ki) ++bad;
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

void launch_batch(Mode mode, const View& t, const Args& a, cudaStream_t st) {
  const unsigned g = grid_for(a.n);
  switch (mode) {
    case Mode::insert: k_batch<Mode::insert><<<g, kBlock, 0, st>>>(t, a); break;
    case Mode::assign: k_batch<Mode::assign><<<g, kBlock, 0, st>>>(t, a); break;
    case Mode::erase: k_batch<Mode::erase><<<g, kBlock, 0, st>>>(t, a); break;
    case Mode::find: k_batch<Mode::find><<<g, kBlock, 0, st>>>(t, a); break;
    case Mode::contains: k_batch<Mode::contains><<<g, kBlock, 0, st>>>(t, a); break;
    case Mode::mixed: k_batch<Mode::mixed><<<g, kBlock, 0, st>>>(t, a); break;
  }
  WX_CUDA_LAUNCHED("glht batch kernel");
}

void launch_init(const View& t, cudaStream_t st) {
  uint64_t g = (t.nt + kBlock - 1) / kBlock;
  if (g > 65536) g = 65536;
  k_init<<<static_cast<unsigned>(g ? g : 1), kBlock, 0, st>>>(t);
  WX_CUDA_LAUNCHED("glht init kernel");
}

void launch_rehash(const View& t, const Slot* src, uint64_t src_ns, cudaStream_t st) {
  k_rehash<<<grid_for(src_ns), kBlock, 0, st>>>(t, src, src_ns);
  WX_CUDA_LAUNCHED("glht rehash kernel");
}

void launch_retrieve(const View& t, uint32_t* keys, uint32_t* values, cudaStream_t st) {
  k_retrieve<<<grid_for(t.nt), kBlock, 0, st>>>(t, keys, values);
  WX_CUDA_LAUNCHED("glht retrieve kernel");
}

void launch_check(const View& t, cudaStream_t st) {
  k_check<<<grid_for(t.nt), kBlock, 0, st>>>(t);
  WX_CUDA_LAUNCHED("glht check kernel");
}

void launch_count_outcome(const uint8_t* outcomes, uint64_t n, uint8_t which, unsigned long long* counter,
                          cudaStream_t st) {
  k_count_outcome<<<grid_for(n), kBlock, 0, st>>>(outcomes, n, which, counter);
  WX_CUDA_LAUNCHED("glht count kernel");
}

}  // namespace glht
}  // namespace wx
