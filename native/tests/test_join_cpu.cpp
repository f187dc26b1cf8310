// Join suite (join_suite.hpp) on the CPU kind, 32- and 64-bit keys, one shard and three; CPU-only argument checks.
#include "join_suite.hpp"

int main() {
  const bool small = wxsuite::small_run();
  wxjoin::run(WX_KIND_CPU, small ? 20000 : 300000);
  // A CPU join takes host memory only.
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  uint32_t k = 1;
  wx_join* j = nullptr;
  CHECK_STATUS(wx_join_create(&c, WX_JOIN_UNIQUE, &k, 1, WX_MEM_DEVICE, nullptr, &j), WX_ERR_INVALID_ARGUMENT);
  wxjoin::run_sharded(WX_KIND_CPU, small ? 20000 : 300000, 3);
  return 0;
}
