// Device services in a build without CUDA: no devices; anything needing one reports NO_DEVICE.
#include "common/device.hpp"
#include "common/error.hpp"

namespace wx::dev {

namespace {
[[noreturn]] void absent() { fail(WX_ERR_NO_DEVICE, "this build of wixlib has no CUDA support"); }
}  // namespace

int count() { return 0; }
std::string unavailable_reason() { return "this build of wixlib has no CUDA support"; }
std::string unusable_reason(int) { return unavailable_reason(); }
std::string name(int) { absent(); }
void memory(int, uint64_t*, uint64_t*) { absent(); }
void properties(int, int32_t*, int32_t*) { absent(); }
void versions(int32_t* runtime, int32_t* driver) { *runtime = 0; *driver = 0; }
void* alloc(int, uint64_t) { absent(); }
void free(void*) { absent(); }
void copy(void*, const void*, uint64_t) { absent(); }
void* host_alloc(uint64_t) { absent(); }
void host_free(void*) { absent(); }
void host_register(void*, uint64_t) { absent(); }
void host_unregister(void*) { absent(); }
bool is_page_locked(const void*, uint64_t) { return false; }
wx_link_rates measure_link(int, uint64_t) { absent(); }
unsigned staging_threads(int32_t t) { return t > 0 ? unsigned(t) : 1u; }
void* stream_create(int) { absent(); }
void stream_destroy(void*) {}
void stream_sync(void*) {}
int device_of(const void*) { return -1; }
void check_device_range(const void*, uint64_t, int, const char*) { absent(); }
void StagerDelete::operator()(Stager*) const {}  // never made without CUDA
BatchResult run_staged(Table&, Call, const Batch&, const wx_config&, StagerPtr&) { absent(); }
BatchResult run_staged(const DeviceCall&, Call, const Batch&, const wx_config&, StagerPtr&) { absent(); }
uint64_t retrieve_all_to_host(Table&, void*, void*, uint64_t, uint32_t, int, void*) { absent(); }

}  // namespace wx::dev
