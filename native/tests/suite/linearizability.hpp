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
// appear afterwards; a non-reserved key must never get INVALID_KEY. Value slots (wx_batch contract,
// wixlib.h): only a find that returns FOUND may write its values[i]; every other element (insert,
// insert_or_assign, erase, a find that returns NOT_FOUND, any INVALID_KEY element) must leave it as
// it was, so values_after[i] == values_before[i] is checked for all of them.
//
// Whole-table and multi-call checks (check_batch / check_history, below; every test uses these):
//  - keys outside the history: every key of the state before or after that no element touched must
//    be unchanged (a lost key, a changed value, or a foreign key that appeared is a violation);
//  - real-time order: a history is a list of calls, each with a start and an end tick from one clock
//    (a counter read before the call and after it returns). Calls are grouped into steps at cuts: a
//    new step starts at a call that began after every earlier call (by start) had ended. Elements of
//    one step are concurrent with each other; steps are in real-time order. Per key, the set of
//    states reachable after each step is computed exactly (from each reachable state, each candidate
//    end state — absent, or present with a value the step could leave: the state's own value, an
//    INSERTED's or an ASSIGNED's — is kept when the counting conditions above accept the step from
//    that state to it); the key's last step must reach its state after the history. Calls that
//    overlap but are ordered pairwise through no cut (A before C, B overlapping both) land in one
//    step and are checked as concurrent: sound (nothing valid is rejected), weaker than the full
//    interval order; tests make cuts with barriers between rounds of calls.
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
  template <class F>
  void for_each(F f) const {
    for (uint64_t k = 0; k < present.size(); ++k)
      if (present[k]) f(static_cast<uint32_t>(k), value[k]);
  }
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
  template <class F>
  void for_each(F f) const {
    for (const auto& kv : map) f(kv.first, kv.second);
  }
};
using MapState = MapStateT<uint32_t>;

