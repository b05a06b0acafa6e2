//===- ConvertTkgpuToLlvm.cpp - the convert-tkgpu-to-llvm pass ------------===//
//
// 1. Before anything moves: per memory op, the vector width (AxisInfo +
//    layout), and per kernel the grid rank.
// 2. scf -> cf, still on tensors (block arguments carry tensors; the type
//    converter turns them into structs with the rest).
// 3. One dialect conversion to LLVM + NVVM: our op patterns, and the
//    upstream arith/math/cf/index patterns for scalars (our fast math
//    first).
// 4. tkgpu.warp_specialize, kept through 3 for its regions' ops, becomes
//    the branch into its partitions (WarpSpecializeOpToLlvm.cpp).
// 5. tkgpu.shared_bytes on the module: the dynamic shared memory a launch
//    must provide (tkgpu-allocate-shared-memory's total, or what the
//    patterns used when it did not run).
// Barrier pruning and instruction sinking are passes of their own
// (compiler/transforms/llvm), run by buildLlvmPipeline.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/Passes.h"

#include "compiler/analysis/AccessWidth.h"
#include "compiler/analysis/AxisInfo.h"
#include "compiler/conversion/PatternSets.h"
#include "compiler/conversion/MathOpToLibdevice.h"
#include "compiler/conversion/TmaOpToLlvm.h"
#include "compiler/conversion/WarpSpecializeOpToLlvm.h"
#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_CONVERTTKGPUTOLLVM
#include "compiler/conversion/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

static void computeVectorWidths(ModuleOp module, VectorWidthMap &widths) {
  tk::AxisInfoAnalysis axisInfo(module);
  unsigned computeCapability = getComputeCapability(getTarget(module));
  module.walk([&](Operation *op) {
    if (auto load = dyn_cast<tk::LoadOp>(op))
      widths[op] =
          tk::getAccessVectorWidth(axisInfo, load.getPtr(), load.getMask());
    else if (auto store = dyn_cast<tk::StoreOp>(op))
      widths[op] =
          tk::getAccessVectorWidth(axisInfo, store.getPtr(), store.getMask());
    else if (auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op))
      widths[op] =
          tk::getAccessVectorWidth(axisInfo, copy.getPtr(), copy.getMask());
    else if (auto rmw = dyn_cast<tk::AtomicRMWOp>(op);
             rmw && tk::hasVectorAtomicForm(op, computeCapability))
      widths[op] =
          tk::getAccessVectorWidth(axisInfo, rmw.getPtr(), rmw.getMask());
  });
}

/// tk.grid_rank on each kernel: the highest program axis it uses, + 1.
static void recordGridRanks(ModuleOp module) {
  module.walk([](func::FuncOp func) {
    if (!tk::isKernel(func))
      return;
    int64_t rank = 1;
    func.walk([&](Operation *op) {
      if (auto id = dyn_cast<tk::ProgramIdOp>(op))
        rank = std::max<int64_t>(rank, id.getAxis() + 1);
      else if (auto n = dyn_cast<tk::NumProgramsOp>(op))
        rank = std::max<int64_t>(rank, n.getAxis() + 1);
    });
    func->setAttr("tk.grid_rank",
                  IntegerAttr::get(IntegerType::get(func.getContext(), 32),
                                   rank));
  });
}

