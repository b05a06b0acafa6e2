//===- PassRunner.cpp - run a pass pipeline of a compilation --------------===//

#include "compiler/driver/PassRunner.h"

#include "compiler/driver/Compilation.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

namespace tk {

static bool verifyEachPass() {
  const char *value = std::getenv("TK_VERIFY_EACH_PASS");
  return value && *value && std::strcmp(value, "0") != 0;
}

mlir::LogicalResult runAndVerify(mlir::PassManager &pm,
                                 mlir::ModuleOp module) {
  bool each = verifyEachPass();
  pm.enableVerifier(each);
  if (mlir::failed(pm.run(module)))
    return mlir::failure();
  return each ? mlir::success() : mlir::verify(module);
}

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
  buildPipeline(pm);
  mlir::TimingScope timing = compilation.time((stageName + " passes").str());
  if (compilation.isTiming())
    pm.enableTiming(timing);
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
  if (mlir::succeeded(runAndVerify(pm, module)))
    return mlir::success();
  if (compilation.getNumErrors() == errorsBefore)
    compilation.reportError("the " + stageName + " pipeline failed");
  return mlir::failure();
}

} // namespace tk
