// Tests of the per-key linearizability checker (suite/linearizability.hpp) itself:
//  1. hand-made bad histories (lost insert, a find seeing a never-present key, two INSERTED with no
//     ERASED between, a value never written, ...) must be rejected, good ones accepted;
//  2. on many random small histories the checker must agree exactly with a brute-force search over
//     all sequential orders — which shows its conditions are both necessary and sufficient;
//  3. a real hot-key batch on the CPU table is accepted, and each typical table bug injected into its
//     record (lost insert, lost erase, duplicate insert, lost key, stale or invented value, a value
//     written into a non-FIND slot) is caught;
//  4. the whole-table and multi-call checks every test uses (check_batch / check_history): a key
//     outside the batch lost or changed, a foreign key, a value written into the slot of an insert /
//     erase / missed find / reserved-key element, and calls checked in real-time order (a find that
//     saw a value before the call that inserted it had begun) are rejected; right histories pass.
// Cases 1 and 2 go through check_batch too (their states hold only the histories' keys).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "check.hpp"
#include "suite/env.hpp"
#include "suite/linearizability.hpp"
#include "suite/mixed_test.hpp"
#include "suite/table_io.hpp"

using namespace wxsuite;

namespace {

struct Op {
  uint8_t op;
  uint32_t key;
  uint32_t vin;  // value given (insert) or find slot's initial value
  uint8_t out;
  uint32_t vout; // value returned by a find (vin when not found)
};

struct History {
  std::vector<Op> ops;
  MapState before, after;
  bool allow_full = false;

