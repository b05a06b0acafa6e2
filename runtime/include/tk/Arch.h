//===- Arch.h - GPU architecture names and compatibility -------*- C++ -*-===//
//
// Parses "sm_80", "sm_90a", "sm_100f" and decides whether code built for
// one runs on a device of a given compute capability:
//   - sm_XYa (architecture-specific): exactly compute capability X.Y;
//   - sm_XYf (family-specific): major X, minor >= Y;
//   - a plain sm_XY cubin: major X, minor >= Y (SASS is compatible only
//     within one major version);
//   - plain sm_XY PTX: any compute capability >= X.Y (the driver JITs it).
//
//===----------------------------------------------------------------------===//

#ifndef TK_ARCH_H
#define TK_ARCH_H

#include <optional>
#include <string>
#include <string_view>

namespace tk {

struct GpuArch {
  int major = 0;
  int minor = 0;
  char suffix = 0; // 0, 'a' or 'f'
};

/// Parses "sm_<major><minor>[a|f]"; std::nullopt if malformed.
std::optional<GpuArch> parseGpuArch(std::string_view name);
std::string toString(const GpuArch &arch);

/// Returns std::nullopt when code for `target` (a cubin, or PTX when
/// `isPtx`) runs on a device of compute capability major.minor; otherwise a
/// sentence explaining why not, e.g. "cubin was built for sm_90a but the
/// device is sm_80 (sm_90a code runs only on compute capability 9.0)".
std::optional<std::string> archMismatch(const GpuArch &target, bool isPtx,
                                        int deviceMajor, int deviceMinor);

} // namespace tk

#endif // TK_ARCH_H
