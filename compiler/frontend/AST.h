//===- AST.h - abstract syntax tree of .tk programs -------------*- C++ -*-===//
//
// The parser's output and semantic analysis' input. The tree is purely
// syntactic: names are not resolved, the optional `tl.`/`tk.` prefix is kept
// (`tl.load` is Attribute(Name "tl", "load")), nothing is typed.
//
// Representation
// --------------
// * Expressions derive from `Expr`, statements from `Stmt`. Each carries a
//   `kind` tag (ExprKind / StmtKind) and a `loc`: the position of the first
//   character of the node's source text. Some nodes also keep the location of
//   a significant token (e.g. BinaryExpr::opLoc, CallExpr::lparenLoc) so that
//   diagnostics can point at the operator rather than at the left operand.
// * Children are owned through std::unique_ptr (ExprPtr, StmtPtr); optional
//   children are null when absent. Nodes are neither copyable nor movable
//   once built; pass them by reference or pointer.
// * Walk with a switch over `kind`, or use the casting helpers:
//     if (auto *call = expr.getAs<CallExpr>()) ...   // dyn_cast
//     auto &bin = expr.as<BinaryExpr>();             // cast (asserts)
//     if (expr.is<NameExpr>()) ...                   // isa
//   Every node class also has `static bool classof(const Expr/Stmt *)`, so
//   llvm::isa / cast / dyn_cast work on these classes too.
// * Depth guarantee: the parser rejects programs whose expression trees are
//   higher than kMaxExprHeight or whose statements nest deeper than
//   kMaxStmtDepth, so recursive walkers cannot exhaust the stack.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_AST_H
#define TK_COMPILER_FRONTEND_AST_H

#include "compiler/frontend/Diagnostics.h"

#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tk::ast {

/// Limits enforced by the parser (see "Depth guarantee" above).
constexpr unsigned kMaxExprHeight = 1000;
constexpr unsigned kMaxStmtDepth = 200;

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

/// A name with the location where it was written.
struct Identifier {
  std::string name;
  SourceLoc loc;
};

//===----------------------------------------------------------------------===//
// Types written in source (parameter annotations, `-> T`)
//===----------------------------------------------------------------------===//

/// The fp8 types, with Triton's names: F8E4M3 is float8e4nv (e4m3, finite,
/// NaN = 0x7f), F8E5M2 float8e5 (IEEE-like e5m2), F8E4M3B15 float8e4b15
/// (bias 15), F8E4M3FNUZ float8e4b8 and F8E5M2FNUZ float8e5b16 (no -0, NaN
/// is 0x80).
enum class ScalarType { I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16,
                        F32, F64, F8E4M3, F8E5M2, F8E4M3B15, F8E4M3FNUZ,
                        F8E5M2FNUZ };

/// "i1", "bf16", ...
const char *getScalarTypeName(ScalarType type);
/// Parses a scalar type name as written in source ("f16"); nullopt if none.
std::optional<ScalarType> parseScalarTypeName(std::string_view name);
/// All scalar type names, in ScalarType order (for typo suggestions).
const std::vector<std::string_view> &getAllScalarTypeNames();

/// A type annotation: a scalar (`f32`), a pointer (`*f16`, `**i32` parses as
/// pointer to pointer and is left for sema to reject), or `constexpr`.
/// A `tl.` or `tk.` prefix is accepted on the name (`tl.constexpr`) and kept
/// in `qualifier`.
struct TypeExpr {
  /// Named: a dtype-valued constexpr parameter of the same function
  /// (`X: *DTYPE, ..., DTYPE: constexpr`), resolved when the function is
  /// instantiated.
  enum class Kind { Scalar, Pointer, Constexpr, Named };

  Kind kind;
  SourceLoc loc;
  ScalarType scalar = ScalarType::I32; // Kind::Scalar only
  std::unique_ptr<TypeExpr> pointee;   // Kind::Pointer only
  std::string name;                    // Kind::Named only
  std::string qualifier;               // "tl" / "tk" / "" as written

  TypeExpr(Kind kind, SourceLoc loc) : kind(kind), loc(loc) {}

  /// The Named type in this annotation (itself or its pointee), if any.
  const TypeExpr *findNamed() const;

  /// Source-like spelling: "f32", "*f16", "constexpr", "*DTYPE" (without
  /// qualifier).
  std::string toString() const;
};

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

enum class UnaryOpKind {
  Neg,    // -x
  Pos,    // +x
  Invert, // ~x
  Not     // not x
};

