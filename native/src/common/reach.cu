// Which GPUs and drivers this build runs on, and why not where it does not. The kernels exist for the
// architectures nvcc compiled (__CUDA_ARCH_LIST__; the CMake build adds the PTX of the newest, which
// newer GPUs compile at load time), so an older GPU would fail at its first kernel; the CUDA runtime
// is linked in statically, so the driver must support its major version.
#include <cuda_runtime.h>

#include <string>

#include "common/device.hpp"

#ifndef __CUDA_ARCH_LIST__
#error "__CUDA_ARCH_LIST__ (the architectures compiled) needs nvcc 11.5 or newer"
#endif

namespace wx::dev {

namespace {

constexpr int kArchs[] = {__CUDA_ARCH_LIST__};  // 10 * compute capability: 900 for sm_90

constexpr int oldest_arch() {
  int m = kArchs[0];
  for (int a : kArchs) m = a < m ? a : m;
  return m;
}

std::string cuda_version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

// Why the driver cannot run this build, "" when it can.
std::string driver_reason() {
  int driver = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;  // 0 also when no driver is installed
  cudaGetLastError();
  const int needed = CUDART_VERSION / 1000 * 1000;  // minor-version compatibility within a major
  if (driver == 0) return "no NVIDIA driver was found (libcuda.so.1 cannot be loaded)";
  if (driver < needed)
    return "the NVIDIA driver supports CUDA " + cuda_version(driver) + "; this build needs " + cuda_version(needed) +
           " or newer (update the driver)";
  return "";
}

}  // namespace

std::string unusable_reason(int device) {
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    const cudaError_t e = cudaGetLastError();
    return "GPU " + std::to_string(device) + " cannot be queried: " + cudaGetErrorString(e);
  }
  const int cc = major * 10 + minor;
  if (cc * 10 >= oldest_arch()) return "";
  cudaDeviceProp p;
  const std::string name = cudaGetDeviceProperties(&p, device) == cudaSuccess ? p.name : "unknown model";
  cudaGetLastError();
  return "GPU " + std::to_string(device) + " is sm_" + std::to_string(cc) + " (" + name + "); this build runs on sm_" +
         std::to_string(oldest_arch() / 10) + " and newer";
}

std::string unavailable_reason() {
  std::string why = driver_reason();
  if (!why.empty()) return why;
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return e == cudaErrorNoDevice ? "no CUDA device was found"
                                  : std::string("no CUDA device is usable: ") + cudaGetErrorString(e);
  }
  if (n == 0) return "no CUDA device was found";
  for (int d = 0; d < n; ++d) {
    const std::string r = unusable_reason(d);
    if (r.empty()) return "";
    why += (why.empty() ? "" : "; ") + r;
  }
  return why;
}

}  // namespace wx::dev
