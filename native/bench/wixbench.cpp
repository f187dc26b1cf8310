// wixbench — kernel-only throughput of the GPU tables through the public C API.
//
// All inputs live in device buffers (wx_device_alloc + wx_copy) so no host copies are timed.
// Each measurement records wx_stats.last_kernel_ms (device time of the call, CUDA events) and the
// host wall time around the call; one warm-up then --reps measured repetitions; the median is shown.
// State-changing runs re-create the table and draw fresh keys for every repetition.
//
// Benchmarks (--bench):
//   static   bulk insert N unique keys into a table made for N at --lf, then find present,
//            find absent, erase (N = 2^--log2n, default 2^26)
//   dynamic  mixed wx_batch of 2^--log2ops ops (default 2^24), mixes [20,20,60] and [40,40,20]
//            (% insert, erase, find) over key ranges [0,2^24) and [0,100] .. [0,100000]; the table is
//            made for the range and pre-filled with a random half of it
//   growth   table made for 2^20 keys, insert 2^--log2n keys in batches of 2^22 (resizes included),
//            then find them all
//   all      the three (default); dynamic and growth use --lf when it is one value, else 0.8
// --key-bits 64: 64-bit keys and values (static only): the same keys widened by a bijection
// of 64-bit integers, so every bit of the key varies.
// --build-min N: GLHT inserts of at least N keys into an empty table are bulk-built (wx_config
// build_min; 0 = never: every insert runs the lock-free protocol); the library's default otherwise.
// Output: a table (G ops/s per row) or --csv; device, CUDA versions, kind, sizes and seed first.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "wixlib.h"

namespace {

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "wixbench: %s\n", msg.c_str());
  std::exit(1);
}

void ok(int32_t st, const char* what) {
  if (st != WX_OK) die(std::string(what) + " failed: " + wx_status_name(st) + ": " + wx_last_error());
}

struct Options {
  int32_t kind = WX_KIND_GLHT;
  std::string bench = "all";
  std::vector<double> lfs;  // empty: 0.8 (static), 0.5/0.8/0.9 (+0.95 hive) with --all-lf
  bool all_lf = false;
  int log2n = 26;
  int log2ops = 24;
  int reps = 5;
  int device = 0;
  int key_bits = 32;
  bool csv = false;
  uint64_t seed = 0;
  bool seed_given = false;
  int presort_bits = 0;
  long long build_min = -1;  // < 0: the library's default
};

void usage() {
  std::printf(
      "usage: wixbench --kind glht|hive [--bench static|dynamic|growth|all] [--lf 0.8[,0.9..]]\n"
      "                [--all-lf] [--log2n 26] [--log2ops 24] [--reps 5] [--device 0] [--seed S] [--csv]\n"
      "                [--key-bits 32|64]   (64: --bench static)\n"
      "                [--build-min N]      (glht: bulk-build inserts of >= N keys into an empty table; 0 never)\n"
      "                [--presort-bits B]   (experiment, glht static 32-bit: batch put in table order by\n"
      "                                      the top B bits of its hash, untimed)\n");
}

