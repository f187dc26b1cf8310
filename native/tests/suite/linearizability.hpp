// Per-key linearizability checker for one mixed concurrent batch.
//
// Input: the batch (op, key, value given, outcome, value returned per element), the table's state of
// every key before the batch and after it. For each key it decides whether SOME sequential order of
// that key's operations, started from the before-state, produces exactly the recorded outcomes, the
// values the finds returned, and the after-state. Keys are independent (a hash table is a set of
// independent registers), so per-key checking is the whole of linearizability for a single batch in
// which every operation is concurrent with every other one.
//
// Why counts suffice (no permutations, so 10^6 ops on 100 keys cost a sort):
// A key's sequential history is a sequence of "segments": maximal stretches in which the key is
// present, alternating with stretches in which it is absent, starting with presence p0 and ending
// with presence p1. Only INSERTED (absent -> present, value v) and ERASED (present -> absent) switch
// segments. Every other successful outcome is a point that must lie in a segment of the right kind:
//   PRESENT (insert, key there), ASSIGNED (insert_or_assign, key there; sets the value), FOUND(w)
//   (key there with value w) lie in present segments; NOT_FOUND (find or erase) in absent ones.
// Writers are the initial value (when p0 = 1), every INSERTED (opens a present segment) and every
// ASSIGNED (changes the value inside one). Let i = #INSERTED, e = #ERASED, A = the ASSIGNED values.
//
//  C1  i - e == p1 - p0. (Switches alternate, so they differ by at most one and the first switch is
//      fixed by p0; conversely any i, e with this difference can be arranged alternately.)
//  C2  PRESENT / ASSIGNED / FOUND exist  =>  a present segment exists: p0 = 1 or i >= 1.
//  C3  NOT_FOUND exists                  =>  an absent segment exists:  p0 = 0 or e >= 1.
//  C4  every FOUND value w was written by some writer (initial value, an INSERTED or an ASSIGNED).
//  C5  p1 = 1: the final value v1 is the value of the last writer of the last present segment.
//      Either v1 is in A (put that ASSIGNED last in the last segment), or the last segment's opener
//      has value v1 and every ASSIGNED lies in an earlier present segment: with i >= 1 that opener is
//      an INSERTED with value v1 and, if A is non-empty, a second present segment must exist
//      (p0 + i >= 2); with i = 0 the only segment is the initial one, so v1 = v0 and A is empty.
//
// Necessity: each condition restates a property every valid order has (argued inline above).
// Sufficiency (construction): lay out the segments as C1 allows, choosing the last opener as C5 says;
// put all ASSIGNED in the last present segment (v1 one last) when v1 is in A, else all in an earlier
// present segment (or any, when p1 = 0); then place each FOUND(w) right after a writer of w (C4) —
// readers never change state, so any number fit after one writer, and the value there is w;
// PRESENT anywhere present (C2), NOT_FOUND anywhere absent (C3). This order explains everything.
//
// Outcomes that carry no state information are not constrained: FULL (the insert was not placed)
// may sit anywhere (callers that expect no FULL check that separately). NONE ("not executed") and an
// outcome that does not belong to the op are rejected. A reserved key must get INVALID_KEY and never
// appear afterwards; a non-reserved key must never get INVALID_KEY. A find that returns NOT_FOUND must
// leave its value slot as it was (wx_batch contract).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "wixlib.h"

