//===- FuzzFrontend.cpp - libFuzzer target: parser, sema, tk IR emission --===//
//
// tk-fuzz-frontend: the input is a .tk file whose header comments carry
// tkc's options (HeaderOptions.h). Every kernel of the file is parsed,
// checked and emitted as tk IR, and the IR is verified. The contract:
// errors in the program are CompileErrors pointing into the file (errors
// in the options may have no location), and whatever the frontend emits
// passes the verifier (a verifier failure is a frontend bug: tkc reports it
// as an internal compiler error).
//
//===----------------------------------------------------------------------===//

#include "DiagnosticCheck.h"
#include "HeaderOptions.h"

#include "compiler/driver/CompileOptions.h"
#include "compiler/driver/Registration.h"
#include "compiler/frontend/IRGen.h"
#include "compiler/frontend/Parser.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

using namespace tk;

namespace {

IRGenOptions irgenOptions(const fuzz::HeaderOptions &header,
                          const std::string &kernelName) {
  IRGenOptions options;
  options.kernelName = kernelName;
  options.defines = header.defines;
  if (header.numWarps && checkNumWarps(*header.numWarps).empty())
    options.numWarps = unsigned(*header.numWarps);
  if (header.numStages && checkNumStages(*header.numStages).empty())
    options.numStages = unsigned(*header.numStages);
  return options;
}

void emitAndVerify(const ast::Module &module, const SourceFile &file,
                   const fuzz::HeaderOptions &header,
                   const std::string &kernelName) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  std::string verifierMessages;
  mlir::ScopedDiagnosticHandler handler(
      &context, [&](mlir::Diagnostic &diagnostic) {
        llvm::raw_string_ostream os(verifierMessages);
        os << diagnostic << "\n";
        return mlir::success();
      });

  mlir::OwningOpRef<mlir::ModuleOp> ir;
  try {
    ir = emitKernelModule(context, module, irgenOptions(header, kernelName));
  } catch (const CompileError &error) {
    fuzz::checkDiagnostic(error, file, /*needsLocation=*/false);
    fuzz::note("kernel '" + kernelName + "': " + error.what());
    return;
  } catch (const std::exception &error) {
    fuzz::fail(std::string("IR emission threw a non-diagnostic exception: ") +
               error.what());
  }
  fuzz::require(bool(ir), "emitKernelModule returned null without an error");
  fuzz::require(mlir::succeeded(mlir::verify(*ir)),
                "the frontend emitted IR that fails the verifier:\n" +
                    verifierMessages);
  fuzz::note("kernel '" + kernelName + "': emitted and verified");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  SourceFile file("fuzz.tk", text);
  fuzz::HeaderOptions header = fuzz::parseHeaderOptions(text);

  std::unique_ptr<ast::Module> module;
  try {
    module = parseModule(file);
  } catch (const CompileError &error) {
    fuzz::checkDiagnostic(error, file);
    fuzz::note(error.what());
    return 0;
  } catch (const std::exception &error) {
    fuzz::fail(std::string("the parser threw a non-diagnostic exception: ") +
               error.what());
  }

  // The kernel tkc would pick (the header's -k, else the only one; an error
  // when that is ambiguous or absent), then the file's other kernels (at
  // most a few: each costs an MLIR context).
  emitAndVerify(*module, file, header, header.kernelName);
  std::vector<const ast::FunctionDef *> kernels = findKernels(*module);
  if (header.kernelName.empty() && kernels.size() == 1)
    return 0;
  unsigned emitted = 0;
  for (const ast::FunctionDef *kernel : kernels) {
    if (kernel->name == header.kernelName || ++emitted > 3)
      continue;
    emitAndVerify(*module, file, header, kernel->name);
  }
  return 0;
}
