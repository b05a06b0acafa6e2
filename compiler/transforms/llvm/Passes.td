//===- Passes.td - passes on the LLVM dialect --------------*- tablegen -*-===//
#ifndef TK_TRANSFORMS_LLVM_PASSES_TD
#define TK_TRANSFORMS_LLVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def TkLlvmPruneBarriers : Pass<"tk-llvm-prune-barriers", "::mlir::ModuleOp"> {
  let summary = "Remove barriers that no shared-memory access precedes";
  let description = [{
    Erases each `nvvm.barrier0` of an `llvm.func` that no shared-memory
    access (a load, store or atomic on an address-space-3 pointer, inline
    asm naming shared memory, an indirect call) precedes on any path since
    the previous barrier or the function entry: such a barrier orders
    nothing. A forward "accessed since the last barrier" dataflow over the
    CFG, joined with or.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def TkLlvmSinkUnpacking : Pass<"tk-llvm-sink-unpacking", "::mlir::ModuleOp"> {
  let summary = "Move unpacking and widening ops down to their first user";
  let description = [{
    Moves extractvalue, extractelement, bitcast, fpext, sext and zext down
    to their first user in the block (as Triton's reorder-instructions
    does), so that packed values (a loaded bf16 vector in b32 registers)
    stay packed until used: ptxas then allocates fewer registers.
  }];
}

#endif // TK_TRANSFORMS_LLVM_PASSES_TD
