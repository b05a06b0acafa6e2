//===- tk-opt.cpp - run tk passes on MLIR files ---------------------------===//
//
// MlirOptMain with the tk/tkgpu dialects and every tk pass registered, so
// that each pass can be tested alone with FileCheck.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tk::registerAllDialects(registry);
  tk::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tk optimizer driver\n", registry));
}
