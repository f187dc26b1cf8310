// The window scan of GLHT's sorted placement (glht/glht_window_scan.hpp) on the host: composed in
// random groupings (as CUB's scan may combine them), its states must equal the one-key-at-a-time
// greedy, and every key it places must sit 0..31 slots past its home on a slot no other key takes.
// Also the overflow share of the greedy at load factor 0.95 against placement that lets overflowing
// keys take a slot (the reason the build runs up to 0.95).
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "check.hpp"
#include "glht/glht_window_scan.hpp"

using namespace wx::glht;

namespace {

// Sorted homes: gaps mostly 0..2 (crowded), sometimes long jumps.
std::vector<long long> homes(std::mt19937_64& rng, int n, double crowd) {
  std::vector<long long> h(n);
  std::uniform_real_distribution<double> u(0, 1);
  long long at = static_cast<long long>(rng() % 1000);
  for (int i = 0; i < n; ++i) {
    const double x = u(rng);
    at += x < crowd ? 0 : x < crowd + 0.3 ? 1 : x < 0.995 ? 2 : static_cast<long long>(rng() % 5000);
    h[i] = at;
  }
  return h;
}

// The greedy, one key at a time: offsets past the home (kWindow = overflow) and the states after each.
void greedy(const std::vector<long long>& h, std::vector<int>& off, std::vector<int>& state) {
  long long next_free = h.empty() ? 0 : h[0];
  for (size_t i = 0; i < h.size(); ++i) {
    const long long s = std::max(next_free, h[i]);
    off[i] = s - h[i] <= kWindow - 1 ? static_cast<int>(s - h[i]) : kWindow;
    if (off[i] < kWindow) next_free = s + 1;
    state[i] = static_cast<int>(std::min<long long>(std::max<long long>(next_free - h[i], 0), kWindow));
  }
}

WindowStep step_of(const std::vector<long long>& h, size_t i) { return window_step(i ? h[i] - h[i - 1] : 0); }

// Composition of steps lo..hi-1, split at random points (any bracketing must give the same step).
WindowStep fold(const std::vector<long long>& h, size_t lo, size_t hi, std::mt19937_64& rng) {
  if (hi - lo == 1) return step_of(h, lo);
  const size_t mid = lo + 1 + rng() % (hi - lo - 1);
  return WindowCompose{}(fold(h, lo, mid, rng), fold(h, mid, hi, rng));
}

void states_match_the_greedy() {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 400; ++round) {
    const int n = 1 + static_cast<int>(rng() % 600);
    const auto h = homes(rng, n, 0.2 + 0.6 * (round % 4) / 3.0);
    std::vector<int> off(n), state(n);
    greedy(h, off, state);
    // The sequential scan (what the place kernel reads) and random bracketings of each prefix.
    WindowStep acc = step_of(h, 0);
    for (int i = 0; i < n; ++i) {
      if (i) acc = WindowCompose{}(acc, step_of(h, i));
      CHECK_MSG(WindowState{}(acc) == state[i], "round %d key %d: scan %d, greedy %d", round, i, WindowState{}(acc),
                state[i]);
      const int o = i ? window_offset(state[i - 1], h[i] - h[i - 1]) : 0;
      CHECK_MSG(o == off[i], "round %d key %d: offset %d, greedy %d", round, i, o, off[i]);
      if (rng() % 8 == 0) CHECK(WindowState{}(fold(h, 0, i + 1, rng)) == state[i]);
    }
    // Placed keys: inside their windows, no slot twice.
    std::vector<long long> slots;
    for (int i = 0; i < n; ++i)
      if (off[i] < kWindow) slots.push_back(h[i] + off[i]);
    std::sort(slots.begin(), slots.end());
    CHECK(std::adjacent_find(slots.begin(), slots.end()) == slots.end());
  }
}

// At LF 0.95 a window overflows for ~0.2 % of keys; letting overflowing keys take slots pushes the
// keys behind them out too (~4 %).
void overflow_share_at_095() {
  std::mt19937_64 rng(11);
  const long long nb = 1 << 20, n = static_cast<long long>(0.95 * nb);
  std::vector<long long> h(n);
  for (auto& x : h) x = static_cast<long long>(rng() % nb);
  std::sort(h.begin(), h.end());
  std::vector<int> off(n), state(n);
  greedy(h, off, state);
  long long skip = 0, take = 0, mx = -(1ll << 40);
  for (long long i = 0; i < n; ++i) {
    skip += off[i] == kWindow;
    mx = std::max(mx, h[i] - i);
    take += i + mx - h[i] >= kWindow;
  }
  std::printf("LF 0.95, %lld keys: %.3f %% overflow, %.3f %% when overflowing keys take slots\n", n, 100.0 * skip / n,
              100.0 * take / n);
  CHECK(skip * 1000 < n * 5);
  CHECK(take > 10 * skip);
}

}  // namespace

int main() {
  states_match_the_greedy();
  overflow_share_at_095();
  std::printf("test_window_scan: ok\n");
  return 0;
}