enum class BinaryOpKind {
  // arithmetic
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul /* a @ b */,
  // bitwise and shifts
  LShift, RShift, BitAnd, BitOr, BitXor,
  // logical (short-circuit in Python; `and` / `or`)
  And, Or,
  // comparisons (never chained: `a < b < c` is a parse error); `is` and
  // `is not` compare compile-time values (`x is None`)
  Lt, Gt, Le, Ge, Eq, Ne, Is, IsNot
};

/// Source spelling: "-", "not", "+", "//", "and", "<=", ...
const char *getOperatorSpelling(UnaryOpKind op);
const char *getOperatorSpelling(BinaryOpKind op);
bool isComparison(BinaryOpKind op);
bool isLogical(BinaryOpKind op); // and / or

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class ExprKind {
  Name,        // x
  IntLit,      // 42, 0x2a, 0b101, 1_000
  FloatLit,    // 1.0, 1e-6, .5
  BoolLit,     // True / False
  NoneLit,     // None (also as a subscript item: x[:, None])
  StringLit,   // "msg" (adjacent literals are concatenated)
  Unary,       // -x, +x, ~x, not x
  Binary,      // a + b, a and b, a < b, ...
  Conditional, // a if c else b   (Python's IfExp)
  Call,        // f(a, b, k=v)
  Attribute,   // x.to, tl.load, x.dtype
  Subscript,   // x[i], x[:, None]
  Slice,       // lo:hi:step, only as a Subscript index
  Tuple,       // (a, b), a, b   (in return / assignment / expr statement)
  List,        // [a, b]
  Lambda       // lambda a, b: a + b
};

struct Expr {
  const ExprKind kind;
  SourceLoc loc;
  /// Height of this subtree (1 for leaves), computed by the parser.
  unsigned height = 1;

  Expr(const Expr &) = delete;
  Expr &operator=(const Expr &) = delete;
  virtual ~Expr() = default;

  template <typename T> bool is() const { return T::classof(this); }
  template <typename T> T *getAs() {
    return is<T>() ? static_cast<T *>(this) : nullptr;
  }
  template <typename T> const T *getAs() const {
    return is<T>() ? static_cast<const T *>(this) : nullptr;
  }
  template <typename T> T &as() {
    assert(is<T>() && "AST node has a different kind");
    return static_cast<T &>(*this);
  }
  template <typename T> const T &as() const {
    assert(is<T>() && "AST node has a different kind");
    return static_cast<const T &>(*this);
  }

protected:
  Expr(ExprKind kind, SourceLoc loc) : kind(kind), loc(loc) {}
};

#define TK_AST_EXPR_CLASSOF(KIND)                                              \
  static bool classof(const Expr *e) { return e->kind == ExprKind::KIND; }

struct NameExpr : Expr {
  std::string name;
  NameExpr(SourceLoc loc, std::string name)
      : Expr(ExprKind::Name, loc), name(std::move(name)) {}
  TK_AST_EXPR_CLASSOF(Name)
};

/// An integer literal. Literals up to 2^64-1 are accepted (the lexer rejects
/// larger ones); sema picks the type (i32 if it fits, else i64, else u64, as
/// Triton does). A leading '-' is a separate UnaryExpr.
struct IntLitExpr : Expr {
  uint64_t value;
  IntLitExpr(SourceLoc loc, uint64_t value)
      : Expr(ExprKind::IntLit, loc), value(value) {}
  bool fitsInInt64() const { return value <= uint64_t(INT64_MAX); }
  TK_AST_EXPR_CLASSOF(IntLit)
};

struct FloatLitExpr : Expr {
  double value;
  FloatLitExpr(SourceLoc loc, double value)
      : Expr(ExprKind::FloatLit, loc), value(value) {}
  TK_AST_EXPR_CLASSOF(FloatLit)
};

struct BoolLitExpr : Expr {
  bool value;
  BoolLitExpr(SourceLoc loc, bool value)
      : Expr(ExprKind::BoolLit, loc), value(value) {}
  TK_AST_EXPR_CLASSOF(BoolLit)
};

struct NoneLitExpr : Expr {
  explicit NoneLitExpr(SourceLoc loc) : Expr(ExprKind::NoneLit, loc) {}
  TK_AST_EXPR_CLASSOF(NoneLit)
};

/// A string literal with escapes decoded.
struct StringLitExpr : Expr {
  std::string value;
  StringLitExpr(SourceLoc loc, std::string value)
      : Expr(ExprKind::StringLit, loc), value(std::move(value)) {}
  TK_AST_EXPR_CLASSOF(StringLit)
};

