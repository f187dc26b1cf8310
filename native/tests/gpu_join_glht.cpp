// Join suite (join_suite.hpp) on the GLHT kind: host and device columns, pre-hashed probes.
// Again on 2 shards, and over devices {0, 1} where two exist.
#include "join_suite.hpp"

int main() {
  wxtest::require_gpu_or_skip(WX_KIND_GLHT);
  const bool small = wxsuite::small_run();
  wxjoin::run(WX_KIND_GLHT, small ? 20000 : 2000000);
  wxjoin::run_sharded(WX_KIND_GLHT, small ? 20000 : 500000, 2);
  int32_t devices = 0;
  CHECK_OK(wx_device_count(&devices));
  if (devices >= 2) wxjoin::two_devices(WX_KIND_GLHT, small ? 20000 : 500000);
  else std::printf("one device: the join over devices {0, 1} is left out\n");
  return 0;
}
