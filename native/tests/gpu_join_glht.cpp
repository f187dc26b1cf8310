// Join suite (join_suite.hpp) on the GLHT kind: host and device columns, pre-hashed probes.
#include "join_suite.hpp"

int main() {
  wxtest::require_gpu_or_skip(WX_KIND_GLHT);
  const bool small = wxsuite::small_run();
  wxjoin::run(WX_KIND_GLHT, small ? 20000 : 2000000);
  return 0;
}