struct UnaryExpr : Expr {
  UnaryOpKind op;
  ExprPtr operand;
  UnaryExpr(SourceLoc loc, UnaryOpKind op, ExprPtr operand)
      : Expr(ExprKind::Unary, loc), op(op), operand(std::move(operand)) {}
  TK_AST_EXPR_CLASSOF(Unary)
};

/// Arithmetic, bitwise, logical and comparison operators. `loc` is the start
/// of `lhs`; `opLoc` is the operator token.
struct BinaryExpr : Expr {
  BinaryOpKind op;
  SourceLoc opLoc;
  ExprPtr lhs, rhs;
  BinaryExpr(SourceLoc loc, BinaryOpKind op, SourceLoc opLoc, ExprPtr lhs,
             ExprPtr rhs)
      : Expr(ExprKind::Binary, loc), op(op), opLoc(opLoc),
        lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  TK_AST_EXPR_CLASSOF(Binary)
};

/// `thenValue if cond else elseValue`; `loc` is the start of thenValue,
/// `ifLoc` the `if` keyword.
struct ConditionalExpr : Expr {
  ExprPtr cond, thenValue, elseValue;
  SourceLoc ifLoc;
  ConditionalExpr(SourceLoc loc, ExprPtr cond, ExprPtr thenValue,
                  ExprPtr elseValue, SourceLoc ifLoc)
      : Expr(ExprKind::Conditional, loc), cond(std::move(cond)),
        thenValue(std::move(thenValue)), elseValue(std::move(elseValue)),
        ifLoc(ifLoc) {}
  TK_AST_EXPR_CLASSOF(Conditional)
};

/// `name=value` in a call or decorator; `loc` is the name's location.
struct KeywordArg {
  std::string name;
  SourceLoc loc;
  ExprPtr value;
};

/// `callee(args..., name=value...)`. Keyword arguments always follow the
/// positional ones and have distinct names (the parser checks both).
struct CallExpr : Expr {
  ExprPtr callee;
  std::vector<ExprPtr> args;
  std::vector<KeywordArg> keywords;
  SourceLoc lparenLoc;
  CallExpr(SourceLoc loc, ExprPtr callee, SourceLoc lparenLoc)
      : Expr(ExprKind::Call, loc), callee(std::move(callee)),
        lparenLoc(lparenLoc) {}
  /// The keyword argument called `name`, or null.
  const KeywordArg *findKeyword(std::string_view name) const;
  TK_AST_EXPR_CLASSOF(Call)
};

/// `value.attr`; `attrLoc` is the location of the attribute name.
struct AttributeExpr : Expr {
  ExprPtr value;
  std::string attr;
  SourceLoc attrLoc;
  AttributeExpr(SourceLoc loc, ExprPtr value, std::string attr,
                SourceLoc attrLoc)
      : Expr(ExprKind::Attribute, loc), value(std::move(value)),
        attr(std::move(attr)), attrLoc(attrLoc) {}
  TK_AST_EXPR_CLASSOF(Attribute)
};

/// `value[i0, i1, ...]`. Each index is any expression, a NoneLitExpr
/// (new axis) or a SliceExpr (`:`). There is at least one index.
struct SubscriptExpr : Expr {
  ExprPtr value;
  std::vector<ExprPtr> indices;
  SourceLoc lbracketLoc;
  SubscriptExpr(SourceLoc loc, ExprPtr value, SourceLoc lbracketLoc)
      : Expr(ExprKind::Subscript, loc), value(std::move(value)),
        lbracketLoc(lbracketLoc) {}
  TK_AST_EXPR_CLASSOF(Subscript)
};

/// `lower:upper:step` inside a subscript; each part may be null. The common
/// bare `:` has all three null (isFull()).
struct SliceExpr : Expr {
  ExprPtr lower, upper, step;
  explicit SliceExpr(SourceLoc loc) : Expr(ExprKind::Slice, loc) {}
  bool isFull() const { return !lower && !upper && !step; }
  TK_AST_EXPR_CLASSOF(Slice)
};

/// `(a, b)`, `(a,)`, `()` or a bare `a, b` where a tuple is allowed.
struct TupleExpr : Expr {
  std::vector<ExprPtr> elements;
  explicit TupleExpr(SourceLoc loc) : Expr(ExprKind::Tuple, loc) {}
  TK_AST_EXPR_CLASSOF(Tuple)
};

