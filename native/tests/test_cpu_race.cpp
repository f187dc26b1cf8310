// Lock-free lookups racing hopscotch moves, on the core itself (HopCore with a test codec).
// Part 1, deterministic: the codec's read_window hook (between reading a hop bitmap and reading
// its slots) runs, inside a lookup, the very insert that moves the looked-up key. The lookup must
// still find it: it fails if a miss is accepted without validating the segment timestamp (checked
// by mutating that line of hop_core.hpp).
// Part 2, stress for 1.5 s: two reader threads look up keys stored outside their home line while a
// writer inserts and erases churn keys at ~0.9 load; no lookup of a present key may miss.
// Part 3, the 16-byte slot access of 64-bit tables itself (both the MOVDQA and the CMPXCHG16B paths):
// a writer flips a slot between pairs with equal halves while a reader checks it never sees mixed
// halves.
#include <atomic>
#include <functional>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include "check.hpp"
#include "cpu/hop_core.hpp"

namespace {

thread_local std::function<void()> t_hook;  // runs once in the next read window of this thread
thread_local int t_windows = 0;
std::atomic<bool> g_slow{false};

struct SlowReadKv : wx::cpu::Kv32 {
  static void read_window() {
    ++t_windows;
    if (t_hook) {
      auto h = std::move(t_hook);
      t_hook = nullptr;
      h();
    }
    if (g_slow.load(std::memory_order_relaxed))
      for (int i = 0; i < 64; ++i) wx::cpu::cpu_relax();
  }
};

using Core = wx::cpu::HopCore<SlowReadKv>;

// Fills a core to ~0.9 load with the same keys every time (single thread: deterministic layout).
void fill(Core& c, uint64_t seed) {
  std::mt19937 rng(seed);
  uint64_t disp = 0;
  const uint64_t n = uint64_t(double(c.buckets()) * 0.9);
  for (uint64_t i = 0; i < n;) {
    uint32_t k = (rng() >> 1) * 2 + 1;  // odd keys; the value is a function of the key
    uint8_t o = c.insert(k, k ^ 0x5555u, false, false, &disp);
    i += o == WX_OUT_INSERTED;
  }
}

void moves_inside_the_window() {
  wx::cpu::ThreadPool pool(1);
  const uint64_t buckets = 1 << 12;
  int scenarios = 0;
  uint64_t disp = 0;
  for (uint64_t seed = 1; scenarios < 20 && seed < 200; ++seed) {
    Core a(buckets, pool), b(buckets, pool);
    fill(a, seed);
    fill(b, seed);
    std::mt19937 rng(uint32_t(seed * 7777));
    for (int tries = 0; tries < 2000 && scenarios < 20; ++tries) {
      // Try a new key on copy b; find a key it moves that sits outside its home line.
      std::vector<uint64_t> before(b.slot_count());
      for (uint64_t j = 0; j < b.slot_count(); ++j) before[j] = b.slot(j);
      const uint32_t c = (rng() >> 1) * 2;  // even: never a filled key
      uint8_t o = b.insert(c, c ^ 0x5555u, false, false, &disp);
      uint32_t victim = SlowReadKv::kEmptyKey;
      for (uint64_t j = 0; j < b.slot_count() && o == WX_OUT_INSERTED; ++j) {
        uint32_t k = SlowReadKv::key(before[j]);
        if (k == SlowReadKv::kEmptyKey || k == c || SlowReadKv::key(b.slot(j)) == k) continue;
        if (j / 8 != a.home(k) / 8) victim = k;  // moved away from slot j, which is outside its home line
      }
      if (victim == SlowReadKv::kEmptyKey) {
        a.insert(c, c ^ 0x5555u, false, false, &disp);  // keep a identical to b
        continue;
      }
      // On a: look the victim up, and move it from inside the lookup's read window.
      bool fired = false;
      t_hook = [&] {
        fired = true;
        CHECK(a.insert(c, c ^ 0x5555u, false, false, &disp) == WX_OUT_INSERTED);
      };
      t_windows = 0;
      uint32_t v = 0;
      const uint8_t r = a.find(victim, &v);
      CHECK(fired);
      CHECK_MSG(r == WX_OUT_FOUND && v == (victim ^ 0x5555u), "key %u missed while it moved (scenario %d)", victim, scenarios);
      CHECK(t_windows >= 2);  // the first search was rejected by the timestamp and retried
      for (uint64_t j = 0; j < a.slot_count(); ++j) CHECK(a.slot(j) == b.slot(j));
      ++scenarios;
    }
  }
  CHECK_MSG(scenarios == 20, "only %d scenarios found", scenarios);
}

// A reader must never see the halves of two different stores.
template <typename Load, typename Store>
void torn_check(const char* name, Load load, Store store) {
  alignas(64) static wx::cpu::u128 slot = 0;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (uint64_t i = 1; !stop.load(std::memory_order_relaxed); ++i)
      store(&slot, (wx::cpu::u128(i) << 64) | i);  // both halves carry the same counter
  });
  uint64_t reads = 0, changes = 0, last = 0;
  // At least 300 ms, and on a loaded machine (the writer may get little time) until the reader has
  // seen changes, up to 20 s.
  const auto start = std::chrono::steady_clock::now();
  const auto min_until = start + std::chrono::milliseconds(300), max_until = start + std::chrono::seconds(20);
  for (auto now = start; now < min_until || (changes <= 10 && now < max_until); now = std::chrono::steady_clock::now()) {
    for (int j = 0; j < 1000; ++j, ++reads) {
      wx::cpu::u128 w = load(&slot);
      uint64_t lo = uint64_t(w), hi = uint64_t(w >> 64);
      CHECK_MSG(lo == hi, "%s: torn read %llx / %llx", name, (unsigned long long)lo, (unsigned long long)hi);
      changes += lo != last;
      last = lo;
    }
  }
  stop = true;
  writer.join();
  std::printf("%s: %llu reads, %llu changes seen, none torn\n", name, (unsigned long long)reads, (unsigned long long)changes);
  CHECK(changes > 10);  // the reader really raced the writer
}

