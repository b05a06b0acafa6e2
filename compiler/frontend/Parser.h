//===- Parser.h - .tk source to AST -----------------------------*- C++ -*-===//
//
// A recursive-descent parser for the Python-shaped tk language. It throws
// CompileError (Diagnostics.h) at the first error, with the location of the
// offending token and a message that says what was expected.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_PARSER_H
#define TK_COMPILER_FRONTEND_PARSER_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Diagnostics.h"

#include <memory>

namespace tk {

/// Parses a whole .tk file: a sequence of (decorated) `def`s.
/// The returned Module refers to `file`, which must outlive it.
/// Throws the first error.
std::unique_ptr<ast::Module> parseModule(const SourceFile &file);

/// The same, but a function that does not parse is kept with its error
/// (FunctionDef::parseError) and parsing goes on with the next `def`, so
/// that the file's other kernels still compile. Errors of the lexer (an
/// unclosed bracket, a bad character) are still thrown.
std::unique_ptr<ast::Module> parseModuleKeepingErrors(const SourceFile &file);

/// Parses `file` as one expression (optionally followed by a newline), e.g.
/// the value of a `-D NAME=VALUE` option or a test input. A bare tuple
/// `a, b` is accepted.
ast::ExprPtr parseExpression(const SourceFile &file);

} // namespace tk

#endif // TK_COMPILER_FRONTEND_PARSER_H
