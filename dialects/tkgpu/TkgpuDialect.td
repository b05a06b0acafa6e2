//===- TkgpuDialect.td - the tkgpu dialect (TTGIR-style) ---*- tablegen -*-===//
//
// tkgpu is the GPU level of a kernel: the same tk/arith/math/scf ops, whose
// tensors carry a layout encoding saying which thread holds which element,
// plus the ops that move data between layouts and through shared memory.
// It mirrors Triton's TTGIR.
//
//===----------------------------------------------------------------------===//
#ifndef TKGPU_DIALECT_TD
#define TKGPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tkgpu_Dialect : Dialect {
  let name = "tkgpu";
  let cppNamespace = "::mlir::tkgpu";
  let summary = "GPU-level tk IR: tensors with layout encodings";
  let description = [{
    Module attributes (set by convert-tk-to-tkgpu):
    - `tkgpu.num_warps` (i32): warps per CTA; every encoding's warpsPerCTA
      multiplies to it.
    - `tkgpu.threads_per_warp` (i32, 32 on NVIDIA): every encoding's
      threadsPerWarp multiplies to it.
    - `tkgpu.target` (string): the GPU, e.g. "sm_90a" or "sm_80".
  }];
  let dependentDialects = [
    "::mlir::tk::TkDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral getNumWarpsAttrName() {
      return "tkgpu.num_warps";
    }
    static constexpr ::llvm::StringLiteral getThreadsPerWarpAttrName() {
      return "tkgpu.threads_per_warp";
    }
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return "tkgpu.target";
    }
    /// The warps a launch runs when they differ from num_warps: a
    /// tkgpu.warp_specialize adds a producer warp group.
    static constexpr ::llvm::StringLiteral getTotalNumWarpsAttrName() {
      return "tkgpu.total_num_warps";
    }

  private:
    void registerAttributes();
    void registerTypes();

  public:
  }];
}

class Tkgpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tkgpu_Dialect, mnemonic, traits>;

#endif // TKGPU_DIALECT_TD
