// Built instead of join_device.cu without CUDA: device joins report NO_DEVICE.
#include "join/join.hpp"

namespace wx::join {

std::unique_ptr<Engine> make_device_engine(const TableMaker&, int, int32_t, const void*, uint64_t, int32_t, void*) {
  fail(WX_ERR_NO_DEVICE, "joins on GPU kinds need a CUDA build of wixlib; this one was built without CUDA");
}

}  // namespace wx::join

namespace wx::join {

BatchResult run_hashed_staged(Table&, HashedOp, const void*, const uint64_t*, uint64_t*, void*, uint8_t*, uint64_t,
                              uint64_t, int, void*) {
  fail(WX_ERR_NO_DEVICE, "this build of wixlib has no CUDA support");
}

}  // namespace wx::join
