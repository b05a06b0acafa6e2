//===- Arch.cpp - GPU architecture names and compatibility ----------------===//

#include "tk/Arch.h"

using namespace tk;

std::optional<GpuArch> tk::parseGpuArch(std::string_view name) {
  if (name.substr(0, 3) != "sm_")
    return std::nullopt;
  name.remove_prefix(3);
  GpuArch arch;
  if (!name.empty() && (name.back() == 'a' || name.back() == 'f')) {
    arch.suffix = name.back();
    name.remove_suffix(1);
  }
  // Two or three digits: the last is the minor version.
  if (name.size() < 2 || name.size() > 3)
    return std::nullopt;
  for (char c : name)
    if (c < '0' || c > '9')
      return std::nullopt;
  if (name.front() == '0')
    return std::nullopt;
  arch.minor = name.back() - '0';
  arch.major = 0;
  for (size_t i = 0; i + 1 < name.size(); ++i)
    arch.major = arch.major * 10 + (name[i] - '0');
  return arch;
}

std::string tk::toString(const GpuArch &arch) {
  std::string s = "sm_" + std::to_string(arch.major) +
                  std::to_string(arch.minor);
  if (arch.suffix)
    s += arch.suffix;
  return s;
}

std::optional<std::string> tk::archMismatch(const GpuArch &target, bool isPtx,
                                            int deviceMajor, int deviceMinor) {
  std::string targetName = toString(target);
  std::string device = toString(GpuArch{deviceMajor, deviceMinor, 0});
  std::string capability =
      std::to_string(target.major) + "." + std::to_string(target.minor);
  std::string prefix = std::string(isPtx ? "PTX" : "cubin") +
                       " was built for " + targetName +
                       " but the device is " + device;
  bool sameMajorNewerMinor =
      deviceMajor == target.major && deviceMinor >= target.minor;
  if (target.suffix == 'a') {
    if (deviceMajor == target.major && deviceMinor == target.minor)
      return std::nullopt;
    return prefix + " (" + targetName +
           " code runs only on compute capability " + capability + ")";
  }
  if (target.suffix == 'f') {
    if (sameMajorNewerMinor)
      return std::nullopt;
    return prefix + " (" + targetName + " code runs only on compute " +
           "capability " + std::to_string(target.major) + ".x with x >= " +
           std::to_string(target.minor) + ")";
  }
  if (isPtx) {
    if (deviceMajor > target.major || sameMajorNewerMinor)
      return std::nullopt;
    return prefix + " (PTX for " + targetName +
           " needs compute capability " + capability + " or newer)";
  }
  if (sameMajorNewerMinor)
    return std::nullopt;
  return prefix + " (a cubin runs only on devices of the same major " +
         "compute capability " + std::to_string(target.major) +
         ".x; compile for " + device + " or ship PTX)";
}