std::vector<double> parse_list(const std::string& s) {
  std::vector<double> v;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t comma = s.find(',', pos);
    if (comma == std::string::npos) comma = s.size();
    v.push_back(std::atof(s.substr(pos, comma - pos).c_str()));
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
      if (k == "glht") o.kind = WX_KIND_GLHT;
      else if (k == "hive") o.kind = WX_KIND_HIVE;
      else die("unknown kind " + k);
    } else if (a == "--bench") o.bench = next();
    else if (a == "--lf") o.lfs = parse_list(next());
    else if (a == "--all-lf") o.all_lf = true;
    else if (a == "--log2n") o.log2n = std::atoi(next().c_str());
    else if (a == "--log2ops") o.log2ops = std::atoi(next().c_str());
    else if (a == "--reps") o.reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--device") o.device = std::atoi(next().c_str());
    else if (a == "--key-bits") o.key_bits = std::atoi(next().c_str());
    else if (a == "--seed") { o.seed = std::strtoull(next().c_str(), nullptr, 0); o.seed_given = true; }
    else if (a == "--csv") o.csv = true;
    else if (a == "--presort-bits") o.presort_bits = std::atoi(next().c_str());
    else if (a == "--build-min") {
      o.build_min = std::strtoll(next().c_str(), nullptr, 0);
      if (o.build_min < 0) die("--build-min must be >= 0");
    }
    else if (a == "-h" || a == "--help") { usage(); std::exit(0); }
    else { usage(); die("unknown argument " + a); }
  }
  if (o.bench != "static" && o.bench != "dynamic" && o.bench != "growth" && o.bench != "all")
    die("unknown --bench " + o.bench);
  if (o.log2n < 10 || o.log2n > 30 || o.log2ops < 10 || o.log2ops > 30) die("sizes out of range");
  if (o.key_bits != 32 && o.key_bits != 64) die("--key-bits must be 32 or 64");
  if (o.key_bits == 64 && o.bench != "static") die("--key-bits 64 runs --bench static only");
  if (o.presort_bits < 0 || o.presort_bits > 24) die("--presort-bits must be in [0, 24]");
  if (o.build_min >= 0 && o.kind != WX_KIND_GLHT) die("--build-min is a GLHT setting");
  if (o.presort_bits > 0 && (o.kind != WX_KIND_GLHT || o.key_bits != 32 || o.bench != "static"))
    die("--presort-bits runs --kind glht --bench static with 32-bit keys only");
  if (!o.seed_given) o.seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  if (o.lfs.empty()) {
    if (o.all_lf) o.lfs = {0.5, 0.8, 0.9};
    else o.lfs = {0.8};
    if (o.all_lf && o.kind == WX_KIND_HIVE) o.lfs.push_back(0.95);
  }
  return o;
}

uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A bijection on 32 bits (odd multiply, xor-shift, odd multiply), so distinct i give distinct keys;
// the two reserved images are replaced by images of indices past every index in use.
struct KeyGen {
  uint32_t a, b, c;
  explicit KeyGen(uint64_t seed) {
    uint64_t r = mix64(seed);
    a = static_cast<uint32_t>(r) | 1u;
    b = static_cast<uint32_t>(r >> 32) | 1u;
    c = static_cast<uint32_t>(mix64(r));
  }
  uint32_t f(uint64_t i) const {
    uint32_t x = static_cast<uint32_t>(i) * a + c;
    x ^= x >> 16;
    x *= b;
    x ^= x >> 13;
    return x;
  }
  // keys f(lo..hi) without reserved values; spare indices 2^31 + lo.. lie past every range in use
  // (ranges stay below 2^31) and differ between calls with different lo.
  void fill(std::vector<uint32_t>& out, uint64_t lo, uint64_t hi) const {
    out.resize(hi - lo);
    uint64_t spare = (uint64_t{1} << 31) + lo;
    for (uint64_t i = lo; i < hi; ++i) {
      uint32_t k = f(i);
      while (k >= WX_KEY32_TOMBSTONE) k = f(spare++);
      out[i - lo] = k;
    }
  }
};

// 64-bit keys: mix64 is a bijection of the 64-bit integers, so distinct i + c give distinct keys;
// reserved images are replaced as in KeyGen::fill (spare indices 2^62 + lo..).
void fill_keys(const KeyGen& g, std::vector<uint32_t>& out, uint64_t lo, uint64_t hi) { g.fill(out, lo, hi); }
void fill_keys(const KeyGen& g, std::vector<uint64_t>& out, uint64_t lo, uint64_t hi) {
  const uint64_t c = (uint64_t(g.a) << 32) | g.c;
  out.resize(hi - lo);
  uint64_t spare = (uint64_t{1} << 62) + lo;
  for (uint64_t i = lo; i < hi; ++i) {
    uint64_t k = mix64(i + c);
    while (k >= WX_KEY64_TOMBSTONE) k = mix64(spare++ + c);
    out[i - lo] = k;
  }
}