  Verdict check() const {
    std::vector<uint8_t> o, r;
    std::vector<uint32_t> k, vb, va;
    for (const Op& x : ops) {
      o.push_back(x.op); k.push_back(x.key); vb.push_back(x.vin); r.push_back(x.out);
      va.push_back(x.op == WX_OP_FIND ? x.vout : x.vin);
    }
    BatchRecord b;
    b.ops = o.data(); b.keys = k.data(); b.values_before = vb.data(); b.values_after = va.data();
    b.outcomes = r.data(); b.n = ops.size();
    return check_batch(b, before, after, allow_full);
  }
};

constexpr uint8_t I = WX_OP_INSERT, A = WX_OP_INSERT_OR_ASSIGN, E = WX_OP_ERASE, F = WX_OP_FIND;

Op ins(uint32_t k, uint32_t v, uint8_t out) { return {I, k, v, out, v}; }
Op ioa(uint32_t k, uint32_t v, uint8_t out) { return {A, k, v, out, v}; }
Op era(uint32_t k, uint8_t out) { return {E, k, 0, out, 0}; }
Op found(uint32_t k, uint32_t v) { return {F, k, 0xCAFEu, WX_OUT_FOUND, v}; }
Op missing(uint32_t k) { return {F, k, 0xCAFEu, WX_OUT_NOT_FOUND, 0xCAFEu}; }

int g_cases = 0;

void expect(const History& h, bool ok, const char* name, const char* reason_prefix = nullptr) {
  ++g_cases;
  Verdict v = h.check();
  if (v.ok != ok) {
    std::fprintf(stderr, "checker case '%s': expected %s, got %s\n", name, ok ? "accept" : "reject",
                 v.ok ? "accept" : "reject");
    print_verdict(v, name);
    std::exit(1);
  }
  if (!ok && reason_prefix) {
    CHECK_MSG(v.reason.rfind(reason_prefix, 0) == 0, "case '%s': rejected for '%s', expected '%s...'", name,
              v.reason.c_str(), reason_prefix);
  }
}

void hand_made() {
  const uint32_t k = 7;
  {  // a find before the insert misses, one after it sees the value
    History h;
    h.ops = {ins(k, 10, WX_OUT_INSERTED), found(k, 10), missing(k)};
    h.after.map[k] = 10;
    expect(h, true, "insert with concurrent finds");
  }
  {  // hot key: erase/insert twice from a present start, finds of every value, misses, PRESENT
    History h;
    h.before.map[k] = 5;
    h.ops = {found(k, 8), era(k, WX_OUT_ERASED), ins(k, 7, WX_OUT_INSERTED), missing(k), era(k, WX_OUT_ERASED),
             ins(k, 8, WX_OUT_INSERTED), found(k, 5), found(k, 7), era(k, WX_OUT_NOT_FOUND),
             ins(k, 9, WX_OUT_PRESENT)};
    h.after.map[k] = 8;
    expect(h, true, "hot key alternation");
    h.after.map[k] = 7;  // 7's segment was closed by an erase... but 7 could be the last insert
    expect(h, true, "hot key alternation, other last insert");
    h.after.map[k] = 5;  // the initial segment is always erased first
    expect(h, false, "initial value survives two erases", "C5");
    h.after.map[k] = 9;  // PRESENT writes nothing
    expect(h, false, "PRESENT insert's value stored", "C5");
  }
  {  // insert_or_assign: one INSERTED then ASSIGNED in some order; last ASSIGNED wins
    History h;
    h.ops = {ioa(k, 1, WX_OUT_INSERTED), ioa(k, 2, WX_OUT_ASSIGNED), ioa(k, 3, WX_OUT_ASSIGNED), found(k, 1)};
    h.after.map[k] = 2;
    expect(h, true, "insert_or_assign, ASSIGNED last");
    h.after.map[k] = 1;
    expect(h, false, "INSERTED value survives ASSIGNED in the only segment", "C5");
    h.before.map[k] = 0;  // now the initial segment can hold the ASSIGNEDs ... but INSERTED needs an erase
    expect(h, false, "INSERTED on a present key", "C1");
    h.ops.push_back(era(k, WX_OUT_ERASED));
    expect(h, true, "ASSIGNEDs in the initial segment, INSERTED value last");
  }
  {  // duplicates of one key in an insert call: one INSERTED, the rest PRESENT
    History h;
    h.ops = {ins(k, 1, WX_OUT_PRESENT), ins(k, 2, WX_OUT_INSERTED), ins(k, 3, WX_OUT_PRESENT)};
    h.after.map[k] = 2;
    expect(h, true, "duplicate inserts");
    h.after.map[k] = 3;
    expect(h, false, "duplicate inserts, PRESENT value stored", "C5");
  }
  // ---- bad histories: lost or invented keys and values, impossible outcomes ----
  {
    History h;
    h.ops = {ins(k, 3, WX_OUT_INSERTED), found(k, 3)};
    expect(h, false, "lost insert (INSERTED, key absent afterwards)", "C1");
  }
  {
    History h;
    h.ops = {era(k, WX_OUT_NOT_FOUND), found(k, 9)};
    expect(h, false, "find sees a key that was never present", "C2");
    h.ops = {era(k, WX_OUT_ERASED)};
    expect(h, false, "erase of a key that was never present", "C1");
  }
  {
    History h;
    h.ops = {ins(k, 1, WX_OUT_INSERTED), ins(k, 2, WX_OUT_INSERTED)};
    h.after.map[k] = 2;
    expect(h, false, "two INSERTED with no ERASED between", "C1");
    h.ops.push_back(era(k, WX_OUT_ERASED));
    expect(h, true, "two INSERTED with an ERASED between");
  }
  {
    History h;
    h.before.map[k] = 1;
    h.ops = {ins(k, 2, WX_OUT_PRESENT), found(k, 2)};
    h.after.map[k] = 1;
    expect(h, false, "find returns a value never written", "C4");
    h.ops = {found(k, 1), missing(k)};
    expect(h, false, "NOT_FOUND although the key was present throughout", "C3");
    h.ops = {found(k, 1)};
    h.after.map[k] = 2;
    expect(h, false, "value changed with no writer", "C5");
    h.after.map.clear();
    expect(h, false, "key vanished with no erase", "C1");
  }
  {  // outcome / op mismatches and contract details
    History h;
    h.ops = {{I, k, 1, WX_OUT_NONE, 1}};
    expect(h, false, "outcome NONE");
    h.ops = {{I, k, 1, WX_OUT_ASSIGNED, 1}};
    h.after.map[k] = 1;
    expect(h, false, "ASSIGNED for a plain insert");
    h.ops = {{F, k, 5, WX_OUT_NOT_FOUND, 6}};
    h.after.map.clear();
    expect(h, false, "find NOT_FOUND overwrote its slot");
    h.ops = {{I, k, 1, WX_OUT_FULL, 1}};
    expect(h, false, "FULL not allowed");
    h.allow_full = true;
    expect(h, true, "FULL allowed");
    h.ops = {{I, k, 1, WX_OUT_INVALID_KEY, 1}};
    expect(h, false, "INVALID_KEY for a valid key");
  }
  {  // reserved keys
    History h;
    h.ops = {{I, WX_KEY32_EMPTY, 1, WX_OUT_INVALID_KEY, 1}, {F, WX_KEY32_TOMBSTONE, 0, WX_OUT_INVALID_KEY, 0}};
    expect(h, true, "reserved keys rejected");
    h.after.map[WX_KEY32_EMPTY] = 1;
    expect(h, false, "reserved key stored");
    h.after.map.clear();
    h.ops = {{I, WX_KEY32_EMPTY, 1, WX_OUT_INSERTED, 1}};
    expect(h, false, "reserved key accepted");
  }
  {  // several keys: the first violating key is reported
    History h;
    h.ops = {ins(1, 1, WX_OUT_INSERTED), ins(3, 3, WX_OUT_INSERTED), ins(2, 2, WX_OUT_INSERTED), found(2, 2)};
    h.after.map = {{1, 1}, {2, 2}};  // key 3's insert was lost
    Verdict v = h.check();
    CHECK(!v.ok && v.key == 3);
    h.after.map[3] = 3;
    CHECK(h.check().ok && h.check().keys_checked == 3);
    ++g_cases;
  }
}

// Ground truth by brute force: tries every order of the ops from the before-state.
bool brute_force(const History& h, uint32_t key) {
  std::vector<Op> ops;
  for (const Op& o : h.ops) if (o.key == key) ops.push_back(o);
  uint32_t v0 = 0, v1 = 0;
  const bool p0 = h.before.get(key, &v0), p1 = h.after.get(key, &v1);
  std::vector<int> perm(ops.size());
  std::iota(perm.begin(), perm.end(), 0);
  do {
    bool p = p0, good = true;
    uint32_t v = v0;
    for (int i : perm) {
      const Op& o = ops[i];
      switch (o.out) {
        case WX_OUT_INSERTED: good = !p && (o.op == I || o.op == A); p = true; v = o.vin; break;
        case WX_OUT_PRESENT: good = p && o.op == I; break;
        case WX_OUT_ASSIGNED: good = p && o.op == A; v = o.vin; break;
        case WX_OUT_ERASED: good = p && o.op == E; p = false; break;
        case WX_OUT_NOT_FOUND: good = !p && (o.op == E || o.op == F) && (o.op != F || o.vout == o.vin); break;
        case WX_OUT_FOUND: good = p && o.op == F && o.vout == v; break;
        case WX_OUT_FULL: good = h.allow_full && (o.op == I || o.op == A); break;
        default: good = false;
      }
      if (!good) break;
    }
    if (good && p == p1 && (!p || v == v1)) return true;
  } while (std::next_permutation(perm.begin(), perm.end()));
  return false;
}

void random_against_brute_force(uint64_t seed, int cases) {
  Rng rng(seed);
  const uint8_t op_kinds[] = {I, A, E, F};
  const uint8_t outs[] = {WX_OUT_INSERTED, WX_OUT_PRESENT, WX_OUT_ASSIGNED, WX_OUT_ERASED, WX_OUT_NOT_FOUND,
                          WX_OUT_FOUND, WX_OUT_FULL};
  int accepted = 0;
  for (int c = 0; c < cases; ++c) {
    History h;
    const uint32_t k = 11;
    const int n = 1 + static_cast<int>(rng.below(7));
    // Half the cases: a real sequential run (valid by construction, shuffled); half: random outcomes.
    const bool from_run = rng.below(2);
    bool p = rng.below(2);
    uint32_t v = 1 + static_cast<uint32_t>(rng.below(3));
    if (p) h.before.map[k] = v;
    h.allow_full = rng.below(4) == 0;
    for (int i = 0; i < n; ++i) {
      Op o{op_kinds[rng.below(4)], k, 1 + static_cast<uint32_t>(rng.below(3)), 0, 0};
      if (from_run) {
        switch (o.op) {
          case I: o.out = p ? WX_OUT_PRESENT : WX_OUT_INSERTED; if (!p) { p = true; v = o.vin; } break;
          case A: o.out = p ? WX_OUT_ASSIGNED : WX_OUT_INSERTED; p = true; v = o.vin; break;
          case E: o.out = p ? WX_OUT_ERASED : WX_OUT_NOT_FOUND; p = false; break;
          default: o.out = p ? WX_OUT_FOUND : WX_OUT_NOT_FOUND; break;
        }
        o.vout = (o.op == F && o.out == WX_OUT_FOUND) ? v : o.vin;
      } else {
        o.out = outs[rng.below(7)];
        o.vout = (o.op == F && o.out == WX_OUT_FOUND) ? 1 + static_cast<uint32_t>(rng.below(3)) : o.vin;
      }
      h.ops.push_back(o);
    }
    bool mutated = false;
    if (from_run) {
      if (p) h.after.map[k] = v;
      for (int i = n - 1; i > 0; --i) std::swap(h.ops[i], h.ops[rng.below(i + 1)]);
      // Half the runs get one small change (an outcome, a found value, or the final state), which
      // gives near-miss histories — mostly invalid, sometimes still valid.
      if (rng.below(2)) {
        mutated = true;
        Op& o = h.ops[rng.below(n)];
        switch (rng.below(3)) {
          case 0: o.out = outs[rng.below(7)]; break;
          case 1: o.vout = 1 + static_cast<uint32_t>(rng.below(3)); break;
          default:
            if (h.after.map.count(k) && rng.below(2)) h.after.map.erase(k);
            else h.after.map[k] = 1 + static_cast<uint32_t>(rng.below(3));
        }
      }
    } else if (rng.below(2)) {
      h.after.map[k] = 1 + static_cast<uint32_t>(rng.below(3));
    }
    const bool truth = brute_force(h, k);
    const Verdict got = h.check();
    if (from_run && !mutated) CHECK_MSG(truth, "brute force rejected a sequential run (test bug)");
    if (got.ok != truth) {
      std::fprintf(stderr, "checker disagrees with brute force (case %d): checker %s, truth %s\n", c,
                   got.ok ? "accept" : "reject", truth ? "accept" : "reject");
      Verdict show = got;
      show.ok = false;
      if (show.detail.empty()) {
        std::fprintf(stderr, "  (checker accepted)\n");
      }
      print_verdict(show, "random history");
      for (const Op& o : h.ops)
        std::fprintf(stderr, "  %s vin=%u -> %s vout=%u\n", op_name(o.op), o.vin, outcome_name(o.out), o.vout);
      std::exit(1);
    }
    accepted += truth;
  }
  std::printf("random histories: %d checked against brute force, %d valid, %d invalid\n", cases, accepted,
              cases - accepted);
}

// A real mixed batch on the CPU table, then mutations of its record that model table bugs.
void real_batch_mutations(uint64_t seed) {
  Rng rng(seed);
  const uint64_t range = 101, n = 100000;
  Table t(make_config(WX_KIND_CPU, range));
  Io io(WX_MEM_HOST);
  std::vector<uint32_t> pk, pv;
  for (uint32_t k = 0; k < range; k += 2) { pk.push_back(k); pv.push_back(0x40000000u + k); }
  CHECK_OK(io.insert(t.get(), pk.data(), pv.data(), pk.size(), nullptr));
  DenseState before = dump_dense(io, t.get(), range, "prefill");
  std::vector<uint8_t> ops(n), out(n, 0);
  std::vector<uint32_t> keys(n), vals(n), vin;
  for (uint64_t j = 0; j < n; ++j) {
    keys[j] = static_cast<uint32_t>(rng.below(range));
    ops[j] = static_cast<uint8_t>(rng.below(4));
    vals[j] = ops[j] == WX_OP_FIND ? 0xF0000000u + static_cast<uint32_t>(j) : static_cast<uint32_t>(j);
  }
  vin = vals;
  CHECK_OK(io.batch(t.get(), ops.data(), keys.data(), vals.data(), n, out.data()));
  DenseState after = dump_dense(io, t.get(), range, "batch");
  BatchRecord rec;
  rec.ops = ops.data(); rec.keys = keys.data(); rec.values_before = vin.data(); rec.values_after = vals.data();
  rec.outcomes = out.data(); rec.n = n;
  Verdict v = check_batch(rec, before, after);
  if (!v.ok) { print_verdict(v, "real CPU batch"); std::exit(1); }
  // Each mutation must be rejected; the record is restored after each.
  auto first = [&](uint8_t outcome) {
    for (uint64_t j = 0; j < n; ++j) if (out[j] == outcome) return j;
    CHECK_MSG(false, "no element with outcome %u in the real batch", outcome);
    return n;
  };
  auto must_reject = [&](const char* what, const DenseState& a) {
    Verdict m = check_batch(rec, before, a);
    CHECK_MSG(!m.ok, "mutation '%s' not detected", what);
    std::printf("  mutation '%s' rejected at key %u: %s\n", what, m.key, m.reason.c_str());
  };
  struct Flip { uint8_t from, to; const char* what; };
  for (Flip f : {Flip{WX_OUT_INSERTED, WX_OUT_PRESENT, "lost insert"}, Flip{WX_OUT_ERASED, WX_OUT_NOT_FOUND, "lost erase"},
                 Flip{WX_OUT_PRESENT, WX_OUT_INSERTED, "duplicate insert"},
                 Flip{WX_OUT_NOT_FOUND, WX_OUT_ERASED, "erase of an absent key"}}) {
    const uint64_t j = first(f.from);
    out[j] = f.to;
    must_reject(f.what, after);
    out[j] = f.from;
  }
  {
    const uint64_t j = first(WX_OUT_FOUND);
    const uint32_t keep = vals[j];
    vals[j] = 0xEEEE0000u;  // no op wrote this
    must_reject("find returns an invented value", after);
    vals[j] = keep;
  }
  {
    uint32_t k = 0;
    while (!after.present[k]) ++k;
    DenseState a = after;
    a.erase(k);
    must_reject("key lost after the batch", a);
    a = after;
    a.value[k] = 0xEEEE0001u;
    must_reject("stored value never written", a);
  }
  for (uint8_t o : {WX_OUT_INSERTED, WX_OUT_ASSIGNED, WX_OUT_ERASED, WX_OUT_NOT_FOUND}) {
    // The table writes a non-FIND slot (or a missed find's): wixlib.h says only FOUND finds write.
    const uint64_t j = first(o);
    const uint32_t keep = vals[j];
    vals[j] = keep ^ 0x00010000u;
    must_reject(o == WX_OUT_NOT_FOUND ? "value slot of a NOT_FOUND element written" : "value slot of a writer written", after);
    vals[j] = keep;
  }
  CHECK(check_batch(rec, before, after).ok);  // restored record is accepted again
}


// ---- 4. whole-table and multi-call checks ----

// A history of calls built by hand: each call owns its arrays.
struct Calls {
  struct One {
    std::vector<uint8_t> o, r;
    std::vector<uint32_t> k, vb, va;
    uint64_t start, end;
  };
  std::vector<One> calls;
  MapState before, after;

