// Device-array calls of a sharded GPU table: see device_path.hpp.
#include "shard/device_path.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "common/cuda_util.cuh"
#include "shard/scratch_layout.hpp"
#include "shard/shard_route.hpp"
#include "shard/shard_set.hpp"

namespace wx::shard {

namespace {

constexpr int kBlock = 256;  // >= WX_MAX_SHARDS: one thread per shard reserves a tile's places
constexpr int kItems = 8;    // elements per thread in one tile
constexpr uint64_t kTile = uint64_t(kBlock) * kItems;
// Elements of one piece: bounds the scratch on the source device (and its mirror on the others).
constexpr uint64_t kPiece = uint64_t(1) << 26;

static_assert(kBlock >= WX_MAX_SHARDS, "a block reserves places for every shard at once");

unsigned tiles_grid(uint64_t n) {
  const uint64_t tiles = (n + kTile - 1) / kTile;
  return unsigned(std::clamp<uint64_t>(tiles, 1, uint64_t(current_sms()) * 8));
}

// The caller's arrays and the scratch of one piece, as the kernels see them.
template <typename K>
struct Route {
  const K* keys;
  const K* values;  // NULL when the call reads no values
  const uint8_t* ops;
  const uint64_t* hashes;
  K* s_keys;
  K* s_values;
  uint8_t* s_ops;
  uint64_t* s_hashes;
  uint8_t* s_outcomes;  // NULL when the call has none; set to WX_OUT_NONE here
  uint32_t* s_index;
};

// Adds one per live lane to hist[sid] and returns the lane's place among them. Lanes of a warp with the
// same shard share one atomic: with few shards most of a warp would otherwise hit one counter.
__device__ unsigned warp_add(unsigned* hist, uint32_t sid, bool live) {
  const unsigned active = __ballot_sync(0xFFFFFFFFu, live);
  if (!live) return 0;
  const unsigned peers = __match_any_sync(active, sid);
  const int lane = int(threadIdx.x & 31), leader = __ffs(peers) - 1;
  unsigned first = 0;
  if (lane == leader) first = atomicAdd(&hist[sid], unsigned(__popc(peers)));
  first = __shfl_sync(peers, first, leader);
  return first + unsigned(__popc(peers & ((1u << lane) - 1u)));
}

// counts[s] += the piece's keys routed to shard s.
template <typename K>
__global__ void k_count(const K* keys, uint64_t n, uint32_t shards, unsigned long long* counts) {
  __shared__ unsigned hist[kBlock];
  hist[threadIdx.x] = 0;
  __syncthreads();
  // Whole warps go round the loop together (warp_add needs every lane), dead lanes past n.
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t w = uint64_t(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); w < n; w += stride) {
    const uint64_t i = w + (threadIdx.x & 31);
    const bool live = i < n;
    warp_add(hist, live ? shard_of(uint64_t(keys[i]), shards) : 0, live);
  }
  __syncthreads();
  if (threadIdx.x < shards && hist[threadIdx.x]) atomicAdd(&counts[threadIdx.x], (unsigned long long)hist[threadIdx.x]);
}

// Scatters each element to its shard's run: a tile counts its elements per shard in shared memory,
// reserves its places in each run with one atomic per shard, and writes. cursor[s] starts at the run's
// first place.
template <typename K>
__global__ void k_scatter(Route<K> r, uint64_t n, uint32_t shards, unsigned long long* cursor) {
  __shared__ unsigned hist[kBlock];
  __shared__ unsigned long long first[kBlock];
  const uint64_t tiles = (n + kTile - 1) / kTile;
  for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    hist[threadIdx.x] = 0;
    __syncthreads();
    uint32_t sid[kItems], local[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const uint64_t i = tile * kTile + uint64_t(k) * kBlock + threadIdx.x;
      const bool live = i < n;
      sid[k] = live ? shard_of(uint64_t(r.keys[i]), shards) : 0;
      local[k] = warp_add(hist, sid[k], live);
    }
    __syncthreads();
    if (threadIdx.x < shards && hist[threadIdx.x]) first[threadIdx.x] = atomicAdd(&cursor[threadIdx.x], (unsigned long long)hist[threadIdx.x]);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const uint64_t i = tile * kTile + uint64_t(k) * kBlock + threadIdx.x;
      if (i >= n) continue;
      const uint64_t d = first[sid[k]] + local[k];
      r.s_keys[d] = r.keys[i];
      if (r.values) r.s_values[d] = r.values[i];
      if (r.ops) r.s_ops[d] = r.ops[i];
      if (r.hashes) r.s_hashes[d] = r.hashes[i];
      if (r.s_outcomes) r.s_outcomes[d] = WX_OUT_NONE;
      r.s_index[d] = uint32_t(i);
    }
    __syncthreads();  // hist and first are reused by the next tile
  }
}

