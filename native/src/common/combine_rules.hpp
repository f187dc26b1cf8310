// The order hot-key combining gives each key's ops in one batch, and what every op then returns
// (combine.cu runs it on the device; test_combine_rules checks it against the per-key checker).
// All ops of a batch are concurrent, so any order of one key's ops is a valid linearization
// (what native/tests/suite/linearizability.hpp checks). Combining picks one that three elections
// decide, no sort needed:
//   finds  ->  the insert group (inserts, insert_or_assigns)  ->  erases.
// Elections (each a CAS from kNone, first come wins):
//   t: an insert_or_assign tries t first; it runs LAST in the insert group (its value stands);
//   l: every other insert-group op (plain inserts, assigns that lost t) tries l; l runs FIRST;
//   e: an erase; it runs first among the erases.
// So l != t, and l == kNone only when the insert group is {t} or empty (every other member ran for l).
// The group's first op is l (else t): it INSERTS when the key was absent.
#pragma once
#include <cstdint>

#include "wixlib.h"

#if defined(__CUDACC__)
#define WX_HD __host__ __device__
#else
#define WX_HD
#endif

namespace wx {

constexpr uint32_t kNone = 0xFFFFFFFFu;  // no element elected (element indices stay below it)

struct Votes {
  uint32_t l = kNone, t = kNone, e = kNone;
};

// The insert group's first op: l, else t (then the group is {t}), else none.
WX_HD inline uint32_t first_of(const Votes& v) { return v.l != kNone ? v.l : v.t; }

// One key's path through the batch: before (p0, v0), after the insert group (p1), at the end (p2, v2).
struct KeyPlan {
  bool p0 = false, p1 = false, p2 = false;
  uint32_t v0 = 0, v2 = 0;
  uint32_t first = kNone;  // the insert group's first op
  WX_HD bool changed() const { return p2 != p0 || (p2 && v2 != v0); }
};

// vin(i) = the value element i carries.
template <class Vin>
WX_HD inline KeyPlan plan_key(bool p0, uint32_t v0, const Votes& v, Vin vin) {
  KeyPlan k;
  k.p0 = p0;
  k.v0 = v0;
  k.first = first_of(v);
  k.p1 = p0 || k.first != kNone;
  uint32_t v1 = v0;
  if (v.t != kNone) v1 = vin(v.t);       // the last assign's value stands
  else if (!p0 && v.l != kNone) v1 = vin(v.l);  // no assign: the inserting op's value
  k.p2 = k.p1 && v.e == kNone;
  k.v2 = k.p2 ? v1 : 0;
  return k;
}

// The part of a plan that outcomes need, rebuilt from what plan_key found (p0, p1) and the votes.
WX_HD inline KeyPlan outcome_plan(bool p0, bool p1, const Votes& v) {
  KeyPlan k;
  k.p0 = p0;
  k.p1 = p1;
  k.first = first_of(v);
  return k;
}

// Outcome of element i (op, not reserved) under its key's plan and votes.
WX_HD inline uint8_t outcome_of(uint8_t op, uint32_t i, const KeyPlan& k, const Votes& v) {
  switch (op) {
    case WX_OP_INSERT: return !k.p0 && i == k.first ? WX_OUT_INSERTED : WX_OUT_PRESENT;
    case WX_OP_INSERT_OR_ASSIGN: return !k.p0 && i == k.first ? WX_OUT_INSERTED : WX_OUT_ASSIGNED;
    case WX_OP_ERASE: return k.p1 && i == v.e ? WX_OUT_ERASED : WX_OUT_NOT_FOUND;
    default: return k.p0 ? WX_OUT_FOUND : WX_OUT_NOT_FOUND;  // find: before every write (value v0)
  }
}

}  // namespace wx
