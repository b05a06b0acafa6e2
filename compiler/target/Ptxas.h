//===- Ptxas.h - assemble PTX to a cubin with ptxas -------------*- C++ -*-===//
//
// ptxas is run as a separate process: it is the only PTX assembler, and CI
// machines without a GPU have it, so the PTX we emit is proven legal there.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_TARGET_PTXAS_H
#define TK_COMPILER_TARGET_PTXAS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tk {

/// Resource use of one kernel, as `ptxas -v` reports it.
struct KernelStats {
  std::string name;
  unsigned registers = 0;
  unsigned barriers = 0;
  unsigned stackFrameBytes = 0;
  unsigned spillStoreBytes = 0;
  unsigned spillLoadBytes = 0;
  /// Static shared memory only; tk's shared memory is dynamic and sized at
  /// launch from the metadata's shared_bytes.
  unsigned staticSharedBytes = 0;
  unsigned constantBytes = 0; // cmem[0]: the kernel parameters and more
};

/// What ptxas produced.
struct CubinResult {
  std::string cubin;               // the ELF bytes
  std::string log;                 // ptxas' stdout and stderr (warnings, -v)
  std::vector<KernelStats> kernels; // parsed from `log`
};

/// ptxas: $TK_PTXAS, else `ptxas` on PATH, else /usr/local/cuda/bin/ptxas.
llvm::Expected<std::string> findPtxas();

/// Assembles `ptx` for `arch` (e.g. "sm_90a") with -O3 and -v.
/// On failure the error reads "ptxas failed: <log>".
llvm::Expected<CubinResult> assemblePtx(llvm::StringRef ptx,
                                        llvm::StringRef arch,
                                        unsigned optLevel = 3);

/// Parses the per-kernel lines of `ptxas -v`.
std::vector<KernelStats> parsePtxasLog(llvm::StringRef log);

/// One line per kernel for `tkc --stats`: "add: 16 registers, 0 bytes spill
/// stores, 0 bytes spill loads, 0 bytes stack, 1 barriers, 0 bytes static
/// smem".
std::string formatKernelStats(const KernelStats &stats);

} // namespace tk

#endif // TK_COMPILER_TARGET_PTXAS_H
