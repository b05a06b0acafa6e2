//===- ASTPrinter.h - readable dumps of the AST -----------------*- C++ -*-===//
//
// `tkc --emit=ast` output: one node per line, indented by depth, each with
// its line:col, e.g.
//
//   FunctionDef 'softmax' <2:5>
//     Decorator 'kernel' <1:2>
//     Param 'out_ptr' : *f32 <2:13>
//     Body
//       Assign <3:5>
//         Target 'row' <3:5>
//         Call <3:11>
//           Name 'program_id' <3:11>
//           IntLit 0 <3:22>
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_ASTPRINTER_H
#define TK_COMPILER_FRONTEND_ASTPRINTER_H

#include "compiler/frontend/AST.h"

#include <iosfwd>
#include <string>

namespace tk {

void printAST(const ast::Module &module, std::ostream &os);
void printAST(const ast::FunctionDef &function, std::ostream &os,
              unsigned indent = 0);
void printAST(const ast::Stmt &stmt, std::ostream &os, unsigned indent = 0);
void printAST(const ast::Expr &expr, std::ostream &os, unsigned indent = 0);

/// A one-line, source-like rendering of an expression with every compound
/// subexpression parenthesized, e.g. `-x**2 + y` -> "((-(x ** 2)) + y)".
/// Used by tests to check precedence and by diagnostics to quote code.
std::string exprToString(const ast::Expr &expr);

} // namespace tk

#endif // TK_COMPILER_FRONTEND_ASTPRINTER_H
