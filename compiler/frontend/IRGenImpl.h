//===- IRGenImpl.h - the AST walker that checks and emits -------*- C++ -*-===//
//
// Internal to the frontend. One IRGen object emits one kernel; its methods
// are spread over
//   IRGen.cpp          kernel selection, decorators, signature, locations
//   IRGenStmt.cpp      statements and control flow (scf.if/for/while)
//   IRGenExpr.cpp      expressions, names, attributes, subscripts, calls,
//                      helper inlining
//   IRGenArith.cpp     constants, casts, broadcasting, operators
//   IRGenBuiltins.cpp  the builtin functions: argument helpers, shapes,
//                      math, reductions, dot, dispatch (callBuiltin)
//   IRGenMemoryBuiltins.cpp
//                      load, store, atomics, pointer hints
//   IRGenCombine.cpp   reduce / associative_scan with a combine function
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_IRGENIMPL_H
#define TK_COMPILER_FRONTEND_IRGENIMPL_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Builtins.h"
#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/IRGen.h"
#include "compiler/frontend/IRGenValue.h"
#include "compiler/frontend/TypeSystem.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace tk::irgen {

using ast::ScalarType;

/// The libdevice functions without a tk builtin that `libdevice.NAME`
/// reaches (IRGenLibdevice.cpp).
bool isLibdeviceFunction(const std::string &name);
std::vector<std::string> getLibdeviceFunctionNames();
/// Those of them called by symbol, as tk.extern_elementwise
/// (LibdeviceExterns.def, IRGenLibdeviceExtern.cpp).
bool isLibdeviceExternFunction(const std::string &name);
std::vector<std::string> getLibdeviceExternFunctionNames();

/// A variable: its value and where it was last assigned.
struct Binding {
  Value value;
  SourceLoc loc;
};
using Env = std::map<std::string, Binding>;

/// The evaluated arguments of a call, before binding to parameters.
struct CallArgs {
  SourceLoc loc; // the callee's name, for "missing argument" messages
  std::vector<Value> positional;
  std::vector<SourceLoc> positionalLocs;
  std::vector<std::pair<std::string, Value>> keywords;
  std::vector<SourceLoc> keywordLocs;     // the values
  std::vector<SourceLoc> keywordNameLocs; // the `name=` parts
};

/// Arguments bound to a signature (see getBuiltinSignature for the spec
/// format). An explicit `None` counts as absent for optional parameters.
class BoundArgs {
public:
  bool has(const std::string &name) const;
  const Value &get(const std::string &name) const;
  /// Where the argument was written; the call's location when absent.
  SourceLoc loc(const std::string &name) const;
  const std::vector<Value> &varargs() const { return variadic; }
  const std::vector<SourceLoc> &varargLocs() const { return variadicLocs; }

private:
  friend class IRGen;
  std::map<std::string, std::pair<Value, SourceLoc>> values;
  std::vector<Value> variadic;
  std::vector<SourceLoc> variadicLocs;
  SourceLoc callLoc;
};

/// Kernel-wide settings read from decorators and options.
struct KernelConfig {
  unsigned numWarps = 4;
  unsigned numStages = 3;
  /// maxnreg= (registers per thread at most), when set.
  std::optional<unsigned> maxRegisters;
  /// cluster_size= (consecutive programs along x launched as one
  /// thread-block cluster), when above 1.
  unsigned clusterSize = 1;
  /// Values from the selected @autotune config, by constexpr name.
  std::map<std::string, Value> autotuneValues;
  /// Every @autotune config, for the tk.autotune attribute.
  std::vector<std::vector<std::pair<std::string, Value>>> autotuneConfigs;
  std::vector<std::string> autotuneKey;
};

class IRGen {
public:
  IRGen(mlir::MLIRContext &context, const ast::Module &module,
        const IRGenOptions &options);

  mlir::OwningOpRef<mlir::ModuleOp> run();

  //===--------------------------------------------------------------------===//
  // Errors and locations (IRGen.cpp)
  //===--------------------------------------------------------------------===//

