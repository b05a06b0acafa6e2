//===- DriverTest.cpp - the compiler driver's API and diagnostics ---------===//
//
// What lit cannot reach through tkc: the Compilation/frontend API on an
// in-memory source, and MLIR diagnostics from later stages printed in
// clang style (locations in the .tk file, call sites of inlined helpers,
// unknown locations, the internal-error prefix).
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Compilation.h"
#include "compiler/driver/Frontend.h"
#include "compiler/driver/PassRunner.h"
#include "compiler/driver/TkPipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace {

const char *kSource = R"(def double(x):
    return x * 2.0

@kernel
def scale(x_ptr: *f32, n: i32, BLOCK: constexpr):
    offs = arange(0, BLOCK)
    x = load(x_ptr + offs, mask=offs < n)
    store(x_ptr + offs, double(x), mask=offs < n)
)";

/// A compilation of kSource as "mem.tk", its diagnostics in `errors`.
struct Fixture {
  std::string errors;
  llvm::raw_string_ostream errorStream{errors};
  std::unique_ptr<tk::Compilation> compilation;

  explicit Fixture(tk::CompileOptions options = {}) {
    options.inputPath = "mem.tk";
    compilation =
        std::make_unique<tk::Compilation>(std::move(options), &errorStream);
    compilation->setSource(std::make_unique<tk::SourceFile>("mem.tk", kSource));
  }
  mlir::MLIRContext &context() { return compilation->getContext(); }
  mlir::Location loc(unsigned line, unsigned col) {
    return mlir::FileLineColLoc::get(&context(), "mem.tk", line, col);
  }
};

TEST(DriverTest, FrontendEmitsTheKernel) {
  tk::CompileOptions options;
  options.defines = {{"BLOCK", "64"}};
  Fixture f(options);
  mlir::OwningOpRef<mlir::ModuleOp> module = tk::runFrontend(*f.compilation);
  ASSERT_TRUE(module) << f.errors;
  ASSERT_TRUE(mlir::succeeded(tk::runTkPipeline(*f.compilation, *module)))
      << f.errors;
  std::string text;
  llvm::raw_string_ostream os(text);
  tk::printModule(*module, os);
  EXPECT_NE(text.find("func.func @scale"), std::string::npos);
  EXPECT_NE(text.find("tk.constexprs = {BLOCK = 64 : i64}"), std::string::npos);
  // The helper's multiplication, at its position inside the call.
  EXPECT_NE(text.find("loc(callsite(\"mem.tk\":2:14 at \"mem.tk\":8:25))"),
            std::string::npos)
      << text;
  EXPECT_EQ(tk::getNumWarps(*module), 4u);
  EXPECT_EQ(tk::getNumStages(*module), 3u);
  EXPECT_EQ(f.errors, "");
}

TEST(DriverTest, FrontendErrorsAreClangStyle) {
  Fixture f; // no -D BLOCK
  EXPECT_FALSE(tk::runFrontend(*f.compilation));
  EXPECT_EQ(f.errors,
            "mem.tk:5:32: error: constexpr 'BLOCK' has no value: pass "
            "-D BLOCK=...\n"
            "def scale(x_ptr: *f32, n: i32, BLOCK: constexpr):\n"
            "                               ^\n");
  EXPECT_EQ(f.compilation->getNumErrors(), 1u);
}

TEST(DriverTest, MLIRDiagnosticAtASourceLine) {
  Fixture f;
  mlir::emitError(f.loc(7, 9)) << "shared memory exceeds the limit";
  EXPECT_EQ(f.errors, "mem.tk:7:9: error: shared memory exceeds the limit\n"
                      "    x = load(x_ptr + offs, mask=offs < n)\n"
                      "        ^\n");
}

TEST(DriverTest, MLIRDiagnosticInsideAHelperNamesTheCallSite) {
  Fixture f;
  mlir::Location inHelper =
      mlir::CallSiteLoc::get(f.loc(2, 14), f.loc(8, 25));
  mlir::InFlightDiagnostic diag = mlir::emitError(inHelper) << "bad multiply";
  diag.attachNote(f.loc(5, 5)) << "in this kernel";
  diag.report();
  EXPECT_EQ(f.errors, "mem.tk:2:14: error: bad multiply\n"
                      "    return x * 2.0\n"
                      "             ^\n"
                      "mem.tk:8:25: note: called from here\n"
                      "    store(x_ptr + offs, double(x), mask=offs < n)\n"
                      "                        ^\n"
                      "mem.tk:5:5: note: in this kernel\n"
                      "def scale(x_ptr: *f32, n: i32, BLOCK: constexpr):\n"
                      "    ^\n");
}

TEST(DriverTest, MLIRDiagnosticsWithoutASourcePosition) {
  Fixture f;
  mlir::emitError(mlir::UnknownLoc::get(&f.context())) << "no position";
  mlir::emitWarning(mlir::FileLineColLoc::get(&f.context(), "other.mlir", 3,
                                              4))
      << "elsewhere";
  EXPECT_EQ(f.errors, "tkc: error: no position\n"
                      "other.mlir:3:4: warning: elsewhere\n");
  EXPECT_EQ(f.compilation->getNumErrors(), 1u);
}

// A lowering pattern's own error at the op is the message; the conversion
// driver's "failed to legalize" after it is dropped, but not when it is the
// only error (then it is all there is to say).
TEST(DriverTest, FailedToLegalizeAfterAPatternErrorIsDropped) {
  Fixture f;
  mlir::emitError(f.loc(7, 9)) << "'tk.atomic_rmw' op on i8 is not supported";
  mlir::emitError(f.loc(7, 9))
      << "failed to legalize operation 'tk.atomic_rmw' that was explicitly "
         "marked illegal";
  EXPECT_EQ(f.errors, "mem.tk:7:9: error: 'tk.atomic_rmw' op on i8 is not "
                      "supported\n"
                      "    x = load(x_ptr + offs, mask=offs < n)\n"
                      "        ^\n");
  EXPECT_EQ(f.compilation->getNumErrors(), 1u);

  Fixture alone;
  mlir::emitError(alone.loc(7, 9))
      << "failed to legalize operation 'tk.load' that was explicitly marked "
         "illegal";
  EXPECT_NE(alone.errors.find("failed to legalize operation 'tk.load'"),
            std::string::npos);
  EXPECT_EQ(alone.compilation->getNumErrors(), 1u);
}

TEST(DriverTest, InternalErrorPrefix) {
  Fixture f;
  f.compilation->setMLIRErrorPrefix("internal compiler error: ");
  mlir::emitError(f.loc(6, 12)) << "op failed to verify";
  f.compilation->setMLIRErrorPrefix("");
  EXPECT_EQ(f.errors.substr(0, f.errors.find('\n')),
            "mem.tk:6:12: error: internal compiler error: op failed to "
            "verify");
}

TEST(DriverTest, ReportErrorUsesTheToolName) {
  tk::CompileOptions options;
  options.toolName = "tk-jit";
  Fixture f(options);
  f.compilation->reportError("cannot write 'x'");
  EXPECT_EQ(f.errors, "tk-jit: error: cannot write 'x'\n");
}

} // namespace