struct ListExpr : Expr {
  std::vector<ExprPtr> elements;
  explicit ListExpr(SourceLoc loc) : Expr(ExprKind::List, loc) {}
  TK_AST_EXPR_CLASSOF(List)
};

struct FunctionDef;

/// `lambda params: body`, held as a helper named "<lambda>" whose body is
/// `return body` (the parser builds it); it is callable wherever a helper
/// is, e.g. as a combine function.
struct LambdaExpr : Expr {
  std::shared_ptr<const FunctionDef> function;
  LambdaExpr(SourceLoc loc, std::shared_ptr<const FunctionDef> function)
      : Expr(ExprKind::Lambda, loc), function(std::move(function)) {}
  TK_AST_EXPR_CLASSOF(Lambda)
};

#undef TK_AST_EXPR_CLASSOF

/// "tl.load" for Attribute(Name "tl", "load"), "x" for Name "x", any depth
/// of attributes over a name; nullopt for anything else.
std::optional<std::string> getDottedName(const Expr &expr);

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

enum class StmtKind {
  Expr,      // f(x)    (also static_assert(...), device_print(...))
  Assign,    // x = e   /  a, b = e
  AugAssign, // x += e
  If,        // if / elif / else
  For,       // for i in range(...):
  While,     // while c:
  Return,    // return [e]
  Pass,
  Break,
  Continue
};

struct Stmt {
  const StmtKind kind;
  SourceLoc loc;

  Stmt(const Stmt &) = delete;
  Stmt &operator=(const Stmt &) = delete;
  virtual ~Stmt() = default;

  template <typename T> bool is() const { return T::classof(this); }
  template <typename T> T *getAs() {
    return is<T>() ? static_cast<T *>(this) : nullptr;
  }
  template <typename T> const T *getAs() const {
    return is<T>() ? static_cast<const T *>(this) : nullptr;
  }
  template <typename T> T &as() {
    assert(is<T>() && "AST node has a different kind");
    return static_cast<T &>(*this);
  }
  template <typename T> const T &as() const {
    assert(is<T>() && "AST node has a different kind");
    return static_cast<const T &>(*this);
  }

protected:
  Stmt(StmtKind kind, SourceLoc loc) : kind(kind), loc(loc) {}
};

#define TK_AST_STMT_CLASSOF(KIND)                                              \
  static bool classof(const Stmt *s) { return s->kind == StmtKind::KIND; }

struct ExprStmt : Stmt {
  ExprPtr value;
  ExprStmt(SourceLoc loc, ExprPtr value)
      : Stmt(StmtKind::Expr, loc), value(std::move(value)) {}
  TK_AST_STMT_CLASSOF(Expr)
};

/// `x = value` (one target, isTupleTarget false) or `a, b = value` /
/// `(a, b) = value` / `a, = value` (isTupleTarget true). Targets are always
/// plain names: subscripts, attributes and chained `a = b = c` are rejected
/// by the parser.
struct AssignStmt : Stmt {
  std::vector<Identifier> targets;
  bool isTupleTarget = false;
  ExprPtr value;
  /// `name: annotation = value` (one name only); null without one.
  ExprPtr annotation;
  SourceLoc eqLoc;
  AssignStmt(SourceLoc loc, SourceLoc eqLoc)
      : Stmt(StmtKind::Assign, loc), eqLoc(eqLoc) {}
  TK_AST_STMT_CLASSOF(Assign)
};

/// `target op= value`, e.g. `a_ptrs += BLOCK_K * stride_ak` has op Add.
struct AugAssignStmt : Stmt {
  Identifier target;
  BinaryOpKind op;
  SourceLoc opLoc;
  ExprPtr value;
  AugAssignStmt(SourceLoc loc, Identifier target, BinaryOpKind op,
                SourceLoc opLoc, ExprPtr value)
      : Stmt(StmtKind::AugAssign, loc), target(std::move(target)), op(op),
        opLoc(opLoc), value(std::move(value)) {}
  TK_AST_STMT_CLASSOF(AugAssign)
};

/// `if cond: thenBody else: elseBody`. An `elif` is an IfStmt that is the
/// only statement of its parent's elseBody, with isElif set (and `loc` at
/// the `elif` keyword). elseBody is empty when there is no else.
struct IfStmt : Stmt {
  ExprPtr cond;
  StmtList thenBody;
  StmtList elseBody;
  bool isElif = false;
  IfStmt(SourceLoc loc, ExprPtr cond)
      : Stmt(StmtKind::If, loc), cond(std::move(cond)) {}
  TK_AST_STMT_CLASSOF(If)
};