// Stable counting sort of keys (and vals when given) by the top `bits` bits of their GLHT hash
// (wx_hash_keys on `hasher`, a GLHT table): homes are mulhi(hash, homes), so this is table order,
// to measure what locality of the table accesses is worth (--presort-bits).
void presort(wx_table* hasher, std::vector<uint32_t>& keys, std::vector<uint32_t>* vals, int bits) {
  if (bits <= 0) return;
  std::vector<uint64_t> h(keys.size());
  ok(wx_hash_keys(hasher, keys.data(), h.data(), keys.size(), WX_MEM_HOST, nullptr), "wx_hash_keys");
  std::vector<uint64_t> start((size_t{1} << bits) + 1, 0);
  for (uint64_t x : h) ++start[(x >> (64 - bits)) + 1];
  for (size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
  std::vector<uint32_t> k2(keys.size()), v2(vals ? keys.size() : 0);
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint64_t at = start[h[i] >> (64 - bits)]++;
    k2[at] = keys[i];
    if (vals) v2[at] = (*vals)[i];
  }
  keys.swap(k2);
  if (vals) vals->swap(v2);
}

class Rng {
 public:
  explicit Rng(uint64_t s) : s_(s) {}
  uint64_t next() { return mix64(s_ += 0x9E3779B97F4A7C15ull); }
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64); }

 private:
  uint64_t s_;
};

// Owning device buffer, filled from a host vector.
class DevBuf {
 public:
  DevBuf() = default;
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  ~DevBuf() { if (p_) wx_device_free(p_); }
  void* reserve(int32_t device, uint64_t bytes) {
    if (bytes > cap_) {
      if (p_) ok(wx_device_free(p_), "wx_device_free");
      p_ = nullptr;
      ok(wx_device_alloc(device, bytes, &p_), "wx_device_alloc");
      cap_ = bytes;
    }
    return p_;
  }
  template <typename T>
  void* upload(int32_t device, const std::vector<T>& v) {
    void* p = reserve(device, std::max<uint64_t>(v.size() * sizeof(T), 1));
    if (!v.empty()) ok(wx_copy(p, WX_MEM_DEVICE, v.data(), WX_MEM_HOST, v.size() * sizeof(T)), "wx_copy");
    return p;
  }
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
  uint64_t cap_ = 0;
};

class Table {
 public:
  Table(const Options& o, uint64_t capacity, double lf) {
    wx_config c;
    ok(wx_config_init(&c, o.kind), "wx_config_init");
    c.device = o.device;
    c.capacity = capacity;
    c.max_load_factor = lf;
    c.key_bits = c.value_bits = o.key_bits;
    if (o.build_min >= 0) c.build_min = static_cast<uint64_t>(o.build_min);
    ok(wx_table_create(&c, &t_), "wx_table_create");
  }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  ~Table() { wx_table_destroy(t_); }
  wx_table* get() const { return t_; }
  double kernel_ms() const {
    wx_stats s;
    ok(wx_stats_get(t_, &s), "wx_stats_get");
    return s.last_kernel_ms;
  }
  wx_stats stats() const {
    wx_stats s;
    ok(wx_stats_get(t_, &s), "wx_stats_get");
    return s;
  }

 private:
  wx_table* t_ = nullptr;
};

struct Sample {
  double kernel_ms = 0, wall_ms = 0;
};

