// libFuzzer target: the input bytes are a program of C-API calls on CPU tables. A std::unordered_map
// per table is the oracle; any disagreement, a call that had to fail returning OK (or the reverse), an
// undefined status or an outcome the call cannot produce aborts (a crash for libFuzzer). ASan/UBSan/
// LSan catch memory errors and leaks of the library on every input.
//
// Input format (so seeds can be written by hand; a byte past the end reads as 0):
//   repeated: op byte (low 4 bits: op, bit 4: table slot 0/1) then that op's bytes, see run_op().
//   Slot 0 starts with a default CPU table (capacity 32, 1 thread); create replaces a slot's table.
//   Keys: byte b < 200 -> b % 48 (a small pool, so calls hit each other); 200..247 -> 0x7FFFFFF0 + ...;
//   248 -> 0xFFFFFFFD, 249 -> 0xFFFFFFFC (largest valid keys), 250 -> 0xFFFFFFFF, 251 -> 0xFFFFFFFE
//   (reserved), 252..255 -> the next 4 bytes (little endian).
//
// Arrays are always exact-size std::vectors (or NULL): the library may get NULL pointers, bad memory
// flags and WX_MEM_DEVICE on host memory, never out-of-bounds pointers (C cannot detect those).
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <unistd.h>

#include "wixlib.h"

