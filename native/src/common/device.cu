// Device services for the C API (CUDA builds): queries, allocations, copies and host staging.
#include <algorithm>
#include <string>
#include <thread>

#include "common/cuda_util.cuh"
#include "common/device.hpp"
#include "common/host_transfer.cuh"
#include "common/device_staging.cuh"

namespace wx::dev {

int count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // no driver / no device: not an error for a query
    return 0;
  }
  return n;
}

static void check_ordinal(int device) {
  int n = count();
  if (n == 0) fail(WX_ERR_NO_DEVICE, unavailable_reason());
  if (device < 0 || device >= n)
    fail(WX_ERR_INVALID_ARGUMENT,
         "device " + std::to_string(device) + " does not exist (" + std::to_string(n) + " found)");
}

std::string name(int device) {
  check_ordinal(device);
  cudaDeviceProp p;
  WX_CUDA(cudaGetDeviceProperties(&p, device));
  return p.name;
}

void memory(int device, uint64_t* free_bytes, uint64_t* total_bytes) {
  check_ordinal(device);
  DeviceScope scope(device);
  size_t f = 0, t = 0;
  WX_CUDA(cudaMemGetInfo(&f, &t));
  *free_bytes = f;
  *total_bytes = t;
}

void properties(int device, int32_t* cc, int32_t* sms) {
  check_ordinal(device);
  cudaDeviceProp p;
  WX_CUDA(cudaGetDeviceProperties(&p, device));
  *cc = p.major * 10 + p.minor;
  *sms = p.multiProcessorCount;
}

void versions(int32_t* runtime, int32_t* driver) {
  int r = 0, d = 0;
  if (cudaRuntimeGetVersion(&r) != cudaSuccess) r = 0;
  if (cudaDriverGetVersion(&d) != cudaSuccess) d = 0;
  cudaGetLastError();
  *runtime = r;
  *driver = d;
}

void* alloc(int device, uint64_t bytes) {
  check_ordinal(device);
  DeviceScope scope(device);
  void* p = nullptr;
  WX_CUDA(cudaMalloc(&p, bytes));
  return p;
}

void free(void* p) { WX_CUDA(cudaFree(p)); }

void copy(void* dst, const void* src, uint64_t bytes) {
  WX_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
  // From pageable host memory cudaMemcpy may return before the DMA lands; callers expect the data
  // in place when wx_copy returns.
  WX_CUDA(cudaStreamSynchronize(cudaStreamLegacy));
}

void* host_alloc(uint64_t bytes) {
  if (count() == 0) fail(WX_ERR_NO_DEVICE, unavailable_reason());
  void* p = nullptr;
  WX_CUDA(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
  return p;
}

void host_free(void* p) { WX_CUDA(cudaFreeHost(p)); }

void host_register(void* p, uint64_t bytes) {
  if (count() == 0) fail(WX_ERR_NO_DEVICE, unavailable_reason());
  WX_CUDA(cudaHostRegister(p, bytes, cudaHostRegisterPortable));
}

void host_unregister(void* p) { WX_CUDA(cudaHostUnregister(p)); }

static bool page_locked_byte(const void* p) {
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

bool is_page_locked(const void* p, uint64_t bytes) {
  if (!p || bytes == 0) return false;
  return page_locked_byte(p) && page_locked_byte(static_cast<const char*>(p) + bytes - 1);
}

unsigned staging_threads(int32_t t) {
  if (t > 0) return unsigned(t);
  // Every core, at most 16: the host copies bound a staged call, and the caller waits for it.
  return std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
}

void* stream_create(int device) {
  DeviceScope scope(device);
  cudaStream_t s;
  // A blocking stream: work the caller queued on the legacy default stream (copies into the
  // buffers it hands us) is ordered before our kernels.
  WX_CUDA(cudaStreamCreate(&s));
  return s;
}

void stream_destroy(void* stream) {
  if (stream) cudaStreamDestroy(static_cast<cudaStream_t>(stream));
}

void stream_sync(void* stream) {
  if (stream) WX_CUDA(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
}

int device_of(const void* p) {
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}

static bool is_device_byte(const void* p, int device) { return device >= 0 && device_of(p) == device; }

void check_device_range(const void* p, uint64_t bytes, int device, const char* what) {
  if (bytes == 0) return;
  const char* c = static_cast<const char*>(p);
  if (!is_device_byte(c, device) || !is_device_byte(c + bytes - 1, device))
    fail(WX_ERR_INVALID_ARGUMENT, std::string(what) + " is flagged WX_MEM_DEVICE but is not device memory" +
                                      (device >= 0 ? " of device " + std::to_string(device) : std::string()) +
                                      " over its whole length");
}

void StagerDelete::operator()(Stager* s) const { delete s; }

static Stager& stager_for(const wx_config& config, StagerPtr& stager) {
  if (!stager) {
    DeviceScope scope(config.device);
    stager.reset(new Stager(config.device, uint64_t(config.key_bits / 8), config.staging_chunk,
                            staging_threads(config.threads)));
  }
  return *stager;
}

BatchResult run_staged(Table& table, Call call, const Batch& host, const wx_config& config, StagerPtr& stager) {
  return stager_for(config, stager).run(table, call, host);
}

BatchResult run_staged(const DeviceCall& device_call, Call call, const Batch& host, const wx_config& config,
                       StagerPtr& stager) {
  return stager_for(config, stager).run(device_call, call, host);
}

uint64_t retrieve_all_to_host(Table& table, void* keys, void* values, uint64_t count, uint32_t elem_bytes,
                              int device, void* stream) {
  DeviceScope scope(device);
  DeviceArray<char> k(count * elem_bytes), v(count * elem_bytes);
  uint64_t n = table.retrieve_all(k.get(), v.get(), stream);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (keys) download(device, keys, k.get(), n * elem_bytes, s, staging_threads(0));
  if (values) download(device, values, v.get(), n * elem_bytes, s, staging_threads(0));
  WX_CUDA(cudaStreamSynchronize(s));
  return n;
}

}  // namespace wx::dev
