//===- CompileOptions.cpp - what one tkc compilation is asked to do -------===//

#include "compiler/driver/CompileOptions.h"

namespace tk {

namespace {
struct EmitKindName {
  EmitKind kind;
  const char *name;
};
constexpr EmitKindName kEmitKindNames[] = {
    {EmitKind::Ast, "ast"},           {EmitKind::TkRaw, "tk-raw"},
    {EmitKind::Tk, "tk"},             {EmitKind::TkGpu, "tkgpu"},
    {EmitKind::LlvmMlir, "llvm-mlir"}, {EmitKind::Llvm, "llvm"},
    {EmitKind::Ptx, "ptx"},           {EmitKind::Cubin, "cubin"},
    {EmitKind::SassReport, "sass-report"},
};
} // namespace

const char *getEmitKindName(EmitKind kind) {
  for (const EmitKindName &entry : kEmitKindNames)
    if (entry.kind == kind)
      return entry.name;
  return "?";
}

std::optional<EmitKind> parseEmitKind(const std::string &name) {
  for (const EmitKindName &entry : kEmitKindNames)
    if (name == entry.name)
      return entry.kind;
  return std::nullopt;
}

std::string getEmitKindNames() {
  std::string text;
  for (const EmitKindName &entry : kEmitKindNames) {
    if (!text.empty())
      text += ", ";
    text += entry.name;
  }
  return text;
}

IRGenOptions CompileOptions::getIRGenOptions() const {
  IRGenOptions result;
  result.kernelName = kernelName;
  result.defines = defines;
  result.numWarps = numWarps;
  result.numStages = numStages;
  result.maxRegisters = maxRegisters;
  result.clusterSize = clusterSize;
  result.autotuneConfig = autotuneConfig;
  result.assumptions = assumptions;
  result.assumeAlignedPointers = assumeAlignedPointers;
  return result;
}

std::string checkNumWarps(long long value) {
  if (value < 1 || value > 16 || (value & (value - 1)) != 0)
    return "--num-warps must be a power of two between 1 and 16";
  return "";
}

std::string checkNumStages(long long value) {
  if (value < 1 || value > 8)
    return "--num-stages must be between 1 and 8";
  return "";
}

std::string checkMaxRegisters(long long value) {
  if (value < 24 || value > 256 || value % 8 != 0)
    return "maxnreg must be a multiple of 8 between 24 and 256, got " +
           std::to_string(value);
  return "";
}

std::string checkClusterSize(long long value) {
  if (value != 1 && value != 2 && value != 4 && value != 8)
    return "--cluster-size must be 1, 2, 4 or 8";
  return "";
}

std::string checkArch(const std::string &arch) {
  if (arch != "sm_90a" && arch != "sm_80")
    return "--arch must be sm_90a or sm_80, got '" + arch + "'";
  return "";
}

} // namespace tk
