// Join suite (join_suite.hpp) on the HIVE kind: host and device columns, pre-hashed calls UNSUPPORTED.
#include "join_suite.hpp"

int main() {
  wxtest::require_gpu_or_skip(WX_KIND_HIVE);
  const bool small = wxsuite::small_run();
  wxjoin::run(WX_KIND_HIVE, small ? 20000 : 2000000);
  return 0;
}
