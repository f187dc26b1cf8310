// Sharded GPU tables (shard_suite.hpp), GLHT and Hive at both key widths: shards on device 0 with host
// and device arrays; where the machine has two or more devices, shards over devices {0, 1} with host
// arrays and with device arrays on device 1 and on device 0. Also the config checks of device lists
// and the suite's per-key checked mixed batches on 2 shards through device arrays. WIXLIB_SMALL=1
// keeps it small (compute-sanitizer).
#include "shard_suite.hpp"
#include "suite/mixed_test.hpp"

namespace {

template <typename K>
void run_kind(int32_t kind, uint64_t n, int32_t devices) {
  // Small runs (compute-sanitizer) keep 2 shards: one shard is the unsharded path, and three add no
  // kernel of their own.
  const std::vector<int32_t> counts = wxsuite::small_run() ? std::vector<int32_t>{2} : std::vector<int32_t>{1, 2, 3};
  for (int32_t shards : counts) {
    for (int32_t mem : {WX_MEM_HOST, WX_MEM_DEVICE}) {
      wxshard::Setup s;
      s.kind = kind;
      s.shards = shards;
      s.mem = mem;
      wxshard::run<K>(s, n);
    }
  }
  if (devices < 2) {
    std::printf("[shards] one device: the runs over devices {0, 1} are left out\n");
    return;
  }
  for (int32_t shards : {2, 4}) {
    wxshard::Setup s;
    s.kind = kind;
    s.shards = shards;
    s.devices = {0, 1};
    wxshard::run<K>(s, n);
    s.mem = WX_MEM_DEVICE;
    for (int32_t on : {1, 0}) {
      s.array_device = on;
      wxshard::run<K>(s, n);
    }
  }
  // Device order reversed: shard 0 on device 1.
  wxshard::Setup s;
  s.kind = kind;
  s.shards = 0;  // one per device
  s.devices = {1, 0};
  s.mem = WX_MEM_DEVICE;
  s.array_device = 1;
  wx_config c = wxshard::config_for<K>(s, 1000);
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  wx_stats st{};
  int32_t device = -1;
  CHECK_OK(wx_shard_stats_get(t, 0, &st, &device));
  CHECK(device == 1);
  CHECK_OK(wx_shard_stats_get(t, 1, &st, &device));
  CHECK(device == 0);
  CHECK_STATUS(wx_shard_stats_get(t, 2, &st, &device), WX_ERR_INVALID_ARGUMENT);
  CHECK_OK(wx_table_destroy(t));
  s.shards = 2;
  wxshard::run<K>(s, n);
}

void device_list_errors(int32_t kind, int32_t devices) {
  wx_config c;
  wx_table* t = nullptr;
  CHECK_OK(wx_config_init(&c, kind));
  c.device_count = 2;
  c.devices[0] = 0;
  c.devices[1] = 0;
  CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_INVALID_ARGUMENT);
  CHECK(std::string(wx_last_error()).find("twice") != std::string::npos);
  c.devices[1] = devices;  // one past the last
  CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_INVALID_ARGUMENT);
  c.devices[1] = -1;
  CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_INVALID_ARGUMENT);
  // device_count 1: every shard on devices[0] (here 0), shard stats say so.
  CHECK_OK(wx_config_init(&c, kind));
  c.device_count = 1;
  c.devices[0] = 0;
  c.shards = 2;
  c.capacity = 1000;
  CHECK_OK(wx_table_create(&c, &t));
  wx_stats st{};
  int32_t device = -1;
  CHECK_OK(wx_shard_stats_get(t, 1, &st, &device));
  CHECK(device == 0);
  // Device arrays elsewhere than the table's devices are refused.
  if (devices >= 2) {
    void* k = nullptr;
    CHECK_OK(wx_device_alloc(1, 64, &k));
    CHECK_STATUS(wx_contains(t, k, static_cast<uint8_t*>(k) + 32, 4, WX_MEM_DEVICE, nullptr), WX_ERR_INVALID_ARGUMENT);
    CHECK_OK(wx_device_free(k));
  }
  CHECK_OK(wx_table_destroy(t));
}

}  // namespace

int main() {
  wxtest::require_gpu_or_skip(WX_KIND_GLHT);
  const bool small = wxsuite::small_run();
  const uint64_t n = small ? 4000 : 200000;
  int32_t devices = 0;
  CHECK_OK(wx_device_count(&devices));
  for (int32_t kind : {WX_KIND_GLHT, WX_KIND_HIVE}) {
    wxshard::config_errors(kind, false);
    device_list_errors(kind, devices);
    run_kind<uint32_t>(kind, n, devices);
    run_kind<uint64_t>(kind, n, devices);
    if (!small) {
      wxshard::Setup s;
      s.kind = kind;
      s.shards = 3;
      if (devices >= 2) s.devices = {0, 1};
      wxshard::long_call<uint32_t>(s);
    }
    // The suite's mixed batches, checked per key, on 2 shards through device arrays.
    wxsuite::g_shards = 2;
    wxsuite::MixedParams mp;
    mp.kind = kind;
    mp.range = 10001;
    mp.ops = small ? 1 << 12 : 1 << 18;
    mp.mix = {40, 10, 20, 30};
    mp.capacity = mp.range / 8;
    mp.resize_between = true;
    mp.mem = WX_MEM_DEVICE;
    mp.seed = 9;
    wxsuite::run_mixed_test(mp);
    mp.mem = WX_MEM_HOST;
    mp.range = 1001;
    mp.capacity = 256;
    mp.resize_between = false;
    mp.grow_never = true;
    wxsuite::run_mixed_test(mp);
    wxsuite::g_shards = 1;
  }
  std::printf("gpu_shards: all passed\n");
  return 0;
}
