//===- RemarkPrinter.h - optimization remarks in clang style ----*- C++ -*-===//
//
// The passes report what they did and what they could not do through MLIR's
// remark engine (mlir/IR/Remarks.h): `remark::passed` for an optimization
// applied ("loop pipelined: 3 stages, 2 loads as 16-byte cp.async"),
// `remark::missed` for one the kernel fell short of, with the reason
// ("load not pipelined: 2-byte pieces ... lost at k.tk:40:16 in `%`").
// When no engine is installed (tk-opt, lit, every compile that does not ask)
// the calls build nothing.
//
// `tkc --remarks` and the JIT install one that prints each remark as a
// diagnostic at its .tk location, with the source line and a caret, and the
// pass category in brackets, as clang prints -Rpass remarks:
//
//   k.tk:49:15: remark: load not pipelined: ... [pipeline]
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_REMARKPRINTER_H
#define TK_COMPILER_DRIVER_REMARKPRINTER_H

#include "llvm/ADT/StringRef.h"

#include <functional>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tk {

class SourceFile;

/// Installs the remark engine on `context`: every remark of every category
/// prints to `os` (positions inside the source that `getSource` returns
/// when the remark is emitted get the line and a caret). Returns false
/// (with a message on `os`) if MLIR refused the engine.
bool enableRemarkPrinting(mlir::MLIRContext &context,
                          std::function<const SourceFile *()> getSource,
                          llvm::raw_ostream &os, llvm::StringRef toolName);

} // namespace tk

#endif // TK_COMPILER_DRIVER_REMARKPRINTER_H
