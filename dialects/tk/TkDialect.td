//===- TkDialect.td - the tk dialect (TTIR-style block IR) -*- tablegen -*-===//
//
// The tk dialect is the first IR of a kernel: whole-block tensors with no
// layout, pointers as values, masks on memory ops. It mirrors Triton's TTIR.
//
//===----------------------------------------------------------------------===//
#ifndef TK_DIALECT_TD
#define TK_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tk_Dialect : Dialect {
  let name = "tk";
  let cppNamespace = "::mlir::tk";
  let summary = "Block-level tensor program IR of the tk kernel compiler";
  let description = [{
    A kernel is a `func.func` carrying the `tk.kernel` unit attribute. Its
    body computes on scalars and ranked tensors whose shapes are powers of
    two known at compile time; element types are signless integers, floats
    and `!tk.ptr<T>`. Control flow is scf, arithmetic is arith/math.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Name of the unit attribute that marks a func.func as a kernel entry.
    static constexpr ::llvm::StringLiteral getKernelAttrName() { return "tk.kernel"; }
  }];
}

class Tk_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tk_Dialect, mnemonic, traits>;

#endif // TK_DIALECT_TD
