// Pipelined staging of host arrays for a device table (see device_staging.cuh).
#include "common/device_staging.cuh"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include "common/cuda_util.cuh"

namespace wx::dev {

namespace {

constexpr uint64_t kMinSplit = uint64_t(1) << 20;  // smaller copies are not worth waking threads

uint64_t round_up_pow2(uint64_t x) {
  uint64_t p = 1024;
  while (p < x) p <<= 1;
  return p;
}

// Runs f; a failure is swallowed (used only where an earlier failure is being reported).
template <typename F>
bool quietly(F&& f) {
  try {
    f();
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace

// One call's arrays and chunking.
struct Stager::Plan {
  Call call;
  const Batch& host;
  uint64_t chunk;   // elements per chunk
  uint64_t chunks;  // number of chunks
  bool values_in, values_out, hashes_in, hashes_out;

  Plan(Call c, const Batch& h, uint64_t per_chunk)
      : call(c), host(h), chunk(per_chunk), chunks((h.n + per_chunk - 1) / per_chunk) {
    values_in = h.values_in && (c == Call::insert || c == Call::insert_or_assign || c == Call::batch ||
                                c == Call::insert_hashed);
    values_out = h.values_out && (c == Call::find || c == Call::batch || c == Call::find_hashed);
    hashes_in = h.hashes && (c == Call::find_hashed || c == Call::insert_hashed);
    hashes_out = h.hashes_out && c == Call::hash_keys;
  }
  bool hashes() const { return hashes_in || hashes_out; }
  uint64_t begin(uint64_t c) const { return c * chunk; }
  uint64_t size(uint64_t c) const { return std::min(chunk, host.n - begin(c)); }
};

// Hand-over between the calling thread (table calls) and the copy thread (pack, copy in, unpack).
struct Stager::Pipe {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t queued = 0;    // chunks packed, their host-to-device copy queued (copy thread)
  uint64_t ran = 0;       // chunks run, their device-to-host copy queued (calling thread)
  uint64_t unpacked = 0;  // chunks whose results are in the caller's arrays (copy thread)
  bool stop = false;      // calling thread: `ran` is final
  std::exception_ptr copy_error;
};

Stager::Stager(int device, uint64_t elem_bytes, uint64_t chunk)
    : elem_bytes_(elem_bytes), device_(device), chunk_(chunk) {
  DeviceScope scope(device_);
  WX_CUDA(cudaStreamCreateWithFlags(&in_, cudaStreamNonBlocking));
  const cudaError_t e = cudaStreamCreateWithFlags(&out_, cudaStreamNonBlocking);
  if (e != cudaSuccess) {
    cudaStreamDestroy(in_);
    in_ = nullptr;
    WX_CUDA(e);
  }
}

Stager::~Stager() {
  DeviceScope scope(device_);
  if (in_) cudaStreamSynchronize(in_);
  if (out_) cudaStreamSynchronize(out_);
  release();
  if (in_) cudaStreamDestroy(in_);
  if (out_) cudaStreamDestroy(out_);
}

void Stager::release() {
  for (Slot& s : slots_) {
    if (s.host) cudaFreeHost(s.host);
    if (s.dev) cudaFree(s.dev);
    for (cudaEvent_t e : {s.in_done, s.kernel_done, s.out_done})
      if (e) cudaEventDestroy(e);
    s = Slot{};
  }
  cap_ = 0;
  nslots_ = 0;
  hashes_ = false;
}

void Stager::reserve(uint64_t elems, unsigned slots, bool hashes) {
  if (elems <= cap_ && slots <= nslots_ && (hashes_ || !hashes)) return;
  const uint64_t cap = std::max(cap_, round_up_pow2(elems));
  const unsigned n = std::max(nslots_, slots);
  const bool with_hashes = hashes_ || hashes;
  release();
  const uint64_t bytes = cap * (2 * elem_bytes_ + 2 + (with_hashes ? 8 : 0));
  bool pinned = true;
  for (unsigned i = 0; i < n; ++i) {
    Slot& s = slots_[i];
    cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&s.dev), bytes);
    if (e != cudaSuccess) {
      s.dev = nullptr;
      release();
      cuda_check(e, "cudaMalloc of staging buffers");
    }
    // Pinned host memory makes the copies asynchronous and fast; without it (the OS refused to
    // lock more memory) the copies go from the caller's pageable arrays, one chunk at a time.
    if (pinned && cudaHostAlloc(reinterpret_cast<void**>(&s.host), bytes, cudaHostAllocDefault) != cudaSuccess) {
      cudaGetLastError();
      s.host = nullptr;
      pinned = false;
    }
    for (cudaEvent_t* ev : {&s.in_done, &s.kernel_done, &s.out_done}) {
      e = cudaEventCreateWithFlags(ev, cudaEventDisableTiming);
      if (e != cudaSuccess) {
        *ev = nullptr;
        release();
        cuda_check(e, "cudaEventCreate of staging events");
      }
    }
  }
  if (!pinned)
    for (Slot& s : slots_)
      if (s.host) cudaFreeHost(s.host), s.host = nullptr;
  cap_ = cap;
  nslots_ = n;
  hashes_ = with_hashes;
}

void Stager::parallel_copy(void* dst, const void* src, uint64_t bytes) {
  if (bytes < 2 * kMinSplit) {
    std::memcpy(dst, src, bytes);
    return;
  }
  if (!copiers_) {
    // Half the cores, at most 8: a few threads saturate memory bandwidth into pinned buffers.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    copiers_ = std::make_unique<cpu::ThreadPool>(std::clamp(cores / 2, 1u, 8u));
  }
  const uint64_t parts = uint64_t(copiers_->size()) * 2;
  const uint64_t grain = std::max(kMinSplit, (bytes / parts + 4095) & ~uint64_t(4095));
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  copiers_->parallel_for(bytes, grain, [&](uint64_t b, uint64_t e, unsigned) { std::memcpy(d + b, s + b, e - b); });
}

void Stager::pack(const Plan& p, unsigned slot, uint64_t c) {
  if (!pinned()) return;
  const uint64_t off = p.begin(c), m = p.size(c);
  char* h = slots_[slot].host;
  parallel_copy(h, static_cast<const char*>(p.host.keys) + off * elem_bytes_, m * elem_bytes_);
  if (p.values_in)
    parallel_copy(h + cap_ * elem_bytes_, static_cast<const char*>(p.host.values_in) + off * elem_bytes_, m * elem_bytes_);
  if (p.host.ops) parallel_copy(h + cap_ * (2 * elem_bytes_), p.host.ops + off, m);
  if (p.hashes_in) parallel_copy(h + hashes_at(), p.host.hashes + off, m * 8);
}

void Stager::unpack(const Plan& p, unsigned slot, uint64_t c) {
  if (!pinned()) return;
  const uint64_t off = p.begin(c), m = p.size(c);
  const char* h = slots_[slot].host;
  if (p.values_out)
    parallel_copy(static_cast<char*>(p.host.values_out) + off * elem_bytes_, h + cap_ * elem_bytes_, m * elem_bytes_);
  if (p.host.outcomes) parallel_copy(p.host.outcomes + off, h + cap_ * (2 * elem_bytes_ + 1), m);
  if (p.hashes_out) parallel_copy(p.host.hashes_out + off, h + hashes_at(), m * 8);
}

void Stager::copy_in(const Plan& p, unsigned slot, uint64_t c, cudaStream_t s) {
  const uint64_t off = p.begin(c), m = p.size(c);
  const Slot& sl = slots_[slot];
  // From the pinned slot, or (no pinned memory) straight from the caller's arrays.
  const bool pin = pinned();
  auto src = [&](const void* caller, uint64_t slot_offset, uint64_t width) -> const void* {
    return pin ? static_cast<const void*>(sl.host + slot_offset) : static_cast<const char*>(caller) + off * width;
  };
  WX_CUDA(cudaMemcpyAsync(sl.dev, src(p.host.keys, 0, elem_bytes_), m * elem_bytes_, cudaMemcpyHostToDevice, s));
  if (p.values_in)
    WX_CUDA(cudaMemcpyAsync(sl.dev + cap_ * elem_bytes_, src(p.host.values_in, cap_ * elem_bytes_, elem_bytes_),
                            m * elem_bytes_, cudaMemcpyHostToDevice, s));
  if (p.host.ops)
    WX_CUDA(cudaMemcpyAsync(sl.dev + cap_ * (2 * elem_bytes_),
                            src(p.host.ops, cap_ * (2 * elem_bytes_), 1), m, cudaMemcpyHostToDevice, s));
  if (p.hashes_in)
    WX_CUDA(cudaMemcpyAsync(sl.dev + hashes_at(), src(p.host.hashes, hashes_at(), 8), m * 8, cudaMemcpyHostToDevice, s));
}

void Stager::copy_out(const Plan& p, unsigned slot, uint64_t c, cudaStream_t s) {
  const uint64_t off = p.begin(c), m = p.size(c);
  const Slot& sl = slots_[slot];
  const bool pin = pinned();
  auto dst = [&](void* caller, uint64_t slot_offset, uint64_t width) -> void* {
    return pin ? static_cast<void*>(sl.host + slot_offset) : static_cast<char*>(caller) + off * width;
  };
  if (p.values_out)
    WX_CUDA(cudaMemcpyAsync(dst(p.host.values_out, cap_ * elem_bytes_, elem_bytes_), sl.dev + cap_ * elem_bytes_,
                            m * elem_bytes_, cudaMemcpyDeviceToHost, s));
  if (p.host.outcomes) {
    const uint64_t at = cap_ * (2 * elem_bytes_ + 1);
    WX_CUDA(cudaMemcpyAsync(dst(p.host.outcomes, at, 1), sl.dev + at, m, cudaMemcpyDeviceToHost, s));
  }
  if (p.hashes_out)
    WX_CUDA(cudaMemcpyAsync(dst(p.host.hashes_out, hashes_at(), 8), sl.dev + hashes_at(), m * 8,
                            cudaMemcpyDeviceToHost, s));
}

Batch Stager::device_batch(const Plan& p, unsigned slot, uint64_t c) const {
  char* dev = slots_[slot].dev;
  Batch d;
  d.n = p.size(c);
  d.not_found = p.host.not_found;
  d.stream = p.host.stream;
  d.keys = dev;
  void* values = dev + cap_ * elem_bytes_;
  d.values_in = p.values_in ? values : nullptr;
  d.values_out = p.values_out ? values : nullptr;
  if (p.host.ops) d.ops = reinterpret_cast<const uint8_t*>(dev + cap_ * (2 * elem_bytes_));
  if (p.host.outcomes) d.outcomes = reinterpret_cast<uint8_t*>(dev + cap_ * (2 * elem_bytes_ + 1));
  if (p.hashes_in) d.hashes = reinterpret_cast<const uint64_t*>(dev + hashes_at());
  if (p.hashes_out) d.hashes_out = reinterpret_cast<uint64_t*>(dev + hashes_at());
  return d;
}

void Stager::mark_not_run(const Plan& p, uint64_t from_chunk) {
  if (!p.host.outcomes || from_chunk >= p.chunks) return;
  const uint64_t b = p.begin(from_chunk);
  std::memset(p.host.outcomes + b, WX_OUT_NONE, p.host.n - b);
}

BatchResult Stager::run(Table& table, Call call, const Batch& host) {
  DeviceScope scope(device_);
  const Plan p(call, host, chunk_);
  reserve(std::min(host.n, chunk_), p.chunks > 1 ? kMaxSlots : 1, p.hashes());
  return pinned() && p.chunks > 1 ? run_pipelined(table, p) : run_serial(table, p);
}

// One chunk after the other on the table's stream: small calls, and calls without pinned memory.
BatchResult Stager::run_serial(Table& table, const Plan& p) {
  cudaStream_t st = static_cast<cudaStream_t>(p.host.stream);
  BatchResult total;
  uint64_t done = 0;  // chunks whose results reached the caller
  try {
    for (uint64_t c = 0; c < p.chunks; ++c) {
      pack(p, 0, c);
      copy_in(p, 0, c, st);
      BatchResult r;
      try {
        r = run_call(table, p.call, device_batch(p, 0, c));
      } catch (...) {
        // The elements this chunk processed keep their outcomes (e.g. FULL after out of memory).
        if (quietly([&] {
              copy_out(p, 0, c, st);
              WX_CUDA(cudaStreamSynchronize(st));
              unpack(p, 0, c);
            }))
          done = c + 1;
        throw;
      }
      total.invalid += r.invalid;
      total.full += r.full;
      copy_out(p, 0, c, st);
      WX_CUDA(cudaStreamSynchronize(st));
      unpack(p, 0, c);
      done = c + 1;
    }
  } catch (...) {
    quietly([&] { WX_CUDA(cudaStreamSynchronize(st)); });
    mark_not_run(p, done);
    throw;
  }
  return total;
}

void Stager::copy_thread(const Plan& p, Pipe& pipe) {
  try {
    DeviceScope scope(device_);
    const uint64_t lag = nslots_ - 1;  // chunks packed ahead of the one being unpacked
    for (uint64_t j = 0; j < p.chunks + lag; ++j) {
      bool stopped;
      {
        std::lock_guard<std::mutex> lock(pipe.mu);
        stopped = pipe.stop;
      }
      if (j < p.chunks && !stopped) {
        // Slot j % nslots_ is free: chunk j - nslots_ was unpacked by this thread already.
        const unsigned s = unsigned(j % nslots_);
        pack(p, s, j);
        copy_in(p, s, j, in_);
        WX_CUDA(cudaEventRecord(slots_[s].in_done, in_));
        std::lock_guard<std::mutex> lock(pipe.mu);
        pipe.queued = j + 1;
        pipe.cv.notify_all();
      }
      if (j < lag) continue;
      const uint64_t u = j - lag;
      {
        std::unique_lock<std::mutex> lock(pipe.mu);
        pipe.cv.wait(lock, [&] { return pipe.ran > u || pipe.stop; });
        if (pipe.ran <= u) return;  // the calling thread stopped before chunk u
      }
      WX_CUDA(cudaEventSynchronize(slots_[u % nslots_].out_done));
      unpack(p, unsigned(u % nslots_), u);
      std::lock_guard<std::mutex> lock(pipe.mu);
      pipe.unpacked = u + 1;
    }
  } catch (...) {
    std::lock_guard<std::mutex> lock(pipe.mu);
    pipe.copy_error = std::current_exception();
    pipe.cv.notify_all();
  }
}

// Chunks overlap: the copy thread packs and uploads chunk i+1.. while the table runs chunk i, and
// unpacks chunk i-1.. once its results are back.
BatchResult Stager::run_pipelined(Table& table, const Plan& p) {
  cudaStream_t st = static_cast<cudaStream_t>(p.host.stream);
  Pipe pipe;
  std::thread copier;
  try {
    copier = std::thread([&] { copy_thread(p, pipe); });
  } catch (const std::system_error&) {
    return run_serial(table, p);  // no thread to be had: still correct, only slower
  }
  BatchResult total;
  std::exception_ptr failure;
  for (uint64_t i = 0; i < p.chunks && !failure; ++i) {
    {
      std::unique_lock<std::mutex> lock(pipe.mu);
      pipe.cv.wait(lock, [&] { return pipe.queued > i || pipe.copy_error; });
      if (pipe.copy_error) break;  // results of further chunks could not be unpacked
    }
    const unsigned s = unsigned(i % nslots_);
    bool results_queued = false;
    try {
      WX_CUDA(cudaStreamWaitEvent(st, slots_[s].in_done, 0));
      try {
        const BatchResult r = run_call(table, p.call, device_batch(p, s, i));
        total.invalid += r.invalid;
        total.full += r.full;
      } catch (...) {
        failure = std::current_exception();  // its processed elements' outcomes still go back
      }
      WX_CUDA(cudaEventRecord(slots_[s].kernel_done, st));
      WX_CUDA(cudaStreamWaitEvent(out_, slots_[s].kernel_done, 0));
      copy_out(p, s, i, out_);
      WX_CUDA(cudaEventRecord(slots_[s].out_done, out_));
      results_queued = true;
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(pipe.mu);
    if (results_queued) pipe.ran = i + 1;
    pipe.cv.notify_all();
  }
  {
    std::lock_guard<std::mutex> lock(pipe.mu);
    pipe.stop = true;
    pipe.cv.notify_all();
  }
  copier.join();
  // Nothing may still be copying into our buffers when the next call starts.
  const cudaError_t e_in = cudaStreamSynchronize(in_), e_out = cudaStreamSynchronize(out_);
  if (!failure && pipe.copy_error) failure = pipe.copy_error;
  if (!failure && (e_in != cudaSuccess || e_out != cudaSuccess))
    failure = std::make_exception_ptr(Error(status_of(e_in != cudaSuccess ? e_in : e_out),
                                            std::string("staging copies: ") +
                                                cudaGetErrorString(e_in != cudaSuccess ? e_in : e_out)));
  if (failure) {
    cudaGetLastError();
    mark_not_run(p, pipe.unpacked);
    std::rethrow_exception(failure);
  }
  return total;
}

}  // namespace wx::dev
