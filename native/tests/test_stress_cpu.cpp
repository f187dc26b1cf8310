// Stress of the CPU kind (the part that runs in CI): 10^7 mixed ops in batches of 2^20 over 2^20 keys,
// uniform and Zipf batches alternating, growth, shrink and explicit resizes interleaved, every batch
// checked per key (suite/stress_test.hpp). WIXLIB_STRESS_OPS=n changes the total; WIXLIB_SMALL=1 shrinks.
#include "suite/stress_test.hpp"

int main() {
  const wxsuite::Env env = wxsuite::read_env("test_stress_cpu");
  wxsuite::run_stress_test(wxsuite::stress_params_for(WX_KIND_CPU, env, 10000000));
  std::printf("test_stress_cpu: all passed (seed=%llu)\n", static_cast<unsigned long long>(env.seed));
  return 0;
}
