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
#include <vector>

#include "common/cuda_util.cuh"
#include "common/device.hpp"

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

// One array of a call as the staging sees it.
struct StagedArray {
  char* caller = nullptr;  // the caller's array; nullptr: not part of this call
  uint64_t width = 0;      // bytes per element
  uint64_t slot_at = 0;    // byte offset of its region in a slot
  bool direct = false;     // page-locked: chunks go straight between it and the device

  bool packed() const { return caller && !direct; }
};

// One call's arrays and chunking. Inputs: keys, values, ops, hashes; outputs: values, outcomes,
// hashes (values and hashes share their slot region between input and output).
struct Stager::Plan {
  enum { kKeys, kValuesIn, kOps, kHashesIn, kValuesOut, kOutcomes, kHashesOut, kArrays };
  static constexpr int kFirstOut = kValuesOut;

  Call call;
  const Batch& host;
  uint64_t chunk;   // elements per chunk
  uint64_t chunks;  // number of chunks
  bool hashes;      // the call moves hashes
  StagedArray a[kArrays];

  Plan(Call c, const Batch& h, uint64_t per_chunk)
      : call(c), host(h), chunk(per_chunk), chunks((h.n + per_chunk - 1) / per_chunk) {
    const bool values_in = h.values_in && (c == Call::insert || c == Call::insert_or_assign || c == Call::batch ||
                                           c == Call::insert_hashed);
    const bool values_out = h.values_out && (c == Call::find || c == Call::batch || c == Call::find_hashed);
    const bool hashes_in = h.hashes && (c == Call::find_hashed || c == Call::insert_hashed);
    const bool hashes_out = h.hashes_out && c == Call::hash_keys;
    hashes = hashes_in || hashes_out;
    a[kKeys].caller = static_cast<char*>(const_cast<void*>(h.keys));
    a[kValuesIn].caller = values_in ? static_cast<char*>(const_cast<void*>(h.values_in)) : nullptr;
    a[kOps].caller = reinterpret_cast<char*>(const_cast<uint8_t*>(h.ops));
    a[kHashesIn].caller = hashes_in ? reinterpret_cast<char*>(const_cast<uint64_t*>(h.hashes)) : nullptr;
    a[kValuesOut].caller = values_out ? static_cast<char*>(h.values_out) : nullptr;
    a[kOutcomes].caller = reinterpret_cast<char*>(h.outcomes);
    a[kHashesOut].caller = hashes_out ? reinterpret_cast<char*>(h.hashes_out) : nullptr;
  }

