//===- Metadata.h - the kernel metadata JSON beside each cubin --*- C++ -*-===//
//
// The contract with libtkrt (docs/runtime.md): NAME.json beside NAME.cubin,
// tk_metadata_version 1. The runtime reads it to check launch arguments and
// to size dynamic shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_TARGET_METADATA_H
#define TK_COMPILER_TARGET_METADATA_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tk {

struct KernelArgMetadata {
  std::string name;
  std::string type;          // source spelling: "*f32", "i32", "bf16", ...
  std::string spec = "none"; // "none", "div16" or "one"
};

struct ConstexprMetadata {
  enum class Kind { Int, Float, Bool };
  std::string name;
  Kind kind = Kind::Int;
  int64_t intValue = 0; // Int, and Bool as 0/1
  double floatValue = 0;
};

/// One dimension or stride of a tensor map: a parameter's name, or a
/// constant when `arg` is empty.
struct TensorMapOperandMetadata {
  std::string arg;
  int64_t value = 0;
};

/// A TMA descriptor the runtime encodes at launch (docs/runtime.md,
/// "Tensor maps"); from the kernel's `tk.tensor_maps` (tkgpu-lower-tma).
struct TensorMapMetadata {
  std::string base;  // a pointer parameter
  std::string dtype; // its pointee, e.g. "f16"
  std::vector<TensorMapOperandMetadata> shape, strides;
  std::vector<int64_t> block; // the box
  int64_t swizzle = 0;
};

struct KernelMetadata {
  static constexpr int kVersion = 1;
  /// The version of kernels with tensor maps.
  static constexpr int kTensorMapVersion = 2;
  std::string name;
  std::string arch;
  int numWarps = 4;
  int numStages = 3;
  uint64_t sharedBytes = 0;
  /// Programs per thread-block cluster along x (the kernel's
  /// cluster_size=); written only when above 1.
  int clusterSize = 1;
  std::string binary;              // file name of the cubin/PTX, may be empty
  std::string binaryKind = "cubin"; // "cubin" or "ptx"
  std::string tkIr;                 // optional: tk IR for the CPU interpreter
  std::string source;               // the .tk file, informational
  std::vector<KernelArgMetadata> args;
  std::vector<ConstexprMetadata> constexprs;
  int gridRank = 1;
  /// Hidden parameters after `args`, one 128-byte CUtensorMap each.
  std::vector<TensorMapMetadata> tensorMaps;
};

/// Fills what the module knows about kernel `kernelName` (the only kernel
/// when empty): name, argument names/types/specs and constexprs (the
/// frontend's tk.arg_names, tk.arg_types, tk.arg_specs, tk.constexprs on
/// the kernel function), num_warps, num_stages, source (module attributes
/// tk.num_warps or tkgpu.num_warps, tk.num_stages, tk.source), shared_bytes
/// (tkgpu.shared_bytes) and grid_rank (from the tk.program_id/num_programs
/// axes, or tk.grid_rank on an lowered kernel) and tensor_maps
/// (tk.tensor_maps, whose hidden parameters are not in `args`). Works on the tk, tkgpu and
/// LLVM stages. `arch`, `binary`, `binaryKind` and `tkIr` are left to the
/// caller.
llvm::Expected<KernelMetadata>
collectKernelMetadata(mlir::ModuleOp module, llvm::StringRef kernelName = "");

/// The metadata as JSON text (an object, fields in the contract's order).
std::string buildMetadataJson(const KernelMetadata &metadata);

} // namespace tk

#endif // TK_COMPILER_TARGET_METADATA_H
