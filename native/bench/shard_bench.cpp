// shard_bench — builds one (sharded) table of --keys keys in batches, checks every key's value, and
// times the inserts, the finds of present keys and finds of absent keys, through the public C API.
// It is the run for tables larger than one GPU's memory: `--devices 0,1 --shards 8 --key-bits 64`.
//
// Keys are a bijection of their index (distinct, all bits varying), values a function of the key, so a
// batch is regenerated for the check instead of kept. --mem host passes ordinary host arrays (the
// library stages them; one untimed call first sets up its staging buffers); --mem device first copies
// each batch to devices[0] (untimed).
// Output: "field: value" lines on stdout (device, versions, parameters, rates, memory, shard balance,
// result: PASS|FAIL); exit 0 on PASS, 1 on FAIL or error.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "wixlib.h"

namespace {

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "shard_bench: %s\n", msg.c_str());
  std::exit(1);
}

void ok(int32_t st, const char* what) {
  if (st != WX_OK) die(std::string(what) + " failed: " + wx_status_name(st) + ": " + wx_last_error());
}

struct Options {
  int32_t kind = WX_KIND_GLHT;
  int key_bits = 64;
  uint64_t keys = uint64_t(1) << 26;
  uint64_t batch = uint64_t(1) << 26;
  std::vector<int32_t> devices{0};
  int32_t shards = 0;  // 0: one per device
  double lf = 0.8;
  bool device_mem = false;
  uint64_t seed = 1;
  uint64_t staging_chunk = 0;  // 0: the library's default
};

// "2^30", "1e10" or a plain integer.
uint64_t parse_count(const std::string& s) {
  if (s.rfind("2^", 0) == 0) return uint64_t(1) << std::atoi(s.c_str() + 2);
  return static_cast<uint64_t>(std::strtod(s.c_str(), nullptr));
}

std::vector<int32_t> parse_devices(const std::string& s) {
  std::vector<int32_t> v;
  for (size_t pos = 0; pos <= s.size();) {
    size_t comma = std::min(s.find(',', pos), s.size());
    v.push_back(std::atoi(s.substr(pos, comma - pos).c_str()));
    pos = comma + 1;
  }
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--kind") {
      std::string k = next();
      o.kind = k == "glht" ? WX_KIND_GLHT : k == "hive" ? WX_KIND_HIVE : k == "cpu" ? WX_KIND_CPU : -1;
      if (o.kind < 0) die("unknown kind " + k);
    } else if (a == "--key-bits") o.key_bits = std::atoi(next().c_str());
    else if (a == "--keys") o.keys = parse_count(next());
    else if (a == "--batch") o.batch = parse_count(next());
    else if (a == "--devices") o.devices = parse_devices(next());
    else if (a == "--shards") o.shards = std::atoi(next().c_str());
    else if (a == "--lf") o.lf = std::atof(next().c_str());
    else if (a == "--mem") o.device_mem = next() == "device";
    else if (a == "--seed") o.seed = std::strtoull(next().c_str(), nullptr, 0);
    else if (a == "--staging-chunk") o.staging_chunk = parse_count(next());
    else {
      std::printf("usage: shard_bench --kind glht|hive|cpu [--key-bits 64] [--keys 2^26] [--batch 2^26]\n"
                  "                   [--devices 0,1] [--shards N] [--lf 0.8] [--mem host|device] [--seed S]\n"
                  "                   [--staging-chunk 2^21]\n");
      std::exit(a == "-h" || a == "--help" ? 0 : 2);
    }
  }
  if (o.key_bits != 32 && o.key_bits != 64) die("--key-bits must be 32 or 64");
  if (o.key_bits == 32 && o.keys > (uint64_t(1) << 30)) die("32-bit keys: --keys must be at most 2^30");
  if (o.keys == 0 || o.batch == 0) die("--keys and --batch must be positive");
  if (o.device_mem && o.kind == WX_KIND_CPU) die("--mem device needs a GPU kind");
  return o;
}

uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint32_t mix32(uint32_t x) {
  x = (x ^ (x >> 16)) * 0x7FEB352Du;
  x = (x ^ (x >> 15)) * 0x846CA68Bu;
  return x ^ (x >> 16);
}

// Key of index i: a bijection of the index, so distinct indices give distinct keys. Present keys have
// indices [0, keys), absent ones the next indices. A reserved image is replaced by the image of a spare
// index past every index in use (2^62 + i, 32-bit: 2^31 + i).
template <typename K>
K key_of(uint64_t i, uint64_t seed) {
  if constexpr (sizeof(K) == 8) {
    uint64_t k = mix64(i + seed);
    return k >= WX_KEY64_TOMBSTONE ? mix64((uint64_t(1) << 62) + i + seed) : k;
  } else {
    uint32_t k = mix32(static_cast<uint32_t>(i + seed));
    return k >= WX_KEY32_TOMBSTONE ? mix32(static_cast<uint32_t>((uint64_t(1) << 31) + i + seed)) : k;
  }
}

template <typename K>
K value_of(K key) { return static_cast<K>(key * 3 + 1); }

// Runs f(lo, hi) over [0, n) on all cores.
template <typename F>
void parallel(uint64_t n, F&& f) {
  const unsigned t = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned j = 0; j < t; ++j) pool.emplace_back([&, j] { f(n * j / t, n * (j + 1) / t); });
  for (auto& th : pool) th.join();
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <typename K>
struct Runner {
  const Options& o;
  wx_table* table;
  std::vector<K> keys, values;
  std::vector<uint8_t> outcomes;
  void* dev_keys = nullptr;
  void* dev_values = nullptr;
  void* dev_outcomes = nullptr;
  double wall = 0, kernel = 0;
  uint64_t bad = 0;

  Runner(const Options& opt, wx_table* t) : o(opt), table(t) {
    const uint64_t b = std::min(o.batch, std::max(o.keys, uint64_t(1) << 20));
    keys.resize(b), values.resize(b), outcomes.resize(b);
    if (o.device_mem) {
      ok(wx_device_alloc(o.devices[0], b * sizeof(K), &dev_keys), "wx_device_alloc");
      ok(wx_device_alloc(o.devices[0], b * sizeof(K), &dev_values), "wx_device_alloc");
      ok(wx_device_alloc(o.devices[0], b, &dev_outcomes), "wx_device_alloc");
    }
  }
  ~Runner() {
    wx_device_free(dev_keys), wx_device_free(dev_values), wx_device_free(dev_outcomes);
  }

  void fill(uint64_t lo, uint64_t n, bool with_values) {
    parallel(n, [&](uint64_t a, uint64_t z) {
      for (uint64_t i = a; i < z; ++i) {
        keys[i] = key_of<K>(lo + i, o.seed);
        if (with_values) values[i] = value_of(keys[i]);
      }
    });
    if (o.device_mem) {
      ok(wx_copy(dev_keys, WX_MEM_DEVICE, keys.data(), WX_MEM_HOST, n * sizeof(K)), "wx_copy");
      if (with_values) ok(wx_copy(dev_values, WX_MEM_DEVICE, values.data(), WX_MEM_HOST, n * sizeof(K)), "wx_copy");
    }
  }

  // Times one call and adds the table's device time of it.
  template <typename F>
  void timed(F&& call) {
    auto t0 = std::chrono::steady_clock::now();
    call();
    wall += seconds_since(t0);
    wx_stats s;
    ok(wx_stats_get(table, &s), "wx_stats_get");
    kernel += s.last_kernel_ms / 1e3;
  }

  // One untimed find of absent keys: host-array calls set up their staging buffers on the first call.
  void warm_up() {
    if (o.device_mem) return;
    const uint64_t n = keys.size();
    fill(uint64_t(1) << 40, n, false);
    ok(wx_find(table, keys.data(), values.data(), n, 0, WX_MEM_HOST, nullptr), "wx_find");
  }

