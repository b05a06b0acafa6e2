//===- PassRunner.cpp - run a pass pipeline of a compilation --------------===//

#include "compiler/driver/PassRunner.h"

#include "compiler/driver/Compilation.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

namespace tk {

mlir::OpPrintingFlags getIRPrintingFlags() {
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  flags.useLocalScope();
  return flags;
}

void printModule(mlir::ModuleOp module, llvm::raw_ostream &os) {
  module->print(os, getIRPrintingFlags());
  os << "\n";
}

mlir::LogicalResult
runPipeline(Compilation &compilation, mlir::ModuleOp module,
            llvm::StringRef stageName,
            llvm::function_ref<void(mlir::OpPassManager &)> buildPipeline) {
  const CompileOptions &options = compilation.getOptions();
  mlir::PassManager pm(&compilation.getContext(),
                       mlir::ModuleOp::getOperationName());
  pm.enableVerifier(true);
  buildPipeline(pm);
  if (options.printIRAfterAll || !options.printIRAfter.empty()) {
    std::string only = options.printIRAfter;
    bool all = options.printIRAfterAll;
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](mlir::Pass *, mlir::Operation *) {
          return false;
        },
        /*shouldPrintAfterPass=*/
        [all, only](mlir::Pass *pass, mlir::Operation *) {
          return all || pass->getArgument() == only;
        },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, compilation.getErrorStream(),
        getIRPrintingFlags());
  }
  unsigned errorsBefore = compilation.getNumErrors();
  if (mlir::succeeded(pm.run(module)))
    return mlir::success();
  if (compilation.getNumErrors() == errorsBefore)
    compilation.reportError("the " + stageName + " pipeline failed");
  return mlir::failure();
}

} // namespace tk