/// `for target in iter: body`. `iter` is whatever expression was written,
/// typically a CallExpr of range / static_range / tl.range.
struct ForStmt : Stmt {
  Identifier target;
  ExprPtr iter;
  StmtList body;
  ForStmt(SourceLoc loc, Identifier target, ExprPtr iter)
      : Stmt(StmtKind::For, loc), target(std::move(target)),
        iter(std::move(iter)) {}
  TK_AST_STMT_CLASSOF(For)
};

struct WhileStmt : Stmt {
  ExprPtr cond;
  StmtList body;
  WhileStmt(SourceLoc loc, ExprPtr cond)
      : Stmt(StmtKind::While, loc), cond(std::move(cond)) {}
  TK_AST_STMT_CLASSOF(While)
};

/// `return` (value null) or `return e` / `return a, b` (a TupleExpr).
struct ReturnStmt : Stmt {
  ExprPtr value;
  ReturnStmt(SourceLoc loc, ExprPtr value)
      : Stmt(StmtKind::Return, loc), value(std::move(value)) {}
  TK_AST_STMT_CLASSOF(Return)
};

struct PassStmt : Stmt {
  explicit PassStmt(SourceLoc loc) : Stmt(StmtKind::Pass, loc) {}
  TK_AST_STMT_CLASSOF(Pass)
};

/// Only inside a loop (the parser checks).
struct BreakStmt : Stmt {
  explicit BreakStmt(SourceLoc loc) : Stmt(StmtKind::Break, loc) {}
  TK_AST_STMT_CLASSOF(Break)
};

/// Only inside a loop (the parser checks).
struct ContinueStmt : Stmt {
  explicit ContinueStmt(SourceLoc loc) : Stmt(StmtKind::Continue, loc) {}
  TK_AST_STMT_CLASSOF(Continue)
};

#undef TK_AST_STMT_CLASSOF

//===----------------------------------------------------------------------===//
// Functions and the module
//===----------------------------------------------------------------------===//

/// `@name`, `@name(args, key=value)`. `name` is kept dotted as written
/// ("kernel", "tk.kernel", "triton.autotune"); `loc` is the name's location.
/// hasParens distinguishes `@kernel` from `@kernel()`.
struct Decorator {
  std::string name;
  SourceLoc loc;
  bool hasParens = false;
  std::vector<ExprPtr> args;
  std::vector<KeywordArg> keywords;

  const KeywordArg *findKeyword(std::string_view key) const;
};

/// `name`, `name: T`, `name: T = default`, `name = default`.
/// `type` is null when not annotated (generic helper parameter).
struct Param {
  std::string name;
  SourceLoc loc;
  std::unique_ptr<TypeExpr> type;
  ExprPtr defaultValue;
};

struct FunctionDef {
  std::string name;
  SourceLoc loc;    // the function's name
  SourceLoc defLoc; // the `def` keyword
  std::vector<Decorator> decorators;
  std::vector<Param> params;
  std::unique_ptr<TypeExpr> returnType; // `-> T`, null if absent
  /// A leading string-literal statement (docstring) is removed from the
  /// body and kept here.
  std::optional<std::string> docstring;
  StmtList body; // never empty (unless parseError is set)

  /// Set when the function could not be parsed: the file's other functions
  /// still compile, and this error is reported only when this function is
  /// compiled or called. `name`, `loc` and the decorators are known if they
  /// were parsed before the error; the rest is empty.
  std::shared_ptr<const CompileError> parseError;

  /// The decorator whose name is `name` or ends in `.name`, or null.
  const Decorator *findDecorator(std::string_view name) const;
};

/// A name an `import` line binds: `import triton.language as tl` binds tl
/// to "triton.language", `from triton.language import sum as s` binds s to
/// "triton.language.sum".
struct ImportBinding {
  std::string name;
  std::string path;
  SourceLoc loc; // the bound name
};

struct Module {
  const SourceFile *file = nullptr;
  std::vector<std::unique_ptr<FunctionDef>> functions;
  std::vector<ImportBinding> imports;

  /// The parse error of the first function that has one, or null.
  const CompileError *findParseError() const {
    for (const auto &function : functions)
      if (function->parseError)
        return function->parseError.get();
    return nullptr;
  }

  /// The first function called `name`, or null.
  const FunctionDef *findFunction(std::string_view name) const;
  /// The last import binding `name` (a later line rebinds), or null.
  const ImportBinding *findImport(std::string_view name) const;
};

} // namespace tk::ast

#endif // TK_COMPILER_FRONTEND_AST_H
