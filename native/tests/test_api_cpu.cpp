// The design-agnostic API suite (suite/suite.hpp) on the CPU kind: edge cases, oracle comparison at
// load factors 0.5/0.8/0.9, mixed concurrent batches checked per key. CI sizes; WIXLIB_SMALL=1 shrinks.
#include "suite/suite.hpp"

int main() {
  wxsuite::run_suite(WX_KIND_CPU, "test_api_cpu");
  return 0;
}
