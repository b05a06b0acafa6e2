//===- AllocateSharedMemory.cpp - tkgpu-allocate-shared-memory ------------===//
//
// One dynamic shared-memory buffer serves a kernel: explicit buffers
// (local_alloc) and the scratch of ops whose lowering needs shared memory
// (ScratchOpInterface) each get an interval of it. The algorithm (live
// ranges in program order, first fit largest first, so that allocations
// with disjoint lifetimes share bytes) is allocateSharedMemory in
// compiler/analysis/Allocation.cpp; this pass runs it per function and
// records the largest total on the module (tkgpu.shared_bytes), which the
// LLVM lowering and the kernel metadata read.
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
    for (auto func : module.getOps<FunctionOpInterface>())
      total = std::max(total, allocateSharedMemory(func));
    module->setAttr(kSharedBytesAttr,
                    IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                     total));
  }
};

} // namespace