  void insert_all() {
    for (uint64_t lo = 0; lo < o.keys; lo += keys.size()) {
      const uint64_t n = std::min<uint64_t>(keys.size(), o.keys - lo);
      fill(lo, n, true);
      const int mem = o.device_mem ? WX_MEM_DEVICE : WX_MEM_HOST;
      void* k = o.device_mem ? dev_keys : keys.data();
      void* v = o.device_mem ? dev_values : values.data();
      uint8_t* out = o.device_mem ? static_cast<uint8_t*>(dev_outcomes) : outcomes.data();
      timed([&] { ok(wx_insert(table, k, v, n, out, mem, nullptr), "wx_insert"); });
      if (o.device_mem) ok(wx_copy(outcomes.data(), WX_MEM_HOST, dev_outcomes, WX_MEM_DEVICE, n), "wx_copy");
      bad += std::count_if(outcomes.begin(), outcomes.begin() + n, [](uint8_t c) { return c != WX_OUT_INSERTED; });
    }
  }

  // Finds `count` keys from index `first` on; present keys must give their value, absent ones the marker.
  void find_all(uint64_t first, uint64_t count, bool present) {
    const K marker = static_cast<K>(0x5A5A5A5A5A5A5A5Aull);
    for (uint64_t lo = first; lo < first + count; lo += keys.size()) {
      const uint64_t n = std::min<uint64_t>(keys.size(), first + count - lo);
      fill(lo, n, false);
      if (o.device_mem) {
        timed([&] { ok(wx_find(table, dev_keys, dev_values, n, marker, WX_MEM_DEVICE, nullptr), "wx_find"); });
        ok(wx_copy(values.data(), WX_MEM_HOST, dev_values, WX_MEM_DEVICE, n * sizeof(K)), "wx_copy");
      } else {
        timed([&] { ok(wx_find(table, keys.data(), values.data(), n, marker, WX_MEM_HOST, nullptr), "wx_find"); });
      }
      parallel(n, [&](uint64_t a, uint64_t z) {
        uint64_t w = 0;
        for (uint64_t i = a; i < z; ++i) w += values[i] != (present ? value_of(keys[i]) : marker);
        __atomic_add_fetch(&bad, w, __ATOMIC_RELAXED);
      });
    }
  }
};

void print_devices(const Options& o) {
  int32_t rt = 0, drv = 0;
  wx_cuda_versions(&rt, &drv);
  std::printf("wixlib: %s\ncuda runtime: %d\ncuda driver: %d\n", wx_version_string(), rt, drv);
  if (o.kind == WX_KIND_CPU) return;
  for (int32_t d : o.devices) {
    char name[128];
    uint64_t free_b = 0, total = 0;
    ok(wx_device_name(d, name, sizeof(name)), "wx_device_name");
    ok(wx_device_memory(d, &free_b, &total), "wx_device_memory");
    std::printf("device %d: %s, %.1f GiB\n", d, name, total / double(uint64_t(1) << 30));
  }
}

// Wall rate of the calls, and the rate by the table's device time (the slowest shard's) where it has one.
void report(const char* what, double wall, double kernel, uint64_t n) {
  std::printf("%s: %llu keys, %.3f s, %.3f G/s", what, (unsigned long long)n, wall, n / wall / 1e9);
  if (kernel > 0) std::printf(" (device time %.3f s, %.3f G/s)", kernel, n / kernel / 1e9);
  std::printf("\n");
}