  [[noreturn]] void error(SourceLoc loc, const std::string &message) const;
  /// The MLIR location of a source position, wrapped in the call-site
  /// locations of the helpers being inlined.
  mlir::Location getLoc(SourceLoc loc) const;

  /// Sets the builder's location for the ops emitted in its lifetime.
  class LocScope {
  public:
    LocScope(IRGen &gen, SourceLoc loc);
    ~LocScope();

  private:
    IRGen &gen;
    mlir::Location saved;
    SourceLoc savedSource;
  };
  /// The source position of the innermost LocScope, for errors raised
  /// where no position is passed down (an unsupported dtype in getMLIRType).
  SourceLoc currentSourceLoc;

  //===--------------------------------------------------------------------===//
  // Kernel (IRGen.cpp)
  //===--------------------------------------------------------------------===//

  const ast::FunctionDef &selectKernel() const;
  KernelConfig readDecorators(const ast::FunctionDef &kernel);
  /// Evaluates an expression that must be a compile-time constant, with no
  /// variables in scope (defaults, decorator arguments, -D values).
  Value evaluateConstant(const ast::Expr &expr, const std::string &what);
  /// The dtype a scalar or pointer annotation stands for; a Named type
  /// (`*DTYPE`) takes the dtype value `constants` holds for that name (the
  /// function's constexpr parameters). `what` names the annotated thing.
  sema::DType resolveAnnotation(const ast::TypeExpr &type,
                                const std::map<std::string, Value> &constants,
                                const std::string &what) const;
  Value parseDefine(const std::string &name, const std::string &text);
  void emitKernel(const ast::FunctionDef &kernel, const KernelConfig &config);

  //===--------------------------------------------------------------------===//
  // More builtins, one file per family (IRGenMathBuiltins.cpp,
  // IRGenBlockBuiltins.cpp, IRGenRandom.cpp, IRGenBlockPointer.cpp)
  //===--------------------------------------------------------------------===//

  Value emitMathBuiltin(BuiltinId id, const BoundArgs &args, SourceLoc loc);
  /// The high half of the 2N-bit unsigned product of two N-bit integers.
  Value umulhi(const Value &x, const Value &y, SourceLoc loc);
  Value emitBlockBuiltin(BuiltinId id, const BoundArgs &args, SourceLoc loc);
  /// `tk.reduce xor` along `axis` (optionally keeping it with size 1).
  Value xorSumAlong(const Value &input, int64_t axis, bool keepDims,
                    SourceLoc loc);
  Value emitRandomBuiltin(BuiltinId id, const BoundArgs &args, SourceLoc loc);
  Value emitBlockPointerBuiltin(BuiltinId id, const BoundArgs &args,
                                SourceLoc loc);
  /// reduce / associative_scan with a combine function (IRGenCombine.cpp).
  Value emitCombineBuiltin(BuiltinId id, const BoundArgs &args,
                           SourceLoc loc);
  /// make_tensor_descriptor, desc.load, desc.store
  /// (IRGenTensorDescriptor.cpp).
  Value emitTensorDescriptorBuiltin(BuiltinId id, const BoundArgs &args,
                                    SourceLoc loc);
  /// load/store through a block pointer (IRGenBlockPointer.cpp).
  Value loadBlockPointer(const BoundArgs &args, SourceLoc loc);
  Value storeBlockPointer(const BoundArgs &args, SourceLoc loc);
  /// `libdevice.NAME(...)` for a NAME of isLibdeviceFunction
  /// (IRGenLibdevice.cpp).
  Value callLibdevice(const std::string &name, const CallArgs &args,
                      SourceLoc loc);
  /// Positional arguments only, `arity` of them (IRGenLibdevice.cpp).
  void checkLibdeviceArguments(const std::string &spelling,
                               const CallArgs &args, size_t arity,
                               SourceLoc loc);
  /// `libdevice.NAME(...)` for a function of LibdeviceExterns.def
  /// (IRGenLibdeviceExtern.cpp).
  Value callLibdeviceExtern(const std::string &name, const CallArgs &args,
                            SourceLoc loc);

