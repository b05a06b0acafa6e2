//===- Metadata.h - The compiler's per-kernel metadata ---------*- C++ -*-===//
//
// The contract between tkc and libtkrt: for each compiled kernel the compiler
// writes NAME.cubin (or NAME.ptx) and NAME.json beside it. docs/runtime.md
// describes the JSON format; this is its in-memory form, its validating
// reader and its writer (the compiler may use toJson so that both sides of
// the contract live in one place).
//
//===----------------------------------------------------------------------===//

#ifndef TK_METADATA_H
#define TK_METADATA_H

#include "tk/Arch.h"
#include "tk/ScalarType.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tk {

/// The tk_metadata_version of kernels without tensor maps.
constexpr int kMetadataVersion = 1;
/// The version of kernels with tensor maps: a runtime that would ignore
/// them (and launch without their parameters) rejects it.
constexpr int kTensorMapMetadataVersion = 2;

enum class BinaryKind : uint8_t { Cubin, Ptx };
const char *binaryKindName(BinaryKind kind); // "cubin", "ptx"

/// One kernel parameter (constexprs are not parameters).
struct KernelArg {
  std::string name;
  ArgType type;
  ArgSpec spec = ArgSpec::None;
};

/// A compile-time constant the kernel was specialized with.
struct Constexpr {
  enum class Kind : uint8_t { Int, Float, Bool };
  std::string name;
  Kind kind = Kind::Int;
  int64_t intValue = 0; // Int, and Bool as 0/1
  double floatValue = 0; // Float
};

/// One dimension or stride of a tensor map: an integer parameter's value
/// at launch, or a constant.
struct TensorMapOperand {
  std::string arg; // the parameter's name; empty for a constant
  int64_t value = 0;

  bool isArg() const { return !arg.empty(); }
};

/// A TMA descriptor (CUtensorMap) the runtime encodes at each launch with
/// cuTensorMapEncodeTiled and passes as an extra 128-byte parameter after
/// the kernel's own (docs/runtime.md, "Tensor maps"). Dimensions are listed
/// outermost first, as in the language; the last stride is 1.
struct TensorMapSpec {
  std::string base;                       // a pointer parameter
  ScalarKind element = ScalarKind::F16;   // the pointee type
  std::vector<TensorMapOperand> shape;    // elements per dimension
  std::vector<TensorMapOperand> strides;  // in elements
  std::vector<int64_t> block;             // the box, 1..256 per dimension
  int swizzleBytes = 0;                   // 0, 32, 64 or 128
};

struct Metadata {
  int version = kMetadataVersion;
  std::string name;            // the kernel's symbol in the binary
  std::string arch;            // "sm_90a"
  int numWarps = 4;            // blockDim.x = numWarps * 32
  int numStages = 1;
  uint64_t sharedBytes = 0;    // dynamic shared memory per block
  /// Programs per thread-block cluster along x (1, 2, 4 or 8): the cubin
  /// declares it (.reqnctapercluster), so a plain launch runs clusters;
  /// grid x must be a multiple of it.
  int clusterSize = 1;
  std::string binary;          // file name, relative to the .json's folder
  BinaryKind binaryKind = BinaryKind::Cubin;
  std::string tkIr;            // optional: tk IR for the CPU interpreter
  std::string source;          // optional: the .tk file, for messages
  std::vector<KernelArg> args; // exactly the kernel's parameters, in order
  std::vector<Constexpr> constexprs;
  int gridRank = 3;            // how many program_id axes the kernel uses
  /// Hidden parameters after `args`, one 128-byte CUtensorMap each.
  std::vector<TensorMapSpec> tensorMaps;

  /// The version these fields need: kTensorMapMetadataVersion with tensor
  /// maps, else kMetadataVersion. validate() requires `version` to be it.
  int requiredVersion() const {
    return tensorMaps.empty() ? kMetadataVersion : kTensorMapMetadataVersion;
  }

  /// Parses and validates metadata JSON. `origin` names the text in errors
  /// ("softmax.json: missing field 'num_warps'").
  static Metadata parse(std::string_view jsonText, const std::string &origin);
  /// Reads and parses a metadata file.
  static Metadata load(const std::string &path);

  /// Serializes to the JSON format `parse` reads (pretty-printed).
  std::string toJson() const;

  /// Throws tk::Error if the fields are inconsistent (what `parse` checks
  /// after reading): useful for metadata built in code.
  void validate(const std::string &origin) const;

  /// `arch` parsed (validate() guarantees that it parses).
  GpuArch targetArch() const;

  /// The parameter named `name`, or nullptr.
  const KernelArg *findArg(std::string_view argName) const;
};

} // namespace tk

#endif // TK_METADATA_H
