// Keeps libwixlib.so loadable on glibc 2.34 (RHEL 9, Ubuntu 22.04; scripts/check-glibc.sh checks it).
// The static libstdc++ of a glibc 2.36 toolchain refers to arc4random (new in glibc 2.36) from
// std::random_device, which wixlib never constructs: this local definition satisfies that reference
// with getrandom (glibc 2.25). Hidden, so nothing outside the library sees it.
#include <sys/random.h>

#include <cstdint>

extern "C" __attribute__((visibility("hidden"))) uint32_t arc4random(void) noexcept {
  uint32_t v = 0;
  while (getrandom(&v, sizeof v, 0) != static_cast<ssize_t>(sizeof v)) {
  }
  return v;
}
