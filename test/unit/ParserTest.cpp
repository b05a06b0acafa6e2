//===- ParserTest.cpp - AST shapes, precedence, syntax errors -------------===//

#include "compiler/frontend/ASTPrinter.h"
#include "compiler/frontend/Parser.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

using namespace tk;
using namespace tk::ast;

namespace {

/// Parses `source` as one expression and renders it fully parenthesized.
std::string expr(const std::string &source) {
  SourceFile file("expr.tk", source);
  return exprToString(*parseExpression(file));
}

/// The printAST dump of `source`.
std::string dump(const std::string &source) {
  SourceFile file("test.tk", source);
  std::ostringstream os;
  printAST(*parseModule(file), os);
  return os.str();
}

struct ParseError {
  unsigned line = 0, col = 0;
  std::string message;
  std::vector<DiagNote> notes;
};

ParseError parseError(const std::string &source) {
  SourceFile file("test.tk", source);
  try {
    parseModule(file);
  } catch (const CompileError &error) {
    EXPECT_EQ(error.loc.file, &file);
    return {error.loc.line, error.loc.col, error.message, error.notes};
  }
  ADD_FAILURE() << "expected a parse error in:\n" << source;
  return {};
}

#define EXPECT_PARSE_ERROR(source, LINE, COL, MESSAGE)                         \
  do {                                                                         \
    ParseError e = parseError(source);                                         \
    EXPECT_EQ(e.message, MESSAGE);                                             \
    EXPECT_EQ(e.line, LINE##u) << e.message;                                   \
    EXPECT_EQ(e.col, COL##u) << e.message;                                     \
  } while (0)

/// Wraps statements into a function body.
std::string inFunction(const std::string &body) {
  return "def f():\n" + body;
}

const char *kSoftmax =
    "@kernel\n"
    "def softmax(out_ptr: *f32, in_ptr: *f32, in_stride: i32, out_stride: "
    "i32,\n"
    "            n_cols: i32, BLOCK: constexpr):\n"
    "    row = program_id(0)\n"
    "    cols = arange(0, BLOCK)\n"
    "    mask = cols < n_cols\n"
    "    x = load(in_ptr + row * in_stride + cols, mask=mask, other=-inf)\n"
    "    x = x - max(x, axis=0)\n"
    "    num = exp(x)\n"
    "    store(out_ptr + row * out_stride + cols, num / sum(num, axis=0), "
    "mask=mask)\n";

const char *kMatmul =
    "@autotune(configs=[Config(BLOCK_M=128, BLOCK_N=256, num_warps=8),\n"
    "                   Config(BLOCK_M=64, BLOCK_N=64, num_warps=4), ],\n"
    "          key=[\"M\", \"N\", \"K\"])\n"
    "@kernel(num_warps=8, num_stages=3)\n"
    "def matmul(a_ptr: *f16, b_ptr: *f16, c_ptr: *f16, M: i32, N: i32,\n"
    "           K: i32, stride_am: i32, stride_ak: i32,\n"
    "           BLOCK_M: tl.constexpr, BLOCK_K: constexpr = 32) -> *f16:\n"
    "    \"\"\"C = A @ B.\"\"\"\n"
    "    pid = tl.program_id(axis=0)\n"
    "    offs_m = (pid * BLOCK_M + tl.arange(0, BLOCK_M)) % M\n"
    "    offs_k = tl.arange(0, BLOCK_K)\n"
    "    a_ptrs = a_ptr + (offs_m[:, None] * stride_am + offs_k[None, :])\n"
    "    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)\n"
    "    for k in range(0, tl.cdiv(K, BLOCK_K)):\n"
    "        a = tl.load(a_ptrs, mask=offs_k[None, :] < K, other=0.0)\n"
    "        acc += tl.dot(a, a)\n"
    "        a_ptrs += BLOCK_K * stride_ak\n"
    "    c = acc.to(f16)\n"
    "    if BLOCK_M > 64:\n"
    "        pass\n"
    "    elif BLOCK_M == 1: c = c * 2\n"
    "    else:\n"
    "        static_assert(BLOCK_K % 16 == 0, \"BLOCK_K % 16\")\n"
    "    tl.store(c_ptr + offs_m, c)\n"
    "\n"
    "def helper(x, y=1.5e-3):\n"
    "    a, b = x, y\n"
    "    while a < b:\n"
    "        a = a + 1; continue\n"
    "    return a, b\n";

//===----------------------------------------------------------------------===//
// Expressions and precedence
//===----------------------------------------------------------------------===//

TEST(ParserExprTest, ArithmeticPrecedence) {
  EXPECT_EQ(expr("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(expr("a * b + c"), "((a * b) + c)");
  EXPECT_EQ(expr("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(expr("a // b % c * d / e"), "((((a // b) % c) * d) / e)");
  EXPECT_EQ(expr("a @ b + c"), "((a @ b) + c)");
  EXPECT_EQ(expr("(a + b) * c"), "((a + b) * c)");
}

TEST(ParserExprTest, PowerAndUnary) {
  EXPECT_EQ(expr("-x**2"), "(-(x ** 2))");
  EXPECT_EQ(expr("2**-1"), "(2 ** (-1))");
  EXPECT_EQ(expr("a**b**c"), "(a ** (b ** c))");
  EXPECT_EQ(expr("-a * b"), "((-a) * b)");
  EXPECT_EQ(expr("~a + -b - +c"), "(((~a) + (-b)) - (+c))");
  EXPECT_EQ(expr("--a"), "(-(-a))");
  EXPECT_EQ(expr("-x.y(1)"), "(-x.y(1))");
  EXPECT_EQ(expr("-a**-b**c"), "(-(a ** (-(b ** c))))");
}

TEST(ParserExprTest, BitwiseShiftAndComparison) {
  EXPECT_EQ(expr("a << 1 + 2"), "(a << (1 + 2))");
  EXPECT_EQ(expr("a & b | c ^ d"), "((a & b) | (c ^ d))");
  EXPECT_EQ(expr("a | b ^ c & d"), "(a | (b ^ (c & d)))");
  EXPECT_EQ(expr("a >> b << c"), "((a >> b) << c)");
  EXPECT_EQ(expr("a < b | c"), "(a < (b | c))");
  EXPECT_EQ(expr("a + 1 >= b * 2"), "((a + 1) >= (b * 2))");
  EXPECT_THROW(expr("a == b != c"), CompileError);
}

TEST(ParserExprTest, LogicalAndConditional) {
  EXPECT_EQ(expr("a < b and c or not d == e"),
            "(((a < b) and c) or (not (d == e)))");
  EXPECT_EQ(expr("not a and b"), "((not a) and b)");
  EXPECT_EQ(expr("a or b and c"), "(a or (b and c))");
  EXPECT_EQ(expr("not not a"), "(not (not a))");
  EXPECT_EQ(expr("x if c else y if d else z"),
            "(x if c else (y if d else z))");
  EXPECT_EQ(expr("a or b if c or d else e"), "((a or b) if (c or d) else e)");
  EXPECT_EQ(expr("-2**2 if not c else 1 << 3"),
            "((-(2 ** 2)) if (not c) else (1 << 3))");
}

TEST(ParserExprTest, PostfixAndAtoms) {
  EXPECT_EQ(expr("x.to(f16)[0].y"), "x.to(f16)[0].y");
  EXPECT_EQ(expr("offs_m[:, None] * stride_am"),
            "(offs_m[:, None] * stride_am)");
  EXPECT_EQ(expr("x[None, :]"), "x[None, :]");
  EXPECT_EQ(expr("x[1:2, ::2, :n, a:]"), "x[1:2, ::2, :n, a:]");
  EXPECT_EQ(expr("tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)"),
            "tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)");
  EXPECT_EQ(expr("f(a, b, k=1, m=g(2),)"), "f(a, b, k=1, m=g(2))");
  EXPECT_EQ(expr("f()"), "f()");
  EXPECT_EQ(expr("(a, b)"), "(a, b)");
  EXPECT_EQ(expr("(a,)"), "(a,)");
  EXPECT_EQ(expr("()"), "()");
  EXPECT_EQ(expr("(a)"), "a");
  EXPECT_EQ(expr("a, b"), "(a, b)");
  EXPECT_EQ(expr("[1, [2, 3], []]"), "[1, [2, 3], []]");
  EXPECT_EQ(expr("'ab' \"cd\""), "\"abcd\"");
  EXPECT_EQ(expr("True or False or None"), "((True or False) or None)");
  EXPECT_EQ(expr("1.5e-3 + .5 + 1. + 2"), "(((0.0015 + 0.5) + 1.0) + 2)");
  EXPECT_EQ(expr("-inf"), "(-inf)");
}

TEST(ParserExprTest, NodeFields) {
  SourceFile file("n.tk", "load(p + 1, mask=m)");
  ExprPtr e = parseExpression(file);
  auto *call = e->getAs<CallExpr>();
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->loc.col, 1u);
  EXPECT_EQ(call->lparenLoc.col, 5u);
  EXPECT_EQ(getDottedName(*call->callee), std::optional<std::string>("load"));
  ASSERT_EQ(call->args.size(), 1u);
  auto &add = call->args[0]->as<BinaryExpr>();
  EXPECT_EQ(add.op, BinaryOpKind::Add);
  EXPECT_EQ(add.loc.col, 6u);
  EXPECT_EQ(add.opLoc.col, 8u);
  EXPECT_TRUE(add.rhs->is<IntLitExpr>());
  EXPECT_EQ(add.rhs->as<IntLitExpr>().value, 1u);
  EXPECT_EQ(add.height, 2u);
  EXPECT_EQ(call->height, 3u);
  const KeywordArg *mask = call->findKeyword("mask");
  ASSERT_NE(mask, nullptr);
  EXPECT_EQ(mask->loc.col, 13u);
  EXPECT_EQ(mask->value->as<NameExpr>().name, "m");
  EXPECT_EQ(call->findKeyword("other"), nullptr);
}

TEST(ParserExprTest, DottedNames) {
  SourceFile file("d.tk", "tl.math.exp(x)");
  ExprPtr e = parseExpression(file);
  auto &call = e->as<CallExpr>();
  EXPECT_EQ(getDottedName(*call.callee),
            std::optional<std::string>("tl.math.exp"));
  EXPECT_EQ(getDottedName(call), std::nullopt);
  auto &attribute = call.callee->as<AttributeExpr>();
  EXPECT_EQ(attribute.attr, "exp");
  EXPECT_EQ(attribute.attrLoc.col, 9u);
}

TEST(ParserExprTest, LargeIntegers) {
  SourceFile file("i.tk", "18446744073709551615");
  ExprPtr e = parseExpression(file);
  EXPECT_EQ(e->as<IntLitExpr>().value, UINT64_MAX);
  EXPECT_FALSE(e->as<IntLitExpr>().fitsInInt64());
  SourceFile small("i.tk", "9223372036854775807");
  EXPECT_TRUE(parseExpression(small)->as<IntLitExpr>().fitsInInt64());
}

//===----------------------------------------------------------------------===//
// Modules and statements
//===----------------------------------------------------------------------===//

TEST(ParserTest, SoftmaxDump) {
  EXPECT_EQ(dump(kSoftmax),
            R"(Module 'test.tk'
  FunctionDef 'softmax' <2:5>
    Decorator 'kernel' <1:2>
    Param 'out_ptr' : *f32 <2:13>
    Param 'in_ptr' : *f32 <2:28>
    Param 'in_stride' : i32 <2:42>
    Param 'out_stride' : i32 <2:58>
    Param 'n_cols' : i32 <3:13>
    Param 'BLOCK' : constexpr <3:26>
    Body
      Assign <4:5>
        Target 'row' <4:5>
        Call <4:11>
          callee: Name 'program_id' <4:11>
          IntLit 0 <4:22>
      Assign <5:5>
        Target 'cols' <5:5>
        Call <5:12>
          callee: Name 'arange' <5:12>
          IntLit 0 <5:19>
          Name 'BLOCK' <5:22>
      Assign <6:5>
        Target 'mask' <6:5>
        Binary '<' <6:12>
          Name 'cols' <6:12>
          Name 'n_cols' <6:19>
      Assign <7:5>
        Target 'x' <7:5>
        Call <7:9>
          callee: Name 'load' <7:9>
          Binary '+' <7:14>
            Binary '+' <7:14>
              Name 'in_ptr' <7:14>
              Binary '*' <7:23>
                Name 'row' <7:23>
                Name 'in_stride' <7:29>
            Name 'cols' <7:41>
          Keyword 'mask' <7:47>
            Name 'mask' <7:52>
          Keyword 'other' <7:58>
            Unary '-' <7:64>
              Name 'inf' <7:65>
      Assign <8:5>
        Target 'x' <8:5>
        Binary '-' <8:9>
          Name 'x' <8:9>
          Call <8:13>
            callee: Name 'max' <8:13>
            Name 'x' <8:17>
            Keyword 'axis' <8:20>
              IntLit 0 <8:25>
      Assign <9:5>
        Target 'num' <9:5>
        Call <9:11>
          callee: Name 'exp' <9:11>
          Name 'x' <9:15>
      ExprStmt <10:5>
        Call <10:5>
          callee: Name 'store' <10:5>
          Binary '+' <10:11>
            Binary '+' <10:11>
              Name 'out_ptr' <10:11>
              Binary '*' <10:21>
                Name 'row' <10:21>
                Name 'out_stride' <10:27>
            Name 'cols' <10:40>
          Binary '/' <10:46>
            Name 'num' <10:46>
            Call <10:52>
              callee: Name 'sum' <10:52>
              Name 'num' <10:56>
              Keyword 'axis' <10:61>
                IntLit 0 <10:66>
          Keyword 'mask' <10:70>
            Name 'mask' <10:75>
)");
}

TEST(ParserTest, MatmulStructure) {
  SourceFile file("mm.tk", kMatmul);
  std::unique_ptr<Module> module = parseModule(file);
  ASSERT_EQ(module->functions.size(), 2u);
  EXPECT_EQ(module->file, &file);
  const FunctionDef *mm = module->findFunction("matmul");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(module->findFunction("nope"), nullptr);

  // Decorators.
  ASSERT_EQ(mm->decorators.size(), 2u);
  const Decorator *autotune = mm->findDecorator("autotune");
  ASSERT_NE(autotune, nullptr);
  EXPECT_TRUE(autotune->hasParens);
  const KeywordArg *configs = autotune->findKeyword("configs");
  ASSERT_NE(configs, nullptr);
  auto &configList = configs->value->as<ListExpr>();
  ASSERT_EQ(configList.elements.size(), 2u);
  EXPECT_EQ(exprToString(*configList.elements[1]),
            "Config(BLOCK_M=64, BLOCK_N=64, num_warps=4)");
  EXPECT_EQ(exprToString(*autotune->findKeyword("key")->value),
            "[\"M\", \"N\", \"K\"]");
  const Decorator *kernel = mm->findDecorator("kernel");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(exprToString(*kernel->findKeyword("num_stages")->value), "3");

  // Parameters and types.
  ASSERT_EQ(mm->params.size(), 10u);
  const Param &aPtr = mm->params[0];
  EXPECT_EQ(aPtr.name, "a_ptr");
  ASSERT_NE(aPtr.type, nullptr);
  EXPECT_EQ(aPtr.type->kind, TypeExpr::Kind::Pointer);
  EXPECT_EQ(aPtr.type->pointee->kind, TypeExpr::Kind::Scalar);
  EXPECT_EQ(aPtr.type->pointee->scalar, ScalarType::F16);
  EXPECT_EQ(aPtr.type->loc.col, 19u);
  EXPECT_EQ(aPtr.type->pointee->loc.col, 20u);
  const Param &blockM = mm->params[8];
  EXPECT_EQ(blockM.type->kind, TypeExpr::Kind::Constexpr);
  EXPECT_EQ(blockM.type->qualifier, "tl");
  const Param &blockK = mm->params[9];
  EXPECT_EQ(blockK.type->kind, TypeExpr::Kind::Constexpr);
  ASSERT_NE(blockK.defaultValue, nullptr);
  EXPECT_EQ(blockK.defaultValue->as<IntLitExpr>().value, 32u);
  ASSERT_NE(mm->returnType, nullptr);
  EXPECT_EQ(mm->returnType->toString(), "*f16");

  // Docstring is taken out of the body.
  EXPECT_EQ(mm->docstring, std::optional<std::string>("C = A @ B."));
  ASSERT_EQ(mm->body.size(), 9u);
  EXPECT_TRUE(mm->body[0]->is<AssignStmt>());

  // for k in range(0, tl.cdiv(K, BLOCK_K)):
  auto &loop = mm->body[5]->as<ForStmt>();
  EXPECT_EQ(loop.target.name, "k");
  EXPECT_EQ(exprToString(*loop.iter), "range(0, tl.cdiv(K, BLOCK_K))");
  ASSERT_EQ(loop.body.size(), 3u);
  auto &accUpdate = loop.body[1]->as<AugAssignStmt>();
  EXPECT_EQ(accUpdate.target.name, "acc");
  EXPECT_EQ(accUpdate.op, BinaryOpKind::Add);
  EXPECT_EQ(accUpdate.opLoc.col, 13u);
  EXPECT_EQ(exprToString(*loop.body[2]->as<AugAssignStmt>().value),
            "(BLOCK_K * stride_ak)");

  // if / elif / else folds into nested IfStmts.
  auto &ifStmt = mm->body[7]->as<IfStmt>();
  EXPECT_FALSE(ifStmt.isElif);
  ASSERT_EQ(ifStmt.elseBody.size(), 1u);
  auto &elif = ifStmt.elseBody[0]->as<IfStmt>();
  EXPECT_TRUE(elif.isElif);
  EXPECT_EQ(elif.loc.line, 21u);
  EXPECT_EQ(exprToString(*elif.cond), "(BLOCK_M == 1)");
  ASSERT_EQ(elif.thenBody.size(), 1u);
  ASSERT_EQ(elif.elseBody.size(), 1u);
  auto &staticAssert = elif.elseBody[0]->as<ExprStmt>();
  EXPECT_EQ(exprToString(*staticAssert.value),
            "static_assert(((BLOCK_K % 16) == 0), \"BLOCK_K % 16\")");

  // The untyped helper.
  const FunctionDef *helper = module->findFunction("helper");
  ASSERT_NE(helper, nullptr);
  EXPECT_TRUE(helper->decorators.empty());
  EXPECT_EQ(helper->findDecorator("kernel"), nullptr);
  ASSERT_EQ(helper->params.size(), 2u);
  EXPECT_EQ(helper->params[0].type, nullptr);
  EXPECT_EQ(exprToString(*helper->params[1].defaultValue), "0.0015");
  auto &tupleAssign = helper->body[0]->as<AssignStmt>();
  EXPECT_TRUE(tupleAssign.isTupleTarget);
  ASSERT_EQ(tupleAssign.targets.size(), 2u);
  EXPECT_EQ(tupleAssign.targets[1].name, "b");
  EXPECT_EQ(tupleAssign.targets[1].loc.col, 8u);
  auto &whileStmt = helper->body[1]->as<WhileStmt>();
  ASSERT_EQ(whileStmt.body.size(), 2u); // `a = a + 1; continue`
  EXPECT_TRUE(whileStmt.body[1]->is<ContinueStmt>());
  auto &ret = helper->body[2]->as<ReturnStmt>();
  EXPECT_EQ(exprToString(*ret.value), "(a, b)");
}

TEST(ParserTest, StatementForms) {
  EXPECT_EQ(dump("def f(x):\n"
                 "    if x: return\n"
                 "    y, = g()\n"
                 "    (a, b) = 1, 2\n"
                 "    x **= 2; x //= 3\n"
                 "    while True:\n"
                 "        break\n"
                 "    pass\n"),
            R"(Module 'test.tk'
  FunctionDef 'f' <1:5>
    Param 'x' <1:7>
    Body
      If <2:5>
        cond: Name 'x' <2:8>
        Then
          Return <2:11>
      Assign (tuple) <3:5>
        Target 'y' <3:5>
        Call <3:10>
          callee: Name 'g' <3:10>
      Assign (tuple) <4:5>
        Target 'a' <4:6>
        Target 'b' <4:9>
        Tuple <4:14>
          IntLit 1 <4:14>
          IntLit 2 <4:17>
      AugAssign '**=' <5:5>
        Target 'x' <5:5>
        IntLit 2 <5:11>
      AugAssign '//=' <5:14>
        Target 'x' <5:14>
        IntLit 3 <5:20>
      While <6:5>
        cond: BoolLit True <6:11>
        Body
          Break <7:9>
      Pass <8:5>
)");
}

TEST(ParserTest, DocstringOnlyBodyBecomesPass) {
  SourceFile file("d.tk", "def f():\n    'only a docstring'\n");
  std::unique_ptr<Module> module = parseModule(file);
  const FunctionDef &f = *module->functions[0];
  EXPECT_EQ(f.docstring, std::optional<std::string>("only a docstring"));
  ASSERT_EQ(f.body.size(), 1u);
  EXPECT_TRUE(f.body[0]->is<PassStmt>());
}

TEST(ParserTest, DottedDecoratorsAndEmptyParens) {
  SourceFile file("d.tk", "@tl.kernel()\n@triton.jit\ndef f(): pass\n");
  std::unique_ptr<Module> module = parseModule(file);
  const FunctionDef &f = *module->functions[0];
  ASSERT_EQ(f.decorators.size(), 2u);
  EXPECT_EQ(f.decorators[0].name, "tl.kernel");
  EXPECT_TRUE(f.decorators[0].hasParens);
  EXPECT_EQ(f.decorators[1].name, "triton.jit");
  EXPECT_FALSE(f.decorators[1].hasParens);
  EXPECT_EQ(f.findDecorator("kernel"), &f.decorators[0]);
  EXPECT_EQ(f.findDecorator("jit"), &f.decorators[1]);
  EXPECT_EQ(f.findDecorator("it"), nullptr);
}

TEST(ParserTest, EmptyModuleAndComments) {
  EXPECT_EQ(dump(""), "Module 'test.tk'\n");
  EXPECT_EQ(dump("# nothing\n\n"), "Module 'test.tk'\n");
}

TEST(ParserTest, PointerTypes) {
  SourceFile file("p.tk", "def f(a: **i32, b: *tk.bf16, c: u8, d: i1): pass");
  std::unique_ptr<Module> module = parseModule(file);
  const auto &params = module->functions[0]->params;
  EXPECT_EQ(params[0].type->toString(), "**i32");
  EXPECT_EQ(params[0].type->pointee->loc.col, 11u);
  EXPECT_EQ(params[1].type->toString(), "*bf16");
  EXPECT_EQ(params[1].type->pointee->qualifier, "tk");
  EXPECT_EQ(params[2].type->scalar, ScalarType::U8);
  EXPECT_EQ(params[3].type->scalar, ScalarType::I1);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(ParserErrorTest, MissingColonsAndBlocks) {
  EXPECT_PARSE_ERROR(inFunction("    if x\n        pass\n"), 2, 9,
                     "expected ':' after 'if' condition");
  EXPECT_PARSE_ERROR(inFunction("    if x y:\n        pass\n"), 2, 10,
                     "expected ':' after 'if' condition, found identifier "
                     "'y'");
  EXPECT_PARSE_ERROR(inFunction("    if x:\n        pass\n    elif y\n"), 4,
                     11, "expected ':' after 'elif' condition");
  EXPECT_PARSE_ERROR(inFunction("    if x:\n        pass\n    else\n"), 4, 9,
                     "expected ':' after 'else'");
  EXPECT_PARSE_ERROR(inFunction("    while x\n"), 2, 12,
                     "expected ':' after 'while' condition");
  EXPECT_PARSE_ERROR(inFunction("    for i in range(3)\n"), 2, 22,
                     "expected ':' after 'for' loop header");
  EXPECT_PARSE_ERROR("def f()\n    pass\n", 1, 8,
                     "expected ':' after function signature");
  EXPECT_PARSE_ERROR("def f():\nreturn 1\n", 2, 1,
                     "expected an indented block after function definition");
  EXPECT_PARSE_ERROR("def f():\n", 1, 9,
                     "expected an indented block after function definition");
  EXPECT_PARSE_ERROR(inFunction("    if x:\n    y = 1\n"), 3, 5,
                     "expected an indented block after 'if' statement on "
                     "line 2");
  EXPECT_PARSE_ERROR(inFunction("    x = 1\n        y = 2\n"), 3, 9,
                     "unexpected indent");
  EXPECT_PARSE_ERROR("  def f():\n    pass\n", 1, 3, "unexpected indent");
}

TEST(ParserErrorTest, TopLevel) {
  EXPECT_PARSE_ERROR("x = 1\n", 1, 1, "only 'def' is allowed at top level");
  EXPECT_PARSE_ERROR("def f(): pass\nf()\n", 2, 1,
                     "only 'def' is allowed at top level");
  EXPECT_PARSE_ERROR("import numpy as np\n", 1, 8,
                     "cannot import 'numpy': only triton modules may be "
                     "imported (tk needs none)");
  EXPECT_PARSE_ERROR("return 1\n", 1, 1, "'return' outside function");
  EXPECT_PARSE_ERROR("break\n", 1, 1, "'break' outside loop");
  EXPECT_PARSE_ERROR("@kernel\nx = 1\n", 2, 1,
                     "expected 'def' after decorator, found identifier 'x'");
  EXPECT_PARSE_ERROR("@kernel def f(): pass\n", 1, 9,
                     "expected end of line after decorator, found 'def'");
  EXPECT_PARSE_ERROR("@\ndef f(): pass\n", 1, 2,
                     "expected a decorator name after '@'");
  EXPECT_PARSE_ERROR("def (x): pass\n", 1, 5,
                     "expected function name after 'def', found '('");
  EXPECT_PARSE_ERROR(inFunction("    def g():\n        pass\n"), 2, 5,
                     "nested functions are not supported; define helper "
                     "functions at top level");
  EXPECT_PARSE_ERROR(inFunction("    @kernel\n"), 2, 5,
                     "decorators are only allowed on top-level functions");
}

TEST(ParserErrorTest, Parameters) {
  EXPECT_PARSE_ERROR("def f(x, y, x): pass\n", 1, 13,
                     "duplicate parameter 'x'");
  EXPECT_PARSE_ERROR("def f(x=1, y): pass\n", 1, 12,
                     "parameter without a default value follows a parameter "
                     "with a default value");
  EXPECT_PARSE_ERROR("def f(*args): pass\n", 1, 7,
                     "variadic parameters ('*args', '**kwargs') are not "
                     "supported");
  EXPECT_PARSE_ERROR("def f(x y): pass\n", 1, 9,
                     "expected ',' or ')' in parameter list, found "
                     "identifier 'y'");
  EXPECT_PARSE_ERROR("def f(x: f31): pass\n", 1, 10,
                     "unknown type 'f31'; did you mean 'f32'?");
  EXPECT_PARSE_ERROR("def f(x: float32): pass\n", 1, 10,
                     "unknown type 'float32'; did you mean 'f32'?");
  EXPECT_PARSE_ERROR("def f(x: constexp): pass\n", 1, 10,
                     "unknown type 'constexp'; did you mean 'constexpr'?");
  // A type name may be a dtype-valued constexpr parameter (`*DTYPE`),
  // declared anywhere in the list; any other name is an unknown type.
  EXPECT_PARSE_ERROR("def f(x: *DTYPE, n: i32): pass\n", 1, 11,
                     "unknown type 'DTYPE'");
  EXPECT_PARSE_ERROR("def f(x: *DTYPE, DTYPE: i32): pass\n", 1, 11,
                     "'DTYPE' names a type only as a constexpr parameter; "
                     "declare it 'DTYPE: constexpr' and pass a dtype (-D "
                     "DTYPE=bf16)");
  EXPECT_PARSE_ERROR("def f(x: *DTYPE, DTYPF: constexpr): pass\n", 1, 11,
                     "unknown type 'DTYPE'; did you mean 'DTYPF'?");
  EXPECT_PARSE_ERROR("def f(x: tl.DTYPE, DTYPE: constexpr): pass\n", 1, 13,
                     "unknown type 'tl.DTYPE'");
  EXPECT_PARSE_ERROR("def f(x: *constexpr): pass\n", 1, 11,
                     "'constexpr' cannot be a pointee type");
  EXPECT_PARSE_ERROR("def f(x: foo.f32): pass\n", 1, 10,
                     "unknown type qualifier 'foo'; only 'tl.' or 'tk.' (or "
                     "a name imported as triton.language) may prefix a type");
  EXPECT_PARSE_ERROR("def f(x: ): pass\n", 1, 10,
                     "expected a type, found ')'");
  EXPECT_PARSE_ERROR("def f(x: *********f32): pass\n", 1, 18,
                     "too many levels of pointer indirection");
  EXPECT_PARSE_ERROR("def f(x=): pass\n", 1, 9,
                     "expected default value after '=', found ')'");

  ParseError dup = parseError("def f(x, x): pass\n");
  ASSERT_EQ(dup.notes.size(), 1u);
  EXPECT_EQ(dup.notes[0].loc.col, 7u);
  EXPECT_EQ(dup.notes[0].message, "previous parameter is here");
}

TEST(ParserErrorTest, Assignments) {
  EXPECT_PARSE_ERROR(inFunction("    x[0] = 1\n"), 2, 5,
                     "cannot assign to a subscript: tk tensors are immutable "
                     "values (compute a new tensor instead, e.g. with "
                     "where())");
  EXPECT_PARSE_ERROR(inFunction("    a.b = 1\n"), 2, 5,
                     "cannot assign to an attribute");
  EXPECT_PARSE_ERROR(inFunction("    f(x) += 1\n"), 2, 5,
                     "cannot assign to a function call");
  EXPECT_PARSE_ERROR(inFunction("    a, b += 1\n"), 2, 5,
                     "'+=' cannot assign to a tuple");
  EXPECT_PARSE_ERROR(inFunction("    a, b[1] = 1, 2\n"), 2, 8,
                     "cannot assign to a subscript: tk tensors are immutable "
                     "values (compute a new tensor instead, e.g. with "
                     "where())");
  EXPECT_PARSE_ERROR(inFunction("    (a, b), c = x\n"), 2, 5,
                     "cannot assign to a nested tuple; only names may be "
                     "assigned");
  EXPECT_PARSE_ERROR(inFunction("    1 = x\n"), 2, 5,
                     "cannot assign to a literal");
  EXPECT_PARSE_ERROR(inFunction("    None = x\n"), 2, 5,
                     "cannot assign to None");
  EXPECT_PARSE_ERROR(inFunction("    a + b = x\n"), 2, 5,
                     "cannot assign to an expression; only names (or a tuple "
                     "of names) may be assigned");
  EXPECT_PARSE_ERROR(inFunction("    a = b = 1\n"), 2, 11,
                     "chained assignment ('a = b = value') is not supported");
  EXPECT_PARSE_ERROR(inFunction("    x: i32\n"), 2, 11,
                     "expected '=' and a value after the annotation of 'x' "
                     "(a declaration without a value is not supported)");
  EXPECT_PARSE_ERROR(inFunction("    a, b: i32 = 1, 2\n"), 2, 9,
                     "only a single name can be annotated");
  EXPECT_PARSE_ERROR(inFunction("    x = \n"), 2, 8,
                     "expected expression after '='");
  EXPECT_PARSE_ERROR(inFunction("    x += \n"), 2, 9,
                     "expected expression after '+='");
  EXPECT_PARSE_ERROR(inFunction("    x = 1 y\n"), 2, 11,
                     "expected end of line after statement, found identifier "
                     "'y'");
}

TEST(ParserErrorTest, Expressions) {
  EXPECT_PARSE_ERROR(inFunction("    x = (1 +)\n"), 2, 13,
                     "expected expression, found ')'");
  EXPECT_PARSE_ERROR(inFunction("    return a < b < c\n"), 2, 18,
                     "chained comparisons are not supported; write "
                     "'(a < b) and (b < c)' instead of 'a < b < c'");
  EXPECT_PARSE_ERROR(inFunction("    f(a=1, b)\n"), 2, 12,
                     "positional argument follows keyword argument");
  EXPECT_PARSE_ERROR(inFunction("    f(a=1, a=2)\n"), 2, 12,
                     "keyword argument 'a' repeated");
  EXPECT_PARSE_ERROR(inFunction("    f(*x)\n"), 2, 7,
                     "argument unpacking ('*args', '**kwargs') is not "
                     "supported");
  EXPECT_PARSE_ERROR(inFunction("    f(a b)\n"), 2, 9,
                     "expected ',' or ')' in argument list, found "
                     "identifier 'b'");
  EXPECT_PARSE_ERROR(inFunction("    x = [i for i in y]\n"), 2, 12,
                     "comprehensions and generator expressions are not "
                     "supported");
  EXPECT_PARSE_ERROR(inFunction("    x = sum(i for i in y)\n"), 2, 15,
                     "comprehensions and generator expressions are not "
                     "supported");
  EXPECT_PARSE_ERROR(inFunction("    x = {1: 2}\n"), 2, 10,
                     "only dicts with string keys are supported "
                     "({\"BLOCK\": 128, ...}, as in triton.Config)");
  EXPECT_PARSE_ERROR(inFunction("    x = a if b\n"), 2, 15,
                     "expected 'else' in conditional expression");
  EXPECT_PARSE_ERROR(inFunction("    x = y.\n"), 2, 11,
                     "expected an attribute name after '.'");
  EXPECT_PARSE_ERROR(inFunction("    x = y.1\n"), 2, 10,
                     "expected end of line after statement, found "
                     "floating-point literal '.1'");
  EXPECT_PARSE_ERROR(inFunction("    x = y[]\n"), 2, 11,
                     "expected an index expression inside '[]'");
  EXPECT_PARSE_ERROR(inFunction("    x = y[1 2]\n"), 2, 13,
                     "expected ',' or ']' in subscript, found integer "
                     "literal '2'");
  EXPECT_PARSE_ERROR(inFunction("    x = a in b\n"), 2, 11,
                     "the 'in' operator is not supported");
  EXPECT_PARSE_ERROR(inFunction("    x = a not in b\n"), 2, 11,
                     "the 'in' operator is not supported");
  EXPECT_PARSE_ERROR(inFunction("    x = (a, b\n    c)\n"), 3, 5,
                     "expected ',' or ')' in tuple, found identifier 'c'");
  EXPECT_PARSE_ERROR(inFunction("    x = (a b)\n"), 2, 12,
                     "expected ')', found identifier 'b'");
  EXPECT_PARSE_ERROR(inFunction("    x = [a b]\n"), 2, 12,
                     "expected ',' or ']' in list, found identifier 'b'");

  ParseError repeated = parseError(inFunction("    f(a=1, a=2)\n"));
  ASSERT_EQ(repeated.notes.size(), 1u);
  EXPECT_EQ(repeated.notes[0].loc.col, 7u);
  EXPECT_EQ(repeated.notes[0].message, "previous 'a' argument is here");
}

TEST(ParserErrorTest, Statements) {
  EXPECT_PARSE_ERROR(inFunction("    break\n"), 2, 5, "'break' outside loop");
  EXPECT_PARSE_ERROR(inFunction("    for i in x:\n        pass\n    continue\n"),
                     4, 5, "'continue' outside loop");
  EXPECT_PARSE_ERROR(inFunction("    for i, j in x:\n        pass\n"), 2, 10,
                     "the target of a 'for' loop must be a single name");
  EXPECT_PARSE_ERROR(inFunction("    for 1 in x:\n        pass\n"), 2, 9,
                     "expected a loop variable name after 'for', found "
                     "integer literal '1'");
  EXPECT_PARSE_ERROR(inFunction("    for i of x:\n        pass\n"), 2, 11,
                     "expected 'in' after the loop variable, found "
                     "identifier 'of'");
  EXPECT_PARSE_ERROR(inFunction("    for i in x:\n        pass\n    else:\n"
                                "        pass\n"),
                     4, 5, "'else' after a 'for' loop is not supported");
  EXPECT_PARSE_ERROR(inFunction("    else:\n        pass\n"), 2, 5,
                     "'else' without a matching 'if'");
  EXPECT_PARSE_ERROR(inFunction("    elif x:\n        pass\n"), 2, 5,
                     "'elif' without a matching 'if'");
  EXPECT_PARSE_ERROR(inFunction("    if x: for i in y: pass\n"), 2, 11,
                     "a compound statement cannot follow ':' on the same "
                     "line; start a new, indented line");
  EXPECT_PARSE_ERROR(inFunction("    x = 1; if y: pass\n"), 2, 12,
                     "a compound statement cannot follow ';'; start a new "
                     "line");
  EXPECT_PARSE_ERROR(inFunction("    assert x > 0\n"), 2, 5,
                     "'assert' is not supported; use static_assert(cond, "
                     "\"message\") or device_assert(cond, \"message\")");
  EXPECT_PARSE_ERROR(inFunction("    raise ValueError\n"), 2, 5,
                     "'raise' statements are not supported in tk");
  EXPECT_PARSE_ERROR(inFunction("    if :\n"), 2, 8,
                     "expected condition after 'if', found ':'");
  EXPECT_PARSE_ERROR(inFunction("    )\n"), 2, 5, "unmatched ')'");
  EXPECT_PARSE_ERROR(inFunction("    = 1\n"), 2, 5,
                     "expected a statement, found '='");
}

TEST(ParserErrorTest, LexicalErrorsSurfaceThroughTheParser) {
  EXPECT_PARSE_ERROR(inFunction("    x = load(p, mask=m $)\n"), 2, 24,
                     "invalid character '$'");
}

TEST(ParserErrorTest, NamesThatAreOnlyKeywordsInPython) {
  // `assert`, `print`, `lambda`... are plain names in tk unless used like
  // Python statements.
  EXPECT_NO_THROW(dump(inFunction("    print = 1\n    lambda(x)\n")));
}

//===----------------------------------------------------------------------===//
// Robustness
//===----------------------------------------------------------------------===//

TEST(ParserLimitsTest, DeepNesting) {
  // 150 nested parentheses and brackets are fine...
  std::string deep = std::string(150, '(') + "x" + std::string(150, ')');
  EXPECT_EQ(expr(deep), "x");
  std::string calls;
  for (int i = 0; i < 100; ++i)
    calls += "f(";
  calls += "1" + std::string(100, ')');
  EXPECT_NO_THROW(expr(calls));

  // ...too much is an error, not a crash.
  EXPECT_PARSE_ERROR(inFunction("    x = " + std::string(300, '-') + "1\n"), 2,
                     264, "expression is too deeply nested");
  EXPECT_PARSE_ERROR(inFunction("    x = " + std::string(300, '~') + "1\n"), 2,
                     264, "expression is too deeply nested");
  std::string longSum = "1";
  for (int i = 0; i < 5000; ++i)
    longSum += "+1";
  ParseError e = parseError(inFunction("    x = " + longSum + "\n"));
  EXPECT_EQ(e.message, "expression is too deeply nested or too long");
  std::string powers = "1";
  for (int i = 0; i < 5000; ++i)
    powers += "**1";
  e = parseError(inFunction("    x = " + powers + "\n"));
  EXPECT_EQ(e.message, "expression is too deeply nested");
  std::string attributes = "x";
  for (int i = 0; i < 5000; ++i)
    attributes += ".a[0](1)";
  e = parseError(inFunction("    x = " + attributes + "\n"));
  EXPECT_EQ(e.message, "expression is too deeply nested or too long");
  std::string conditionals = "1";
  for (int i = 0; i < 5000; ++i)
    conditionals += " if c else 1";
  e = parseError(inFunction("    x = " + conditionals + "\n"));
  EXPECT_EQ(e.message, "expression is too deeply nested");
}

TEST(ParserLimitsTest, LongElifChains) {
  std::string source = "def f(x):\n    if x == 0:\n        pass\n";
  for (int i = 1; i < 100; ++i)
    source += "    elif x == " + std::to_string(i) + ":\n        pass\n";
  EXPECT_NO_THROW(dump(source));
  for (int i = 100; i < 300; ++i)
    source += "    elif x == " + std::to_string(i) + ":\n        pass\n";
  ParseError e = parseError(source);
  EXPECT_EQ(e.message, "statements are nested too deeply");
}

TEST(ParserLimitsTest, LongButFlatInputsAreFine) {
  std::string args = "f(";
  for (int i = 0; i < 10000; ++i)
    args += "1, ";
  args += ")";
  EXPECT_NO_THROW(expr(args));
  std::string body = "def f():\n";
  for (int i = 0; i < 5000; ++i)
    body += "    x = x + 1\n";
  EXPECT_NO_THROW(dump(body));
}

/// Random mutations of valid programs must either parse or fail with a
/// CompileError located inside the file -- never crash or hang.
TEST(ParserFuzzTest, MutatedExamplesFailCleanly) {
  const std::string seeds[] = {kSoftmax, kMatmul};
  const std::string alphabet = "()[]{}:,.=+-*/%<>!&|^~@#'\"\\\n\t  "
                               "0123456789abcxyz_eE";
  std::mt19937 rng(12345);
  int parsed = 0, failed = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string source = seeds[iteration % 2];
    int mutations = 1 + int(rng() % 4);
    for (int m = 0; m < mutations; ++m) {
      size_t pos = rng() % (source.size() + 1);
      switch (rng() % 4) {
      case 0: // delete a few characters
        source.erase(std::min(pos, source.size()), 1 + rng() % 3);
        break;
      case 1: // insert a character
        source.insert(pos, 1, alphabet[rng() % alphabet.size()]);
        break;
      case 2: // replace a character
        if (pos < source.size())
          source[pos] = alphabet[rng() % alphabet.size()];
        break;
      case 3: { // duplicate a slice (repeats lines, brackets, ...)
        size_t from = rng() % source.size();
        size_t length = rng() % 40;
        source.insert(pos, source.substr(from, length));
        break;
      }
      }
    }
    SourceFile file("fuzz.tk", source);
    try {
      std::unique_ptr<Module> module = parseModule(file);
      std::ostringstream os;
      printAST(*module, os);
      ++parsed;
    } catch (const CompileError &error) {
      ++failed;
      ASSERT_EQ(error.loc.file, &file) << source;
      ASSERT_GE(error.loc.line, 1u) << source;
      ASSERT_LE(error.loc.line, file.getNumLines()) << source;
      ASSERT_GE(error.loc.col, 1u) << source;
      ASSERT_LE(error.loc.col, file.getLine(error.loc.line).size() + 2)
          << source;
      ASSERT_FALSE(error.message.empty());
      ASSERT_FALSE(formatDiagnostic(error).empty());
    }
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(failed, 0);
}

} // namespace

TEST(ParserRecoveryTest, BrokenFunctionDoesNotStopTheOthers) {
  SourceFile file("test.tk", "@kernel\n"
                             "def a(x: *f32):\n"
                             "    y = x +\n"
                             "    z = 1\n"
                             "\n"
                             "@kernel\n"
                             "def b(x: *f32):\n"
                             "    store(x, 1.0)\n");
  std::unique_ptr<Module> module = parseModuleKeepingErrors(file);
  ASSERT_EQ(module->functions.size(), 2u);
  const FunctionDef &a = *module->functions[0];
  const FunctionDef &b = *module->functions[1];
  ASSERT_TRUE(a.parseError);
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.decorators.size(), 1u);
  EXPECT_EQ(a.parseError->loc.line, 3u);
  EXPECT_EQ(a.parseError->message, "expected expression");
  EXPECT_FALSE(b.parseError);
  EXPECT_EQ(b.name, "b");
  EXPECT_EQ(b.body.size(), 1u);
  // The strict entry point reports the same error.
  EXPECT_THROW(parseModule(file), CompileError);
}

TEST(ParserTest, TritonImportsAreIgnored) {
  std::string text = dump("import triton\nimport triton.language as tl\n"
                          "from triton.language.extra import libdevice\n"
                          "def f():\n    pass\n");
  EXPECT_NE(text.find("FunctionDef 'f'"), std::string::npos) << text;
}

TEST(ParserTest, ImportBindings) {
  SourceFile file("test.tk",
                  "import triton\n"
                  "import triton.language as T, triton.language.math as m\n"
                  "from triton.language import (sum as s,\n"
                  "                             arange,)\n"
                  "from triton.language import *\n"
                  "import triton as tr\n"
                  "@tr.jit\n"
                  "def f(x: *T.f32):\n    pass\n");
  std::unique_ptr<Module> module = parseModule(file);
  std::vector<std::pair<std::string, std::string>> bindings;
  for (const ImportBinding &binding : module->imports)
    bindings.emplace_back(binding.name, binding.path);
  std::vector<std::pair<std::string, std::string>> expected = {
      {"T", "triton.language"},
      {"m", "triton.language.math"},
      {"s", "triton.language.sum"},
      {"arange", "triton.language.arange"},
      {"tr", "triton"}};
  EXPECT_EQ(bindings, expected);
  ASSERT_NE(module->findImport("s"), nullptr);
  EXPECT_EQ(module->findImport("s")->loc.line, 3u);
  EXPECT_EQ(module->findImport("triton"), nullptr);
  // Decorators through an imported name name its path; an alias of
  // triton.language qualifies types.
  ASSERT_EQ(module->functions.size(), 1u);
  EXPECT_EQ(module->functions[0]->decorators[0].name, "triton.jit");
  EXPECT_FALSE(module->functions[0]->parseError);
  EXPECT_PARSE_ERROR("from triton.language import\n", 1, 28,
                     "expected a name to import");
  EXPECT_PARSE_ERROR("import triton.language as\n", 1, 26,
                     "expected a name after 'as'");
  EXPECT_PARSE_ERROR("from triton import language as tl x\n", 1, 35,
                     "expected the end of the import line, found "
                     "identifier 'x'");
}

TEST(ParserTest, IsAndIsNot) {
  EXPECT_EQ(expr("a is None"), "(a is None)");
  EXPECT_EQ(expr("a is not None"), "(a is not None)");
}

TEST(ParserTest, AnnotatedAssignment) {
  std::string text = dump("def f():\n    B: tl.constexpr = 4\n");
  EXPECT_NE(text.find("annotation"), std::string::npos) << text;
  EXPECT_NE(text.find("Target 'B'"), std::string::npos) << text;
}