struct ConvertTkgpuToLlvmPass
    : public tkgpu::impl::ConvertTkgpuToLlvmBase<ConvertTkgpuToLlvmPass> {
  using ConvertTkgpuToLlvmBase::ConvertTkgpuToLlvmBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    LoweringState state;
    state.module = module;
    state.numWarps = getNumWarps(module);
    if (state.numWarps == 0) {
      module.emitError("missing module attribute tkgpu.num_warps (run "
                       "convert-tk-to-tkgpu first)");
      return signalPassFailure();
    }
    state.threadsPerWarp = getThreadsPerWarp(module);
    if (state.threadsPerWarp != 32) {
      module.emitError("tkgpu.threads_per_warp must be 32 on NVIDIA GPUs");
      return signalPassFailure();
    }
    if (unsigned cc = getComputeCapability(getTarget(module)))
      state.computeCapability = cc;
    state.rebaseDescriptors = rebaseDescriptors;

    computeVectorWidths(module, state.vectorWidths);
    if (failed(prepareAsyncCopies(module, state)))
      return signalPassFailure();
    recordGridRanks(module);

    // scf -> cf while values are still tensors.
    {
      RewritePatternSet patterns(ctx);
      populateSCFToControlFlowConversionPatterns(patterns);
      ConversionTarget target(*ctx);
      target.addIllegalDialect<scf::SCFDialect>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }

    // The dynamic shared memory: `extern __shared__ char tk_smem[]`.
    OpBuilder builder(ctx);
    builder.setInsertionPointToStart(module.getBody());
    // Aligned as the most demanding buffer (wgmma's swizzled tiles repeat
    // their pattern every 8 rows: up to 1024 bytes).
    uint64_t smemAlignment = 16;
    module.walk([&](LocalAllocOp alloc) {
      if (auto nvmma = dyn_cast<NvmmaSharedEncodingAttr>(
              alloc.getType().getEncoding()))
        smemAlignment = std::max<uint64_t>(smemAlignment,
                                           nvmma.getRequiredAlignment());
    });
    auto smemType = LLVM::LLVMArrayType::get(builder.getI8Type(), 0);
    auto smem = LLVM::GlobalOp::create(
        builder, module.getLoc(), smemType, /*isConstant=*/false,
        LLVM::Linkage::External, kSharedMemoryName, Attribute(),
        smemAlignment, /*addrSpace=*/3);

    LowerToLLVMOptions options(ctx);
    TkgpuToLlvmTypeConverter converter(ctx, options);
    RewritePatternSet patterns(ctx);
    populateFuncOpToLlvmPatterns(converter, state, patterns);
    populateElementwiseOpToLlvmPatterns(converter, state, patterns);
    populateFp8OpToLlvmPatterns(converter, state, patterns);
    populateMathOpToLlvmPatterns(converter, patterns);
    populateMathOpToLibdevicePatterns(converter, patterns);
    populateViewOpToLlvmPatterns(converter, state, patterns);
    populateLoadStoreOpToLlvmPatterns(converter, state, patterns);
    populateReduceOpToLlvmPatterns(converter, state, patterns);
    populateScanOpToLlvmPatterns(converter, state, patterns);
    populateConvertLayoutOpToLlvmPatterns(converter, state, patterns);
    populateDotOpToLlvmPatterns(converter, state, patterns);
    populatePrintAssertOpToLlvmPatterns(converter, state, patterns);
    populateMemDescOpToLlvmPatterns(converter, state, patterns);
    populateAsyncCopyOpToLlvmPatterns(converter, state, patterns);
    populateDotOperandLoadToLlvmPatterns(converter, state, patterns);
    populateMmaDotOpToLlvmPatterns(converter, state, patterns);
    populateWarpGroupDotOpToLlvmPatterns(converter, state, patterns);
    populateTmaOpToLlvmPatterns(converter, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);

    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
    target.addIllegalDialect<tk::TkDialect, TkgpuDialect, arith::ArithDialect,
                             math::MathDialect, cf::ControlFlowDialect,
                             func::FuncDialect, scf::SCFDialect,
                             index::IndexDialect>();
    // NVPTX cannot select these (they would become libm calls); our fast
    // math patterns and the libdevice calls cover them.
    target.addIllegalOp<LLVM::ExpOp, LLVM::Exp2Op, LLVM::Exp10Op, LLVM::LogOp,
                        LLVM::Log2Op, LLVM::Log10Op, LLVM::SinOp, LLVM::CosOp,
                        LLVM::TanOp, LLVM::TanhOp, LLVM::PowOp, LLVM::ASinOp,
                        LLVM::ACosOp, LLVM::ATanOp, LLVM::ATan2Op,
                        LLVM::SinhOp, LLVM::CoshOp>();
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
    populateWarpSpecializeOpToLlvmPatterns(converter, target, patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    lowerWarpSpecializeOps(module);

    // tkgpu-allocate-shared-memory's total when it ran; what the patterns
    // touched otherwise (tests of single ops).
    int64_t sharedBytes = static_cast<int64_t>(state.sharedBytes);
    if (auto allocated = module->getAttrOfType<IntegerAttr>(kSharedBytesAttr)) {
      // A lowering that touched bytes past the allocation disagrees with
      // its scratch size (compiler/analysis/ScratchSize.cpp).
      if (sharedBytes > allocated.getInt()) {
        module.emitError("internal error: the lowering used ")
            << sharedBytes << " bytes of shared memory, "
            << allocated.getInt() << " were allocated";
        return signalPassFailure();
      }
      sharedBytes = allocated.getInt();
    }
    module->setAttr(kSharedBytesAttr,
                    IntegerAttr::get(IntegerType::get(ctx, 32), sharedBytes));
    if (SymbolTable::symbolKnownUseEmpty(smem, module))
      smem.erase();
  }
};

} // namespace
