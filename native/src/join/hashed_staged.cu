// Pre-hashed table calls on a device table given host arrays (see join.hpp): whole-array staging,
// since these calls exist for measured, repeated probes where the caller keeps columns on the device.
#include "common/cuda_util.cuh"
#include "join/join.hpp"

namespace wx::join {

BatchResult run_hashed_staged(Table& table, HashedOp op, const void* keys, const uint64_t* hashes, uint64_t* hashes_out,
                              void* values, uint8_t* outcomes, uint64_t n, uint64_t not_found, int device, void* stream) {
  DeviceScope scope(device);
  cudaStream_t st = static_cast<cudaStream_t>(stream);
  DeviceArray<uint32_t> k(n), v(op == HashedOp::hash ? 0 : n);
  DeviceArray<uint64_t> h(n);
  DeviceArray<uint8_t> o(op == HashedOp::insert && outcomes ? n : 0);
  WX_CUDA(cudaMemcpyAsync(k.get(), keys, n * 4, cudaMemcpyHostToDevice, st));
  if (op != HashedOp::hash) WX_CUDA(cudaMemcpyAsync(h.get(), hashes, n * 8, cudaMemcpyHostToDevice, st));
  if (op == HashedOp::insert && values) WX_CUDA(cudaMemcpyAsync(v.get(), values, n * 4, cudaMemcpyHostToDevice, st));
  Batch b;
  b.keys = k.get();
  b.n = n;
  b.stream = st;
  BatchResult r;
  switch (op) {
    case HashedOp::hash:
      table.hash_keys(k.get(), h.get(), n, st);
      WX_CUDA(cudaMemcpyAsync(hashes_out, h.get(), n * 8, cudaMemcpyDeviceToHost, st));
      break;
    case HashedOp::find:
      b.values_out = v.get();
      b.not_found = not_found;
      r = table.find_hashed(b, h.get());
      WX_CUDA(cudaMemcpyAsync(values, v.get(), n * 4, cudaMemcpyDeviceToHost, st));
      break;
    case HashedOp::insert:
      b.values_in = values ? v.get() : nullptr;
      b.outcomes = o.get();
      r = table.insert_hashed(b, h.get());
      if (outcomes) WX_CUDA(cudaMemcpyAsync(outcomes, o.get(), n, cudaMemcpyDeviceToHost, st));
      break;
  }
  WX_CUDA(cudaStreamSynchronize(st));
  return r;
}

}  // namespace wx::join
