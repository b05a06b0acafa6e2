//===- ExternCallHandler.cpp - tk.extern_elementwise in the interpreter ---===//
//
// Calls the host implementation of a libdevice function (LibdeviceHost.cpp)
// once per element: each operand element is read into a LibdeviceScalar by
// its kind, and the result written back the same way. The functions are
// scalar C++ (erfinv, the rounding-mode arithmetic, ...), so there is no
// vector loop to keep here.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/Handlers.h"

#include <cstring>

using namespace tk::interp;

namespace {

LibdeviceScalar readScalar(const char *base, uint32_t index, ElementKind kind) {
  LibdeviceScalar value;
  value.u64 = 0;
  unsigned bytes = storageBytes(kind);
  std::memcpy(&value, base + size_t(index) * bytes, bytes);
  return value;
}

bool callExtern(const Instruction &in, Machine &m) {
  const auto &info = *static_cast<const ExternCallInfo *>(in.aux);
  size_t arity = info.operandSlots.size();
  llvm::SmallVector<const char *, 4> operands;
  for (uint32_t slot : info.operandSlots)
    operands.push_back(m.at<char>(slot));
  char *result = m.at<char>(in.result);
  unsigned resultBytes = storageBytes(info.resultKind);
  LibdeviceScalar args[4];
  for (uint32_t i = 0; i < in.count; ++i) {
    for (size_t a = 0; a < arity; ++a)
      args[a] = readScalar(operands[a], i, info.operandKinds[a]);
    LibdeviceScalar value = info.function(args);
    std::memcpy(result + size_t(i) * resultBytes, &value, resultBytes);
  }
  return true;
}

} // namespace

Handler tk::interp::externCallHandler() { return callExtern; }
