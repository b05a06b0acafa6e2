//===- ParserImpl.h - the recursive-descent parser's state ------*- C++ -*-===//
//
// Internal to the frontend. One Parser object parses one SourceFile; its
// methods are spread over
//   Parser.cpp      module, imports, functions, decorators, parameters and
//                   types, statements, and the entry points of Parser.h
//   ParserExpr.cpp  expressions: precedence climbing, unary and power,
//                   postfix (calls, subscripts, attributes), atoms and
//                   literals (tuples, lists, dicts), node heights
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_PARSERIMPL_H
#define TK_COMPILER_FRONTEND_PARSERIMPL_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/Lexer.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tk::parser {

using namespace ast;

/// Recursion deeper than this while parsing one expression is an error.
constexpr unsigned kMaxParseDepth = 256;
/// `**...*T` with more stars than this is an error.
constexpr unsigned kMaxPointerDepth = 8;

/// Parses one SourceFile. Throws CompileError at the first error (except
/// where parseModule recovers at the next `def`).
class Parser {
public:
  explicit Parser(const SourceFile &file)
      : file(file), tokens(tokenize(file)) {}

  std::unique_ptr<Module> parseModule();
  ExprPtr parseStandaloneExpression();

private:
  //===--------------------------------------------------------------------===//
  // Token access
  //===--------------------------------------------------------------------===//

  const Token &tok() const { return tokens[index]; }
  const Token &peekToken(size_t ahead = 1) const {
    return tokens[std::min(index + ahead, tokens.size() - 1)];
  }
  bool at(TokenKind kind) const { return tok().kind == kind; }
  const Token &consume() {
    const Token &token = tokens[index];
    if (index + 1 < tokens.size())
      ++index;
    return token;
  }
  bool consumeIf(TokenKind kind) {
    if (!at(kind))
      return false;
    consume();
    return true;
  }
  /// Consumes a token of `kind` or reports `message` at the current token.
  const Token &expect(TokenKind kind, const std::string &message) {
    if (!at(kind))
      errorAtToken(message);
    return consume();
  }

  [[noreturn]] void error(SourceLoc loc, std::string message) const {
    throw CompileError(loc, std::move(message));
  }
  /// Reports at the current token (Newline and EndOfFile tokens sit right
  /// after the last token of the line, where the missing thing belongs).
  [[noreturn]] void errorAtToken(std::string message) const {
    error(tok().loc, std::move(message));
  }
  /// "expected X, found Y" at the current token.
  [[noreturn]] void errorExpected(const std::string &what) const {
    if (at(TokenKind::Newline) || at(TokenKind::EndOfFile))
      errorAtToken("expected " + what);
    errorAtToken("expected " + what + ", found " + describeToken(tok()));
  }

  //===--------------------------------------------------------------------===//
  // Nesting limits
  //===--------------------------------------------------------------------===//

  /// Bounds the parser's own recursion on nested expressions.
  class DepthGuard {
  public:
    DepthGuard(Parser &parser, SourceLoc loc) : parser(parser) {
      if (++parser.exprDepth > kMaxParseDepth)
        parser.error(loc, "expression is too deeply nested");
    }
    ~DepthGuard() { --parser.exprDepth; }

  private:
    Parser &parser;
  };

  /// Bounds the nesting of statements (blocks and elif chains).
  class StmtDepthGuard {
  public:
    StmtDepthGuard(Parser &parser, SourceLoc loc) : parser(parser) {
      if (++parser.stmtDepth > kMaxStmtDepth)
        parser.error(loc, "statements are nested too deeply");
    }
    ~StmtDepthGuard() { --parser.stmtDepth; }

  private:
    Parser &parser;
  };

  /// Computes the height of a freshly built node from its children and
  /// rejects trees higher than kMaxExprHeight, so that walking (and
  /// destroying) the tree recursively is always safe.
  ExprPtr finish(ExprPtr expr);

  //===--------------------------------------------------------------------===//
  // Grammar
  //===--------------------------------------------------------------------===//

  std::unique_ptr<FunctionDef> parseFunctionDef();
  std::unique_ptr<FunctionDef> parseFunctionDefOrRecover();
  void parseImport(Module &module);
  std::string parseModulePath(SourceLoc &loc);
  /// Names that may qualify a type (`tl.float32`): tl, tk, and names an
  /// import bound to triton.language.
  std::vector<std::string> typeQualifiers = {"tl", "tk"};
  /// Name -> path of the import lines so far, for decorators (`@tr.jit`
  /// after `import triton as tr` is `@triton.jit`).
  std::vector<std::pair<std::string, std::string>> importedPaths;
  Decorator parseDecorator();
  Param parseParam();
  std::unique_ptr<TypeExpr> parseType();
  /// Every Named type in `function`'s signature must name one of its
  /// constexpr parameters.
  void checkNamedTypes(const FunctionDef &function);
  std::string parseDottedName(SourceLoc &loc);

  StmtList parseBlock(const std::string &context);
  void parseStatement(StmtList &out);
  void parseSimpleStatements(StmtList &out);
  StmtPtr parseSmallStatement();
  StmtPtr parseIf(bool isElif);
  StmtPtr parseFor();
  StmtPtr parseWhile();
  StmtPtr parseAssignmentOrExpr();
  std::vector<Identifier> checkAssignTarget(const Expr &target,
                                            bool &isTuple);
  void rejectUnsupportedStatement();

  bool startsExpression(const Token &token) const;
  ExprPtr parseExprList(); // a, b, c  -> Tuple (or the single expression)
  ExprPtr parseExpr();     // conditional expression level
  ExprPtr parseLambda(); // lambda a, b: body
  ExprPtr parseOr();
  ExprPtr parseAnd();
  ExprPtr parseNot();
  ExprPtr parseComparison();
  ExprPtr parseBitOr();
  ExprPtr parseBitXor();
  ExprPtr parseBitAnd();
  ExprPtr parseShift();
  ExprPtr parseArith();
  ExprPtr parseTerm();
  ExprPtr parseUnary();
  ExprPtr parsePower();
  ExprPtr parsePrimary();
  ExprPtr parseAtom();
  ExprPtr parseParenthesized();
  ExprPtr parseList();
  ExprPtr parseDict();
  ExprPtr parseSubscriptIndex();
  void parseArguments(std::vector<ExprPtr> &args,
                      std::vector<KeywordArg> &keywords);
  void rejectComprehension() const;
  ExprPtr makeBinary(ExprPtr lhs, BinaryOpKind op, SourceLoc opLoc,
                     ExprPtr rhs);

  const SourceFile &file;
  std::vector<Token> tokens;
  size_t index = 0;
  unsigned exprDepth = 0;
  unsigned stmtDepth = 0;
  unsigned loopDepth = 0;
};

} // namespace tk::parser

#endif // TK_COMPILER_FRONTEND_PARSERIMPL_H
