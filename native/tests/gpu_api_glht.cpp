// The design-agnostic API suite (suite/suite.hpp) on GLHT, through host and device buffers.
// Skips (exit 77) where no device exists; WIXLIB_SMALL=1 for compute-sanitizer, WIXLIB_BIG=1 adds 2^28.
#include "suite/suite.hpp"

int main() {
  wxtest::require_gpu_or_skip(WX_KIND_GLHT);
  wxsuite::run_suite(WX_KIND_GLHT, "gpu_api_glht");
  return 0;
}
