// Staging of host arrays for one device table: reused device buffers, pinned host buffers lent by the
// process's pool for each call (pinned_pool.cuh), two copy streams and a few copy threads, so that a
// bulk call with WX_MEM_HOST arrays overlaps the host-side copies, the PCIe transfers and the kernels
// of consecutive chunks.
//
// Per chunk i (slot i % slots): copy threads pack the caller's input into pinned memory and queue the
// host-to-device copy (in-stream); the calling thread runs the table call on the table's stream once
// that copy is done and queues the device-to-host copy of the results (out-stream); the copy threads
// unpack the results into the caller's arrays. Chunks i+1.. are packed while chunk i runs. A caller's
// array that is itself page-locked skips packing: its chunks are copied straight to and from it.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "common/device.hpp"
#include "common/pinned_pool.cuh"
#include "common/table.hpp"
#include "cpu/parallel_copy.hpp"
#include "cpu/thread_pool.hpp"

namespace wx::dev {

class Stager {
 public:
  // elem_bytes: width of the table's keys and of its values (4 or 8); chunk: elements per chunk
  // (wx_config staging_chunk); threads: copy threads (staging_threads of wx_config threads).
  Stager(int device, uint64_t elem_bytes, uint64_t chunk, unsigned threads);
  ~Stager();
  Stager(const Stager&) = delete;
  Stager& operator=(const Stager&) = delete;

  // Runs `call` on `table` with host arrays; returns when every result is in the caller's arrays.
  // On a failure the elements of chunks that ran keep their outcomes, those after it get WX_OUT_NONE.
  BatchResult run(Table& table, Call call, const Batch& host);
  // The same with each chunk run by `device_call`.
  BatchResult run(const DeviceCall& device_call, Call call, const Batch& host);

  uint64_t chunk() const { return chunk_; }

 private:
  struct Slot {
    char* dev = nullptr;  // keys | values | ops | outcomes [| hashes], cap_ elements each
    cudaEvent_t in_done = nullptr, kernel_done = nullptr, out_done = nullptr;
  };
  struct Plan;  // one call's arrays and chunking
  struct Pipe;  // hand-over between the calling thread and the copy thread

  // Device slots of at least `elems` elements; hashes: with room for 8-byte hashes (pre-hashed calls).
  void reserve(uint64_t elems, unsigned slots, bool hashes);
  void release();
  bool pinned() const { return !lease_.empty(); }
  uint64_t hashes_at() const { return cap_ * (2 * elem_bytes_ + 2); }  // byte offset of a slot's hashes
  uint64_t slot_bytes() const { return hashes_at() + (hashes_ ? 8 * cap_ : 0); }

  void pack(const Plan& p, unsigned slot, uint64_t chunk);
  void unpack(const Plan& p, unsigned slot, uint64_t chunk);
  void copy_in(const Plan& p, unsigned slot, uint64_t chunk, cudaStream_t s);
  void copy_out(const Plan& p, unsigned slot, uint64_t chunk, cudaStream_t s);
  Batch device_batch(const Plan& p, unsigned slot, uint64_t chunk) const;
  // The copies of one chunk (its packed inputs, or its unpacked results), spread over the copy threads.
  void parallel_copy(const std::vector<cpu::Copy>& copies);
  // Where chunk c of a caller's array goes to or comes from: its slot region, or (page-locked array,
  // or no pinned slots) the caller's memory itself.
  const void* in_src(const Plan& p, int a, unsigned slot, uint64_t c) const;
  void* out_dst(const Plan& p, int a, unsigned slot, uint64_t c) const;
  void mark_not_run(const Plan& p, uint64_t from_chunk);

  BatchResult run_serial(const DeviceCall& device_call, const Plan& p);
  BatchResult run_pipelined(const DeviceCall& device_call, const Plan& p);
  void copy_thread(const Plan& p, Pipe& pipe);

  static constexpr unsigned kMaxSlots = 3;

  const uint64_t elem_bytes_;  // bytes of one key, and of one value (tables have one width)
  int device_;
  uint64_t chunk_;
  unsigned threads_;
  uint64_t cap_ = 0;  // elements per slot
  bool hashes_ = false;  // slots have the hashes region
  unsigned nslots_ = 0;
  Slot slots_[kMaxSlots];
  PinnedLease lease_;  // during a call with arrays to pack: slot i's pinned half, laid out as its dev
  cudaStream_t in_ = nullptr, out_ = nullptr;
  std::unique_ptr<cpu::ThreadPool> copiers_;
};

}  // namespace wx::dev
