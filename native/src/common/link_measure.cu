// wx_link_measure: what the host-device path can carry, so benchmarks can state the bound of each
// memory path (page-locked DMA, staged host copies) next to what a call reached.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

#include "common/cuda_util.cuh"
#include "common/device.hpp"
#include "common/host_transfer.cuh"
#include "cpu/parallel_copy.hpp"
#include "cpu/thread_pool.hpp"

namespace wx::dev {

namespace {

constexpr int kReps = 3;  // best of: the first copy of a fresh buffer pays for mapping it

struct PinnedBuffer {
  void* p = nullptr;
  explicit PinnedBuffer(uint64_t bytes) { WX_CUDA(cudaHostAlloc(&p, bytes, cudaHostAllocDefault)); }
  ~PinnedBuffer() {
    if (p) cudaFreeHost(p);
  }
};

struct Event {
  cudaEvent_t e = nullptr;
  Event() { WX_CUDA(cudaEventCreate(&e)); }
  ~Event() {
    if (e) cudaEventDestroy(e);
  }
};

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { WX_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~Stream() {
    if (s) cudaStreamDestroy(s);
  }
};

double gbps(uint64_t bytes, double ms) { return ms > 0 ? double(bytes) / (ms * 1e6) : 0; }

// Best rate of one DMA direction: dst <- src of `bytes` on stream s.
double dma_rate(void* dst, const void* src, uint64_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
  Event a, b;
  double best = 0;
  for (int r = 0; r < kReps; ++r) {
    WX_CUDA(cudaEventRecord(a.e, s));
    WX_CUDA(cudaMemcpyAsync(dst, src, bytes, kind, s));
    WX_CUDA(cudaEventRecord(b.e, s));
    WX_CUDA(cudaEventSynchronize(b.e));
    float ms = 0;
    WX_CUDA(cudaEventElapsedTime(&ms, a.e, b.e));
    best = std::max(best, gbps(bytes, ms));
  }
  return best;
}

// Both directions at once on two streams: bytes moved in total per second.
double both_rate(void* dev_in, const void* host_in, void* host_out, const void* dev_out, uint64_t bytes) {
  Stream up, down;
  double best = 0;
  for (int r = 0; r < kReps; ++r) {
    WX_CUDA(cudaDeviceSynchronize());
    const auto t0 = std::chrono::steady_clock::now();
    WX_CUDA(cudaMemcpyAsync(dev_in, host_in, bytes, cudaMemcpyHostToDevice, up.s));
    WX_CUDA(cudaMemcpyAsync(host_out, dev_out, bytes, cudaMemcpyDeviceToHost, down.s));
    WX_CUDA(cudaStreamSynchronize(up.s));
    WX_CUDA(cudaStreamSynchronize(down.s));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, gbps(2 * bytes, ms));
  }
  return best;
}

// Ordinary -> page-locked host memory with `threads` threads, as a transfer's copies run
// (common/host_transfer.cu): the source streamed slot by slot into a ring of reused page-locked
// slots, each slot's copy spread over the threads.
double host_copy_rate(const char* src, char* ring, uint64_t bytes, unsigned threads) {
  cpu::ThreadPool pool(threads);
  double best = 0;
  for (int r = 0; r < kReps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (uint64_t at = 0, k = 0; at < bytes; at += kTransferSlotBytes, ++k) {
      char* d = ring + (k % kTransferSlots) * kTransferSlotBytes;
      cpu::parallel_copy(pool, {{d, src + at, std::min(kTransferSlotBytes, bytes - at)}}, kTransferCopyGrain);
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, gbps(bytes, ms));
  }
  return best;
}

}  // namespace

wx_link_rates measure_link(int device, uint64_t bytes) {
  if (count() == 0) fail(WX_ERR_NO_DEVICE, unavailable_reason());
  DeviceScope scope(device);
  PinnedBuffer host_a(bytes), host_b(bytes);
  DeviceArray<char> dev_a(bytes), dev_b(bytes);
  Stream s;
  wx_link_rates r{};
  r.host_to_device = dma_rate(dev_a.get(), host_a.p, bytes, cudaMemcpyHostToDevice, s.s);
  r.device_to_host = dma_rate(host_b.p, dev_b.get(), bytes, cudaMemcpyDeviceToHost, s.s);
  r.both_directions = both_rate(dev_a.get(), host_a.p, host_b.p, dev_b.get(), bytes);
  std::unique_ptr<char[]> src(new char[bytes]);
  std::memset(src.get(), 1, bytes);  // touched: a fresh Java array is zeroed before a call reads it
  PinnedBuffer ring(kTransferSlots * kTransferSlotBytes);
  // Tables and joins copy with the same threads: one measurement serves both fields.
  const unsigned threads = staging_threads(0);
  r.host_copy = host_copy_rate(src.get(), static_cast<char*>(ring.p), bytes, threads);
  r.host_copy_threads = int32_t(threads);
  r.host_copy_join = r.host_copy;
  r.host_copy_join_threads = r.host_copy_threads;
  return r;
}

}  // namespace wx::dev
