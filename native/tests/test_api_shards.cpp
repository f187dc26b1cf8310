// Sharded CPU tables (shard_suite.hpp): 1, 2, 3, 4 and 7 shards at both key widths against an oracle,
// the suite's mixed concurrent batches on 3 shards, and the config checks of shards and devices.
#include "shard_suite.hpp"
#include "suite/mixed_test.hpp"

int main() {
  const bool small = wxsuite::small_run();
  const uint64_t n = small ? 20000 : 100000;
  for (int32_t shards : {1, 2, 3, 4, 7}) {
    wxshard::Setup s;
    s.shards = shards;
    wxshard::run<uint32_t>(s, n);
    wxshard::run<uint64_t>(s, n);
  }
  if (!small) {
    wxshard::Setup s;
    s.shards = 3;
    wxshard::long_call<uint32_t>(s);
    wxshard::long_call<uint64_t>(s);
  }
  wxshard::config_errors(WX_KIND_CPU, true);
  // A CPU table has no devices: a device list is refused, and so are device arrays.
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  c.device_count = 1;
  wx_table* t = nullptr;
  CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_INVALID_ARGUMENT);
  CHECK(std::string(wx_last_error()).find("device_count") != std::string::npos);
  c.device_count = 0;
  c.shards = 3;
  CHECK_OK(wx_table_create(&c, &t));
  uint32_t k = 1;
  CHECK_STATUS(wx_insert(t, &k, &k, 1, nullptr, WX_MEM_DEVICE, nullptr), WX_ERR_INVALID_ARGUMENT);
  CHECK_OK(wx_table_destroy(t));

  // The suite's per-key checked mixed batches (growth, resize between batches, GROW_NEVER) on 3 shards.
  wxsuite::g_shards = 3;
  wxsuite::MixedParams mp;
  mp.range = 10001;
  mp.ops = small ? 1 << 14 : 1 << 17;
  mp.mix = {40, 10, 20, 30};
  mp.capacity = mp.range / 8;
  mp.resize_between = true;
  mp.seed = 7;
  wxsuite::run_mixed_test(mp);
  mp.range = 101;
  mp.capacity = 0;
  mp.resize_between = false;
  mp.mix = {20, 0, 20, 60};
  wxsuite::run_mixed_test(mp);
  mp.range = 1001;
  mp.capacity = 256;
  mp.grow_never = true;
  mp.mix = {40, 10, 20, 30};
  wxsuite::run_mixed_test(mp);
  std::printf("test_api_shards: all passed\n");
  return 0;
}