  //===--------------------------------------------------------------------===//
  // Statements (IRGenStmt.cpp)
  //===--------------------------------------------------------------------===//

  void emitBlock(const ast::StmtList &body);
  void emitSequence(const std::vector<const ast::Stmt *> &stmts);
  void emitStmt(const ast::Stmt &stmt);
  void emitAssign(const ast::AssignStmt &stmt);
  void emitAugAssign(const ast::AugAssignStmt &stmt);
  void emitIf(const ast::IfStmt &stmt);
  void emitRuntimeIf(const ast::IfStmt &stmt, const Value &cond);
  void emitFor(const ast::ForStmt &stmt);
  void emitStaticFor(const ast::ForStmt &stmt, const BoundArgs &args);
  void emitRangeFor(const ast::ForStmt &stmt, const BoundArgs &args);
  void emitWhile(const ast::WhileStmt &stmt);
  void emitReturn(const ast::ReturnStmt &stmt);
  /// Binds `name` to `value` in the current function.
  void assign(const std::string &name, SourceLoc loc, const Value &value);

  //===--------------------------------------------------------------------===//
  // Expressions and calls (IRGenExpr.cpp)
  //===--------------------------------------------------------------------===//

  Value emitExprUnchecked(const ast::Expr &expr);
  Value emitExpr(const ast::Expr &expr);
  Value emitName(const ast::NameExpr &expr);
  Value lookupName(const std::string &name, SourceLoc loc);
  /// A name outside the function's variables: module functions, builtins,
  /// dtypes, constants, namespaces.
  std::optional<Value> lookupGlobal(const std::string &name) const;
  Value emitAttribute(const ast::AttributeExpr &expr);
  Value getAttribute(const Value &object, const std::string &attr,
                     SourceLoc loc);
  Value emitSubscript(const ast::SubscriptExpr &expr);
  Value emitCall(const ast::CallExpr &expr);
  Value emitUnary(const ast::UnaryExpr &expr);
  Value emitBinary(const ast::BinaryExpr &expr);
  Value emitLogical(const ast::BinaryExpr &expr);
  Value emitConditional(const ast::ConditionalExpr &expr);
  CallArgs evaluateArgs(const ast::CallExpr &call, SourceLoc calleeLoc);
  /// Binds call arguments to a signature ("name", "name?", "*name").
  BoundArgs bindArgs(const std::string &calleeName,
                     const std::vector<std::string> &signature,
                     const CallArgs &args);
  Value callFunction(const ast::FunctionDef &function, const CallArgs &args,
                     SourceLoc callLoc);

  //===--------------------------------------------------------------------===//
  // Types, constants, casts, broadcasting, operators (IRGenArith.cpp)
  //===--------------------------------------------------------------------===//