  // ops as in History (vout = what the slot holds afterwards); start < end are clock ticks.
  void add(const std::vector<Op>& ops, uint64_t start, uint64_t end) {
    One c;
    for (const Op& x : ops) {
      c.o.push_back(x.op); c.k.push_back(x.key); c.vb.push_back(x.vin); c.r.push_back(x.out);
      c.va.push_back(x.vout);
    }
    c.start = start; c.end = end;
    calls.push_back(std::move(c));
  }
  Verdict check() const {
    std::vector<CallRecord> h;
    for (const One& c : calls) {
      CallRecord r;
      r.rec.ops = c.o.data(); r.rec.keys = c.k.data(); r.rec.values_before = c.vb.data();
      r.rec.values_after = c.va.data(); r.rec.outcomes = c.r.data(); r.rec.n = c.o.size();
      r.start = c.start; r.end = c.end;
      h.push_back(r);
    }
    return check_history(h, before, after);
  }
};

void expect_calls(const Calls& c, bool ok, const char* name, const char* reason_part = nullptr) {
  ++g_cases;
  const Verdict v = c.check();
  if (v.ok != ok) {
    std::fprintf(stderr, "checker case '%s': expected %s, got %s\n", name, ok ? "accept" : "reject",
                 v.ok ? "accept" : "reject");
    print_verdict(v, name);
    std::exit(1);
  }
  if (!ok && reason_part)
    CHECK_MSG(v.reason.find(reason_part) != std::string::npos, "case '%s': rejected for '%s', expected '...%s...'",
              name, v.reason.c_str(), reason_part);
}

void whole_table_and_history() {
  const int before_cases = g_cases;
  {  // keys outside the batch: kept, lost, changed, foreign
    Calls c;
    c.before.map = {{1, 10}, {2, 20}};
    c.add({found(1, 10), ins(5, 50, WX_OUT_INSERTED)}, 0, 1);
    c.after.map = {{1, 10}, {2, 20}, {5, 50}};
    expect_calls(c, true, "untouched key kept");
    c.after.map = {{1, 10}, {5, 50}};
    expect_calls(c, false, "key outside the batch lost", "outside the batch lost");
    c.after.map = {{1, 10}, {2, 21}, {5, 50}};
    expect_calls(c, false, "key outside the batch changed", "outside the batch changed");
    c.after.map = {{1, 10}, {2, 20}, {5, 50}, {9, 90}};
    expect_calls(c, false, "foreign key appeared", "foreign key");
    c.before.map.clear();
    c.after.map = {{1, 10}, {5, 50}};
    expect_calls(c, false, "touched key appeared from nowhere (FOUND, never inserted)", "C1");
  }
  {  // value slots: only a FOUND find may write its values[i]
    struct Case { Op op; const char* name; };
    const uint32_t R = WX_KEY32_TOMBSTONE;
    for (const Case& x : {Case{{I, 5, 50, WX_OUT_INSERTED, 51}, "insert INSERTED wrote its slot"},
                          Case{{I, 1, 50, WX_OUT_PRESENT, 10}, "insert PRESENT wrote the old value into its slot"},
                          Case{{A, 1, 50, WX_OUT_ASSIGNED, 10}, "insert_or_assign ASSIGNED wrote the old value"},
                          Case{{E, 1, 0, WX_OUT_ERASED, 10}, "erase ERASED wrote the erased value"},
                          Case{{E, 5, 7, WX_OUT_NOT_FOUND, 0}, "erase NOT_FOUND wrote its slot"},
                          Case{{F, 5, 0xCAFEu, WX_OUT_NOT_FOUND, 0}, "find NOT_FOUND wrote a not-found value"},
                          Case{{F, R, 0xCAFEu, WX_OUT_INVALID_KEY, 0}, "find of a reserved key wrote its slot"}}) {
      Calls c;
      c.before.map = {{1, 10}};
      Op op = x.op;
      c.add({op}, 0, 1);
      c.after.map = c.before.map;
      if (op.out == WX_OUT_INSERTED) c.after.map[op.key] = op.vin;
      if (op.out == WX_OUT_ASSIGNED) c.after.map[op.key] = op.vin;
      if (op.out == WX_OUT_ERASED) c.after.map.erase(op.key);
      expect_calls(c, false, x.name, "wrote its value slot");
      c.calls[0].va[0] = op.vin;  // the same element, slot left alone: accepted
      expect_calls(c, true, x.name);
    }
    Calls c;
    c.before.map = {{1, 10}};
    c.add({found(1, 10)}, 0, 1);
    c.after.map = {{1, 10}};
    expect_calls(c, true, "FOUND find writes its slot");
  }
  const uint32_t k = 7;
  {  // the edge_threads example: find(k) -> FOUND 1, then insert(k, 1) -> INSERTED, ending {k: 1}
    Calls c;
    c.add({found(k, 1)}, 0, 1);
    c.add({ins(k, 1, WX_OUT_INSERTED)}, 2, 3);
    c.after.map = {{k, 1}};
    expect_calls(c, false, "find sees a value before the call that inserted it began", "step 0");
    c.calls[0].start = 0, c.calls[0].end = 3, c.calls[1].start = 1, c.calls[1].end = 2;
    expect_calls(c, true, "the same two calls overlapping: concurrent");
    c.calls[0].start = 4, c.calls[0].end = 5, c.calls[1].start = 0, c.calls[1].end = 1;  // listed out of order
    expect_calls(c, true, "insert, then find (calls listed out of order)");
  }
  {  // insert, then erase, then a find that still sees the value
    Calls c;
    c.add({ins(k, 1, WX_OUT_INSERTED)}, 0, 1);
    c.add({era(k, WX_OUT_ERASED)}, 2, 3);
    c.add({found(k, 1)}, 4, 5);
    expect_calls(c, false, "find after a finished erase sees the erased value", "step 2");
    c.calls[2].r[0] = WX_OUT_NOT_FOUND, c.calls[2].va[0] = c.calls[2].vb[0];
    expect_calls(c, true, "insert, erase, then a find that misses");
  }
  {  // the state between steps is not dumped: the checker carries every state a step can reach
    Calls c;
    c.add({ins(k, 1, WX_OUT_INSERTED), ioa(k, 2, WX_OUT_ASSIGNED)}, 0, 1);  // must end at 2
    c.add({found(k, 2)}, 2, 3);
    c.after.map = {{k, 2}};
    expect_calls(c, true, "insert + assign, then find of the assigned value");
    c.calls[1].va[0] = 1;
    expect_calls(c, false, "find after insert + assign sees the overwritten value", "step 1");
    c.calls[1].start = 0;  // overlapping the first call: the find may come between them
    expect_calls(c, true, "the same find overlapping insert + assign");
  }
  {  // from present 5, concurrent ERASED + INSERTED must end present (erase first): a later erase finds it
    Calls c;
    c.before.map = {{k, 5}};
    c.add({era(k, WX_OUT_ERASED), ins(k, 6, WX_OUT_INSERTED)}, 0, 1);
    c.add({era(k, WX_OUT_ERASED)}, 2, 3);
    c.add({ins(k, 7, WX_OUT_INSERTED)}, 4, 5);
    c.after.map = {{k, 7}};
    expect_calls(c, true, "erase+insert, then ERASED erase, then insert");
    c.calls[1].r[0] = WX_OUT_NOT_FOUND;
    expect_calls(c, false, "erase+insert, then an erase that misses", "step 1");
    c.calls[1].r[0] = WX_OUT_ERASED, c.calls[2].r[0] = WX_OUT_PRESENT;  // absent after step 1
    expect_calls(c, false, "PRESENT insert after the key was erased", "step 2");
  }
  {  // several states reachable after a step: insert, erase, insert from absent ends at 6 or 8
    Calls c;
    c.add({ins(k, 6, WX_OUT_INSERTED), era(k, WX_OUT_ERASED), ins(k, 8, WX_OUT_INSERTED)}, 0, 1);
    c.add({found(k, 6)}, 2, 3);
    c.after.map = {{k, 6}};
    expect_calls(c, true, "two reachable states, the find picks 6");
    c.calls[1].va[0] = 8;
    expect_calls(c, false, "the find picks 8 but 6 stays", "step 1");
    c.after.map = {{k, 8}};
    expect_calls(c, true, "two reachable states, the find picks 8");
    c.calls[1].va[0] = 5;
    expect_calls(c, false, "the find sees a value nobody wrote", "C4");
  }
  {  // an untouched key stays checked across a multi-call history
    Calls c;
    c.before.map = {{3, 30}};
    c.add({ins(k, 1, WX_OUT_INSERTED)}, 0, 1);
    c.add({era(k, WX_OUT_ERASED)}, 2, 3);
    c.after.map = {{3, 30}};
    expect_calls(c, true, "two calls, untouched key kept");
    c.after.map = {};
    expect_calls(c, false, "two calls, untouched key lost", "outside the batch lost");
  }
  std::printf("whole-table and history cases: %d ok\n", g_cases - before_cases);
}

}  // namespace

int main() {
  Env env = read_env("test_api_checker");
  hand_made();
  std::printf("hand-made histories: %d cases ok\n", g_cases);
  random_against_brute_force(env.seed, env.small ? 20000 : 200000);
  real_batch_mutations(sub_seed(env.seed, 1));
  whole_table_and_history();
  std::printf("test_api_checker: all passed\n");
  return 0;
}
