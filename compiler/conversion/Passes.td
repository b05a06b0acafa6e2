//===- Passes.td - tkgpu to LLVM conversion ----------------*- tablegen -*-===//
#ifndef TK_CONVERSION_PASSES_TD
#define TK_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTkgpuToLlvm : Pass<"convert-tkgpu-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower tkgpu (tk ops on layout-encoded tensors) to LLVM + NVVM";
  let description = [{
    Every tensor becomes the struct of the elements the calling thread owns,
    in the register order of its encoding's LinearLayout. Kernels become
    `llvm.func` with `nvvm.kernel` and `nvvm.reqntid`; loads and stores are
    predicated inline PTX vectorized up to 128 bits from AxisInfo; reductions
    and scans go through registers, warp shuffles and shared memory; layout
    conversions through registers or shared memory. Buffers and scratch
    live in one dynamic shared-memory array `tk_smem`, at the offsets
    tkgpu-allocate-shared-memory gave them (0 without it); the module
    attribute `tkgpu.shared_bytes` records the bytes needed. tkgpu.barrier
    becomes bar.sync. scf is lowered to cf first; math uses fast PTX
    approximations (see docs/pipeline.md).
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::cf::ControlFlowDialect",
  ];
  let options = [
    Option<"rebaseDescriptors", "rebase-wgmma-descriptors", "bool",
           /*default=*/"false",
           "Compute each wgmma matrix descriptor from the address of "
           "tk_smem taken where the descriptor is built (plus the buffer's "
           "offset), not from one base held across the kernel, so that "
           "ptxas keeps the descriptor arithmetic in uniform registers "
           "(docs/pipeline.md, warp_group_dot)">,
  ];
}

#endif // TK_CONVERSION_PASSES_TD
