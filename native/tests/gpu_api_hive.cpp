// The design-agnostic API suite (suite/suite.hpp) on Hive (also at load factor 0.95), through host and
// device buffers. Skips (exit 77) where no device exists; WIXLIB_SMALL=1 / WIXLIB_BIG=1 as for GLHT.
#include "suite/suite.hpp"

int main() {
  wxtest::require_gpu_or_skip(WX_KIND_HIVE);
  wxsuite::run_suite(WX_KIND_HIVE, "gpu_api_hive");
  return 0;
}
