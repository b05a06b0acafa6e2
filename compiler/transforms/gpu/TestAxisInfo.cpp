//===- TestAxisInfo.cpp - print the axis info of every value --------------===//
//
// tk-test-print-axis-info: a remark per integer/pointer value, checked with
// -verify-diagnostics. Results are reported on their op; block arguments on
// the op owning the region, prefixed with "arg N".
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/AxisInfo.h"
#include "compiler/transforms/gpu/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKTESTPRINTAXISINFO
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;

namespace {

struct TestPrintAxisInfoPass
    : public tkgpu::impl::TkTestPrintAxisInfoBase<TestPrintAxisInfoPass> {
  static std::string str(const tk::AxisInfo &info) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << info;
    return text;
  }

  void runOnOperation() override {
    tk::AxisInfoAnalysis analysis(getOperation());
    getOperation()->walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (const tk::AxisInfo *info = analysis.getAxisInfo(arg))
              op->emitRemark() << "arg " << arg.getArgNumber() << ": "
                               << str(*info);
      for (Value result : op->getResults())
        if (const tk::AxisInfo *info = analysis.getAxisInfo(result))
          op->emitRemark() << str(*info);
    });
  }
};

} // namespace
