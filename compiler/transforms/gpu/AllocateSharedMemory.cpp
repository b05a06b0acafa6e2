//===- AllocateSharedMemory.cpp - tkgpu-allocate-shared-memory ------------===//
//
// One dynamic shared-memory buffer serves a kernel: explicit buffers
// (local_alloc) and the scratch of ops whose lowering needs shared memory
// (ScratchOpInterface) each get an interval of it. The algorithm (live
// ranges in program order, first fit largest first, so that allocations
// with disjoint lifetimes share bytes) is allocateSharedMemory in
// compiler/analysis/Allocation.cpp; this pass runs it per function and
// records the largest total on the module (tkgpu.shared_bytes), which the
// LLVM lowering and the kernel metadata read. A kernel that needs more
// than its target gives one program (getMaxSharedMemoryPerProgram) is an
// error at the kernel, here rather than at launch, so that tkc and the
// autotuner (which skips configs that fail to compile, as Triton skips
// OutOfResources) see it.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/Allocation.h"
#include "compiler/transforms/gpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUALLOCATESHAREDMEMORY
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

struct AllocateSharedMemoryPass
    : public tkgpu::impl::TkgpuAllocateSharedMemoryBase<
          AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t total = 0;
    // Calls are inlined before tkgpu (TkPipeline), so functions do not
    // share memory with each other: each starts at offset 0.
    int64_t limit =
        getMaxSharedMemoryPerProgram(getComputeCapability(getTarget(module)));
    for (auto func : module.getOps<FunctionOpInterface>()) {
      int64_t bytes = allocateSharedMemory(func);
      if (limit > 0 && bytes > limit) {
        func.emitError("the kernel needs ")
            << bytes << " bytes of shared memory; " << getTarget(module)
            << " gives a program at most " << limit
            << " (fewer num_stages or smaller blocks need less)";
        return signalPassFailure();
      }
      total = std::max(total, bytes);
    }
    module->setAttr(kSharedBytesAttr,
                    IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                     total));
  }
};

} // namespace