void test_atomic16() {
#if defined(__x86_64__)
  if (wx::cpu::kAvxAtomic16) torn_check("movdqa", wx::cpu::load16, wx::cpu::store16);
  torn_check("cmpxchg16b", wx::cpu::load16_cas, wx::cpu::store16_cas);
#else
  torn_check("atomic builtins", wx::cpu::load16, wx::cpu::store16);
#endif
}

}  // namespace

int main() {
  moves_inside_the_window();
  test_atomic16();
  g_slow = true;
  wx::cpu::ThreadPool pool(1);
  const uint64_t buckets = 1 << 12;
  Core core(buckets, pool);
  const uint32_t stable = uint32_t(buckets * 0.86), churn = uint32_t(buckets * 0.1);
  uint64_t disp = 0;
  for (uint32_t i = 0; i < stable; ++i) CHECK(core.insert(2 * i + 1, i, false, false, &disp) == WX_OUT_INSERTED);

  // Watch the stable keys stored outside their home slot's cache line: those are looked up through
  // the bitmap (the fast path covers the home line) and only ever move farther from home.
  std::vector<uint32_t> watched;
  for (uint64_t j = 0; j < core.slot_count(); ++j) {
    uint32_t k = SlowReadKv::key(core.slot(j));
    if (k != SlowReadKv::kEmptyKey && (j / 8) != (core.home(k) / 8)) watched.push_back(k);
  }
  CHECK(watched.size() > 100);
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> lookups{0}, misses{0};
  const unsigned readers = 2;
  std::vector<std::thread> threads;
  for (unsigned r = 0; r < readers; ++r) {
    threads.emplace_back([&, r] {
      std::mt19937 rng(r + 1);
      uint64_t n = 0, bad = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        uint32_t k = watched[rng() % watched.size()], v = ~0u;
        if (core.find(k, &v) != WX_OUT_FOUND || v != (k - 1) / 2) ++bad;
        ++n;
      }
      lookups += n;
      misses += bad;
    });
  }
  // The writer keeps the table near 0.9 load: inserting churn keys forces moves of stable keys.
  uint64_t writes = 0, full = 0;
  std::mt19937 rng(99);
  std::vector<bool> in(churn, false);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
  while (std::chrono::steady_clock::now() < until) {
    for (int b = 0; b < 256; ++b, ++writes) {
      uint32_t c = rng() % churn;
      if (in[c]) {
        CHECK(core.erase(2 * c) == WX_OUT_ERASED);
        in[c] = false;
      } else {
        uint8_t o = core.insert(2 * c, 0, false, false, &disp);
        CHECK(o == WX_OUT_INSERTED || o == wx::cpu::kNeedRoom);
        in[c] = o == WX_OUT_INSERTED;
        full += o != WX_OUT_INSERTED;
      }
    }
  }
  stop = true;
  for (auto& t : threads) t.join();
  std::printf("%llu lookups, %llu misses, %llu writes, %llu moves, %llu no-room\n", (unsigned long long)lookups.load(),
              (unsigned long long)misses.load(), (unsigned long long)writes, (unsigned long long)disp,
              (unsigned long long)full);
  CHECK_MSG(misses == 0, "present keys were missed during hopscotch moves");
  CHECK(disp > 100 && lookups > 1000);  // (slow under sanitizers or a loaded machine)
  // Everything stable is still there with its value.
  for (uint32_t i = 0; i < stable; ++i) {
    uint32_t v = 0;
    CHECK(core.find(2 * i + 1, &v) == WX_OUT_FOUND && v == i);
  }
  std::printf("test_cpu_race: OK\n");
  return 0;
}
