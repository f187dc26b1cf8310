// Device services the C API needs: queries, allocations, copies, staging of host arrays for
// device tables. Implemented in common/device.cu (CUDA builds) and nocuda/device_absent.cpp.
#pragma once
#include <cstdint>
#include <string>

#include "common/table.hpp"

namespace wx::dev {

int count();  // 0 where no driver or device
std::string name(int device);
void memory(int device, uint64_t* free_bytes, uint64_t* total_bytes);
void properties(int device, int32_t* compute_capability, int32_t* multiprocessors);
void versions(int32_t* runtime, int32_t* driver);
void* alloc(int device, uint64_t bytes);
void free(void* p);
void copy(void* dst, const void* src, uint64_t bytes);  // any direction, synchronous
void* stream_create(int device);
void stream_destroy(void* stream);
// The device owning p, or -1 when p is not device memory.
int device_of(const void* p);
// Throws WX_ERR_INVALID_ARGUMENT unless [p, p+bytes) is device memory (or managed) of `device`.
void check_device_range(const void* p, uint64_t bytes, int device, const char* what);

// Runs `call` on a device table whose caller's arrays are in host memory: copies them through
// device staging buffers in chunks and copies results back.
// key_bytes / value_bytes: the table's widths (4 or 8).
BatchResult run_staged(Table& table, Call call, const Batch& host, int device, uint64_t key_bytes = 4,
                       uint64_t value_bytes = 4);
// Runs retrieve_all of a device table into host arrays.
uint64_t retrieve_all_to_host(Table& table, void* keys, void* values, uint64_t count, int device,
                              void* stream, uint64_t key_bytes = 4, uint64_t value_bytes = 4);

}  // namespace wx::dev
