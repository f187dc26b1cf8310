// Built instead of join_device.cu without CUDA: device joins report NO_DEVICE.
#include "join/join.hpp"

namespace wx::join {

std::unique_ptr<Engine> make_device_engine(const TableMaker&, int, unsigned, int32_t, const void*, uint64_t, int32_t,
                                           void*) {
  fail(WX_ERR_NO_DEVICE, "joins on GPU kinds need a CUDA build of wixlib; this one was built without CUDA");
}

}  // namespace wx::join
