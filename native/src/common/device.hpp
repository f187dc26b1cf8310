// Device services the C API needs: queries, allocations, copies, staging of host arrays for
// device tables. Implemented in common/device.cu (CUDA builds) and nocuda/device_absent.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/table.hpp"

namespace wx::dev {

int count();  // 0 where no driver or device
// Why no device can run this build's kernels, "" when one can: no driver, a driver older than the
// CUDA runtime linked in, no device, or only GPUs older than the oldest architecture built
// (common/reach.cu).
std::string unavailable_reason();
// Why `device` (an existing ordinal) cannot run this build's kernels, "" when it can.
std::string unusable_reason(int device);
std::string name(int device);
void memory(int device, uint64_t* free_bytes, uint64_t* total_bytes);
void properties(int device, int32_t* compute_capability, int32_t* multiprocessors);
void versions(int32_t* runtime, int32_t* driver);
void* alloc(int device, uint64_t bytes);
void free(void* p);
void copy(void* dst, const void* src, uint64_t bytes);  // any direction, synchronous
void* host_alloc(uint64_t bytes);  // page-locked
void host_free(void* p);
void host_register(void* p, uint64_t bytes);
void host_unregister(void* p);
// Whether [p, p+bytes) is page-locked host memory (checked at both ends: registrations are ranges).
bool is_page_locked(const void* p, uint64_t bytes);
wx_link_rates measure_link(int device, uint64_t bytes);
// Copy threads of staged host arrays (tables and joins) for config threads = t: t when set; otherwise
// every core, at most 16.
unsigned staging_threads(int32_t t);
void* stream_create(int device);
void stream_destroy(void* stream);
void stream_sync(void* stream);  // waits for the work queued on a stream (NULL: nothing to wait for)
// The device owning p, or -1 when p is not device memory.
int device_of(const void* p);
// Throws WX_ERR_INVALID_ARGUMENT unless [p, p+bytes) is device memory (or managed) of `device`.
void check_device_range(const void* p, uint64_t bytes, int device, const char* what);

// Staging resources of one device table (pinned host and device buffers, copy streams, copy
// threads; common/device_staging.cuh), made on its first staged call and freed with the table.
class Stager;
struct StagerDelete {
  void operator()(Stager* s) const;
};
using StagerPtr = std::unique_ptr<Stager, StagerDelete>;

// Runs `call` on a device table whose caller's arrays are in host memory: copies them through
// `stager`'s buffers in overlapped chunks of config.staging_chunk elements and copies results back;
// returns when they are in place. config: the table's (device, key width, staging chunk).
BatchResult run_staged(Table& table, Call call, const Batch& host, const wx_config& config, StagerPtr& stager);
// What runs one staged chunk whose arrays lie in the stager's device buffers on config.device (its
// batch's stream: the host batch's): a table's call, or a sharded table's device-array call.
using DeviceCall = std::function<BatchResult(Call, const Batch&)>;
// The same with each chunk run by `device_call`.
BatchResult run_staged(const DeviceCall& device_call, Call call, const Batch& host, const wx_config& config,
                       StagerPtr& stager);
// Runs retrieve_all of a device table into host arrays (keys and values of elem_bytes each).
uint64_t retrieve_all_to_host(Table& table, void* keys, void* values, uint64_t count, uint32_t elem_bytes,
                              int device, void* stream);

}  // namespace wx::dev