// Puts the shards' results in the caller's order. batch: values only where a FIND found its key.
template <typename K>
__global__ void k_gather(uint64_t n, const uint32_t* index, const K* s_values, const uint8_t* s_outcomes,
                         const uint8_t* s_ops, const uint64_t* s_hashes, K* values, uint8_t* outcomes,
                         uint64_t* hashes) {
  for (uint64_t d = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; d < n; d += uint64_t(gridDim.x) * blockDim.x) {
    const uint32_t i = index[d];
    if (outcomes) outcomes[i] = s_outcomes[d];
    if (hashes) hashes[i] = s_hashes[d];
    if (values && (!s_ops || (s_ops[d] == WX_OP_FIND && s_outcomes[d] == WX_OUT_FOUND))) values[i] = s_values[d];
  }
}

unsigned stream_grid(uint64_t n) {
  const uint64_t blocks = (n + kBlock - 1) / kBlock;
  return unsigned(std::clamp<uint64_t>(blocks, 1, uint64_t(current_sms()) * 16));
}

}  // namespace

class DevicePath {
 public:
  explicit DevicePath(const std::vector<int>& devices) {
    // Peer access lets copies between two devices go straight over their link; without it the
    // driver stages them through the host.
    for (int a : devices)
      for (int b : devices) {
        if (a == b) continue;
        int can = 0;
        if (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can) {
          cudaGetLastError();
          continue;
        }
        DeviceScope scope(a);
        const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
        if (e != cudaSuccess) cudaGetLastError();  // already enabled, or not possible: copies still work
      }
  }
  ~DevicePath() {
    for (auto& [d, s] : streams_) {
      DeviceScope scope(d);
      cudaStreamDestroy(s);
    }
    for (auto& [d, a] : scratch_) {
      DeviceScope scope(d);
      a.reset();
    }
  }

  // Grown-only scratch of `bytes` on device d.
  char* scratch(int d, uint64_t bytes) {
    DeviceArray<char>& a = scratch_[d];
    if (a.size() < bytes) {
      DeviceScope scope(d);
      a.reset();
      a = DeviceArray<char>(bytes);
    }
    return a.get();
  }
  unsigned long long* counts(int d) {
    DeviceArray<unsigned long long>& a = counts_[d];
    if (!a.get()) {
      DeviceScope scope(d);
      a = DeviceArray<unsigned long long>(WX_MAX_SHARDS);
    }
    return a.get();
  }
  // The stream the split and gather run on when the caller gave none.
  cudaStream_t stream(int d) {
    auto it = streams_.find(d);
    if (it != streams_.end()) return it->second;
    DeviceScope scope(d);
    cudaStream_t s;
    WX_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return streams_[d] = s;
  }

  template <typename K>
  BatchResult run(ShardSet& set, Call call, const Batch& b, int source, cudaStream_t st, PerShard* acc);
  uint64_t retrieve_all(ShardSet& set, void* keys, void* values, int source, cudaStream_t st);

 private:
  std::map<int, DeviceArray<char>> scratch_;
  std::map<int, DeviceArray<unsigned long long>> counts_;
  std::map<int, cudaStream_t> streams_;
};

void DevicePathDelete::operator()(DevicePath* p) const { delete p; }

DevicePathPtr make_device_path(const std::vector<int>& devices) { return DevicePathPtr(new DevicePath(devices)); }

namespace {

// Copies the regions [at, at + n) of the arrays in `regions` (offset in the scratch, width) between
// the scratch of two devices on `st`.
struct Region {
  uint64_t offset, width;
};

void copy_runs(char* dst, int dst_dev, const char* src, int src_dev, const std::vector<Region>& regions, uint64_t at,
               uint64_t n, cudaStream_t st) {
  for (const Region& r : regions) {
    const uint64_t o = r.offset + at * r.width;
    WX_CUDA(cudaMemcpyPeerAsync(dst + o, dst_dev, src + o, src_dev, n * r.width, st));
  }
}

}  // namespace