namespace {

[[noreturn]] void die(const char* fmt, ...) {
  std::va_list ap;
  va_start(ap, fmt);
  std::fprintf(stderr, "FUZZ CHECK FAILED: ");
  std::vfprintf(stderr, fmt, ap);
  std::fprintf(stderr, " (last error: %s)\n", wx_last_error());
  va_end(ap);
  std::abort();
}

#define FCHECK(cond, ...)          \
  do {                             \
    if (!(cond)) die(__VA_ARGS__); \
  } while (0)

constexpr uint64_t kMaxSlotsOk = uint64_t(1) << 20;  // tables up to this many slots must be created
constexpr int kOps = 16;
constexpr double kLfFloorAllowed = 0.05;  // below this a refused max_load_factor is accepted

class Reader {
 public:
  Reader(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  bool done() const { return pos_ >= n_; }
  uint8_t u8() { return pos_ < n_ ? d_[pos_++] : 0; }
  uint16_t u16() { return uint16_t(u8() | (u8() << 8)); }
  uint32_t u32() { return uint32_t(u16()) | (uint32_t(u16()) << 16); }
  uint64_t u64() { return uint64_t(u32()) | (uint64_t(u32()) << 32); }

 private:
  const uint8_t* d_;
  size_t n_, pos_ = 0;
};

uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

bool reserved(uint32_t k) { return k >= WX_KEY32_TOMBSTONE; }

uint64_t physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : UINT64_MAX;
}

// Every status must be a defined code, a failure must come with a message, a success clears it.
int32_t checked(int32_t st, const char* call) {
  FCHECK(st >= WX_OK && st <= WX_ERR_INTERNAL, "%s returned undefined status %d", call, st);
  FCHECK(st != WX_ERR_INTERNAL, "%s reported an internal error", call);
  const char* m = wx_last_error();
  FCHECK(m != nullptr, "wx_last_error() is NULL");
  if (st != WX_OK) FCHECK(m[0] != '\0', "%s failed with %s but left no message", call, wx_status_name(st));
  else FCHECK(m[0] == '\0', "%s succeeded but left the message \"%s\"", call, m);
  return st;
}

// What a call with these arguments must return, judged from the arguments alone.
enum class Expect { ok, bad_arg, either };  // either: OK or INVALID_ARGUMENT both acceptable

void expect_status(int32_t st, Expect e, const char* call) {
  if (e == Expect::bad_arg)
    FCHECK(st == WX_ERR_INVALID_ARGUMENT, "%s must fail with INVALID_ARGUMENT, got %s", call, wx_status_name(st));
  if (e == Expect::either)
    FCHECK(st == WX_OK || st == WX_ERR_INVALID_ARGUMENT, "%s: got %s", call, wx_status_name(st));
}

// How many slots a CPU table needs for `keys` keys at load factor lf; 0 when beyond any machine.
enum class Size { small, huge, gray };
Size classify(uint64_t keys, double lf) {
  const long double slots = std::ceil((long double)keys / (long double)lf);
  if (slots <= (long double)kMaxSlotsOk) return Size::small;
  // 8 bytes per key is the least any table of 32-bit pairs needs; beyond memory it must refuse.
  if (slots * 8.0L > (long double)physical_memory()) return Size::huge;
  return Size::gray;  // valid but would really allocate gigabytes: not generated
}

struct Slot {
  wx_table* t = nullptr;
  double lf = 0.9;
  bool grow_never = false;
  std::unordered_map<uint32_t, uint32_t> map;  // the oracle
};

struct State {
  Slot slots[2];
};

uint32_t read_key(Reader& r) {
  uint8_t b = r.u8();
  if (b < 200) return b % 48;
  if (b < 248) return 0x7FFFFFF0u + (b - 200);
  switch (b) {
    case 248: return 0xFFFFFFFDu;
    case 249: return 0xFFFFFFFCu;
    case 250: return WX_KEY32_EMPTY;
    case 251: return WX_KEY32_TOMBSTONE;
    default: return r.u32();
  }
}

int32_t read_mem(Reader& r, uint8_t flags) {
  if (!(flags & 0x80)) return WX_MEM_HOST;
  uint8_t m = r.u8();
  if (m < 200) return WX_MEM_DEVICE;
  return m < 230 ? int32_t(m) : -int32_t(m);  // not a wx_mem
}

// Pointer shape of one bulk call, from a flags byte.
struct Shape {
  bool keys_null, values_null, outcomes_null;
  int32_t mem;
};
Shape read_shape(Reader& r) {
  uint8_t f = r.u8();
  Shape s;
  s.keys_null = (f & 0x07) == 0x07;
  s.values_null = (f & 0x38) == 0x38;
  s.outcomes_null = f & 0x40;
  s.mem = read_mem(r, f);
  return s;
}

uint64_t read_n(Reader& r) { return r.u8() % 33; }

// Argument errors every bulk call shares; returns the expectation before looking at keys.
Expect arg_expect(const Shape& sh, uint64_t n, bool needs_values, bool needs_outcomes) {
  if (sh.mem != WX_MEM_HOST && sh.mem != WX_MEM_DEVICE) return Expect::bad_arg;
  if (n == 0) return sh.keys_null || sh.mem == WX_MEM_DEVICE || (needs_values && sh.values_null) ||
                             (needs_outcomes && sh.outcomes_null)
                         ? Expect::either
                         : Expect::ok;
  if (sh.keys_null || (needs_values && sh.values_null) || (needs_outcomes && sh.outcomes_null)) return Expect::bad_arg;
  if (sh.mem == WX_MEM_DEVICE) return Expect::bad_arg;  // a CPU table takes host memory only
  return Expect::ok;
}

// The status a well-formed call returns from the per-element results.
void expect_elements(int32_t st, bool any_reserved, bool any_full, bool grow_never, const char* call) {
  if (any_reserved) {
    FCHECK(st == WX_ERR_INVALID_KEY, "%s with a reserved key returned %s", call, wx_status_name(st));
    return;
  }
  if (any_full) {
    FCHECK(st == WX_ERR_FULL, "%s with FULL elements returned %s", call, wx_status_name(st));
    return;
  }
  if (grow_never)
    FCHECK(st == WX_OK || st == WX_ERR_FULL, "%s returned %s", call, wx_status_name(st));
  else
    FCHECK(st == WX_OK, "%s returned %s (the table may grow, memory is plentiful)", call, wx_status_name(st));
}

void check_size(Slot& s, const char* after) {
  uint64_t size = ~0ull;
  checked(wx_size(s.t, &size), "wx_size");
  FCHECK(size == s.map.size(), "after %s: size %llu, oracle %zu", after, (unsigned long long)size, s.map.size());
}

// Learns after an insert-type call with invisible outcomes which of `keys` were placed: each is
// either as before or holds its new value.
void resync(Slot& s, const std::vector<uint32_t>& keys, const std::unordered_map<uint32_t, uint32_t>& newval,
            bool assign) {
  for (uint32_t k : keys) {
    if (reserved(k)) continue;
    uint32_t v = 0;
    int32_t st = checked(wx_find(s.t, &k, &v, 1, 0, WX_MEM_HOST, nullptr), "wx_find (resync)");
    FCHECK(st == WX_OK, "resync find returned %s", wx_status_name(st));
    uint8_t found = 0;
    checked(wx_contains(s.t, &k, &found, 1, WX_MEM_HOST, nullptr), "wx_contains (resync)");
    auto it = s.map.find(k);
    if (it != s.map.end()) {
      FCHECK(found, "resync: key %u vanished", k);
      FCHECK(v == it->second || (assign && v == newval.at(k)), "resync: key %u has %u", k, v);
      it->second = v;
    } else if (found) {
      FCHECK(v == newval.at(k), "resync: key %u got %u, expected %u", k, v, newval.at(k));
      s.map[k] = v;
    }
  }
}

// insert (assign = false) or insert_or_assign (assign = true) of given keys and values.
void do_insert(Slot& s, std::vector<uint32_t> keys, std::vector<uint32_t> vals, Shape sh, bool assign) {
  const uint64_t n = keys.size();
  const char* call = assign ? "wx_insert_or_assign" : "wx_insert";
  // Duplicates of a key in one call run concurrently: give them one value where the winner is not
  // visible, so the oracle stays exact.
  std::unordered_map<uint32_t, uint32_t> first;
  for (uint64_t i = 0; i < n; ++i) {
    auto [it, fresh] = first.emplace(keys[i], vals[i]);
    if (!fresh && (assign || sh.outcomes_null || sh.values_null)) vals[i] = it->second;
  }
  if (sh.values_null && !assign)
    for (auto& kv : first) kv.second = 0;  // NULL values insert value 0
  std::vector<uint8_t> out(n, 0xEE);
  const Expect e = arg_expect(sh, n, assign, false);
  int32_t st = checked(assign ? wx_insert_or_assign(s.t, sh.keys_null ? nullptr : keys.data(),
                                                    sh.values_null ? nullptr : vals.data(), n,
                                                    sh.outcomes_null ? nullptr : out.data(), sh.mem, nullptr)
                              : wx_insert(s.t, sh.keys_null ? nullptr : keys.data(),
                                          sh.values_null ? nullptr : vals.data(), n,
                                          sh.outcomes_null ? nullptr : out.data(), sh.mem, nullptr),
                       call);
  expect_status(st, e, call);
  if (e != Expect::ok) {  // rejected (or an empty call): nothing may have changed
    check_size(s, call);
    return;
  }
  bool any_reserved = false, any_full = false;
  for (uint64_t i = 0; i < n; ++i) any_reserved |= reserved(keys[i]);
  if (sh.outcomes_null) {
    expect_elements(st, any_reserved, false, s.grow_never, call);
    if (s.grow_never && st != WX_OK) {
      resync(s, keys, first, assign);
    } else {
      for (auto& [k, v] : first) {
        if (reserved(k)) continue;
        if (assign) s.map[k] = v;
        else s.map.emplace(k, v);
      }
    }
    check_size(s, call);
    return;
  }
  // Outcomes visible: per key, the elements' outcomes must fit one sequential order.
  std::unordered_map<uint32_t, std::vector<uint64_t>> groups;
  for (uint64_t i = 0; i < n; ++i) {
    if (reserved(keys[i])) {
      FCHECK(out[i] == WX_OUT_INVALID_KEY, "%s: reserved key %u got outcome %u", call, keys[i], out[i]);
      continue;
    }
    groups[keys[i]].push_back(i);
  }
  for (auto& [k, idx] : groups) {
    auto it = s.map.find(k);
    const uint8_t again = assign ? WX_OUT_ASSIGNED : WX_OUT_PRESENT;
    if (it != s.map.end()) {
      for (uint64_t i : idx) FCHECK(out[i] == again, "%s: present key %u got outcome %u", call, k, out[i]);
      if (assign) it->second = vals[idx.back()];
      continue;
    }
    int inserted = -1, full = 0;
    for (uint64_t i : idx) {
      const uint8_t o = out[i];
      FCHECK(o == WX_OUT_INSERTED || o == again || o == WX_OUT_FULL, "%s: key %u got outcome %u", call, k, o);
      if (o == WX_OUT_INSERTED) {
        FCHECK(inserted < 0, "%s: key %u inserted twice in one call", call, k);
        inserted = int(i);
      }
      full += o == WX_OUT_FULL;
    }
    FCHECK(full == 0 || s.grow_never, "%s: key %u FULL although the table may grow", call, k);
    if (inserted < 0) {
      FCHECK(full == int(idx.size()), "%s: absent key %u reported present", call, k);
      any_full = true;
      continue;
    }
    any_full |= full > 0;
    s.map[k] = sh.values_null ? 0 : vals[inserted];
  }
  expect_elements(st, any_reserved, any_full, s.grow_never, call);
  check_size(s, call);
}

std::vector<uint32_t> read_keys(Reader& r, uint64_t n) {
  std::vector<uint32_t> k(n);
  for (auto& x : k) x = read_key(r);
  return k;
}

std::vector<uint32_t> make_values(uint64_t seed, const std::vector<uint32_t>& keys) {
  std::vector<uint32_t> v(keys.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = uint32_t(mix(seed * 1000003 + i) >> 17);
  return v;
}

void do_find(Slot& s, Reader& r) {
  Shape sh = read_shape(r);
  const uint64_t n = read_n(r);
  auto keys = read_keys(r, n);
  const uint64_t nf = r.u8() < 128 ? 0 : r.u64();
  std::vector<uint32_t> vals(n, 0xA5A5A5A5u);
  const Expect e = arg_expect(sh, n, true, false);
  int32_t st = checked(wx_find(s.t, sh.keys_null ? nullptr : keys.data(), sh.values_null ? nullptr : vals.data(), n,
                               nf, sh.mem, nullptr),
                       "wx_find");
  expect_status(st, e, "wx_find");
  if (e != Expect::ok) return;
  bool any_reserved = false;
  for (uint64_t i = 0; i < n; ++i) {
    if (reserved(keys[i])) {
      any_reserved = true;
      continue;
    }
    auto it = s.map.find(keys[i]);
    const uint32_t want = it != s.map.end() ? it->second : uint32_t(nf);
    FCHECK(vals[i] == want, "wx_find: key %u gave %u, oracle %u", keys[i], vals[i], want);
  }
  expect_elements(st, any_reserved, false, false, "wx_find");
}

void do_contains(Slot& s, Reader& r) {
  Shape sh = read_shape(r);
  const uint64_t n = read_n(r);
  auto keys = read_keys(r, n);
  std::vector<uint8_t> found(n, 0xEE);
  const Expect e = arg_expect(sh, n, false, true);
  int32_t st = checked(wx_contains(s.t, sh.keys_null ? nullptr : keys.data(), sh.outcomes_null ? nullptr : found.data(),
                                   n, sh.mem, nullptr),
                       "wx_contains");
  expect_status(st, e, "wx_contains");
  if (e != Expect::ok) return;
  bool any_reserved = false;
  for (uint64_t i = 0; i < n; ++i) {
    if (reserved(keys[i])) {
      any_reserved = true;
      continue;
    }
    const bool want = s.map.count(keys[i]) > 0;
    FCHECK(found[i] == uint8_t(want), "wx_contains: key %u gave %u, oracle %d", keys[i], found[i], want);
  }
  expect_elements(st, any_reserved, false, false, "wx_contains");
}

void do_erase(Slot& s, Reader& r) {
  Shape sh = read_shape(r);
  const uint64_t n = read_n(r);
  auto keys = read_keys(r, n);
  std::vector<uint8_t> out(n, 0xEE);
  const Expect e = arg_expect(sh, n, false, false);
  int32_t st = checked(wx_erase(s.t, sh.keys_null ? nullptr : keys.data(), n, sh.outcomes_null ? nullptr : out.data(),
                                sh.mem, nullptr),
                       "wx_erase");
  expect_status(st, e, "wx_erase");
  if (e != Expect::ok) {
    check_size(s, "wx_erase (rejected)");
    return;
  }
  bool any_reserved = false;
  std::unordered_map<uint32_t, int> erased;  // per key: elements reporting ERASED
  for (uint64_t i = 0; i < n; ++i) {
    if (reserved(keys[i])) {
      any_reserved = true;
      if (!sh.outcomes_null) FCHECK(out[i] == WX_OUT_INVALID_KEY, "wx_erase: reserved key got %u", out[i]);
      continue;
    }
    int& c = erased[keys[i]];
    if (!sh.outcomes_null) {
      FCHECK(out[i] == WX_OUT_ERASED || out[i] == WX_OUT_NOT_FOUND, "wx_erase: outcome %u", out[i]);
      c += out[i] == WX_OUT_ERASED;
    }
  }
  for (auto& [k, c] : erased) {
    const bool had = s.map.erase(k) > 0;
    if (!sh.outcomes_null) FCHECK(c == (had ? 1 : 0), "wx_erase: key %u erased %d times, oracle had it: %d", k, c, had);
  }
  expect_elements(st, any_reserved, false, false, "wx_erase");
  check_size(s, "wx_erase");
}

// Mixed batch. Keys are made distinct (elements of one batch run concurrently, so a key's ops in one
// batch have no fixed order); a rare op byte is not a wx_op and must make the whole call fail.
void do_batch(Slot& s, Reader& r) {
  Shape sh = read_shape(r);
  const uint64_t n = read_n(r);
  auto keys = read_keys(r, n);
  std::unordered_set<uint32_t> seen;
  for (auto& k : keys) {
    if (reserved(k)) continue;
    while (!seen.insert(k).second || reserved(k)) k += 0x10000u;
  }
  std::vector<uint8_t> ops(n);
  bool bad_op = false;
  for (auto& o : ops) {
    uint8_t b = r.u8();
    o = b >= 252 ? b : b % 4;
    bad_op |= o > WX_OP_INSERT_OR_ASSIGN;
  }
  auto vals = make_values(r.u16(), keys);
  const auto before = vals;
  std::vector<uint8_t> out(n, 0xEE);
  const bool ops_null = (r.u8() & 0x0F) == 0x0F;
  Expect e = arg_expect(sh, n, true, false);
  if (n > 0 && ops_null && e == Expect::ok) e = Expect::bad_arg;
  if (n == 0 && ops_null && e == Expect::ok) e = Expect::either;
  if (n > 0 && bad_op && e == Expect::ok) e = Expect::bad_arg;
  int32_t st = checked(wx_batch(s.t, ops_null ? nullptr : ops.data(), sh.keys_null ? nullptr : keys.data(),
                                sh.values_null ? nullptr : vals.data(), n, sh.outcomes_null ? nullptr : out.data(),
                                sh.mem, nullptr),
                       "wx_batch");
  expect_status(st, e, "wx_batch");
  if (e != Expect::ok) {
    check_size(s, "wx_batch (rejected)");  // a rejected batch applies nothing
    return;
  }
  bool any_reserved = false, any_full = false, unsure = false;
  std::vector<uint32_t> resync_keys;
  std::unordered_map<uint32_t, uint32_t> newval;
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t k = keys[i];
    const uint8_t o = out[i];
    if (reserved(k)) {
      any_reserved = true;
      if (!sh.outcomes_null) FCHECK(o == WX_OUT_INVALID_KEY, "wx_batch: reserved key got %u", o);
      continue;
    }
    auto it = s.map.find(k);
    const bool had = it != s.map.end();
    switch (ops[i]) {
      case WX_OP_FIND:
        FCHECK(vals[i] == (had ? it->second : before[i]), "wx_batch find: key %u gave %u", k, vals[i]);
        if (!sh.outcomes_null) FCHECK(o == (had ? WX_OUT_FOUND : WX_OUT_NOT_FOUND), "wx_batch find: outcome %u", o);
        break;
      case WX_OP_ERASE:
        if (!sh.outcomes_null) FCHECK(o == (had ? WX_OUT_ERASED : WX_OUT_NOT_FOUND), "wx_batch erase: outcome %u", o);
        s.map.erase(k);
        break;
      default: {  // insert / insert_or_assign
        const bool assign = ops[i] == WX_OP_INSERT_OR_ASSIGN;
        FCHECK(vals[i] == before[i], "wx_batch: insert changed values[%llu]", (unsigned long long)i);
        if (had) {
          if (!sh.outcomes_null)
            FCHECK(o == (assign ? WX_OUT_ASSIGNED : WX_OUT_PRESENT), "wx_batch insert: present key outcome %u", o);
          if (assign) it->second = vals[i];
          break;
        }
        if (sh.outcomes_null) {
          if (s.grow_never) {
            unsure = true;
            resync_keys.push_back(k);
            newval[k] = vals[i];
          } else {
            s.map[k] = vals[i];
          }
          break;
        }
        FCHECK(o == WX_OUT_INSERTED || (o == WX_OUT_FULL && s.grow_never), "wx_batch insert: outcome %u", o);
        if (o == WX_OUT_FULL) any_full = true;
        else s.map[k] = vals[i];
      }
    }
  }
  if (unsure) {
    expect_elements(st, any_reserved, false, true, "wx_batch");
    resync(s, resync_keys, newval, false);
  } else {
    expect_elements(st, any_reserved, any_full, s.grow_never, "wx_batch");
  }
  check_size(s, "wx_batch");
}

// Every oracle key is found with its value, absent keys are absent, and size/stats agree.
void verify(Slot& s) {
  std::vector<uint32_t> keys, want;
  for (auto& [k, v] : s.map) keys.push_back(k), want.push_back(v);
  for (uint32_t k = 0; k < 48; ++k)
    if (!s.map.count(k)) keys.push_back(k), want.push_back(0xDEADBEEFu);
  std::vector<uint32_t> got(keys.size(), 1);
  int32_t st = checked(wx_find(s.t, keys.data(), got.data(), keys.size(), 0xDEADBEEFu, WX_MEM_HOST, nullptr), "wx_find");
  FCHECK(st == WX_OK, "verify find returned %s", wx_status_name(st));
  for (size_t i = 0; i < keys.size(); ++i)
    FCHECK(got[i] == want[i], "verify: key %u gave %u, oracle %u", keys[i], got[i], want[i]);
  check_size(s, "verify");
}

void do_stats(Slot& s, Reader& r) {
  const uint8_t f = r.u8();
  uint64_t size = 0, cap = 0;
  double lf = -1;
  wx_stats st{};
  expect_status(checked(wx_size(s.t, (f & 1) ? nullptr : &size), "wx_size"), (f & 1) ? Expect::bad_arg : Expect::ok,
                "wx_size");
  expect_status(checked(wx_capacity(s.t, (f & 2) ? nullptr : &cap), "wx_capacity"),
                (f & 2) ? Expect::bad_arg : Expect::ok, "wx_capacity");
  expect_status(checked(wx_load_factor(s.t, (f & 4) ? nullptr : &lf), "wx_load_factor"),
                (f & 4) ? Expect::bad_arg : Expect::ok, "wx_load_factor");
  expect_status(checked(wx_stats_get(s.t, (f & 8) ? nullptr : &st), "wx_stats_get"),
                (f & 8) ? Expect::bad_arg : Expect::ok, "wx_stats_get");
  if (f & 15) return;
  FCHECK(size == s.map.size(), "wx_size %llu, oracle %zu", (unsigned long long)size, s.map.size());
  FCHECK(st.size == size && st.capacity == cap, "stats disagree with size/capacity");
  FCHECK(cap >= size, "capacity %llu below size %llu", (unsigned long long)cap, (unsigned long long)size);
  FCHECK(st.bytes > 0, "stats.bytes is 0");
  FCHECK(std::fabs(lf - (cap ? double(size) / double(cap) : 0.0)) < 1e-9, "load factor %f", lf);
  FCHECK(lf <= 1.0, "load factor %f above 1", lf);
}

void do_retrieve_all(Slot& s, Reader& r) {
  const uint8_t f = r.u8();
  const uint64_t size = s.map.size();
  uint64_t max;
  switch (r.u8() % 5) {
    case 0: max = size ? size - 1 : 0; break;
    case 1: max = 0; break;
    case 2: max = size + 3; break;
    case 3: max = size / 2; break;
    default: max = size;
  }
  const bool keys_null = (f & 3) == 3, vals_null = (f & 12) == 12, count_null = (f & 0x70) == 0x70;
  const int32_t mem = read_mem(r, f);
  std::vector<uint32_t> k(max, 0x5A5A5A5Au), v(max, 0x5A5A5A5Au);
  uint64_t count = 12345;
  int32_t st = checked(wx_retrieve_all(s.t, keys_null ? nullptr : k.data(), vals_null ? nullptr : v.data(), max,
                                       count_null ? nullptr : &count, mem, nullptr),
                       "wx_retrieve_all");
  if (count_null || (mem != WX_MEM_HOST && mem != WX_MEM_DEVICE)) {
    expect_status(st, Expect::bad_arg, "wx_retrieve_all");
    return;
  }
  if (size > max) {
    expect_status(st, Expect::bad_arg, "wx_retrieve_all (too small)");
    FCHECK(count == size, "wx_retrieve_all too small: count %llu, size %llu", (unsigned long long)count,
           (unsigned long long)size);
    for (uint64_t i = 0; i < max; ++i)
      FCHECK(k[i] == 0x5A5A5A5Au && v[i] == 0x5A5A5A5Au, "wx_retrieve_all wrote into too-small arrays");
    return;
  }
  if (size == 0) {
    expect_status(st, Expect::either, "wx_retrieve_all (empty)");
    if (st == WX_OK) FCHECK(count == 0, "wx_retrieve_all of an empty table: count %llu", (unsigned long long)count);
    return;
  }
  if (keys_null || vals_null || mem == WX_MEM_DEVICE) {
    expect_status(st, Expect::bad_arg, "wx_retrieve_all (bad arrays)");
    return;
  }
  expect_status(st, Expect::ok, "wx_retrieve_all");
  FCHECK(count == size, "wx_retrieve_all count %llu, oracle %llu", (unsigned long long)count, (unsigned long long)size);
  std::unordered_set<uint32_t> seen;
  for (uint64_t i = 0; i < count; ++i) {
    auto it = s.map.find(k[i]);
    FCHECK(it != s.map.end(), "wx_retrieve_all returned unknown key %u", k[i]);
    FCHECK(it->second == v[i], "wx_retrieve_all: key %u with %u, oracle %u", k[i], v[i], it->second);
    FCHECK(seen.insert(k[i]).second, "wx_retrieve_all returned key %u twice", k[i]);
  }
  for (uint64_t i = count; i < max; ++i) FCHECK(k[i] == 0x5A5A5A5Au, "wx_retrieve_all wrote past count");
}

uint64_t read_capacity(Reader& r, uint64_t size) {
  const uint8_t c = r.u8();
  switch (c % 12) {
    case 0: return 0;
    case 1: return size;
    case 2: return size ? size - 1 : 0;
    case 3: return size + (c >> 4);
    case 4: return UINT64_MAX;
    case 5: return (uint64_t(1) << 36) + (c >> 4);        // just above the API's limit
    case 6: return uint64_t(1) << (34 + (c >> 6));        // 2^34..2^37: beyond any memory here
    case 7: return r.u64();
    default: return size + r.u16() % 4096;
  }
}

void destroy(Slot& s) {
  if (s.t) FCHECK(checked(wx_table_destroy(s.t), "wx_table_destroy") == WX_OK, "destroy failed");
  s.t = nullptr;
  s.map.clear();
}

void do_create(Slot& s, Reader& r) {
  destroy(s);
  const uint8_t f = r.u8();
  wx_config c;
  int32_t kind = WX_KIND_CPU;
  if ((f & 0x0F) == 0x0F) {
    const uint8_t k = r.u8();
    kind = k < 128 ? k % 3 : int32_t(r.u32());
  }
  const bool kind_ok = kind == WX_KIND_CPU || kind == WX_KIND_GLHT || kind == WX_KIND_HIVE;
  int32_t st = checked(wx_config_init(&c, kind_ok ? kind : WX_KIND_CPU), "wx_config_init");
  FCHECK(st == WX_OK && c.key_bits == 32 && c.value_bits == 32 && c.grow == WX_GROW_AUTO, "wx_config_init");
  if (!kind_ok) {
    wx_config junk;
    expect_status(checked(wx_config_init(&junk, kind), "wx_config_init"), Expect::bad_arg, "wx_config_init(bad kind)");
  }
  c.kind = kind;
  bool valid = kind == WX_KIND_CPU;  // no GPU in this build: GLHT/Hive must fail too
  const uint8_t g = r.u8();
  if ((g & 0x0F) == 0x0F) {  // bad widths
    c.key_bits = (g & 0x10) ? 64 : int32_t(r.u8());
    c.value_bits = (g & 0x20) ? 32 : int32_t(r.u8());
  }
  // 64/64 is a valid config (wide tables), but the ops below pass 32-bit arrays: created, checked, dropped.
  const bool wide = c.key_bits == 64 && c.value_bits == 64;
  valid &= (c.key_bits == 32 && c.value_bits == 32) || wide;
  static const double kLf[] = {0.9, 0.5, 1.0, 0.75, 0.25, 0.05, 0.999, 1e-3, 0.0, -0.5, 1.0000001, 2.0,
                               std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(), 1e-300};
  c.max_load_factor = kLf[r.u8() % 16];
  const bool lf_ok = std::isfinite(c.max_load_factor) && c.max_load_factor > 0 && c.max_load_factor <= 1;
  valid &= lf_ok;
  static const double kMin[] = {0.0, 0.0, 0.0, 0.1, 0.5, -0.1, 0.95, 1.0, std::numeric_limits<double>::quiet_NaN()};
  c.min_load_factor = kMin[r.u8() % 9];
  valid &= std::isfinite(c.min_load_factor) && c.min_load_factor >= 0 && c.min_load_factor < c.max_load_factor;
  const uint8_t gr = r.u8();
  c.grow = gr < 160 ? WX_GROW_AUTO : gr < 250 ? WX_GROW_NEVER : int32_t(gr);
  valid &= c.grow == WX_GROW_AUTO || c.grow == WX_GROW_NEVER;
  // Mostly single-threaded tables: waking pool workers costs milliseconds on a loaded CI machine.
  static const int32_t kThreads[] = {1, 1, 1, 1, 0, 2, -1, std::numeric_limits<int32_t>::min()};
  c.threads = kThreads[r.u8() % 8];
  valid &= c.threads >= 0;
  c.device = int32_t(r.u8()) - 2;
  c.capacity = read_capacity(r, 0);
  bool must_fail = !valid || c.capacity > (uint64_t(1) << 36);
  if (!must_fail && lf_ok) {
    const Size z = classify(c.capacity, c.max_load_factor);
    if (z == Size::gray) return;  // valid but gigabytes: not generated
    must_fail = z == Size::huge;
  }
  wx_table* t = reinterpret_cast<wx_table*>(&c);  // junk: must not be trusted after a failure
  st = checked(wx_table_create(&c, &t), "wx_table_create");
  if (must_fail) {
    FCHECK(st != WX_OK, "wx_table_create accepted an invalid or impossible config (kind %d, bits %d/%d, lf %g, "
                        "min %g, grow %d, threads %d, capacity %llu)",
           c.kind, c.key_bits, c.value_bits, c.max_load_factor, c.min_load_factor, c.grow, c.threads,
           (unsigned long long)c.capacity);
    return;
  }
  // A library may set a floor on max_load_factor (tiny factors make every insert call grow the table).
  if (st == WX_ERR_INVALID_ARGUMENT && c.max_load_factor < kLfFloorAllowed) return;
  FCHECK(st == WX_OK, "wx_table_create refused a valid config: %s", wx_status_name(st));
  FCHECK(t != nullptr, "wx_table_create returned OK and no table");
  if (wide) {
    FCHECK(checked(wx_table_destroy(t), "wx_table_destroy") == WX_OK, "destroy of a 64/64 table failed");
    return;
  }
  s.t = t;
  s.lf = c.max_load_factor;
  s.grow_never = c.grow == WX_GROW_NEVER;
  uint64_t cap = 0;
  checked(wx_capacity(t, &cap), "wx_capacity");
  FCHECK(cap >= c.capacity, "new table has %llu slots for %llu keys", (unsigned long long)cap,
         (unsigned long long)c.capacity);
  check_size(s, "wx_table_create");
}

void do_resize(Slot& s, Reader& r) {
  const uint64_t size = s.map.size();
  const uint64_t c = read_capacity(r, size);
  Expect e = Expect::ok;
  bool huge = false;
  if (c < size || c > (uint64_t(1) << 36)) {
    e = Expect::bad_arg;
  } else {
    const Size z = classify(c, s.lf);
    if (z == Size::gray) return;
    huge = z == Size::huge;
  }
  int32_t st = checked(wx_resize(s.t, c), "wx_resize");
  if (huge) {
    FCHECK(st == WX_ERR_OUT_OF_MEMORY || st == WX_ERR_INVALID_ARGUMENT, "wx_resize to %llu keys returned %s",
           (unsigned long long)c, wx_status_name(st));
  } else {
    expect_status(st, e, "wx_resize");
    FCHECK(e != Expect::ok || st == WX_OK, "wx_resize to %llu (size %llu) returned %s", (unsigned long long)c,
           (unsigned long long)size, wx_status_name(st));
  }
  if (st == WX_OK) {
    uint64_t cap = 0;
    checked(wx_capacity(s.t, &cap), "wx_capacity");
    FCHECK(cap >= c, "after wx_resize(%llu): %llu slots", (unsigned long long)c, (unsigned long long)cap);
  }
  verify(s);  // failed or not, the contents are unchanged
}

// Calls on a NULL table must be refused, never dereferenced.
void do_null_table(Reader& r) {
  uint32_t k = 1, v = 2;
  uint8_t o = 0, op = 0;
  uint64_t u = 0;
  double d = 0;
  wx_stats st;
  const uint64_t n = r.u8() & 1;
  auto bad = [](int32_t s, const char* call) { expect_status(checked(s, call), Expect::bad_arg, call); };
  const Expect e_n = n ? Expect::bad_arg : Expect::either;
  expect_status(checked(wx_insert(nullptr, &k, &v, n, &o, WX_MEM_HOST, nullptr), "wx_insert(NULL)"), e_n, "wx_insert");
  expect_status(checked(wx_insert_or_assign(nullptr, &k, &v, n, &o, WX_MEM_HOST, nullptr), "ia(NULL)"), e_n, "ia");
  expect_status(checked(wx_find(nullptr, &k, &v, n, 0, WX_MEM_HOST, nullptr), "wx_find(NULL)"), e_n, "wx_find");
  expect_status(checked(wx_contains(nullptr, &k, &o, n, WX_MEM_HOST, nullptr), "contains(NULL)"), e_n, "contains");
  expect_status(checked(wx_erase(nullptr, &k, n, &o, WX_MEM_HOST, nullptr), "wx_erase(NULL)"), e_n, "wx_erase");
  expect_status(checked(wx_batch(nullptr, &op, &k, &v, n, &o, WX_MEM_HOST, nullptr), "wx_batch(NULL)"), e_n, "batch");
  bad(wx_size(nullptr, &u), "wx_size(NULL)");
  bad(wx_capacity(nullptr, &u), "wx_capacity(NULL)");
  bad(wx_load_factor(nullptr, &d), "wx_load_factor(NULL)");
  bad(wx_stats_get(nullptr, &st), "wx_stats_get(NULL)");
  bad(wx_clear(nullptr), "wx_clear(NULL)");
  bad(wx_resize(nullptr, 10), "wx_resize(NULL)");
  bad(wx_retrieve_all(nullptr, &k, &v, 1, &u, WX_MEM_HOST, nullptr), "wx_retrieve_all(NULL)");
  bad(wx_table_create(nullptr, nullptr), "wx_table_create(NULL)");
  FCHECK(checked(wx_table_destroy(nullptr), "wx_table_destroy(NULL)") == WX_OK, "wx_table_destroy(NULL) failed");
}

// A large insert (past the single-thread threshold, through growth) from a seeded generator.
void do_bulk(Slot& s, Reader& r) {
  const uint64_t n = 2049 + r.u16() % 2048;
  const uint32_t range = 64u << (r.u8() % 12);
  const uint64_t seed = r.u32();
  const bool assign = r.u8() & 1;
  std::vector<uint32_t> keys(n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = uint32_t(mix(seed + i) % range);
  Shape sh{false, false, false, WX_MEM_HOST};
  do_insert(s, keys, make_values(seed, keys), sh, assign);
}

void run_op(State& st, Reader& r) {
  const uint8_t b = r.u8();
  const uint8_t op = b % kOps;
  Slot& s = st.slots[(b >> 4) & 1];
  if (op == 0) return do_create(s, r);
  if (op == 13) return do_null_table(r);
  if (!s.t) return;  // the other ops need a table
  switch (op) {
    case 1: destroy(s); return;
    case 2:
    case 3: {
      Shape sh = read_shape(r);
      const uint64_t n = read_n(r);
      auto keys = read_keys(r, n);
      return do_insert(s, keys, make_values(r.u16(), keys), sh, op == 3);
    }
    case 4: return do_find(s, r);
    case 5: return do_contains(s, r);
    case 6: return do_erase(s, r);
    case 7: return do_batch(s, r);
    case 8: return do_resize(s, r);
    case 9:
      FCHECK(checked(wx_clear(s.t), "wx_clear") == WX_OK, "wx_clear failed");
      s.map.clear();
      check_size(s, "wx_clear");
      return;
    case 10: return do_retrieve_all(s, r);
    case 11: return do_stats(s, r);
    case 12: return do_bulk(s, r);
    default: return verify(s);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r(data, size);
  State st;
  // Slot 0 starts with a small single-threaded table so that most mutations exercise table calls.
  wx_config c;
  FCHECK(checked(wx_config_init(&c, WX_KIND_CPU), "wx_config_init") == WX_OK, "wx_config_init failed");
  c.capacity = 32;
  c.threads = 1;
  FCHECK(checked(wx_table_create(&c, &st.slots[0].t), "wx_table_create") == WX_OK, "default table refused");
  st.slots[0].lf = c.max_load_factor;
  for (int steps = 0; !r.done() && steps < 256; ++steps) run_op(st, r);
  for (Slot& s : st.slots) {
    if (!s.t) continue;
    verify(s);
    destroy(s);
  }
  return 0;
}
