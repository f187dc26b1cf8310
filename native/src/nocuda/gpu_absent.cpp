// Built instead of the CUDA sources when no CUDA compiler is found: GPU kinds report NO_DEVICE.
#include "common/error.hpp"
#include "common/table.hpp"

namespace wx {

Table* make_glht_table(const wx_config&) {
  fail(WX_ERR_NO_DEVICE, "GLHT needs a CUDA build of wixlib; this one was built without CUDA");
}

Table* make_hive_table(const wx_config&) {
  fail(WX_ERR_NO_DEVICE, "Hive needs a CUDA build of wixlib; this one was built without CUDA");
}

}  // namespace wx