  mlir::Type getMLIRType(sema::DType type);
  mlir::Type getMLIRType(const sema::ValueType &type);
  /// The type a compile-time number takes as a run-time value.
  sema::DType getLiteralType(const Value &constant) const;
  /// A compile-time number as a run-time scalar (or a block of `shape`) of
  /// `type`; errors when it does not fit.
  Value materialize(const Value &constant, sema::DType type, SourceLoc loc,
                    const sema::Shape &shape = {});
  /// Numbers stay, constants become run-time values of their literal type.
  Value toIR(const Value &value, SourceLoc loc, const char *what);
  /// Converts a value to another element type (Triton's cast rules).
  Value cast(const Value &value, sema::DType to, SourceLoc loc);
  Value bitcast(const Value &value, sema::DType to, SourceLoc loc);
  /// Splats a scalar or broadcasts a block to `shape` (numpy rules).
  Value broadcastTo(const Value &value, const sema::Shape &shape,
                    SourceLoc loc);
  /// Broadcasts two run-time values to their common shape.
  void broadcastPair(Value &a, Value &b, SourceLoc loc);
  /// Promotes two operands to their common element type and shape, as for
  /// an arithmetic operator; both results are run-time values.
  void promoteOperands(Value &a, Value &b, bool divOrMod,
                       const std::string &opSpelling, SourceLoc loc);
  Value binaryOp(ast::BinaryOpKind op, const Value &lhs, const Value &rhs,
                 SourceLoc loc);
  /// The fast-math flag that makes f32 `/` the 2-ulp division Triton uses
  /// (div.full.f32); none for other types, whose division stays IEEE.
  mlir::arith::FastMathFlagsAttr approximateDivision(sema::DType type);
  /// IEEE round-to-nearest `x / y` (div_rn, fdiv(ieee_rounding=True)),
  /// where `/` is the 2-ulp division for f32; `name` is the builtin's.
  Value ieeeDivide(Value x, Value y, const std::string &name, SourceLoc loc);
  Value foldBinary(ast::BinaryOpKind op, const Value &lhs, const Value &rhs,
                   SourceLoc loc);
  Value addPointer(const Value &ptr, const Value &offset, bool negate,
                   SourceLoc loc);
  Value compare(ast::BinaryOpKind op, const Value &lhs, const Value &rhs,
                SourceLoc loc);
  Value unaryOp(ast::UnaryOpKind op, const Value &operand, SourceLoc loc);
  /// Python truthiness of a compile-time value.
  bool isTruthy(const Value &constant, SourceLoc loc);
  /// A run-time scalar as an i1 condition (`!= 0` for numbers).
  Value toCondition(const Value &value, SourceLoc loc, const char *what);
  /// Elementwise `cond ? a : b` with promotion and broadcasting.
  Value select(const Value &cond, const Value &a, const Value &b,
               SourceLoc loc);
  Value maximumOrMinimum(bool isMax, const Value &a, const Value &b,
                         bool propagateNan, SourceLoc loc);
  Value zeroOf(const sema::ValueType &type);
  /// An i1 block/scalar of `shape` holding `value` everywhere.
  Value constantBool(bool value, const sema::Shape &shape);
  Value constantInt(int64_t value, sema::DType type,
                    const sema::Shape &shape = {});
  Value constantFloat(double value, sema::DType type,
                      const sema::Shape &shape = {});

  //===--------------------------------------------------------------------===//
  // Builtins (IRGenBuiltins.cpp; load/store/atomics/hints in
  // IRGenMemoryBuiltins.cpp)
  //===--------------------------------------------------------------------===//

  Value callBuiltin(BuiltinId id, const CallArgs &args, SourceLoc loc);
  /// A compile-time int argument (e.g. an axis); errors otherwise.
  int64_t requireInt(const Value &value, SourceLoc loc, const std::string &what);
  /// A shape: a tuple/list of compile-time ints (or one int).
  sema::Shape requireShape(const Value &value, SourceLoc loc,
                           const std::string &what);
  sema::Shape requireVariadicShape(const BoundArgs &args,
                                   const std::string &param,
                                   const std::string &what, SourceLoc loc);
  sema::DType requireDType(const Value &value, SourceLoc loc,
                           const std::string &what);
  Value requireBlock(const Value &value, SourceLoc loc,
                     const std::string &what);
  Value emitMath(BuiltinId id, const Value &x, SourceLoc loc);
  Value emitReduce(BuiltinId id, const BoundArgs &args, SourceLoc loc);
  Value reduceAlong(BuiltinId id, const Value &input, int64_t axis,
                    SourceLoc loc);
  Value emitScan(BuiltinId id, const BoundArgs &args, SourceLoc loc);
  Value emitDot(const BoundArgs &args, SourceLoc loc);
  /// dot_scaled, emulated by decoding and an ordinary dot
  /// (IRGenDotScaled.cpp).
  Value emitDotScaled(const BoundArgs &args, SourceLoc loc);
  /// `a @ b (+ acc)`; `precision` is "tf32"/"ieee", `outType` the result
  /// element type when there is no accumulator.
  Value dot(const Value &a, const Value &b, std::optional<Value> acc,
            std::optional<std::string> precision,
            std::optional<sema::DType> outType, SourceLoc loc);
  Value emitLoad(const BoundArgs &args, SourceLoc loc);
  Value emitStore(const BoundArgs &args, SourceLoc loc);
  Value emitAtomic(BuiltinId id, const BoundArgs &args, SourceLoc loc);
  Value emitHint(BuiltinId id, const BoundArgs &args, SourceLoc loc);
  Value emitPythonBuiltin(BuiltinId id, const BoundArgs &args, SourceLoc loc);
  Value reshape(const Value &input, const sema::Shape &shape, SourceLoc loc);
  Value expandDims(const Value &input, int64_t axis, SourceLoc loc);
  Value trans(const Value &input, std::vector<int64_t> order, SourceLoc loc);
  int64_t normalizeAxis(int64_t axis, int64_t rank, SourceLoc loc,
                        const std::string &what);