struct Verdict {
  bool ok = true;
  uint64_t key = 0;
  std::string reason;  // which condition failed
  std::string detail;  // the key's states and ops
  uint64_t keys_checked = 0;
  uint64_t steps = 0;  // check_history: real-time steps the calls formed
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
  // Value slots: only a find that returned FOUND may write its slot.
  if (b.values_before && b.values_after) {
    for (uint64_t j = 0; j < cnt; ++j) {
      const uint64_t i = idx[j];
      if ((b.ops[i] == WX_OP_FIND && b.outcomes[i] == WX_OUT_FOUND) || b.values_after[i] == b.values_before[i]) continue;
      return std::string(op_name(b.ops[i])) + " with outcome " + outcome_name(b.outcomes[i]) +
             " wrote its value slot (only a FOUND find may)";
    }
  }
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
      case WX_OUT_NOT_FOUND: ++absent_reads; break;  // its slot is checked above
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

// One call of a history: its elements and its start / end ticks (one clock for all calls: a counter
// read before the call and after it returned; start < end). Elements of one call are concurrent.
template <class K>
struct CallRecordT {
  BatchRecordT<K> rec;
  uint64_t start = 0, end = 1;
};
using CallRecord = CallRecordT<uint32_t>;

namespace detail {

// The elements of one step, copied into arrays of their own (several calls merged).
template <class K>
struct StepArrays {
  std::vector<uint8_t> ops, outcomes;
  std::vector<K> keys, vin, vout;
  bool have_vin = true, have_vout = true;
  BatchRecordT<K> record() const {
    BatchRecordT<K> r;
    r.ops = ops.data(); r.keys = keys.data(); r.outcomes = outcomes.data(); r.n = ops.size();
    r.values_before = have_vin ? vin.data() : nullptr;
    r.values_after = have_vout ? vout.data() : nullptr;
    return r;
  }
};

template <class K>
struct KeyState {
  bool p = false;
  K v = 0;
  bool operator<(const KeyState& o) const { return p != o.p ? p < o.p : (p && v < o.v); }
  bool operator==(const KeyState& o) const { return p == o.p && (!p || v == o.v); }
};

template <class K>
std::string state_text(const KeyState<K>& s) {
  return s.p ? "present value=" + std::to_string(s.v) : std::string("absent");
}

}  // namespace detail

// Checks a history of calls against the table's whole state before and after it (Before/After: types
// with `bool get(K, K*) const` and `for_each(f(K key, K value)) const`, e.g. DenseState, MapStateT):
//  - every key of `before` or `after` that no element touched is unchanged (lost, changed, foreign);
//  - per touched key, the calls grouped into real-time steps (header comment) are linearizable from
//    the key's state before to its state after, with the value-slot rule.
// Returns the first violation found. keys_checked counts touched keys plus untouched ones compared.
template <typename K, typename Before, typename After>
Verdict check_history(const std::vector<CallRecordT<K>>& calls, const Before& before, const After& after,
                      bool allow_full = false) {
  using detail::KeyState;
  Verdict verdict;
  // Steps: calls by start; a new step where the call began after every earlier one had ended.
  std::vector<size_t> order(calls.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return calls[a].start < calls[b].start; });
  std::vector<detail::StepArrays<K>> steps;
  uint64_t max_end = 0;
  for (size_t j = 0; j < order.size(); ++j) {
    const CallRecordT<K>& c = calls[order[j]];
    if (steps.empty() || c.start > max_end) steps.emplace_back();
    max_end = std::max(max_end, c.end);
    detail::StepArrays<K>& st = steps.back();
    const BatchRecordT<K>& r = c.rec;
    st.ops.insert(st.ops.end(), r.ops, r.ops + r.n);
    st.outcomes.insert(st.outcomes.end(), r.outcomes, r.outcomes + r.n);
    st.keys.insert(st.keys.end(), r.keys, r.keys + r.n);
    if (!r.values_before) st.have_vin = false;
    if (!r.values_after) st.have_vout = false;
    st.vin.insert(st.vin.end(), r.n, K{0});
    st.vout.insert(st.vout.end(), r.n, K{0});
    if (r.values_before) std::copy(r.values_before, r.values_before + r.n, st.vin.end() - r.n);
    if (r.values_after) std::copy(r.values_after, r.values_after + r.n, st.vout.end() - r.n);
  }
  std::vector<BatchRecordT<K>> recs;
  for (const auto& st : steps) recs.push_back(st.record());
  verdict.steps = steps.size();
  // Every element as (key, step, index), grouped by key, steps in order.
  struct Elem { K key; uint32_t step; uint64_t i; };
  std::vector<Elem> elems;
  for (uint32_t s = 0; s < recs.size(); ++s)
    for (uint64_t i = 0; i < recs[s].n; ++i) elems.push_back({recs[s].keys[i], s, i});
  std::stable_sort(elems.begin(), elems.end(), [](const Elem& a, const Elem& b) {
    return a.key != b.key ? a.key < b.key : a.step < b.step;
  });
  std::vector<K> distinct;
  for (const Elem& e : elems)
    if (distinct.empty() || distinct.back() != e.key) distinct.push_back(e.key);
  auto touched = [&](K k) { return std::binary_search(distinct.begin(), distinct.end(), k); };
  // Keys outside the history.
  auto fail_outside = [&](K k, const std::string& why) {
    if (!verdict.ok) return;
    verdict.ok = false;
    verdict.key = k;
    verdict.reason = why;
    verdict.detail = "  (no element of the history has this key)\n";
  };
  before.for_each([&](K k, K v) {
    if (touched(k)) return;
    ++verdict.keys_checked;
    K w = 0;
    if (!after.get(k, &w)) fail_outside(k, "key outside the batch lost (present value=" + std::to_string(v) + " before, absent after)");
    else if (w != v) fail_outside(k, "key outside the batch changed value " + std::to_string(v) + " -> " + std::to_string(w));
  });
  after.for_each([&](K k, K v) {
    if (touched(k)) return;
    K w = 0;
    if (!before.get(k, &w)) { ++verdict.keys_checked; fail_outside(k, "foreign key appeared (value=" + std::to_string(v) + "), no element inserted it"); }
  });
  if (!verdict.ok) return verdict;
  // Touched keys: the reachable states step by step; the last step must reach the state after.
  std::vector<uint64_t> idx;
  for (size_t s0 = 0; s0 < elems.size();) {
    const K key = elems[s0].key;
    size_t e0 = s0;
    while (e0 < elems.size() && elems[e0].key == key) ++e0;
    ++verdict.keys_checked;
    KeyState<K> first, last;
    first.p = before.get(key, &first.v);
    last.p = after.get(key, &last.v);
    if (elems[s0].step == elems[e0 - 1].step) {  // one step (every single batch): check it directly
      idx.clear();
      for (size_t a = s0; a < e0; ++a) idx.push_back(elems[a].i);
      const BatchRecordT<K>& r = recs[elems[s0].step];
      if (detail::check_key(r, key, idx.data(), idx.size(), first.p, first.v, last.p, last.v, allow_full).empty()) {
        s0 = e0;
        continue;
      }  // else fall through: the general loop finds the same failure and describes it
    }
    std::vector<KeyState<K>> reach{first};
    std::string why;
    uint32_t bad_step = 0;
    for (size_t a = s0; a < e0 && why.empty();) {
      const uint32_t s = elems[a].step;
      size_t b = a;
      idx.clear();
      while (b < e0 && elems[b].step == s) idx.push_back(elems[b++].i);
      const BatchRecordT<K>& r = recs[s];
      const bool final_step = b == e0;
      std::vector<KeyState<K>> cand;
      if (final_step) {
        cand.push_back(last);
      } else {
        cand.push_back(KeyState<K>{});
        for (const auto& x : reach) if (x.p) cand.push_back(x);
        for (uint64_t i : idx)
          if ((r.outcomes[i] == WX_OUT_INSERTED || r.outcomes[i] == WX_OUT_ASSIGNED) && r.values_before)
            cand.push_back(KeyState<K>{true, r.values_before[i]});
        std::sort(cand.begin(), cand.end());
        cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
      }
      std::vector<KeyState<K>> next;
      std::string first_why;
      for (const auto& t : cand) {
        for (const auto& x : reach) {
          const std::string w = detail::check_key(r, key, idx.data(), idx.size(), x.p, x.v, t.p, t.v, allow_full);
          if (w.empty()) { next.push_back(t); break; }
          if (first_why.empty()) first_why = w;
        }
      }
      if (next.empty()) {
        why = (steps.size() > 1 ? "step " + std::to_string(s) + ": " : std::string()) + first_why;
        if (final_step && steps.size() > 1) why += " (reaching the state after the history)";
        bad_step = s;
      }
      reach.swap(next);
      a = b;
    }
    if (!why.empty()) {
      verdict.ok = false;
      verdict.key = key;
      verdict.reason = why;
      std::string d = "  before: " + detail::state_text(first) + "\n  after:  " + detail::state_text(last) + "\n";
      for (size_t a = s0; a < e0;) {
        const uint32_t s = elems[a].step;
        size_t b = a;
        idx.clear();
        while (b < e0 && elems[b].step == s) idx.push_back(elems[b++].i);
        if (steps.size() > 1) d += "  step " + std::to_string(s) + (s == bad_step ? " (violation)" : "") + ":";
        // describe_key prints states then ops; keep only its ops part.
        const std::string k = detail::describe_key(recs[s], idx.data(), idx.size(), false, K{0}, false, K{0});
        d += k.substr(k.find("\n  ", k.find("after:")) + 1);
        a = b;
      }
      verdict.detail = d;
      return verdict;
    }
    s0 = e0;
  }
  return verdict;
}

// One concurrent batch (or one call) checked against the whole state before and after it: keys
// outside the batch unchanged, touched keys linearizable, value slots as wixlib.h allows.
template <typename K, typename Before, typename After>
Verdict check_batch(const BatchRecordT<K>& b, const Before& before, const After& after, bool allow_full = false) {
  CallRecordT<K> c;
  c.rec = b;
  return check_history(std::vector<CallRecordT<K>>{c}, before, after, allow_full);
}

inline void print_verdict(const Verdict& v, const char* what) {
  if (v.ok) return;
  std::fprintf(stderr, "%s: violation at key %llu: %s\n%s", what,
               static_cast<unsigned long long>(v.key), v.reason.c_str(), v.detail.c_str());
}

}  // namespace wxsuite
