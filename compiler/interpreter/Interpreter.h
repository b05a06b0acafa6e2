//===- Interpreter.h - Run tk IR kernels on the CPU --------------*- C++ -*-===//
//
// The CPU interpreter executes a kernel in tk IR (the output of the tk
// pipeline: tk + arith + math + scf + func) for a 1-3D grid of program
// instances, on host memory.
//
// A kernel is compiled once (compileKernel/loadKernel) into a flat program:
// one instruction per operation with its operand slots, shapes and strides
// resolved, structured control flow turned into jumps. Running it needs no
// MLIR: the Kernel owns everything, and one Kernel may run many times, also
// from several threads at once. docs/interpreter.md describes the semantics.
//
// Errors (an unsupported operation when compiling; an out-of-bounds access
// or a failed device_assert when running) are returned as llvm::Error with a
// clang-style message naming the .tk source position. Nothing aborts.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_INTERPRETER_H
#define TK_COMPILER_INTERPRETER_INTERPRETER_H

#include "compiler/interpreter/ElementKind.h"
#include "compiler/interpreter/MemoryRegistry.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class Operation;
} // namespace mlir

namespace tk::interp {

struct KernelProgram;

/// One kernel parameter, as the interpreter passes it.
struct KernelParam {
  std::string name;
  /// The source type ("*f32", "u32", "bf16"): from the function's
  /// `tk.arg_types`, or derived from the IR type (integers as signed).
  std::string sourceType;
  bool isPointer = false;
  /// The value's kind; for pointers, the pointee's.
  ElementKind element = ElementKind::I32;
  /// From the source type: whether an integer parameter is unsigned.
  bool isUnsigned = false;
  /// What the kernel was compiled assuming of the value (`tk.arg_specs`:
  /// tkc's --assume / --assume-aligned-pointers, the JIT's
  /// specialization); Kernel::run refuses arguments that break it.
  enum class Spec : uint8_t { None, Div16, One };
  Spec spec = Spec::None;
};

/// Number of program instances along x, y, z.
struct LaunchGrid {
  int64_t x = 1, y = 1, z = 1;
};

struct RunOptions {
  /// Where device_print writes; llvm::outs() when null.
  llvm::raw_ostream *printStream = nullptr;
};

class Kernel {
public:
  explicit Kernel(std::unique_ptr<KernelProgram> program);
  ~Kernel();
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  const std::string &name() const;
  llvm::ArrayRef<KernelParam> params() const;

  /// Runs every program instance of `grid`, sequentially in row-major order
  /// of (x, y, z) (z fastest), and stops at the first error. `args` holds
  /// one value per parameter in its low bits (little-endian): integers in
  /// their width, floats as IEEE bits (f16/bf16 as 16-bit patterns),
  /// pointers as host addresses. Every address the kernel touches must lie
  /// in a buffer of `memory`. An argument that breaks its parameter's
  /// `spec` (an integer not a multiple of 16, or not 1; a pointer not
  /// 16-byte aligned) is an error before anything runs.
  llvm::Error run(const LaunchGrid &grid, llvm::ArrayRef<uint64_t> args,
                  const MemoryRegistry &memory,
                  const RunOptions &options = RunOptions()) const;

  /// Internal: the compiled program (for tests and tools that dump it).
  const KernelProgram &program() const { return *compiled; }

private:
  std::unique_ptr<KernelProgram> compiled;
};

/// Compiles a `func.func` in tk IR. Other functions it calls are inlined
/// (they must be in the same module). The Kernel keeps nothing of MLIR.
llvm::Expected<std::unique_ptr<Kernel>> compileKernel(mlir::Operation *func);

/// Parses tk IR text (`origin` names it in messages) in a private MLIR
/// context and compiles the kernel `kernelName`; an empty name picks the
/// only function carrying `tk.kernel` (or the only function).
llvm::Expected<std::unique_ptr<Kernel>>
loadKernel(llvm::StringRef irText, llvm::StringRef origin,
           llvm::StringRef kernelName = "");

} // namespace tk::interp

#endif // TK_COMPILER_INTERPRETER_INTERPRETER_H