template <typename K>
int run(const Options& o) {
  wx_config c;
  ok(wx_config_init(&c, o.kind), "wx_config_init");
  c.key_bits = c.value_bits = o.key_bits;
  c.capacity = o.keys;
  c.max_load_factor = o.lf;
  c.shards = o.shards;
  if (o.staging_chunk) c.staging_chunk = o.staging_chunk;
  if (o.kind != WX_KIND_CPU) {
    c.device = o.devices[0];
    c.device_count = static_cast<int32_t>(o.devices.size());
    for (size_t i = 0; i < o.devices.size() && i < 16; ++i) c.devices[i] = o.devices[i];
  } else if (o.shards == 0) {
    c.shards = 1;
  }
  auto t0 = std::chrono::steady_clock::now();
  wx_table* table = nullptr;
  ok(wx_table_create(&c, &table), "wx_table_create");
  std::printf("create seconds: %.3f\n", seconds_since(t0));
  Runner<K> r(o, table);
  r.warm_up();
  r.insert_all();
  report("insert", r.wall, r.kernel, o.keys);
  uint64_t inserted_bad = r.bad;
  r.wall = r.kernel = 0;
  r.find_all(0, o.keys, true);
  report("find present", r.wall, r.kernel, o.keys);
  uint64_t present_bad = r.bad - inserted_bad;
  r.wall = r.kernel = 0;
  const uint64_t absent = std::min<uint64_t>(o.keys, r.keys.size());
  r.find_all(o.keys, absent, false);  // indices past the present ones
  report("find absent", r.wall, r.kernel, absent);
  uint64_t absent_bad = r.bad - inserted_bad - present_bad;

  wx_stats s;
  ok(wx_stats_get(table, &s), "wx_stats_get");
  std::printf("size: %llu\ncapacity: %llu\ntable bytes: %.1f GiB\nresizes: %llu\n", (unsigned long long)s.size,
              (unsigned long long)s.capacity, s.bytes / double(uint64_t(1) << 30), (unsigned long long)s.resizes);
  uint64_t lo = UINT64_MAX, hi = 0;
  const int32_t shards = c.shards == 0 ? static_cast<int32_t>(o.devices.size()) : c.shards;
  for (int32_t i = 0; i < shards; ++i) {
    wx_stats ss;
    int32_t dev = -1;
    ok(wx_shard_stats_get(table, i, &ss, &dev), "wx_shard_stats_get");
    lo = std::min(lo, ss.size), hi = std::max(hi, ss.size);
    std::printf("shard %d: device %d, %llu keys, %.1f GiB\n", i, dev, (unsigned long long)ss.size,
                ss.bytes / double(uint64_t(1) << 30));
  }
  std::printf("shard keys min/max: %llu / %llu\n", (unsigned long long)lo, (unsigned long long)hi);
  for (int32_t d : o.devices) {
    if (o.kind == WX_KIND_CPU) break;
    uint64_t free_b = 0, total = 0;
    ok(wx_device_memory(d, &free_b, &total), "wx_device_memory");
    std::printf("device %d in use: %.1f GiB of %.1f\n", d, (total - free_b) / double(uint64_t(1) << 30),
                total / double(uint64_t(1) << 30));
  }
  const bool pass = inserted_bad == 0 && present_bad == 0 && absent_bad == 0 && s.size == o.keys;
  std::printf("wrong insert outcomes: %llu\nwrong present values: %llu\nwrong absent answers: %llu\nresult: %s\n",
              (unsigned long long)inserted_bad, (unsigned long long)present_bad, (unsigned long long)absent_bad,
              pass ? "PASS" : "FAIL");
  ok(wx_table_destroy(table), "wx_table_destroy");
  return pass ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  print_devices(o);
  std::printf("kind: %s\nkey bits: %d\nkeys: %llu\nbatch: %llu\nshards: %d\nload factor: %.2f\nmemory: %s\nseed: %llu\n",
              o.kind == WX_KIND_GLHT ? "glht" : o.kind == WX_KIND_HIVE ? "hive" : "cpu", o.key_bits,
              (unsigned long long)o.keys, (unsigned long long)o.batch, o.shards, o.lf, o.device_mem ? "device" : "host",
              (unsigned long long)o.seed);
  if (o.staging_chunk) std::printf("staging chunk: %llu\n", (unsigned long long)o.staging_chunk);
  std::fflush(stdout);
  return o.key_bits == 64 ? run<uint64_t>(o) : run<uint32_t>(o);
}
