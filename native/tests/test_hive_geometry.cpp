// Hive's linear-hashing address rule over n0 roots (hive_layout.cuh), on the host: every address is
// in range, a split moves keys of bucket p only to p + n0·2^m, a table made for n keys is balanced
// (the classic rule left 60 % of a 1.25·2^m table at twice the load of the rest), n0 = 1 is the
// classic rule, and roots_for rounds up by at most 1/128.
#include <cstdio>
#include <random>
#include <vector>

#if WIXLIB_HAVE_CUDA
#include "check.hpp"
#include "hive/hive_layout.cuh"

using namespace wx::hive;

namespace {

void roots_round_up_little() {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t nb = i < 1000 ? uint64_t(i) : 1 + rng() % (uint64_t(1) << 31);
    const Roots r = roots_for(nb);
    CHECK_MSG(r.buckets >= nb && r.buckets >= 1, "roots_for(%llu) gave %llu buckets", (unsigned long long)nb,
              (unsigned long long)r.buckets);
    if (nb < 256) {
      CHECK(r.n0 == (nb ? nb : 1) && r.buckets == r.n0);
      continue;
    }
    CHECK_MSG(r.n0 >= 128 && r.n0 < 256, "n0 %u for %llu", r.n0, (unsigned long long)nb);
    CHECK(r.buckets % r.n0 == 0);
    const uint64_t lev = r.buckets / r.n0;
    CHECK_MSG((lev & (lev - 1)) == 0, "%llu buckets is not n0·2^m", (unsigned long long)r.buckets);
    CHECK_MSG(r.buckets - nb <= nb / 128 + 1, "%llu rounded to %llu", (unsigned long long)nb,
              (unsigned long long)r.buckets);
  }
  std::printf("roots_for ok\n");
}

// Each step N -> N+1 splits bucket `split`: an address either stays or moves from it to split + half.
void splits_move_only_the_split_bucket() {
  std::mt19937 rng(2);
  const uint32_t roots[] = {1, 3, 9, 128, 160, 255};
  for (uint32_t n0 : roots) {
    for (uint32_t n = n0; n < n0 * 9u; ++n) {
      const Geometry a = geometry_of(n, n0), b = geometry_of(n + 1, n0);
      CHECK(a.half + a.split == n && a.split < a.half && a.half % n0 == 0);
      for (int i = 0; i < 500; ++i) {
        const uint32_t x = rng();
        const uint32_t pa = lh_address(x, a), pb = lh_address(x, b);
        CHECK_MSG(pa < n && pb < n + 1, "address out of range (n0 %u, n %u)", n0, n);
        if (pa != pb)
          CHECK_MSG(pa == a.split && pb == a.split + a.half, "n0 %u n %u: %u moved %u -> %u (split %u half %u)", n0,
                    n, x, pa, pb, a.split, a.half);
      }
    }
  }
  std::printf("splits ok\n");
}

void classic_rule_when_one_root() {
  std::mt19937 rng(3);
  for (uint32_t n = 1; n < 5000; n += 7) {
    const Geometry g = geometry_of(n, 1);
    uint32_t half = 1;
    while (half <= n / 2) half <<= 1;
    for (int i = 0; i < 200; ++i) {
      const uint32_t x = rng();
      uint32_t a = x & (half - 1);
      if (a < n - half) a = x & (2 * half - 1);
      CHECK(lh_address(x, g) == a);
    }
  }
  std::printf("n0 = 1 is the classic rule\n");
}

// A table made for n keys (roots_for) has every bucket at the same expected load: the busiest tenth of
// the buckets is within a few per cent of the mean (the classic rule at 1.25·2^m: 1.6x the mean).
void fresh_table_is_balanced() {
  const uint64_t wanted[] = {10u << 16, 5000000, 1u << 20};
  std::mt19937 rng(4);
  for (uint64_t nb : wanted) {
    const Roots r = roots_for(nb);
    const Geometry g = geometry_of(static_cast<uint32_t>(r.buckets), r.n0);
    CHECK(g.split == 0);
    std::vector<uint32_t> load(r.buckets);
    const uint64_t keys = 64 * r.buckets;
    for (uint64_t i = 0; i < keys; ++i) ++load[lh_address(rng(), g)];
    // mean load of the first and the last 40 % of the buckets (the classic rule splits the array there)
    const uint64_t cut = r.buckets * 2 / 5;
    double lo = 0, hi = 0;
    for (uint64_t b = 0; b < cut; ++b) lo += load[b];
    for (uint64_t b = r.buckets - cut; b < r.buckets; ++b) hi += load[b];
    const double ratio = hi / lo;
    CHECK_MSG(ratio > 0.98 && ratio < 1.02, "%llu buckets (n0 %u): load of the last 40 %% / the first 40 %% = %.3f",
              (unsigned long long)r.buckets, r.n0, ratio);
  }
  std::printf("fresh tables balanced\n");
}

}  // namespace

int main() {
  roots_round_up_little();
  splits_move_only_the_split_bucket();
  classic_rule_when_one_root();
  fresh_table_is_balanced();
  std::printf("test_hive_geometry: ok\n");
  return 0;
}
#else
int main() {
  std::printf("test_hive_geometry: skipped (built without CUDA: no Hive backend)\n");
  return 77;
}
#endif
