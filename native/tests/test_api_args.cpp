// Argument checking of the public C API that does not depend on a table design: library calls,
// configs, a NULL table in every call, memory flags, device memory given to a CPU table, device calls
// without a device. Every bad call must return a status with a message, never crash.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <string>

#include "check.hpp"
#include "suite/table_io.hpp"

namespace {

void expect_error(int32_t st, int32_t want, const char* what) {
  CHECK_MSG(st == want, "%s: got %s, expected %s", what, wx_status_name(st), wx_status_name(want));
  CHECK_MSG(wx_last_error() != nullptr && wx_last_error()[0] != '\0', "%s: no error message", what);
}

void library_calls() {
  CHECK(wx_version() == ((WX_VERSION_MAJOR << 16) | (WX_VERSION_MINOR << 8) | WX_VERSION_PATCH));
  char expect[32];
  std::snprintf(expect, sizeof expect, "%d.%d.%d", WX_VERSION_MAJOR, WX_VERSION_MINOR, WX_VERSION_PATCH);
  // "x.y.z+<source hash>": the build id the Java loader compares with its jar's.
  const std::string id = wx_version_string();
  CHECK_MSG(id.rfind(std::string(expect) + "+", 0) == 0 && id.size() == std::strlen(expect) + 13 &&
                id.find_first_not_of("0123456789abcdef", std::strlen(expect) + 1) == std::string::npos,
            "version string %s", wx_version_string());
  std::set<std::string> names;
  for (int32_t s = WX_OK; s <= WX_ERR_INTERNAL; ++s) {
    CHECK(wx_status_name(s) != nullptr);
    names.insert(wx_status_name(s));
  }
  CHECK_MSG(names.size() == 9, "status names not distinct");
  CHECK(wx_status_name(12345) != nullptr && wx_status_name(-1) != nullptr);
  // A successful call clears the thread's message.
  int32_t avail = -1;
  CHECK_OK(wx_kind_available(WX_KIND_CPU, &avail));
  CHECK(avail == 1);
  CHECK(wx_last_error() != nullptr && wx_last_error()[0] == '\0');
  expect_error(wx_kind_available(WX_KIND_CPU, nullptr), WX_ERR_INVALID_ARGUMENT, "kind_available NULL");
  expect_error(wx_kind_available(9, &avail), WX_ERR_INVALID_ARGUMENT, "kind_available unknown kind");
  int32_t rt = -1, drv = -1;
  CHECK_OK(wx_cuda_versions(&rt, &drv));
  CHECK(rt >= 0 && drv >= 0);
  int32_t count = -1;
  CHECK_OK(wx_device_count(&count));
  CHECK(count >= 0);
  // A GPU kind that cannot run says why (no CUDA build, driver, device, architecture); one that can, nothing.
  for (int32_t kind : {WX_KIND_GLHT, WX_KIND_HIVE}) {
    int32_t gpu = -1;
    CHECK_OK(wx_kind_available(kind, &gpu));
    const std::string why = wx_last_error();
    CHECK_MSG(gpu == 1 ? why.empty() : !why.empty(), "kind %d available %d, reason '%s'", kind, gpu, why.c_str());
    if (rt == 0) CHECK_MSG(why == "this build of wixlib has no CUDA support", "reason '%s'", why.c_str());
    if (gpu == 1) CHECK(count > 0);
  }
  expect_error(wx_device_count(nullptr), WX_ERR_INVALID_ARGUMENT, "device_count NULL");
  // Host-to-host copies work everywhere; bad flags and NULL pointers are refused.
  uint32_t a[4] = {1, 2, 3, 4}, b[4] = {0, 0, 0, 0};
  CHECK_OK(wx_copy(b, WX_MEM_HOST, a, WX_MEM_HOST, sizeof a));
  CHECK(std::memcmp(a, b, sizeof a) == 0);
  expect_error(wx_copy(b, 5, a, WX_MEM_HOST, 4), WX_ERR_INVALID_ARGUMENT, "copy bad flag");
  expect_error(wx_copy(nullptr, WX_MEM_HOST, a, WX_MEM_HOST, 4), WX_ERR_INVALID_ARGUMENT, "copy NULL dst");
  CHECK_OK(wx_device_free(nullptr));
  void* p = nullptr;
  expect_error(wx_device_alloc(0, 16, nullptr), WX_ERR_INVALID_ARGUMENT, "device_alloc NULL out");
  if (count == 0) {
    // No device: device calls report it, and a host buffer flagged as device memory is refused.
    int32_t st = wx_device_alloc(0, 16, &p);
    CHECK_MSG(st == WX_ERR_NO_DEVICE, "device_alloc without device: %s", wx_status_name(st));
    st = wx_copy(b, WX_MEM_DEVICE, a, WX_MEM_HOST, sizeof a);
    CHECK_MSG(st != WX_OK, "copy to 'device' memory without a device succeeded");
    char name[64];
    CHECK_MSG(wx_device_name(0, name, sizeof name) != WX_OK, "device_name without a device succeeded");
  } else {
    // A device: allocation, both copy directions, and a host array flagged as device is refused.
    CHECK_OK(wx_device_alloc(0, sizeof a, &p));
    CHECK_OK(wx_copy(p, WX_MEM_DEVICE, a, WX_MEM_HOST, sizeof a));
    uint32_t c[4] = {0, 0, 0, 0};
    CHECK_OK(wx_copy(c, WX_MEM_HOST, p, WX_MEM_DEVICE, sizeof c));
    CHECK(std::memcmp(a, c, sizeof a) == 0);
    CHECK_MSG(wx_copy(b, WX_MEM_DEVICE, a, WX_MEM_HOST, sizeof a) != WX_OK, "host array accepted as device memory");
    CHECK_OK(wx_device_free(p));
  }
}

void configs() {
  wx_config c;
  expect_error(wx_config_init(nullptr, WX_KIND_CPU), WX_ERR_INVALID_ARGUMENT, "config_init NULL");
  expect_error(wx_config_init(&c, 3), WX_ERR_INVALID_ARGUMENT, "config_init unknown kind");
  for (int32_t kind : {WX_KIND_CPU, WX_KIND_GLHT, WX_KIND_HIVE}) {
    CHECK_OK(wx_config_init(&c, kind));
    CHECK(c.kind == kind && c.key_bits == 32 && c.value_bits == 32 && c.grow == WX_GROW_AUTO);
    CHECK(c.max_load_factor > 0 && c.max_load_factor <= 1 && c.capacity > 0);
  }
  wx_table* t = reinterpret_cast<wx_table*>(0x1);
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  expect_error(wx_table_create(nullptr, &t), WX_ERR_INVALID_ARGUMENT, "create NULL config");
  expect_error(wx_table_create(&c, nullptr), WX_ERR_INVALID_ARGUMENT, "create NULL out");
  auto bad_config = [&](void (*edit)(wx_config&), int32_t want, const char* what) {
    wx_config d;
    CHECK_OK(wx_config_init(&d, WX_KIND_CPU));
    edit(d);
    wx_table* tt = reinterpret_cast<wx_table*>(0x1);
    expect_error(wx_table_create(&d, &tt), want, what);
    CHECK_MSG(tt == nullptr, "%s: table pointer not cleared", what);
  };
  bad_config([](wx_config& d) { d.kind = 7; }, WX_ERR_INVALID_ARGUMENT, "unknown kind");
  bad_config([](wx_config& d) { d.max_load_factor = 0; }, WX_ERR_INVALID_ARGUMENT, "lf 0");
  bad_config([](wx_config& d) { d.max_load_factor = -0.5; }, WX_ERR_INVALID_ARGUMENT, "lf < 0");
  bad_config([](wx_config& d) { d.max_load_factor = 1.5; }, WX_ERR_INVALID_ARGUMENT, "lf > 1");
  bad_config([](wx_config& d) { d.max_load_factor = std::nan(""); }, WX_ERR_INVALID_ARGUMENT, "lf NaN");
  bad_config([](wx_config& d) { d.min_load_factor = d.max_load_factor; }, WX_ERR_INVALID_ARGUMENT, "min lf >= max");
  bad_config([](wx_config& d) { d.grow = 3; }, WX_ERR_INVALID_ARGUMENT, "grow flag");
  bad_config([](wx_config& d) { d.threads = -1; }, WX_ERR_INVALID_ARGUMENT, "threads < 0");
  bad_config([](wx_config& d) { d.key_bits = 64; }, WX_ERR_UNSUPPORTED, "64-bit keys");
  bad_config([](wx_config& d) { d.value_bits = 16; }, WX_ERR_UNSUPPORTED, "16-bit values");
  bad_config([](wx_config& d) { d.capacity = ~0ull; }, WX_ERR_INVALID_ARGUMENT, "capacity 2^64-1");
  // GPU kinds without a device: NO_DEVICE, not a crash.
  int32_t count = 0;
  CHECK_OK(wx_device_count(&count));
  if (count == 0) {
    for (int32_t kind : {WX_KIND_GLHT, WX_KIND_HIVE}) {
      CHECK_OK(wx_config_init(&c, kind));
      c.capacity = 1024;
      expect_error(wx_table_create(&c, &t), WX_ERR_NO_DEVICE, "GPU kind without device");
      int32_t avail = 1;
      CHECK_OK(wx_kind_available(kind, &avail));
      CHECK(avail == 0);
    }
  }
  CHECK_OK(wx_table_destroy(nullptr));
}

void null_table() {
  uint32_t k[2] = {1, 2}, v[2] = {0, 0};
  uint8_t o[2] = {0, 0}, ops[2] = {0, 0};
  uint64_t u = 0;
  double d = 0;
  wx_stats s;
  const int32_t H = WX_MEM_HOST, BAD = WX_ERR_INVALID_ARGUMENT;
  expect_error(wx_insert(nullptr, k, v, 2, o, H, nullptr), BAD, "insert NULL table");
  expect_error(wx_insert_or_assign(nullptr, k, v, 2, o, H, nullptr), BAD, "insert_or_assign NULL table");
  expect_error(wx_find(nullptr, k, v, 2, 0, H, nullptr), BAD, "find NULL table");
  expect_error(wx_contains(nullptr, k, o, 2, H, nullptr), BAD, "contains NULL table");
  expect_error(wx_erase(nullptr, k, 2, o, H, nullptr), BAD, "erase NULL table");
  expect_error(wx_batch(nullptr, ops, k, v, 2, o, H, nullptr), BAD, "batch NULL table");
  expect_error(wx_size(nullptr, &u), BAD, "size NULL table");
  expect_error(wx_capacity(nullptr, &u), BAD, "capacity NULL table");
  expect_error(wx_load_factor(nullptr, &d), BAD, "load_factor NULL table");
  expect_error(wx_stats_get(nullptr, &s), BAD, "stats NULL table");
  expect_error(wx_clear(nullptr), BAD, "clear NULL table");
  expect_error(wx_resize(nullptr, 10), BAD, "resize NULL table");
  expect_error(wx_retrieve_all(nullptr, k, v, 2, &u, H, nullptr), BAD, "retrieve_all NULL table");
  // Even an empty batch needs a table.
  expect_error(wx_insert(nullptr, k, v, 0, o, H, nullptr), BAD, "empty insert NULL table");
}

// WX_MEM_DEVICE arrays given to a CPU table are refused before anything is read from them (here a
// bogus address that would crash if dereferenced).
void device_memory_to_cpu_table() {
  wxsuite::Table t(wxsuite::make_config(WX_KIND_CPU, 1024));
  void* bogus = reinterpret_cast<void*>(uintptr_t{0x10});
  uint8_t* bogus8 = static_cast<uint8_t*>(bogus);
  const int32_t D = WX_MEM_DEVICE;
  uint64_t c = 0;
  CHECK_MSG(wx_insert(t.get(), bogus, bogus, 4, bogus8, D, nullptr) != WX_OK, "insert took device arrays");
  CHECK_MSG(wx_insert_or_assign(t.get(), bogus, bogus, 4, bogus8, D, nullptr) != WX_OK, "ioa took device arrays");
  CHECK_MSG(wx_find(t.get(), bogus, bogus, 4, 0, D, nullptr) != WX_OK, "find took device arrays");
  CHECK_MSG(wx_contains(t.get(), bogus, bogus8, 4, D, nullptr) != WX_OK, "contains took device arrays");
  CHECK_MSG(wx_erase(t.get(), bogus, 4, bogus8, D, nullptr) != WX_OK, "erase took device arrays");
  CHECK_MSG(wx_batch(t.get(), bogus8, bogus, bogus, 4, bogus8, D, nullptr) != WX_OK, "batch took device arrays");
  uint32_t k = 5, v = 6;
  CHECK_OK(wx_insert(t.get(), &k, &v, 1, nullptr, WX_MEM_HOST, nullptr));
  CHECK_MSG(wx_retrieve_all(t.get(), bogus, bogus, 4, &c, D, nullptr) != WX_OK, "retrieve_all wrote device arrays");
  CHECK(t.size() == 1);
}

// Page-locked host memory and the link measurement: NULL and empty arguments are refused; without a
// device every call says NO_DEVICE (with one, gpu_staging exercises them).
void host_memory() {
  void* p = nullptr;
  wx_link_rates r;
  const int32_t BAD = WX_ERR_INVALID_ARGUMENT;
  expect_error(wx_host_alloc(16, nullptr), BAD, "host_alloc NULL");
  expect_error(wx_host_alloc(0, &p), BAD, "host_alloc 0 bytes");
  expect_error(wx_host_register(nullptr, 16), BAD, "host_register NULL");
  char buf[64];
  expect_error(wx_host_register(buf, 0), BAD, "host_register 0 bytes");
  expect_error(wx_host_unregister(nullptr), BAD, "host_unregister NULL");
  CHECK_OK(wx_host_free(nullptr));
  expect_error(wx_link_measure(0, 0, nullptr), BAD, "link_measure NULL");
  expect_error(wx_link_measure(0, 1000, &r), BAD, "link_measure 1000 bytes");
  int32_t devices = -1;
  CHECK_OK(wx_device_count(&devices));
  if (devices == 0) {
    expect_error(wx_host_alloc(16, &p), WX_ERR_NO_DEVICE, "host_alloc without a device");
    expect_error(wx_host_register(buf, sizeof buf), WX_ERR_NO_DEVICE, "host_register without a device");
    expect_error(wx_link_measure(0, 0, &r), WX_ERR_NO_DEVICE, "link_measure without a device");
  }
}

}  // namespace

int main() {
  library_calls();
  configs();
  null_table();
  device_memory_to_cpu_table();
  host_memory();
  std::printf("test_api_args: all passed\n");
  return 0;
}
