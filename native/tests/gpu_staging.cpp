// Staging of host arrays for the GPU kinds (common/device_staging.cu), through the C API with
// WX_MEM_HOST arrays: many small chunks (wx_config.staging_chunk = 4096, ragged last chunk, pipelined
// slots reused many times), a few large chunks (parallel host copies), every bulk call, reserved keys
// and FULL outcomes spread over chunks; each with the arrays in ordinary memory, in page-locked memory
// (wx_host_alloc: copied straight to and from the device) and with only the inputs registered
// (wx_host_register: some arrays direct, the others staged), one table given page-locked arrays
// first and ordinary ones after, and tables staging at once on four threads. Results are checked
// element by element against what the keys must give. Also wx_link_measure. Skips (77) where no
// device exists.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"

namespace {

// Where the test's host arrays live.
enum class Memory { ordinary, page_locked, inputs_registered };
Memory g_memory = Memory::ordinary;
const char* memory_name(Memory m) {
  return m == Memory::ordinary ? "ordinary" : m == Memory::page_locked ? "page-locked" : "inputs registered";
}

constexpr size_t kPage = 4096;
size_t page_round(size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }

// Page-aligned, whole pages (a registration locks whole pages: two arrays must not share one); from
// wx_host_alloc in page_locked mode. The mode is fixed while a test's arrays exist.
template <class T>
struct HostAlloc {
  using value_type = T;
  HostAlloc() = default;
  template <class U>
  HostAlloc(const HostAlloc<U>&) {}
  T* allocate(size_t n) {
    void* p = nullptr;
    if (g_memory == Memory::page_locked) {
      CHECK_OK(wx_host_alloc(page_round(n * sizeof(T)), &p));
    } else {
      p = std::aligned_alloc(kPage, page_round(n * sizeof(T)));
      if (!p) throw std::bad_alloc();
    }
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) {
    if (g_memory == Memory::page_locked) {
      CHECK_OK(wx_host_free(p));
    } else {
      std::free(p);
    }
  }
  template <class U>
  bool operator==(const HostAlloc<U>&) const { return true; }
};
template <class T>
using HostVec = std::vector<T, HostAlloc<T>>;

// Registers an input array for the test's duration in inputs_registered mode.
class Registered {
 public:
  template <class T>
  explicit Registered(HostVec<T>& v) {
    if (g_memory != Memory::inputs_registered || v.empty()) return;
    p_ = v.data();
    CHECK_OK(wx_host_register(p_, page_round(v.size() * sizeof(T))));
  }
  ~Registered() {
    if (p_) CHECK_OK(wx_host_unregister(p_));
  }
  Registered(const Registered&) = delete;
  Registered& operator=(const Registered&) = delete;

 private:
  void* p_ = nullptr;
};

const char* kind_name(int32_t kind) { return kind == WX_KIND_GLHT ? "GLHT" : "Hive"; }

// Distinct keys: an odd multiplier is a bijection on 32 bits; reserved values are skipped.
HostVec<uint32_t> make_keys(uint64_t n, uint32_t salt) {
  HostVec<uint32_t> k;
  k.reserve(n);
  for (uint32_t i = 0; k.size() < n; ++i) {
    const uint32_t x = (i + salt) * 2654435761u;
    if (x < WX_KEY32_TOMBSTONE) k.push_back(x);
  }
  return k;
}

uint32_t value_of(uint32_t key) { return key ^ 0x9E3779B9u; }

// chunk: elements per staging chunk (wx_config.staging_chunk).
wx_table* make_table(int32_t kind, uint64_t capacity, int32_t grow, uint64_t chunk) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, kind));
  c.capacity = capacity;
  c.grow = grow;
  c.staging_chunk = chunk;
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  return t;
}

