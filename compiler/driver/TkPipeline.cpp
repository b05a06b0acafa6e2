//===- TkPipeline.cpp - the passes on the tk dialect ----------------------===//

#include "compiler/driver/TkPipeline.h"

#include "compiler/driver/PassRunner.h"
#include "compiler/transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace tk {

void buildTkPipeline(mlir::OpPassManager &pm) {
  pm.addPass(mlir::createInlinerPass());
  // Before canonicalize, which folds the unrolled copies' index arithmetic.
  pm.addPass(mlir::tk::createTkUnrollLoops());
  pm.addPass(mlir::createCanonicalizerPass());
  // After canonicalize, which hoists the constants (inner loop bounds) out
  // of the nests.
  pm.addPass(mlir::tk::createTkFlattenLoops());
  pm.addPass(mlir::tk::createTkCombine());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createSymbolDCEPass());
}

mlir::LogicalResult runTkPipeline(Compilation &compilation,
                                  mlir::ModuleOp module) {
  return runPipeline(compilation, module, "tk", buildTkPipeline);
}

} // namespace tk