namespace wxsuite {

// A concurrent batch as recorded by the test. values_before = values[] as passed in (insert values,
// and the pre-call contents of find slots); values_after = values[] after the call. K: the key and
// value type (uint32_t, or uint64_t for 64-bit tables).
template <class K>
struct BatchRecordT {
  const uint8_t* ops = nullptr;
  const K* keys = nullptr;
  const K* values_before = nullptr;
  const K* values_after = nullptr;
  const uint8_t* outcomes = nullptr;
  uint64_t n = 0;
};
using BatchRecord = BatchRecordT<uint32_t>;

// State of a key range [0, range): present flag + value per key. Used for before/after states of
// the mixed tests; keys outside the range are absent.
struct DenseState {
  explicit DenseState(uint64_t range = 0) : present(range, 0), value(range, 0) {}
  std::vector<uint8_t> present;
  std::vector<uint32_t> value;
  uint64_t range() const { return present.size(); }
  bool get(uint32_t k, uint32_t* v) const {
    if (k >= present.size() || !present[k]) return false;
    *v = value[k];
    return true;
  }
  void set(uint32_t k, uint32_t v) { present[k] = 1; value[k] = v; }
  void erase(uint32_t k) { present[k] = 0; }
  uint64_t count() const { return std::accumulate(present.begin(), present.end(), uint64_t{0}); }
};

// State held in a hash map (any keys).
template <class K>
struct MapStateT {
  std::unordered_map<K, K> map;
  bool get(K k, K* v) const {
    auto it = map.find(k);
    if (it == map.end()) return false;
    *v = it->second;
    return true;
  }
};
using MapState = MapStateT<uint32_t>;

struct Verdict {
  bool ok = true;
  uint64_t key = 0;
  std::string reason;  // which condition failed
  std::string detail;  // the key's states and ops
  uint64_t keys_checked = 0;
};

inline const char* op_name(uint8_t op) {
  switch (op) {
    case WX_OP_INSERT: return "insert";
    case WX_OP_ERASE: return "erase";
    case WX_OP_FIND: return "find";
    case WX_OP_INSERT_OR_ASSIGN: return "insert_or_assign";
    default: return "op?";
  }
}

inline const char* outcome_name(uint8_t o) {
  switch (o) {
    case WX_OUT_NONE: return "NONE";
    case WX_OUT_INSERTED: return "INSERTED";
    case WX_OUT_PRESENT: return "PRESENT";
    case WX_OUT_ASSIGNED: return "ASSIGNED";
    case WX_OUT_FOUND: return "FOUND";
    case WX_OUT_NOT_FOUND: return "NOT_FOUND";
    case WX_OUT_ERASED: return "ERASED";
    case WX_OUT_FULL: return "FULL";
    case WX_OUT_INVALID_KEY: return "INVALID_KEY";
    default: return "outcome?";
  }
}

inline bool is_reserved(uint32_t k) { return k >= WX_KEY32_TOMBSTONE; }
inline bool is_reserved(uint64_t k) { return k >= WX_KEY64_TOMBSTONE; }

// Whether `outcome` is one the operation `op` may report (INVALID_KEY handled separately).
inline bool outcome_fits_op(uint8_t op, uint8_t outcome) {
  switch (op) {
    case WX_OP_INSERT:
      return outcome == WX_OUT_INSERTED || outcome == WX_OUT_PRESENT || outcome == WX_OUT_FULL;
    case WX_OP_INSERT_OR_ASSIGN:
      return outcome == WX_OUT_INSERTED || outcome == WX_OUT_ASSIGNED || outcome == WX_OUT_FULL;
    case WX_OP_ERASE: return outcome == WX_OUT_ERASED || outcome == WX_OUT_NOT_FOUND;
    case WX_OP_FIND: return outcome == WX_OUT_FOUND || outcome == WX_OUT_NOT_FOUND;
    default: return false;
  }
}

namespace detail {

template <class K>
std::string describe_key(const BatchRecordT<K>& b, const uint64_t* idx, uint64_t cnt, bool p0, K v0, bool p1,
                         K v1) {
  std::string s;
  char line[200];
  std::snprintf(line, sizeof line, "  before: %s", p0 ? "present value=" : "absent");
  s += line;
  if (p0) s += std::to_string(v0);
  std::snprintf(line, sizeof line, "\n  after:  %s", p1 ? "present value=" : "absent");
  s += line;
  if (p1) s += std::to_string(v1);
  std::snprintf(line, sizeof line, "\n  %llu ops:\n", static_cast<unsigned long long>(cnt));
  s += line;
  const uint64_t shown = std::min<uint64_t>(cnt, 40);
  for (uint64_t j = 0; j < shown; ++j) {
    uint64_t i = idx[j];
    std::snprintf(line, sizeof line, "    [%llu] %s value_in=%llu -> %s value_out=%llu\n",
                  static_cast<unsigned long long>(i), op_name(b.ops[i]),
                  static_cast<unsigned long long>(b.values_before ? b.values_before[i] : K{0}),
                  outcome_name(b.outcomes[i]),
                  static_cast<unsigned long long>(b.values_after ? b.values_after[i] : K{0}));
    s += line;
  }
  if (shown < cnt) s += "    ...\n";
  return s;
}

// Checks one key's ops (indices idx[0..cnt)); returns "" when some sequential order explains them.
template <class K>
std::string check_key(const BatchRecordT<K>& b, K key, const uint64_t* idx, uint64_t cnt, bool p0, K v0, bool p1,
                      K v1, bool allow_full) {
  if (is_reserved(key)) {
    for (uint64_t j = 0; j < cnt; ++j)
      if (b.outcomes[idx[j]] != WX_OUT_INVALID_KEY) return "reserved key without INVALID_KEY";
    if (p1) return "reserved key stored in the table";
    return "";
  }
  int64_t ins = 0, era = 0, present_reads = 0, absent_reads = 0;
  std::vector<K> inserted, assigned, found;
  for (uint64_t j = 0; j < cnt; ++j) {
    const uint64_t i = idx[j];
    const uint8_t op = b.ops[i], out = b.outcomes[i];
    if (out == WX_OUT_NONE) return "element not executed (outcome NONE)";
    if (out == WX_OUT_INVALID_KEY) return "INVALID_KEY for a valid key";
    if (!outcome_fits_op(op, out)) return std::string("outcome ") + outcome_name(out) + " impossible for " + op_name(op);
    const K vin = b.values_before ? b.values_before[i] : K{0};
    switch (out) {
      case WX_OUT_INSERTED: ++ins; inserted.push_back(vin); break;
      case WX_OUT_ERASED: ++era; break;
      case WX_OUT_PRESENT: ++present_reads; break;
      case WX_OUT_ASSIGNED: ++present_reads; assigned.push_back(vin); break;
      case WX_OUT_FOUND: ++present_reads; found.push_back(b.values_after[i]); break;
      case WX_OUT_NOT_FOUND:
        ++absent_reads;
        if (op == WX_OP_FIND && b.values_before && b.values_after && b.values_after[i] != b.values_before[i])
          return "find NOT_FOUND overwrote its value slot";
        break;
      case WX_OUT_FULL:
        if (!allow_full) return "FULL where no FULL may occur";
        break;
      default: return "unknown outcome";
    }
  }
  // C1: switches alternate, starting from p0 and ending at p1.
  if (ins - era != static_cast<int64_t>(p1) - static_cast<int64_t>(p0))
    return "C1: INSERTED - ERASED = " + std::to_string(ins - era) + " but presence went " +
           std::to_string(p0) + " -> " + std::to_string(p1) + " (lost insert/erase or duplicate insert)";
  // C2 / C3: a segment of the needed kind exists.
  if (present_reads > 0 && !p0 && ins == 0) return "C2: PRESENT/ASSIGNED/FOUND but the key was never present";
  if (absent_reads > 0 && p0 && era == 0) return "C3: NOT_FOUND but the key was never absent";
  // C4: every found value was written by someone.
  if (!found.empty()) {
    std::vector<K> writers(inserted);
    writers.insert(writers.end(), assigned.begin(), assigned.end());
    if (p0) writers.push_back(v0);
    std::sort(writers.begin(), writers.end());
    for (K w : found)
      if (!std::binary_search(writers.begin(), writers.end(), w))
        return "C4: find returned value " + std::to_string(w) + " that no op wrote (and not the initial value)";
  }
  // C5: the final value is what the last writer of the last present segment wrote.
  if (p1) {
    const bool in_assigned = std::find(assigned.begin(), assigned.end(), v1) != assigned.end();
    if (!in_assigned) {
      if (ins >= 1) {
        if (std::find(inserted.begin(), inserted.end(), v1) == inserted.end())
          return "C5: final value " + std::to_string(v1) + " not written by any INSERTED/ASSIGNED";
        if (!assigned.empty() && static_cast<int64_t>(p0) + ins < 2)
          return "C5: final value comes from the only INSERTED, but an ASSIGNED would overwrite it";
      } else {
        if (!assigned.empty()) return "C5: final value is not the last ASSIGNED value";
        if (v1 != v0) return "C5: value changed with no INSERTED/ASSIGNED";
      }
    }
  }
  return "";
}

}  // namespace detail

// Checks every key of the batch. Before/After: types with `bool get(K key, K* v) const`.
// allow_full: whether FULL outcomes may appear (they constrain nothing). Returns the first (smallest)
// violating key with the reason and its ops.
template <typename K, typename Before, typename After>
Verdict check_linearizable(const BatchRecordT<K>& b, const Before& before, const After& after,
                           bool allow_full = false) {
  Verdict v;
  std::vector<uint64_t> idx(b.n);
  std::iota(idx.begin(), idx.end(), uint64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](uint64_t x, uint64_t y) { return b.keys[x] < b.keys[y]; });
  for (uint64_t s = 0; s < b.n;) {
    const K key = b.keys[idx[s]];
    uint64_t e = s;
    while (e < b.n && b.keys[idx[e]] == key) ++e;
    K v0 = 0, v1 = 0;
    const bool p0 = before.get(key, &v0), p1 = after.get(key, &v1);
    std::string why = detail::check_key(b, key, idx.data() + s, e - s, p0, v0, p1, v1, allow_full);
    ++v.keys_checked;
    if (!why.empty()) {
      v.ok = false;
      v.key = key;
      v.reason = why;
      v.detail = detail::describe_key(b, idx.data() + s, e - s, p0, v0, p1, v1);
      return v;
    }
    s = e;
  }
  return v;
}

inline void print_verdict(const Verdict& v, const char* what) {
  if (v.ok) return;
  std::fprintf(stderr, "%s: per-key linearizability violated at key %llu: %s\n%s", what,
               static_cast<unsigned long long>(v.key), v.reason.c_str(), v.detail.c_str());
}

}  // namespace wxsuite
