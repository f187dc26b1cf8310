// The one setting read from the environment; tuning is wx_config's.
#pragma once
#include <cstdlib>

namespace wx {

// WIXLIB_TRACE set: GPU tables print where each bulk call's time goes (diagnosis only). Read once.
inline bool trace_on() {
  static const bool on = std::getenv("WIXLIB_TRACE") != nullptr;
  return on;
}

}  // namespace wx