// Runs `call` (returns a status), recording kernel and wall time.
template <typename F>
Sample timed(const Table& t, F call, const char* what, bool allow_full = false) {
  auto t0 = std::chrono::steady_clock::now();
  int32_t st = call();
  auto t1 = std::chrono::steady_clock::now();
  if (!(st == WX_OK || (allow_full && st == WX_ERR_FULL))) ok(st, what);
  Sample s;
  s.wall_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  s.kernel_ms = t.kernel_ms();
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Row {
  std::string bench, op, params;
  uint64_t ops = 0;
  double kernel_ms = 0, wall_ms = 0;
};

class Report {
 public:
  explicit Report(const Options& o) : o_(o) {}
  void add(const std::string& bench, const std::string& op, const std::string& params, uint64_t ops,
           const std::vector<Sample>& samples) {
    std::vector<double> k, w;
    for (const Sample& s : samples) { k.push_back(s.kernel_ms); w.push_back(s.wall_ms); }
    Row r{bench, op, params, ops, median(k), median(w)};
    rows_.push_back(r);
    print(r);
  }
  void header() const {
    if (o_.csv) {
      std::printf("bench,kind,op,params,ops,kernel_ms,wall_ms,gops_kernel,gops_wall\n");
    } else {
      std::printf("%-8s %-13s %-34s %12s %11s %11s %9s %9s\n", "bench", "op", "params", "ops", "kernel_ms",
                  "wall_ms", "Gops/s(k)", "Gops/s(w)");
    }
    std::fflush(stdout);
  }

 private:
  void print(const Row& r) const {
    const double gk = r.kernel_ms > 0 ? r.ops / (r.kernel_ms * 1e6) : 0;
    const double gw = r.wall_ms > 0 ? r.ops / (r.wall_ms * 1e6) : 0;
    const char* kind = o_.kind == WX_KIND_HIVE ? "hive" : o_.kind == WX_KIND_GLHT ? "glht" : "cpu";
    if (o_.csv) {
      std::printf("%s,%s,%s,\"%s\",%llu,%.4f,%.4f,%.4f,%.4f\n", r.bench.c_str(), kind, r.op.c_str(), r.params.c_str(),
                  (unsigned long long)r.ops, r.kernel_ms, r.wall_ms, gk, gw);
    } else {
      std::printf("%-8s %-13s %-34s %12llu %11.3f %11.3f %9.3f %9.3f\n", r.bench.c_str(), r.op.c_str(),
                  r.params.c_str(), (unsigned long long)r.ops, r.kernel_ms, r.wall_ms, gk, gw);
    }
    std::fflush(stdout);
  }

  const Options& o_;
  std::vector<Row> rows_;
};

std::string fmt(const char* f, double a, double b = 0) {
  char buf[128];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

// static: insert / find present / find absent / erase of N unique keys at load factor lf.
// K = uint32_t or uint64_t (--key-bits): keys and values of that width.
template <typename K>
void bench_static(const Options& o, Report& rep, double lf, uint64_t run_seed) {
  const uint64_t n = uint64_t{1} << o.log2n;
  std::vector<K> keys, absent, vals(n);
  DevBuf dk, da, dv, dout, dres;
  std::vector<Sample> s_ins, s_hit, s_miss, s_era;
  const std::string params = fmt("N=2^%.0f lf=%.2f", o.log2n, lf) + (sizeof(K) == 8 ? " 64-bit" : "") +
                             (o.presort_bits ? fmt(" presort %.0f", o.presort_bits) : "");
  for (int r = 0; r <= o.reps; ++r) {  // r = 0 is the warm-up
    KeyGen g(run_seed + 1000003ull * r);
    fill_keys(g, keys, 0, n);
    fill_keys(g, absent, n, 2 * n);
    for (uint64_t i = 0; i < n; ++i) vals[i] = static_cast<K>(mix64(i + r));
    if constexpr (sizeof(K) == 4) {
      if (o.presort_bits > 0) {
        const Table hasher(o, 1024, lf);
        presort(hasher.get(), keys, &vals, o.presort_bits);
        presort(hasher.get(), absent, nullptr, o.presort_bits);
      }
    }
    void* k = dk.upload(o.device, keys);
    void* a = da.upload(o.device, absent);
    void* v = dv.upload(o.device, vals);
    void* out = dout.reserve(o.device, n);
    void* res = dres.reserve(o.device, n * sizeof(K));
    Table t(o, n, lf);
    Sample ins = timed(t, [&] { return wx_insert(t.get(), k, v, n, static_cast<uint8_t*>(out), WX_MEM_DEVICE, nullptr); },
                       "insert");
    uint64_t size = 0;
    ok(wx_size(t.get(), &size), "wx_size");
    if (size != n) die("static insert: size " + std::to_string(size) + " != " + std::to_string(n));
    Sample hit = timed(t, [&] { return wx_find(t.get(), k, res, n, 0xFFFFFFFFull, WX_MEM_DEVICE, nullptr); }, "find");
    Sample miss = timed(t, [&] { return wx_find(t.get(), a, res, n, 0xFFFFFFFFull, WX_MEM_DEVICE, nullptr); }, "find absent");
    Sample era = timed(t, [&] { return wx_erase(t.get(), k, n, static_cast<uint8_t*>(out), WX_MEM_DEVICE, nullptr); },
                       "erase");
    ok(wx_size(t.get(), &size), "wx_size");
    if (size != 0) die("static erase: size " + std::to_string(size) + " != 0");
    if (r == 0) continue;
    s_ins.push_back(ins); s_hit.push_back(hit); s_miss.push_back(miss); s_era.push_back(era);
  }
  rep.add("static", "insert", params, n, s_ins);
  rep.add("static", "find(hit)", params, n, s_hit);
  rep.add("static", "find(miss)", params, n, s_miss);
  rep.add("static", "erase", params, n, s_era);
}

// dynamic: one mixed batch over [0, range) on a table pre-filled with a random half of the range.
void bench_dynamic(const Options& o, Report& rep, uint64_t range, int ins, int era, double lf, uint64_t run_seed) {
  const uint64_t n = uint64_t{1} << o.log2ops;
  std::vector<uint32_t> pre_k, pre_v, keys(n), vals(n);
  std::vector<uint8_t> ops(n);
  DevBuf dpk, dpv, dk, dv, dops, dout;
  std::vector<Sample> samples;
  char params[96];
  std::snprintf(params, sizeof params, "[%d,%d,%d] keys=[0,%llu] lf=%.2f", ins, era, 100 - ins - era,
                (unsigned long long)(range - 1), lf);
  for (int r = 0; r <= o.reps; ++r) {
    Rng rng(run_seed + 7919ull * r);
    pre_k.clear(); pre_v.clear();
    for (uint64_t k = 0; k < range; ++k)
      if (rng.below(2)) { pre_k.push_back(static_cast<uint32_t>(k)); pre_v.push_back(static_cast<uint32_t>(rng.next())); }
    for (uint64_t i = 0; i < n; ++i) {
      keys[i] = static_cast<uint32_t>(rng.below(range));
      const uint64_t x = rng.below(100);
      ops[i] = x < static_cast<uint64_t>(ins) ? WX_OP_INSERT : x < static_cast<uint64_t>(ins + era) ? WX_OP_ERASE : WX_OP_FIND;
      vals[i] = static_cast<uint32_t>(rng.next());
    }
    Table t(o, std::max<uint64_t>(range, 1024), lf);
    void* pk = dpk.upload(o.device, pre_k);
    void* pv = dpv.upload(o.device, pre_v);
    ok(wx_insert(t.get(), pk, pv, pre_k.size(), nullptr, WX_MEM_DEVICE, nullptr), "prefill");
    void* k = dk.upload(o.device, keys);
    void* v = dv.upload(o.device, vals);
    void* op = dops.upload(o.device, ops);
    void* out = dout.reserve(o.device, n);
    Sample s = timed(t, [&] {
      return wx_batch(t.get(), static_cast<const uint8_t*>(op), k, v, n, static_cast<uint8_t*>(out), WX_MEM_DEVICE, nullptr);
    }, "batch");
    if (r > 0) samples.push_back(s);
  }
  rep.add("dynamic", "batch", params, n, samples);
}

// growth: table made for 2^20 keys, 2^log2n unique keys inserted in batches of 2^22; then all of
// them found in one call (the grown table's lookups).
void bench_growth(const Options& o, Report& rep, double lf, uint64_t run_seed) {
  const uint64_t n = uint64_t{1} << o.log2n, batch = std::min<uint64_t>(n, uint64_t{1} << 22);
  std::vector<uint32_t> keys, vals(n);
  DevBuf dk, dv, dres;
  std::vector<Sample> samples, finds;
  uint64_t resizes = 0;
  for (int r = 0; r <= o.reps; ++r) {
    KeyGen g(run_seed + 15485863ull * r);
    g.fill(keys, 0, n);
    for (uint64_t i = 0; i < n; ++i) vals[i] = static_cast<uint32_t>(i);
    void* k = dk.upload(o.device, keys);
    void* v = dv.upload(o.device, vals);
    Table t(o, uint64_t{1} << 20, lf);
    Sample total;
    for (uint64_t pos = 0; pos < n; pos += batch) {
      const uint64_t m = std::min(batch, n - pos);
      Sample s = timed(t, [&] {
        return wx_insert(t.get(), static_cast<uint32_t*>(k) + pos, static_cast<uint32_t*>(v) + pos, m, nullptr,
                         WX_MEM_DEVICE, nullptr);
      }, "growth insert");
      total.kernel_ms += s.kernel_ms;
      total.wall_ms += s.wall_ms;
    }
    uint64_t size = 0;
    ok(wx_size(t.get(), &size), "wx_size");
    if (size != n) die("growth: size " + std::to_string(size) + " != " + std::to_string(n));
    resizes = t.stats().resizes;
    void* res = dres.reserve(o.device, n * sizeof(uint32_t));
    Sample hit = timed(t, [&] { return wx_find(t.get(), k, res, n, 0xFFFFFFFFull, WX_MEM_DEVICE, nullptr); }, "find");
    if (r > 0) samples.push_back(total), finds.push_back(hit);
  }
  char params[96];
  std::snprintf(params, sizeof params, "2^20->2^%d batch=2^22 lf=%.2f rs=%llu", o.log2n, lf, (unsigned long long)resizes);
  rep.add("growth", "insert", params, n, samples);
  rep.add("growth", "find(hit)", params, n, finds);
}

void print_environment(const Options& o) {
  char name[256] = "?";
  int32_t cc = 0, sms = 0, rt = 0, drv = 0;
  uint64_t free_b = 0, total_b = 0;
  ok(wx_device_name(o.device, name, sizeof name), "wx_device_name");
  ok(wx_device_properties(o.device, &cc, &sms), "wx_device_properties");
  ok(wx_device_memory(o.device, &free_b, &total_b), "wx_device_memory");
  ok(wx_cuda_versions(&rt, &drv), "wx_cuda_versions");
  const char* c = o.csv ? "# " : "";
  std::printf("%swixbench %s  device %d: %s (sm_%d, %d SMs, %.1f GiB)  CUDA runtime %d.%d driver %d.%d\n", c,
              wx_version_string(), o.device, name, cc, sms, total_b / 1073741824.0, rt / 1000, (rt % 1000) / 10,
              drv / 1000, (drv % 1000) / 10);
  std::printf("%skind=%s key_bits=%d bench=%s N=2^%d ops=2^%d reps=%d (+1 warm-up, median) seed=%llu", c,
              o.kind == WX_KIND_HIVE ? "hive" : "glht", o.key_bits, o.bench.c_str(), o.log2n, o.log2ops, o.reps,
              (unsigned long long)o.seed);
  if (o.kind == WX_KIND_GLHT) {
    wx_config d;
    ok(wx_config_init(&d, o.kind), "wx_config_init");
    std::printf(" build_min=%llu", (unsigned long long)(o.build_min >= 0 ? uint64_t(o.build_min) : d.build_min));
  }
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  int32_t avail = 0;
  ok(wx_kind_available(o.kind, &avail), "wx_kind_available");
  if (!avail) die(std::string("kind not available: ") + wx_last_error());
  print_environment(o);
  Report rep(o);
  rep.header();
  // dynamic and growth run at one load factor: the one given, or 0.8 when several are swept.
  const double main_lf = o.lfs.size() == 1 ? o.lfs[0] : 0.8;
  uint64_t step = 0;
  auto seed = [&]() { return mix64(o.seed + ++step); };
  if (o.bench == "static" || o.bench == "all")
    for (double lf : o.lfs) {
      if (o.key_bits == 64) bench_static<uint64_t>(o, rep, lf, seed());
      else bench_static<uint32_t>(o, rep, lf, seed());
    }
  if (o.bench == "dynamic" || o.bench == "all") {
    const uint64_t ranges[] = {uint64_t{1} << 24, 101, 1001, 10001, 100001};
    const int mixes[][2] = {{20, 20}, {40, 40}};
    for (uint64_t range : ranges)
      for (const auto& m : mixes) bench_dynamic(o, rep, range, m[0], m[1], main_lf, seed());
  }
  if (o.bench == "growth" || o.bench == "all") bench_growth(o, rep, main_lf, seed());
  return 0;
}