template <typename K>
BatchResult DevicePath::run(ShardSet& set, Call call, const Batch& b, int source, cudaStream_t st, PerShard* acc) {
  const uint32_t shards = set.count();
  const uint64_t kb = sizeof(K);
  const uint64_t piece = std::min(b.n, kPiece);
  const ScratchLayout L(call, b, piece, kb);
  // Every device gets the source's layout: a shard's run has the same place everywhere.
  char* src = scratch(source, L.bytes);
  std::map<int, char*> mirror;
  for (uint32_t s = 0; s < shards; ++s) {
    const int d = set.unit(s).device();
    if (d != source && !mirror.count(d)) mirror[d] = scratch(d, L.bytes);
  }
  std::vector<Region> in, out;
  in.push_back({L.keys, kb});
  if (L.values_in) in.push_back({L.values, kb});
  if (L.ops) in.push_back({L.op, 1});
  if (L.hashes_in) in.push_back({L.hashes, 8});
  if (L.outcomes) in.push_back({L.outcome, 1}), out.push_back({L.outcome, 1});
  if (L.values_out) out.push_back({L.values, kb});
  if (L.hashes_out) out.push_back({L.hashes, 8});
  unsigned long long* cnt = counts(source);

  std::vector<BatchResult> per_shard(shards);
  // The call's counts: given to the units, or added to the caller's when it runs the call in parts.
  auto finish = [&] {
    if (!acc) return set.record(per_shard);
    BatchResult total;
    for (uint32_t s = 0; s < shards; ++s) {
      (*acc)[s].invalid += per_shard[s].invalid;
      (*acc)[s].full += per_shard[s].full;
      total.invalid += per_shard[s].invalid;
      total.full += per_shard[s].full;
    }
    return total;
  };
  std::vector<unsigned long long> host_counts(shards), base(shards + 1);
  const K* keys = static_cast<const K*>(b.keys);
  for (uint64_t lo = 0; lo < b.n; lo += piece) {
    const uint64_t m = std::min(piece, b.n - lo);
    {
      DeviceScope scope(source);
      WX_CUDA(cudaMemsetAsync(cnt, 0, shards * sizeof(unsigned long long), st));
      k_count<K><<<stream_grid(m), kBlock, 0, st>>>(keys + lo, m, shards, cnt);
      WX_CUDA_LAUNCHED("k_count");
      WX_CUDA(cudaMemcpyAsync(host_counts.data(), cnt, shards * sizeof(unsigned long long), cudaMemcpyDeviceToHost, st));
      WX_CUDA(cudaStreamSynchronize(st));
      base[0] = 0;
      for (uint32_t s = 0; s < shards; ++s) base[s + 1] = base[s] + host_counts[s];
      WX_CUDA(cudaMemcpyAsync(cnt, base.data(), shards * sizeof(unsigned long long), cudaMemcpyHostToDevice, st));
      Route<K> r;
      r.keys = keys + lo;
      r.values = L.values_in ? static_cast<const K*>(b.values_in) + lo : nullptr;
      r.ops = L.ops ? b.ops + lo : nullptr;
      r.hashes = L.hashes_in ? b.hashes + lo : nullptr;
      r.s_keys = reinterpret_cast<K*>(src + L.keys);
      r.s_values = reinterpret_cast<K*>(src + L.values);
      r.s_ops = reinterpret_cast<uint8_t*>(src + L.op);
      r.s_hashes = reinterpret_cast<uint64_t*>(src + L.hashes);
      r.s_outcomes = L.outcomes ? reinterpret_cast<uint8_t*>(src + L.outcome) : nullptr;
      r.s_index = reinterpret_cast<uint32_t*>(src + L.index);
      k_scatter<K><<<tiles_grid(m), kBlock, 0, st>>>(r, m, shards, cnt);
      WX_CUDA_LAUNCHED("k_scatter");
      WX_CUDA(cudaStreamSynchronize(st));
    }
    std::exception_ptr failure;
    try {
      set.for_each_shard([&](uint32_t s) {
        const uint64_t at = base[s], n = base[s + 1] - at;
        if (n == 0) return;
        Unit& u = set.unit(s);
        const int d = u.device();
        char* mine = d == source ? src : mirror.at(d);
        cudaStream_t us = static_cast<cudaStream_t>(u.stream());
        DeviceScope scope(d);
        if (d != source) copy_runs(mine, d, src, source, in, at, n, us);
        BatchResult r;
        std::exception_ptr failed;
        try {
          r = u.run(call, L.run(mine, at, n, kb, b.not_found), WX_MEM_DEVICE, us);
        } catch (...) {
          failed = std::current_exception();  // its processed elements' outcomes still go back
        }
        if (d != source) copy_runs(src, source, mine, d, out, at, n, us);
        WX_CUDA(cudaStreamSynchronize(us));
        per_shard[s].invalid += r.invalid;
        per_shard[s].full += r.full;
        if (failed) std::rethrow_exception(failed);
      });
    } catch (...) {
      failure = std::current_exception();
    }
    {
      DeviceScope scope(source);
      const bool values = L.values_out;
      k_gather<K><<<stream_grid(m), kBlock, 0, st>>>(
          m, reinterpret_cast<const uint32_t*>(src + L.index), reinterpret_cast<const K*>(src + L.values),
          reinterpret_cast<const uint8_t*>(src + L.outcome), L.ops ? reinterpret_cast<const uint8_t*>(src + L.op) : nullptr,
          reinterpret_cast<const uint64_t*>(src + L.hashes), values ? static_cast<K*>(b.values_out) + lo : nullptr,
          b.outcomes ? b.outcomes + lo : nullptr, L.hashes_out ? b.hashes_out + lo : nullptr);
      WX_CUDA_LAUNCHED("k_gather");
      if (failure && b.outcomes && lo + m < b.n)
        WX_CUDA(cudaMemsetAsync(b.outcomes + lo + m, WX_OUT_NONE, b.n - lo - m, st));
      WX_CUDA(cudaStreamSynchronize(st));
    }
    if (failure) {
      finish();
      std::rethrow_exception(failure);
    }
  }
  return finish();
}