  // Widths and which arrays are page-locked (before the slots are reserved: they need no pinned half
  // when every array is).
  void classify(uint64_t elem) {
    const uint64_t width[kArrays] = {elem, elem, 1, 8, elem, 1, 8};
    for (int i = 0; i < kArrays; ++i) {
      a[i].width = width[i];
      a[i].direct = a[i].caller && is_page_locked(a[i].caller, host.n * width[i]);
    }
  }
  // Slot regions, in slots of cap elements.
  void place(uint64_t cap, uint64_t elem, uint64_t hashes_at) {
    const uint64_t at[kArrays] = {0, cap * elem, cap * 2 * elem, hashes_at, cap * elem, cap * (2 * elem + 1), hashes_at};
    for (int i = 0; i < kArrays; ++i) a[i].slot_at = at[i];
  }
  // Every array of the call is page-locked: nothing to pack, no pinned slot needed.
  bool all_direct() const {
    for (const StagedArray& x : a)
      if (x.packed()) return false;
    return true;
  }
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

Stager::Stager(int device, uint64_t elem_bytes, uint64_t chunk, unsigned threads)
    : elem_bytes_(elem_bytes), device_(device), chunk_(chunk), threads_(std::max(threads, 1u)) {
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
  cap_ = cap;
  nslots_ = n;
  hashes_ = with_hashes;
  for (unsigned i = 0; i < n; ++i) {
    Slot& s = slots_[i];
    cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&s.dev), slot_bytes());
    if (e != cudaSuccess) {
      s.dev = nullptr;
      release();
      cuda_check(e, "cudaMalloc of staging buffers");
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
}

void Stager::parallel_copy(const std::vector<cpu::Copy>& copies) {
  uint64_t total = 0;
  for (const cpu::Copy& c : copies) total += c.bytes;
  if (total < 2 * kMinSplit || threads_ == 1) {
    for (const cpu::Copy& c : copies) std::memcpy(c.dst, c.src, c.bytes);
    return;
  }
  if (!copiers_) copiers_ = std::make_unique<cpu::ThreadPool>(threads_);
  // Pieces of about total / (2 * threads) bytes, so every thread gets work.
  const uint64_t grain = std::max(kMinSplit / 4, (total / (2 * copiers_->size()) + 4095) & ~uint64_t(4095));
  cpu::parallel_copy(*copiers_, copies, grain);
}

const void* Stager::in_src(const Plan& p, int i, unsigned slot, uint64_t c) const {
  const StagedArray& x = p.a[i];
  if (x.direct || !pinned()) return x.caller + p.begin(c) * x.width;
  return lease_[slot] + x.slot_at;
}

void* Stager::out_dst(const Plan& p, int i, unsigned slot, uint64_t c) const {
  const StagedArray& x = p.a[i];
  if (x.direct || !pinned()) return x.caller + p.begin(c) * x.width;
  return lease_[slot] + x.slot_at;
}

void Stager::pack(const Plan& p, unsigned slot, uint64_t c) {
  if (!pinned()) return;
  std::vector<cpu::Copy> copies;
  for (int i = 0; i < Plan::kFirstOut; ++i) {
    const StagedArray& x = p.a[i];
    if (x.packed()) copies.push_back({lease_[slot] + x.slot_at, x.caller + p.begin(c) * x.width, p.size(c) * x.width});
  }
  parallel_copy(copies);
}

void Stager::unpack(const Plan& p, unsigned slot, uint64_t c) {
  if (!pinned()) return;
  std::vector<cpu::Copy> copies;
  for (int i = Plan::kFirstOut; i < Plan::kArrays; ++i) {
    const StagedArray& x = p.a[i];
    if (x.packed()) copies.push_back({x.caller + p.begin(c) * x.width, lease_[slot] + x.slot_at, p.size(c) * x.width});
  }
  parallel_copy(copies);
}

void Stager::copy_in(const Plan& p, unsigned slot, uint64_t c, cudaStream_t s) {
  for (int i = 0; i < Plan::kFirstOut; ++i) {
    const StagedArray& x = p.a[i];
    if (x.caller)
      WX_CUDA(cudaMemcpyAsync(slots_[slot].dev + x.slot_at, in_src(p, i, slot, c), p.size(c) * x.width,
                              cudaMemcpyHostToDevice, s));
  }
}

void Stager::copy_out(const Plan& p, unsigned slot, uint64_t c, cudaStream_t s) {
  for (int i = Plan::kFirstOut; i < Plan::kArrays; ++i) {
    const StagedArray& x = p.a[i];
    if (x.caller)
      WX_CUDA(cudaMemcpyAsync(out_dst(p, i, slot, c), slots_[slot].dev + x.slot_at, p.size(c) * x.width,
                              cudaMemcpyDeviceToHost, s));
  }
}

Batch Stager::device_batch(const Plan& p, unsigned slot, uint64_t c) const {
  char* dev = slots_[slot].dev;
  Batch d;
  d.n = p.size(c);
  d.not_found = p.host.not_found;
  d.stream = p.host.stream;
  auto at = [&](int i) -> char* { return p.a[i].caller ? dev + p.a[i].slot_at : nullptr; };
  d.keys = at(Plan::kKeys);
  d.values_in = at(Plan::kValuesIn);
  d.values_out = at(Plan::kValuesOut);
  d.ops = reinterpret_cast<const uint8_t*>(at(Plan::kOps));
  d.outcomes = reinterpret_cast<uint8_t*>(at(Plan::kOutcomes));
  d.hashes = reinterpret_cast<const uint64_t*>(at(Plan::kHashesIn));
  d.hashes_out = reinterpret_cast<uint64_t*>(at(Plan::kHashesOut));
  return d;
}

void Stager::mark_not_run(const Plan& p, uint64_t from_chunk) {
  if (!p.host.outcomes || from_chunk >= p.chunks) return;
  const uint64_t b = p.begin(from_chunk);
  std::memset(p.host.outcomes + b, WX_OUT_NONE, p.host.n - b);
}

BatchResult Stager::run(Table& table, Call call, const Batch& host) {
  return run([&table](Call c, const Batch& d) { return run_call(table, c, d); }, call, host);
}

BatchResult Stager::run(const DeviceCall& device_call, Call call, const Batch& host) {
  DeviceScope scope(device_);
  Plan p(call, host, chunk_);
  p.classify(elem_bytes_);
  reserve(std::min(host.n, chunk_), p.chunks > 1 ? kMaxSlots : 1, p.hashes);
  p.place(cap_, elem_bytes_, hashes_at());
  // Pinned halves for the arrays to pack, lent for this call. Without them (the OS refused to lock more
  // memory) the copies go from the caller's pageable arrays, one chunk at a time. Both runs return only
  // once no copy uses them.
  const unsigned used = p.chunks > 1 ? nslots_ : 1;  // a single chunk runs in slot 0
  if (!p.all_direct()) lease_ = PinnedLease(used, slot_bytes());
  struct GiveBack {
    PinnedLease& lease;
    ~GiveBack() { lease = PinnedLease(); }
  } give_back{lease_};
  return (pinned() || p.all_direct()) && p.chunks > 1 ? run_pipelined(device_call, p) : run_serial(device_call, p);
}

// One chunk after the other on the table's stream: small calls, and calls without pinned memory.
BatchResult Stager::run_serial(const DeviceCall& device_call, const Plan& p) {
  cudaStream_t st = static_cast<cudaStream_t>(p.host.stream);
  BatchResult total;
  uint64_t done = 0;  // chunks whose results reached the caller
  try {
    for (uint64_t c = 0; c < p.chunks; ++c) {
      pack(p, 0, c);
      copy_in(p, 0, c, st);
      BatchResult r;
      try {
        r = device_call(p.call, device_batch(p, 0, c));
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
BatchResult Stager::run_pipelined(const DeviceCall& device_call, const Plan& p) {
  cudaStream_t st = static_cast<cudaStream_t>(p.host.stream);
  Pipe pipe;
  std::thread copier;
  try {
    copier = std::thread([&] { copy_thread(p, pipe); });
  } catch (const std::system_error&) {
    return run_serial(device_call, p);  // no thread to be had: still correct, only slower
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
        const BatchResult r = device_call(p.call, device_batch(p, s, i));
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