void all_calls(int32_t kind, uint64_t chunk, uint64_t n) {
  const std::string what = std::string(kind_name(kind)) + " chunk " + std::to_string(chunk) + " " +
                           memory_name(g_memory);
  wx_table* t = make_table(kind, n / 2, WX_GROW_AUTO, chunk);  // grows inside the staged insert
  HostVec<uint32_t> keys = make_keys(n, 1), absent = make_keys(n, 0x40000000u);
  HostVec<uint32_t> vals(n), got(n);
  HostVec<uint8_t> out(n, 0xAB), found(n, 0xAB);
  for (uint64_t i = 0; i < n; ++i) vals[i] = value_of(keys[i]);
  const Registered reg_keys(keys), reg_absent(absent), reg_vals(vals);

  CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(out[i] == WX_OUT_INSERTED, "%s insert: element %llu outcome %u", what.c_str(), (unsigned long long)i, out[i]);
  uint64_t size = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK_MSG(size == n, "%s: size %llu after %llu inserts", what.c_str(), (unsigned long long)size, (unsigned long long)n);

  // Again, half with new values through insert_or_assign: ASSIGNED everywhere.
  for (uint64_t i = 0; i < n; ++i) vals[i] = value_of(keys[i]) + 1;
  CHECK_OK(wx_insert_or_assign(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(out[i] == WX_OUT_ASSIGNED, "%s assign: element %llu outcome %u", what.c_str(), (unsigned long long)i, out[i]);
  CHECK_OK(wx_insert(t, keys.data(), nullptr, n, out.data(), WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(out[i] == WX_OUT_PRESENT, "%s re-insert: element %llu outcome %u", what.c_str(), (unsigned long long)i, out[i]);

  CHECK_OK(wx_find(t, keys.data(), got.data(), n, 7, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(got[i] == value_of(keys[i]) + 1, "%s find: element %llu got %u", what.c_str(), (unsigned long long)i, got[i]);
  CHECK_OK(wx_find(t, absent.data(), got.data(), n, 7, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(got[i] == 7, "%s find absent: element %llu got %u", what.c_str(), (unsigned long long)i, got[i]);
  CHECK_OK(wx_contains(t, keys.data(), found.data(), n, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(found[i] == 1, "%s contains: element %llu", what.c_str(), (unsigned long long)i);

  // Mixed batch on distinct keys: even elements erase present keys, odd ones find them, and the
  // absent keys are inserted (a third of them) in the same call.
  const uint64_t m = n;
  HostVec<uint8_t> ops(m);
  HostVec<uint32_t> bk(m), bv(m);
  const Registered reg_ops(ops), reg_bk(bk), reg_bv(bv);
  for (uint64_t i = 0; i < m; ++i) {
    if (i % 3 == 2) {
      ops[i] = WX_OP_INSERT, bk[i] = absent[i], bv[i] = value_of(absent[i]);
    } else {
      ops[i] = i % 3 == 0 ? WX_OP_ERASE : WX_OP_FIND, bk[i] = keys[i], bv[i] = 5;
    }
  }
  CHECK_OK(wx_batch(t, ops.data(), bk.data(), bv.data(), m, out.data(), WX_MEM_HOST, nullptr));
  uint64_t expect = n;
  for (uint64_t i = 0; i < m; ++i) {
    const uint8_t want = i % 3 == 2 ? WX_OUT_INSERTED : i % 3 == 0 ? WX_OUT_ERASED : WX_OUT_FOUND;
    CHECK_MSG(out[i] == want, "%s batch: element %llu outcome %u, want %u", what.c_str(), (unsigned long long)i, out[i], want);
    if (i % 3 == 1) CHECK_MSG(bv[i] == value_of(keys[i]) + 1, "%s batch find: element %llu got %u", what.c_str(), (unsigned long long)i, bv[i]);
    expect += i % 3 == 2 ? 1 : i % 3 == 0 ? uint64_t(-1) : 0;
  }
  CHECK_OK(wx_size(t, &size));
  CHECK_MSG(size == expect, "%s: size %llu after the batch, want %llu", what.c_str(), (unsigned long long)size,
            (unsigned long long)expect);

  CHECK_OK(wx_erase(t, keys.data(), n, out.data(), WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t want = i % 3 == 0 ? WX_OUT_NOT_FOUND : WX_OUT_ERASED;
    CHECK_MSG(out[i] == want, "%s erase: element %llu outcome %u, want %u", what.c_str(), (unsigned long long)i, out[i], want);
  }
  CHECK_OK(wx_erase(t, keys.data(), n, nullptr, WX_MEM_HOST, nullptr));  // no outcomes, nothing left
  CHECK_OK(wx_contains(t, keys.data(), found.data(), n, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i) CHECK_MSG(found[i] == 0, "%s contains after erase: element %llu", what.c_str(), (unsigned long long)i);

  // A reserved key in the last chunk: only that element is refused.
  HostVec<uint32_t> rk(keys.begin(), keys.end());
  rk[n - 1] = WX_KEY32_EMPTY;
  const Registered reg_rk(rk);
  CHECK_STATUS(wx_insert(t, rk.data(), nullptr, n, out.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t want = i == n - 1 ? WX_OUT_INVALID_KEY : WX_OUT_INSERTED;
    CHECK_MSG(out[i] == want, "%s reserved: element %llu outcome %u, want %u", what.c_str(), (unsigned long long)i, out[i], want);
  }
  CHECK_OK(wx_table_destroy(t));
  std::printf("%s: %llu elements per call, every bulk call staged correctly\n", what.c_str(), (unsigned long long)n);
}

// GROW_NEVER and many more keys than room: FULL outcomes in many chunks, INSERTED ones all found.
void full_over_chunks(int32_t kind) {
  const uint64_t n = 50000;
  wx_table* t = make_table(kind, 2000, WX_GROW_NEVER, 4096);
  const HostVec<uint32_t> keys = make_keys(n, 3);
  std::vector<uint32_t> vals(n), got(n);
  std::vector<uint8_t> out(n, 0xAB);
  for (uint64_t i = 0; i < n; ++i) vals[i] = value_of(keys[i]);
  CHECK_STATUS(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr), WX_ERR_FULL);
  uint64_t inserted = 0, full = 0;
  for (uint64_t i = 0; i < n; ++i) {
    CHECK_MSG(out[i] == WX_OUT_INSERTED || out[i] == WX_OUT_FULL, "%s full: element %llu outcome %u", kind_name(kind),
              (unsigned long long)i, out[i]);
    inserted += out[i] == WX_OUT_INSERTED;
    full += out[i] == WX_OUT_FULL;
  }
  uint64_t size = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK_MSG(size == inserted && full > 0, "%s full: size %llu, %llu inserted, %llu full", kind_name(kind),
            (unsigned long long)size, (unsigned long long)inserted, (unsigned long long)full);
  CHECK_OK(wx_find(t, keys.data(), got.data(), n, 0, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t want = out[i] == WX_OUT_INSERTED ? vals[i] : 0;
    CHECK_MSG(got[i] == want, "%s full: element %llu found %u, want %u", kind_name(kind), (unsigned long long)i, got[i], want);
  }
  CHECK_OK(wx_table_destroy(t));
  std::printf("%s: GROW_NEVER, %llu keys: %llu inserted, %llu FULL, outcomes match the table\n", kind_name(kind),
              (unsigned long long)n, (unsigned long long)inserted, (unsigned long long)full);
}

// Page-locked caller memory, wx_host_alloc'ed and freed with the test.
struct PageLocked {
  explicit PageLocked(uint64_t n) { CHECK_OK(wx_host_alloc(page_round(n * sizeof(uint32_t)), reinterpret_cast<void**>(&p))); }
  ~PageLocked() { CHECK_OK(wx_host_free(p)); }
  PageLocked(const PageLocked&) = delete;
  PageLocked& operator=(const PageLocked&) = delete;
  uint32_t* p = nullptr;
};

// One table whose first calls pass only page-locked arrays (its staging needs no page-locked buffers
// of its own), then ordinary arrays (they are made then), then page-locked ones again.
void page_locked_then_ordinary(int32_t kind) {
  const uint64_t n = 100003;  // 25 chunks of 4096
  const std::string what = std::string(kind_name(kind)) + " page-locked then ordinary";
  wx_table* t = make_table(kind, 2 * n, WX_GROW_AUTO, 4096);
  const HostVec<uint32_t> first = make_keys(n, 5), second = make_keys(n, 0x20000005u);
  PageLocked pk(n), pv(n), pgot(n), pout(n);
  std::vector<uint32_t> ov(n), ogot(n);
  std::vector<uint8_t> oout(n, 0xAB);
  for (uint64_t i = 0; i < n; ++i) {
    pk.p[i] = first[i];
    pv.p[i] = value_of(first[i]);
    ov[i] = value_of(second[i]);
  }
  auto* pout8 = reinterpret_cast<uint8_t*>(pout.p);
  CHECK_OK(wx_insert(t, pk.p, pv.p, n, pout8, WX_MEM_HOST, nullptr));  // every array page-locked
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(pout8[i] == WX_OUT_INSERTED, "%s insert: element %llu outcome %u", what.c_str(), (unsigned long long)i, pout8[i]);
  CHECK_OK(wx_find(t, pk.p, ogot.data(), n, 7, WX_MEM_HOST, nullptr));  // results to pack
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(ogot[i] == value_of(first[i]), "%s find: element %llu got %u", what.c_str(), (unsigned long long)i, ogot[i]);
  CHECK_OK(wx_insert(t, second.data(), ov.data(), n, oout.data(), WX_MEM_HOST, nullptr));  // all packed
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(oout[i] == WX_OUT_INSERTED, "%s ordinary insert: element %llu outcome %u", what.c_str(), (unsigned long long)i, oout[i]);
  CHECK_OK(wx_find(t, second.data(), pgot.p, n, 7, WX_MEM_HOST, nullptr));
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(pgot.p[i] == value_of(second[i]), "%s find ordinary keys: element %llu got %u", what.c_str(), (unsigned long long)i, pgot.p[i]);
  CHECK_OK(wx_find(t, pk.p, pgot.p, n, 7, WX_MEM_HOST, nullptr));  // page-locked again
  for (uint64_t i = 0; i < n; ++i)
    CHECK_MSG(pgot.p[i] == value_of(first[i]), "%s find again: element %llu got %u", what.c_str(), (unsigned long long)i, pgot.p[i]);
  uint64_t size = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK_MSG(size == 2 * n, "%s: size %llu, want %llu", what.c_str(), (unsigned long long)size, (unsigned long long)(2 * n));
  CHECK_OK(wx_table_destroy(t));
  std::printf("%s: calls staged correctly\n", what.c_str());
}

// Tables on four threads at once, each staging ordinary arrays: every call borrows its own pinned
// buffers from the process's pool (and later calls reuse the ones given back).
void tables_on_threads(int32_t kind) {
  const uint64_t n = 100003;  // 25 chunks of 4096
  std::vector<std::thread> threads;
  for (uint32_t w = 0; w < 4; ++w)
    threads.emplace_back([kind, n, w] {
      wx_table* t = make_table(kind, n, WX_GROW_AUTO, 4096);
      const HostVec<uint32_t> keys = make_keys(n, 0x01000000u * (w + 1));
      std::vector<uint32_t> vals(n), got(n);
      std::vector<uint8_t> out(n, 0xAB);
      for (uint64_t i = 0; i < n; ++i) vals[i] = value_of(keys[i]);
      for (int round = 0; round < 3; ++round) {
        CHECK_OK(wx_insert(t, keys.data(), vals.data(), n, out.data(), WX_MEM_HOST, nullptr));
        for (uint64_t i = 0; i < n; ++i)
          CHECK_MSG(out[i] == WX_OUT_INSERTED, "%s thread %u insert: element %llu outcome %u", kind_name(kind), w,
                    (unsigned long long)i, out[i]);
        CHECK_OK(wx_find(t, keys.data(), got.data(), n, 7, WX_MEM_HOST, nullptr));
        for (uint64_t i = 0; i < n; ++i)
          CHECK_MSG(got[i] == vals[i], "%s thread %u find: element %llu got %u", kind_name(kind), w, (unsigned long long)i,
                    got[i]);
        CHECK_OK(wx_erase(t, keys.data(), n, nullptr, WX_MEM_HOST, nullptr));
      }
      CHECK_OK(wx_table_destroy(t));
    });
  for (std::thread& th : threads) th.join();
  std::printf("%s: tables on 4 threads staged correctly\n", kind_name(kind));
}

// The link's rates are positive and within what a PCIe or NVLink-C2C host link can carry.
void link_rates() {
  wx_link_rates r;
  CHECK_OK(wx_link_measure(0, uint64_t(64) << 20, &r));
  for (double g : {r.host_to_device, r.device_to_host, r.both_directions, r.host_copy, r.host_copy_join})
    CHECK_MSG(g > 0.1 && g < 2000, "link rate %.3f GB/s is implausible", g);
  CHECK_MSG(r.host_copy_threads >= 1, "host copy threads %d", r.host_copy_threads);
  CHECK_MSG(r.host_copy_join_threads >= r.host_copy_threads, "a join's copy threads %d, a table's %d",
            r.host_copy_join_threads, r.host_copy_threads);
  std::printf("link: host->device %.1f, device->host %.1f, both %.1f, host copy %.1f GB/s (%d threads), %.1f GB/s"
              " (%d threads)\n", r.host_to_device, r.device_to_host, r.both_directions, r.host_copy,
              r.host_copy_threads, r.host_copy_join, r.host_copy_join_threads);
}

}  // namespace

int main() {
  wxtest::require_gpu_or_skip(WX_KIND_GLHT);
  const bool quick = wxsuite::small_run();
  for (Memory m : {Memory::ordinary, Memory::page_locked, Memory::inputs_registered}) {
    g_memory = m;
    for (int32_t kind : {WX_KIND_GLHT, WX_KIND_HIVE}) {
      all_calls(kind, 4096, 100003);  // 25 chunks, the last one ragged
      all_calls(kind, 1024, 1000);    // one chunk
      if (!quick) all_calls(kind, uint64_t(1) << 20, (uint64_t(3) << 20) + 17);  // parallel host copies
    }
  }
  g_memory = Memory::ordinary;
  for (int32_t kind : {WX_KIND_GLHT, WX_KIND_HIVE}) {
    full_over_chunks(kind);
    page_locked_then_ordinary(kind);
    tables_on_threads(kind);
  }
  link_rates();
  return 0;
}