  //===--------------------------------------------------------------------===//
  // State
  //===--------------------------------------------------------------------===//

  /// One function being emitted: the kernel, or an inlined helper.
  struct Frame {
    const ast::FunctionDef *function = nullptr;
    Env env;
    /// Names that exist on some paths only, with the reason, for a better
    /// message than "unknown name".
    std::map<std::string, std::string> undefinedReasons;
    /// Set once a `return` ran; the rest of the body is skipped.
    bool returned = false;
    Value returnValue;
    SourceLoc returnLoc;
    /// Nesting of loops (scf.for/while bodies, static_range copies) in this
    /// function: a `return` there is not supported.
    unsigned runtimeDepth = 0;
    /// The statements that follow the one being emitted, up to the end of
    /// the function: a run-time `if` that returns takes them into its
    /// branches (IRGenStmt.cpp).
    std::vector<const ast::Stmt *> pending;
    /// Location of the call expression in the caller (helpers only).
    std::optional<mlir::Location> callerLoc;
  };
  Frame &frame() { return frames.back(); }

  mlir::MLIRContext &context;
  const ast::Module &module;
  const IRGenOptions &options;
  mlir::ImplicitLocOpBuilder builder;
  mlir::StringAttr fileName;
  mlir::OwningOpRef<mlir::ModuleOp> moduleOp;
  std::vector<Frame> frames;
  /// The kernel's cluster_size= (cluster_rank()).
  unsigned clusterSize = 1;
  /// Helpers being inlined, outermost first (for recursion detection).
  std::vector<const ast::FunctionDef *> callStack;
};

/// A block pointer's run-time parts that loops carry (its offsets), one
/// at a time, and the pointer with new values for them
/// (IRGenBlockPointer.cpp).
std::vector<size_t> getCarriedParts(const Value &blockPointer);
Value getCarriedPart(const Value &blockPointer, size_t part);
Value withCarriedParts(const Value &blockPointer,
                       const std::vector<Value> &values);

/// Argument helpers shared by the builtin files (IRGenBuiltins.cpp).
/// A compile-time bool keyword (`keep_dims=True`); `fallback` when absent.
bool getFlag(IRGen &gen, const BoundArgs &args, const std::string &name,
             bool fallback);
/// A string keyword; "" when absent.
std::string getStringArg(IRGen &gen, const BoundArgs &args,
                         const std::string &name);
/// A value for messages: its type if it is a run-time value.
std::string describeValue(const Value &value);
/// A mask: i1 scalar or block (True/False constants accepted)
/// (IRGenMemoryBuiltins.cpp).
Value requireMask(IRGen &gen, const Value &value, SourceLoc loc);

/// Names assigned anywhere in `body` (assignment targets, `for` targets),
/// in order of first appearance.
std::vector<std::string> collectAssignedNames(const ast::StmtList &body);

} // namespace tk::irgen

#endif // TK_COMPILER_FRONTEND_IRGENIMPL_H
