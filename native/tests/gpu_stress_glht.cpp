// Stress of GLHT on the GPU (the part that needs a device): 10^8 mixed ops in batches of 2^22 over 2^22
// keys, uniform and Zipf batches alternating, growth, shrink and explicit resizes interleaved, host
// arrays and device buffers, every batch checked per key (suite/stress_test.hpp). Skips (77) without a
// device; WIXLIB_STRESS_OPS=n changes the total; WIXLIB_SMALL=1 (compute-sanitizer) shrinks to 2^17 ops.
#include "suite/stress_test.hpp"

int main() {
  wxtest::require_gpu_or_skip(WX_KIND_GLHT);
  const wxsuite::Env env = wxsuite::read_env("gpu_stress_glht");
  wxsuite::run_stress_test(wxsuite::stress_params_for(WX_KIND_GLHT, env, 100000000));
  std::printf("gpu_stress_glht: all passed (seed=%llu)\n", static_cast<unsigned long long>(env.seed));
  return 0;
}
