// Built instead of device_path.cu without CUDA: no device arrays exist there.
#include "common/error.hpp"
#include "shard/device_path.hpp"

namespace wx::shard {

namespace {
[[noreturn]] void absent() { fail(WX_ERR_NO_DEVICE, "this build of wixlib has no CUDA support"); }
}  // namespace

void DevicePathDelete::operator()(DevicePath*) const {}  // never made without CUDA
DevicePathPtr make_device_path(const std::vector<int>&) { absent(); }
BatchResult run_on_device(DevicePath&, ShardSet&, Call, const Batch&, int, void*, PerShard*) { absent(); }
void* source_stream(DevicePath&, int) { absent(); }
uint64_t retrieve_all_on_device(DevicePath&, ShardSet&, void*, void*, int, void*) { absent(); }

}  // namespace wx::shard
