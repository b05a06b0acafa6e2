//===- RemarkPrinter.cpp - optimization remarks in clang style ------------===//
#include "compiler/driver/RemarkPrinter.h"

#include "compiler/driver/DiagnosticPrinter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Remarks.h"

#include <string>

namespace tk {
namespace {

/// Prints each remark as it arrives (RemarkEmittingPolicyAll): the text is
/// the remark's arguments in order, followed by its category.
class RemarkPrinter : public mlir::remark::detail::MLIRRemarkStreamerBase {
public:
  RemarkPrinter(std::function<const SourceFile *()> getSource,
                llvm::raw_ostream &os, llvm::StringRef toolName)
      : getSource(std::move(getSource)), os(os), toolName(toolName.str()) {}

  void streamOptimizationRemark(
      const mlir::remark::detail::Remark &remark) override {
    std::string text;
    for (const auto &arg : remark.getArgs())
      text += arg.val;
    llvm::StringRef category = remark.getCombinedCategoryName();
    if (!category.empty())
      text += " [" + category.str() + "]";
    mlir::Diagnostic diagnostic(remark.getLocation(),
                                mlir::DiagnosticSeverity::Remark);
    diagnostic << text;
    printMLIRDiagnostic(diagnostic, getSource(), os, toolName);
    os.flush();
  }

private:
  std::function<const SourceFile *()> getSource;
  llvm::raw_ostream &os;
  std::string toolName;
};

} // namespace

bool enableRemarkPrinting(mlir::MLIRContext &context,
                          std::function<const SourceFile *()> getSource,
                          llvm::raw_ostream &os, llvm::StringRef toolName) {
  // The engine filters each kind by its own pattern (`all` only joins
  // those given), so every kind is named.
  mlir::remark::RemarkCategories all;
  all.passed = all.missed = all.analysis = all.failed = ".*";
  if (mlir::failed(mlir::remark::enableOptimizationRemarks(
          context,
          std::make_unique<RemarkPrinter>(std::move(getSource), os, toolName),
          std::make_unique<mlir::remark::RemarkEmittingPolicyAll>(), all,
          /*printAsEmitRemarks=*/false))) {
    os << toolName << ": error: cannot enable optimization remarks\n";
    return false;
  }
  return true;
}

} // namespace tk