uint64_t DevicePath::retrieve_all(ShardSet& set, void* keys, void* values, int source, cudaStream_t st) {
  const uint32_t shards = set.count();
  const uint64_t width = uint64_t(set.config().key_bits / 8);
  std::vector<uint64_t> at(shards + 1, 0), wrote(shards, 0);
  for (uint32_t s = 0; s < shards; ++s) at[s + 1] = at[s] + set.unit(s).table().size();
  {
    DeviceScope scope(source);
    WX_CUDA(cudaStreamSynchronize(st));  // work the caller queued on its stream comes first
  }
  set.for_each_shard([&](uint32_t s) {
    const uint64_t n = at[s + 1] - at[s];
    if (n == 0) return;
    Unit& u = set.unit(s);
    const int d = u.device();
    cudaStream_t us = static_cast<cudaStream_t>(u.stream());
    char* k = static_cast<char*>(keys) + at[s] * width;
    char* v = static_cast<char*>(values) + at[s] * width;
    DeviceScope scope(d);
    if (d == source) {
      wrote[s] = u.table().retrieve_all(k, v, us);
      WX_CUDA(cudaStreamSynchronize(us));
      return;
    }
    DeviceArray<char> tk(n * width), tv(n * width);
    wrote[s] = std::min(n, u.table().retrieve_all(tk.get(), tv.get(), us));
    WX_CUDA(cudaMemcpyPeerAsync(k, source, tk.get(), d, wrote[s] * width, us));
    WX_CUDA(cudaMemcpyPeerAsync(v, source, tv.get(), d, wrote[s] * width, us));
    WX_CUDA(cudaStreamSynchronize(us));
  });
  uint64_t total = 0;
  for (uint32_t s = 0; s < shards; ++s) {
    if (wrote[s] != at[s + 1] - at[s]) fail(WX_ERR_INTERNAL, "retrieve_all: a shard wrote a count other than its size");
    total += wrote[s];
  }
  return total;
}

BatchResult run_on_device(DevicePath& path, ShardSet& set, Call call, const Batch& b, int source, void* stream,
                          PerShard* per_shard) {
  cudaStream_t st = stream ? static_cast<cudaStream_t>(stream) : path.stream(source);
  return set.config().key_bits == 64 ? path.run<uint64_t>(set, call, b, source, st, per_shard)
                                     : path.run<uint32_t>(set, call, b, source, st, per_shard);
}

void* source_stream(DevicePath& path, int device) { return path.stream(device); }

uint64_t retrieve_all_on_device(DevicePath& path, ShardSet& set, void* keys, void* values, int source, void* stream) {
  cudaStream_t st = stream ? static_cast<cudaStream_t>(stream) : path.stream(source);
  return path.retrieve_all(set, keys, values, source, st);
}

}  // namespace wx::shard
