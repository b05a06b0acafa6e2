//===- Parser.cpp - .tk source to AST -------------------------------------===//
//
// Recursive descent over the token vector produced by the lexer, following
// Python's grammar and operator precedence (lowest to highest):
//
//   a if c else b
//   or
//   and
//   not
//   < > <= >= == !=          (not chained)
//   |
//   ^
//   &
//   << >>
//   + -
//   * / // % @
//   unary + - ~
//   **                        (right-assoc; -x**2 == -(x**2), 2**-1 ok)
//   calls, subscripts, attributes
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Parser.h"

#include "compiler/frontend/Lexer.h"

#include <algorithm>

namespace tk {

using namespace ast;

namespace {

/// Recursion deeper than this while parsing one expression is an error.
constexpr unsigned kMaxParseDepth = 256;
/// `**...*T` with more stars than this is an error.
constexpr unsigned kMaxPointerDepth = 8;

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
  void skipImport();
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

} // namespace

//===----------------------------------------------------------------------===//
// Heights
//===----------------------------------------------------------------------===//

static unsigned heightOf(const ExprPtr &expr) { return expr ? expr->height : 0; }

ExprPtr Parser::finish(ExprPtr expr) {
  unsigned childHeight = 0;
  auto visit = [&](const ExprPtr &child) {
    childHeight = std::max(childHeight, heightOf(child));
  };
  switch (expr->kind) {
  case ExprKind::Name:
  case ExprKind::IntLit:
  case ExprKind::FloatLit:
  case ExprKind::BoolLit:
  case ExprKind::NoneLit:
  case ExprKind::StringLit:
    break;
  case ExprKind::Unary:
    visit(expr->as<UnaryExpr>().operand);
    break;
  case ExprKind::Binary:
    visit(expr->as<BinaryExpr>().lhs);
    visit(expr->as<BinaryExpr>().rhs);
    break;
  case ExprKind::Conditional: {
    auto &cond = expr->as<ConditionalExpr>();
    visit(cond.cond);
    visit(cond.thenValue);
    visit(cond.elseValue);
    break;
  }
  case ExprKind::Call: {
    auto &call = expr->as<CallExpr>();
    visit(call.callee);
    for (const ExprPtr &arg : call.args)
      visit(arg);
    for (const KeywordArg &keyword : call.keywords)
      visit(keyword.value);
    break;
  }
  case ExprKind::Attribute:
    visit(expr->as<AttributeExpr>().value);
    break;
  case ExprKind::Subscript: {
    auto &subscript = expr->as<SubscriptExpr>();
    visit(subscript.value);
    for (const ExprPtr &indexExpr : subscript.indices)
      visit(indexExpr);
    break;
  }
  case ExprKind::Slice: {
    auto &slice = expr->as<SliceExpr>();
    visit(slice.lower);
    visit(slice.upper);
    visit(slice.step);
    break;
  }
  case ExprKind::Tuple:
    for (const ExprPtr &element : expr->as<TupleExpr>().elements)
      visit(element);
    break;
  case ExprKind::List:
    for (const ExprPtr &element : expr->as<ListExpr>().elements)
      visit(element);
    break;
  }
  expr->height = childHeight + 1;
  if (expr->height > kMaxExprHeight)
    error(expr->loc, "expression is too deeply nested or too long");
  return expr;
}

//===----------------------------------------------------------------------===//
// Module, functions, types
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>();
  module->file = &file;
  while (!at(TokenKind::EndOfFile)) {
    switch (tok().kind) {
    case TokenKind::Newline:
      consume();
      break;
    case TokenKind::At:
    case TokenKind::KwDef:
      module->functions.push_back(parseFunctionDefOrRecover());
      break;
    case TokenKind::Indent:
      errorAtToken("unexpected indent");
    case TokenKind::KwReturn:
      errorAtToken("'return' outside function");
    case TokenKind::KwBreak:
    case TokenKind::KwContinue:
      errorAtToken("'" + std::string(tok().spelling) + "' outside loop");
    default:
      if (at(TokenKind::Identifier) &&
          (tok().spelling == "import" || tok().spelling == "from")) {
        skipImport();
        break;
      }
      errorAtToken("only 'def' is allowed at top level");
    }
  }
  return module;
}

void Parser::skipImport() {
  // `import triton`, `import triton.language as tl`, `from triton import
  // language as tl`, `from triton.language.extra import libdevice`, ...:
  // Triton files start with these; the names they bind (tl, triton,
  // libdevice) are tk's builtin namespaces, so the line is accepted and
  // ignored. Any other module is an error.
  consume();
  SourceLoc loc = tok().loc;
  std::string module(
      expect(TokenKind::Identifier, "expected a module name").spelling);
  while (consumeIf(TokenKind::Dot))
    module += "." + std::string(expect(TokenKind::Identifier,
                                       "expected a name after '.'")
                                    .spelling);
  if (module != "triton" && module.rfind("triton.", 0) != 0)
    error(loc, "cannot import '" + module + "': only triton modules may be "
               "imported (the import is ignored; tk needs none)");
  // The rest of the line names what is imported and aliases: any names,
  // dots, commas, `as`, `*` and parentheses.
  while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile)) {
    if (!at(TokenKind::Identifier) && !at(TokenKind::Dot) &&
        !at(TokenKind::Comma) && !at(TokenKind::Star) &&
        !at(TokenKind::LParen) && !at(TokenKind::RParen))
      errorExpected("a name in the import");
    consume();
  }
  consumeIf(TokenKind::Newline);
}

std::unique_ptr<FunctionDef> Parser::parseFunctionDefOrRecover() {
  size_t start = index;
  try {
    return parseFunctionDef();
  } catch (CompileError &error) {
    // Keep what identifies the function (decorators, name), then skip to
    // the next `@` or `def` at the start of a line: the other functions of
    // the file are still usable.
    size_t errorIndex = index;
    auto broken = std::make_unique<FunctionDef>();
    broken->parseError = std::make_shared<CompileError>(std::move(error));
    index = start;
    try {
      while (at(TokenKind::At))
        broken->decorators.push_back(parseDecorator());
    } catch (CompileError &) {
      broken->decorators.clear();
    }
    for (size_t i = start; i < tokens.size(); ++i) {
      if (tokens[i].kind == TokenKind::KwDef) {
        if (i + 1 < tokens.size() &&
            tokens[i + 1].kind == TokenKind::Identifier) {
          broken->name = std::string(tokens[i + 1].spelling);
          broken->loc = tokens[i + 1].loc;
          broken->defLoc = tokens[i].loc;
        }
        break;
      }
    }
    index = std::max(errorIndex, start + 1);
    while (!at(TokenKind::EndOfFile) &&
           !((at(TokenKind::At) || at(TokenKind::KwDef)) &&
             tok().loc.col == 1))
      consume();
    return broken;
  }
}

std::string Parser::parseDottedName(SourceLoc &loc) {
  const Token &first =
      expect(TokenKind::Identifier, "expected a decorator name after '@'");
  loc = first.loc;
  std::string name(first.spelling);
  while (consumeIf(TokenKind::Dot)) {
    const Token &part =
        expect(TokenKind::Identifier, "expected a name after '.'");
    name += ".";
    name += part.spelling;
  }
  return name;
}

Decorator Parser::parseDecorator() {
  expect(TokenKind::At, "expected '@'");
  Decorator decorator;
  decorator.name = parseDottedName(decorator.loc);
  if (at(TokenKind::LParen)) {
    consume();
    decorator.hasParens = true;
    parseArguments(decorator.args, decorator.keywords);
  }
  if (!at(TokenKind::Newline))
    errorExpected("end of line after decorator");
  consume();
  return decorator;
}

std::unique_ptr<FunctionDef> Parser::parseFunctionDef() {
  auto function = std::make_unique<FunctionDef>();
  while (at(TokenKind::At))
    function->decorators.push_back(parseDecorator());
  if (at(TokenKind::Indent))
    errorAtToken("unexpected indent");
  if (!at(TokenKind::KwDef))
    errorExpected(function->decorators.empty()
                      ? "'def'"
                      : "'def' after decorator");
  function->defLoc = consume().loc;
  if (!at(TokenKind::Identifier))
    errorExpected("function name after 'def'");
  const Token &nameToken = consume();
  function->name = std::string(nameToken.spelling);
  function->loc = nameToken.loc;

  expect(TokenKind::LParen, "expected '(' after function name");
  bool sawDefault = false;
  while (!at(TokenKind::RParen)) {
    Param param = parseParam();
    for (const Param &other : function->params) {
      if (other.name == param.name) {
        CompileError err(param.loc,
                         "duplicate parameter '" + param.name + "'");
        err.addNote(other.loc, "previous parameter is here");
        throw err;
      }
    }
    if (param.defaultValue)
      sawDefault = true;
    else if (sawDefault)
      error(param.loc, "parameter without a default value follows a "
                       "parameter with a default value");
    function->params.push_back(std::move(param));
    if (!consumeIf(TokenKind::Comma) && !at(TokenKind::RParen))
      errorExpected("',' or ')' in parameter list");
  }
  consume(); // ')'

  if (consumeIf(TokenKind::Arrow))
    function->returnType = parseType();
  checkNamedTypes(*function);
  if (!at(TokenKind::Colon))
    errorExpected("':' after function signature");
  consume();

  loopDepth = 0;
  function->body = parseBlock("function definition");

  // A leading string literal is a docstring, not code.
  if (auto *exprStmt = function->body.front()->getAs<ExprStmt>()) {
    if (auto *str = exprStmt->value->getAs<StringLitExpr>()) {
      function->docstring = str->value;
      SourceLoc loc = exprStmt->loc;
      function->body.erase(function->body.begin());
      if (function->body.empty())
        function->body.push_back(std::make_unique<PassStmt>(loc));
    }
  }
  return function;
}

void Parser::checkNamedTypes(const FunctionDef &function) {
  std::vector<std::string_view> constexprNames;
  for (const Param &param : function.params)
    if (param.type && param.type->kind == TypeExpr::Kind::Constexpr)
      constexprNames.push_back(param.name);
  auto check = [&](const TypeExpr *annotation) {
    const TypeExpr *named = annotation ? annotation->findNamed() : nullptr;
    if (!named)
      return;
    if (std::find(constexprNames.begin(), constexprNames.end(),
                  named->name) != constexprNames.end())
      return;
    for (const Param &param : function.params)
      if (param.name == named->name)
        error(named->loc, "'" + named->name +
                              "' names a type only as a constexpr "
                              "parameter; declare it '" + named->name +
                              ": constexpr' and pass a dtype (-D " +
                              named->name + "=bf16)");
    std::vector<std::string_view> candidates = getAllScalarTypeNames();
    candidates.push_back("constexpr");
    candidates.insert(candidates.end(), constexprNames.begin(),
                      constexprNames.end());
    error(named->loc, "unknown type '" + named->name + "'" +
                          didYouMean(named->name, candidates));
  };
  for (const Param &param : function.params)
    check(param.type.get());
  check(function.returnType.get());
}

Param Parser::parseParam() {
  if (at(TokenKind::Star) || at(TokenKind::DoubleStar))
    errorAtToken("variadic parameters ('*args', '**kwargs') are not "
                 "supported");
  if (!at(TokenKind::Identifier))
    errorExpected("parameter name");
  const Token &nameToken = consume();
  Param param;
  param.name = std::string(nameToken.spelling);
  param.loc = nameToken.loc;
  if (consumeIf(TokenKind::Colon))
    param.type = parseType();
  if (consumeIf(TokenKind::Equal)) {
    if (!startsExpression(tok()))
      errorExpected("default value after '='");
    param.defaultValue = parseExpr();
  }
  return param;
}

std::unique_ptr<TypeExpr> Parser::parseType() {
  // Pointers: count the stars first so that the nesting is built with a
  // loop and bounded.
  std::vector<SourceLoc> starLocs;
  while (at(TokenKind::Star) || at(TokenKind::DoubleStar)) {
    starLocs.push_back(tok().loc);
    if (at(TokenKind::DoubleStar)) {
      SourceLoc second = tok().loc;
      ++second.col;
      starLocs.push_back(second);
    }
    consume();
    if (starLocs.size() > kMaxPointerDepth)
      error(starLocs.back(), "too many levels of pointer indirection");
  }

  if (!at(TokenKind::Identifier))
    errorExpected(starLocs.empty() ? "a type" : "a pointee type after '*'");
  const Token *nameToken = &consume();
  SourceLoc typeLoc = nameToken->loc;
  std::string qualifier;
  if (at(TokenKind::Dot)) {
    qualifier = std::string(nameToken->spelling);
    if (qualifier != "tl" && qualifier != "tk")
      error(nameToken->loc, "unknown type qualifier '" + qualifier +
                                "'; only 'tl.' or 'tk.' may prefix a type");
    consume();
    if (!at(TokenKind::Identifier))
      errorExpected("a type name after '" + qualifier + ".'");
    nameToken = &consume();
  }

  std::string_view name = nameToken->spelling;
  std::unique_ptr<TypeExpr> type;
  if (name == "constexpr") {
    if (!starLocs.empty())
      error(nameToken->loc, "'constexpr' cannot be a pointee type");
    type = std::make_unique<TypeExpr>(TypeExpr::Kind::Constexpr, typeLoc);
  } else if (std::optional<ScalarType> scalar = parseScalarTypeName(name)) {
    type = std::make_unique<TypeExpr>(TypeExpr::Kind::Scalar, typeLoc);
    type->scalar = *scalar;
  } else {
    // Triton spells dtypes out (tl.float32); suggest ours.
    static const std::pair<std::string_view, std::string_view> aliases[] = {
        {"float16", "f16"},  {"float32", "f32"},  {"float64", "f64"},
        {"bfloat16", "bf16"}, {"int1", "i1"},     {"int8", "i8"},
        {"int16", "i16"},    {"int32", "i32"},    {"int64", "i64"},
        {"uint8", "u8"},     {"uint16", "u16"},   {"uint32", "u32"},
        {"uint64", "u64"},   {"bool", "i1"},      {"float", "f32"},
        {"int", "i32"},      {"half", "f16"},     {"double", "f64"}};
    for (const auto &[alias, ours] : aliases)
      if (name == alias)
        error(nameToken->loc, "unknown type '" + std::string(name) +
                                  "'; did you mean '" + std::string(ours) +
                                  "'?");
    // Perhaps a dtype-valued constexpr parameter: checkNamedTypes decides
    // once the parameter list is read.
    if (!qualifier.empty())
      error(nameToken->loc, "unknown type '" + qualifier + "." +
                                std::string(name) + "'" +
                                didYouMean(name, getAllScalarTypeNames()));
    type = std::make_unique<TypeExpr>(TypeExpr::Kind::Named, typeLoc);
    type->name = std::string(name);
  }
  type->qualifier = qualifier;

  for (auto it = starLocs.rbegin(); it != starLocs.rend(); ++it) {
    auto pointer = std::make_unique<TypeExpr>(TypeExpr::Kind::Pointer, *it);
    pointer->pointee = std::move(type);
    type = std::move(pointer);
  }
  return type;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

StmtList Parser::parseBlock(const std::string &context) {
  StmtDepthGuard guard(*this, tok().loc);
  StmtList body;
  if (!at(TokenKind::Newline)) {
    // `if x: return y` -- simple statements on the same line.
    switch (tok().kind) {
    case TokenKind::KwIf:
    case TokenKind::KwFor:
    case TokenKind::KwWhile:
    case TokenKind::KwDef:
    case TokenKind::At:
      errorAtToken("a compound statement cannot follow ':' on the same "
                   "line; start a new, indented line");
    default:
      break;
    }
    parseSimpleStatements(body);
    return body;
  }
  consume(); // Newline
  if (!at(TokenKind::Indent))
    errorAtToken("expected an indented block after " + context);
  consume();
  // An indented line holding only a line continuation yields INDENT DEDENT
  // with no statement between: still a missing block.
  if (at(TokenKind::Dedent) || at(TokenKind::EndOfFile))
    errorAtToken("expected an indented block after " + context);
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile))
    parseStatement(body);
  consume(); // Dedent
  return body;
}

void Parser::parseStatement(StmtList &out) {
  switch (tok().kind) {
  case TokenKind::KwIf:
    out.push_back(parseIf(/*isElif=*/false));
    return;
  case TokenKind::KwFor:
    out.push_back(parseFor());
    return;
  case TokenKind::KwWhile:
    out.push_back(parseWhile());
    return;
  case TokenKind::KwDef:
    errorAtToken("nested functions are not supported; define helper "
                 "functions at top level");
  case TokenKind::At:
    errorAtToken("decorators are only allowed on top-level functions");
  case TokenKind::Indent:
    errorAtToken("unexpected indent");
  case TokenKind::KwElif:
    errorAtToken("'elif' without a matching 'if'");
  case TokenKind::KwElse:
    errorAtToken("'else' without a matching 'if'");
  default:
    parseSimpleStatements(out);
    return;
  }
}

void Parser::parseSimpleStatements(StmtList &out) {
  out.push_back(parseSmallStatement());
  while (consumeIf(TokenKind::Semicolon)) {
    if (at(TokenKind::Newline))
      break;
    out.push_back(parseSmallStatement());
  }
  if (!at(TokenKind::Newline))
    errorExpected("end of line after statement");
  consume();
}

void Parser::rejectUnsupportedStatement() {
  if (!at(TokenKind::Identifier))
    return;
  // Python statement keywords that tk does not have. They are ordinary
  // identifiers to the lexer, so only complain when the next token could
  // not follow a variable name.
  switch (peekToken().kind) {
  case TokenKind::Identifier:
  case TokenKind::IntLiteral:
  case TokenKind::FloatLiteral:
  case TokenKind::StringLiteral:
  case TokenKind::KwNot:
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
  case TokenKind::KwNone:
  case TokenKind::Colon:
    break;
  default:
    return;
  }
  std::string_view word = tok().spelling;
  if (word == "assert")
    errorAtToken("'assert' is not supported; use static_assert(cond, "
                 "\"message\") or device_assert(cond, \"message\")");
  static const std::string_view unsupported[] = {
      "import", "from",   "class", "with",  "try",      "except",
      "finally", "raise", "del",   "global", "nonlocal", "yield",
      "lambda", "async",  "await", "print", "exec"};
  for (std::string_view keyword : unsupported) {
    if (word != keyword)
      continue;
    if (word == "print")
      errorAtToken("'print' statements are not supported; use "
                   "device_print(\"message\", value)");
    errorAtToken("'" + std::string(word) +
                 "' statements are not supported in tk");
  }
}

StmtPtr Parser::parseSmallStatement() {
  SourceLoc loc = tok().loc;
  switch (tok().kind) {
  case TokenKind::KwReturn: {
    consume();
    ExprPtr value;
    if (startsExpression(tok()))
      value = parseExprList();
    return std::make_unique<ReturnStmt>(loc, std::move(value));
  }
  case TokenKind::KwPass:
    consume();
    return std::make_unique<PassStmt>(loc);
  case TokenKind::KwBreak:
    if (loopDepth == 0)
      errorAtToken("'break' outside loop");
    consume();
    return std::make_unique<BreakStmt>(loc);
  case TokenKind::KwContinue:
    if (loopDepth == 0)
      errorAtToken("'continue' outside loop");
    consume();
    return std::make_unique<ContinueStmt>(loc);
  case TokenKind::KwIf:
  case TokenKind::KwFor:
  case TokenKind::KwWhile:
  case TokenKind::KwDef:
    errorAtToken("a compound statement cannot follow ';'; start a new line");
  default:
    rejectUnsupportedStatement();
    return parseAssignmentOrExpr();
  }
}

static std::optional<BinaryOpKind> getAugAssignOp(TokenKind kind) {
  switch (kind) {
  case TokenKind::PlusEqual: return BinaryOpKind::Add;
  case TokenKind::MinusEqual: return BinaryOpKind::Sub;
  case TokenKind::StarEqual: return BinaryOpKind::Mul;
  case TokenKind::SlashEqual: return BinaryOpKind::Div;
  case TokenKind::DoubleSlashEqual: return BinaryOpKind::FloorDiv;
  case TokenKind::PercentEqual: return BinaryOpKind::Mod;
  case TokenKind::DoubleStarEqual: return BinaryOpKind::Pow;
  case TokenKind::AmpEqual: return BinaryOpKind::BitAnd;
  case TokenKind::PipeEqual: return BinaryOpKind::BitOr;
  case TokenKind::CaretEqual: return BinaryOpKind::BitXor;
  case TokenKind::LessLessEqual: return BinaryOpKind::LShift;
  case TokenKind::GreaterGreaterEqual: return BinaryOpKind::RShift;
  case TokenKind::AtEqual: return BinaryOpKind::MatMul;
  default: return std::nullopt;
  }
}

/// Why `target` cannot be assigned to, for messages.
static std::string describeBadTarget(const Expr &target) {
  switch (target.kind) {
  case ExprKind::Subscript:
    return "cannot assign to a subscript: tk tensors are immutable values "
           "(compute a new tensor instead, e.g. with where())";
  case ExprKind::Attribute:
    return "cannot assign to an attribute";
  case ExprKind::Call:
    return "cannot assign to a function call";
  case ExprKind::IntLit:
  case ExprKind::FloatLit:
  case ExprKind::StringLit:
    return "cannot assign to a literal";
  case ExprKind::BoolLit:
    return target.as<BoolLitExpr>().value ? "cannot assign to True"
                                          : "cannot assign to False";
  case ExprKind::NoneLit:
    return "cannot assign to None";
  case ExprKind::List:
    return "cannot assign to a list; use a tuple of names: 'a, b = ...'";
  case ExprKind::Tuple:
    return "cannot assign to a nested tuple; only names may be assigned";
  default:
    return "cannot assign to an expression; only names (or a tuple of "
           "names) may be assigned";
  }
}

std::vector<Identifier> Parser::checkAssignTarget(const Expr &target,
                                                  bool &isTuple) {
  std::vector<Identifier> names;
  isTuple = false;
  if (auto *name = target.getAs<NameExpr>()) {
    names.push_back({name->name, name->loc});
    return names;
  }
  if (auto *tuple = target.getAs<TupleExpr>()) {
    if (tuple->elements.empty())
      error(tuple->loc, "cannot assign to ()");
    isTuple = true;
    for (const ExprPtr &element : tuple->elements) {
      auto *name = element->getAs<NameExpr>();
      if (!name)
        error(element->loc, describeBadTarget(*element));
      names.push_back({name->name, name->loc});
    }
    return names;
  }
  error(target.loc, describeBadTarget(target));
}

StmtPtr Parser::parseAssignmentOrExpr() {
  SourceLoc loc = tok().loc;
  if (!startsExpression(tok()))
    errorExpected("a statement");
  ExprPtr lhs = parseExprList();

  if (at(TokenKind::Equal)) {
    SourceLoc eqLoc = consume().loc;
    auto assign = std::make_unique<AssignStmt>(loc, eqLoc);
    assign->targets = checkAssignTarget(*lhs, assign->isTupleTarget);
    if (!startsExpression(tok()))
      errorExpected("expression after '='");
    assign->value = parseExprList();
    if (at(TokenKind::Equal))
      errorAtToken("chained assignment ('a = b = value') is not supported");
    if (getAugAssignOp(tok().kind))
      errorAtToken("unexpected " + describeToken(tok()) +
                   " after assignment");
    return assign;
  }

  if (std::optional<BinaryOpKind> op = getAugAssignOp(tok().kind)) {
    SourceLoc opLoc = tok().loc;
    std::string opSpelling(tok().spelling);
    auto *name = lhs->getAs<NameExpr>();
    if (!name) {
      if (lhs->is<TupleExpr>())
        error(lhs->loc, "'" + opSpelling + "' cannot assign to a tuple");
      error(lhs->loc, describeBadTarget(*lhs));
    }
    consume();
    if (!startsExpression(tok()))
      errorExpected("expression after '" + opSpelling + "'");
    ExprPtr value = parseExprList();
    return std::make_unique<AugAssignStmt>(loc, Identifier{name->name,
                                                           name->loc},
                                           *op, opLoc, std::move(value));
  }

  if (at(TokenKind::Colon)) {
    // `x: tl.constexpr = 2`, `y: tl.int32 = ...` (IRGenStmt.cpp).
    auto *name = lhs->getAs<NameExpr>();
    if (!name)
      errorAtToken(lhs->is<TupleExpr>()
                       ? "only a single name can be annotated"
                       : "unexpected ':'");
    consume();
    if (!startsExpression(tok()))
      errorExpected("a type after ':'");
    ExprPtr annotation = parseExpr();
    if (!at(TokenKind::Equal))
      errorExpected("'=' and a value after the annotation of '" +
                    name->name + "' (a declaration without a value is not "
                    "supported)");
    SourceLoc eqLoc = consume().loc;
    auto assign = std::make_unique<AssignStmt>(loc, eqLoc);
    bool isTuple = false;
    assign->targets = checkAssignTarget(*lhs, isTuple);
    assign->annotation = std::move(annotation);
    if (!startsExpression(tok()))
      errorExpected("expression after '='");
    assign->value = parseExprList();
    if (at(TokenKind::Equal))
      errorAtToken("chained assignment ('a = b = value') is not supported");
    return assign;
  }
  return std::make_unique<ExprStmt>(loc, std::move(lhs));
}

StmtPtr Parser::parseIf(bool isElif) {
  const char *keyword = isElif ? "'elif'" : "'if'";
  SourceLoc loc = consume().loc;
  if (!startsExpression(tok()))
    errorExpected(std::string("condition after ") + keyword);
  ExprPtr cond = parseExpr();
  if (!at(TokenKind::Colon))
    errorExpected(std::string("':' after ") + keyword + " condition");
  consume();
  auto stmt = std::make_unique<IfStmt>(loc, std::move(cond));
  stmt->isElif = isElif;
  stmt->thenBody = parseBlock(std::string(keyword) + " statement on line " +
                              std::to_string(loc.line));
  if (at(TokenKind::KwElif)) {
    // elif chains nest in the tree; bound them like blocks.
    StmtDepthGuard guard(*this, tok().loc);
    stmt->elseBody.push_back(parseIf(/*isElif=*/true));
  } else if (at(TokenKind::KwElse)) {
    SourceLoc elseLoc = consume().loc;
    if (!at(TokenKind::Colon))
      errorExpected("':' after 'else'");
    consume();
    stmt->elseBody = parseBlock("'else' statement on line " +
                                std::to_string(elseLoc.line));
  }
  return stmt;
}

StmtPtr Parser::parseFor() {
  SourceLoc loc = consume().loc;
  if (!at(TokenKind::Identifier))
    errorExpected("a loop variable name after 'for'");
  const Token &targetToken = consume();
  Identifier target{std::string(targetToken.spelling), targetToken.loc};
  if (at(TokenKind::Comma))
    errorAtToken("the target of a 'for' loop must be a single name");
  if (!at(TokenKind::KwIn))
    errorExpected("'in' after the loop variable");
  consume();
  if (!startsExpression(tok()))
    errorExpected("an iterable after 'in', such as range(...)");
  ExprPtr iter = parseExpr();
  if (!at(TokenKind::Colon))
    errorExpected("':' after 'for' loop header");
  consume();
  auto stmt = std::make_unique<ForStmt>(loc, std::move(target),
                                        std::move(iter));
  ++loopDepth;
  stmt->body = parseBlock("'for' statement on line " +
                          std::to_string(loc.line));
  --loopDepth;
  if (at(TokenKind::KwElse))
    errorAtToken("'else' after a 'for' loop is not supported");
  return stmt;
}

StmtPtr Parser::parseWhile() {
  SourceLoc loc = consume().loc;
  if (!startsExpression(tok()))
    errorExpected("condition after 'while'");
  ExprPtr cond = parseExpr();
  if (!at(TokenKind::Colon))
    errorExpected("':' after 'while' condition");
  consume();
  auto stmt = std::make_unique<WhileStmt>(loc, std::move(cond));
  ++loopDepth;
  stmt->body = parseBlock("'while' statement on line " +
                          std::to_string(loc.line));
  --loopDepth;
  if (at(TokenKind::KwElse))
    errorAtToken("'else' after a 'while' loop is not supported");
  return stmt;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

bool Parser::startsExpression(const Token &token) const {
  switch (token.kind) {
  case TokenKind::Identifier:
  case TokenKind::IntLiteral:
  case TokenKind::FloatLiteral:
  case TokenKind::StringLiteral:
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
  case TokenKind::KwNone:
  case TokenKind::KwNot:
  case TokenKind::Plus:
  case TokenKind::Minus:
  case TokenKind::Tilde:
  case TokenKind::LParen:
  case TokenKind::LBracket:
  case TokenKind::LBrace:
    return true;
  default:
    return false;
  }
}

ExprPtr Parser::parseExprList() {
  ExprPtr first = parseExpr();
  if (!at(TokenKind::Comma))
    return first;
  auto tuple = std::make_unique<TupleExpr>(first->loc);
  tuple->elements.push_back(std::move(first));
  while (consumeIf(TokenKind::Comma)) {
    if (!startsExpression(tok()))
      break; // trailing comma
    tuple->elements.push_back(parseExpr());
  }
  return finish(std::move(tuple));
}

ExprPtr Parser::makeBinary(ExprPtr lhs, BinaryOpKind op, SourceLoc opLoc,
                           ExprPtr rhs) {
  SourceLoc loc = lhs->loc;
  return finish(std::make_unique<BinaryExpr>(loc, op, opLoc, std::move(lhs),
                                             std::move(rhs)));
}

ExprPtr Parser::parseExpr() {
  DepthGuard guard(*this, tok().loc);
  ExprPtr value = parseOr();
  if (!at(TokenKind::KwIf))
    return value;
  SourceLoc ifLoc = consume().loc;
  if (!startsExpression(tok()))
    errorExpected("condition after 'if' in conditional expression");
  ExprPtr cond = parseOr();
  if (!at(TokenKind::KwElse))
    errorExpected("'else' in conditional expression");
  consume();
  if (!startsExpression(tok()))
    errorExpected("expression after 'else'");
  ExprPtr elseValue = parseExpr();
  SourceLoc loc = value->loc;
  return finish(std::make_unique<ConditionalExpr>(
      loc, std::move(cond), std::move(value), std::move(elseValue), ifLoc));
}

ExprPtr Parser::parseOr() {
  ExprPtr lhs = parseAnd();
  while (at(TokenKind::KwOr)) {
    SourceLoc opLoc = consume().loc;
    lhs = makeBinary(std::move(lhs), BinaryOpKind::Or, opLoc, parseAnd());
  }
  return lhs;
}

ExprPtr Parser::parseAnd() {
  ExprPtr lhs = parseNot();
  while (at(TokenKind::KwAnd)) {
    SourceLoc opLoc = consume().loc;
    lhs = makeBinary(std::move(lhs), BinaryOpKind::And, opLoc, parseNot());
  }
  return lhs;
}

ExprPtr Parser::parseNot() {
  if (!at(TokenKind::KwNot))
    return parseComparison();
  DepthGuard guard(*this, tok().loc);
  SourceLoc loc = consume().loc;
  ExprPtr operand = parseNot();
  return finish(
      std::make_unique<UnaryExpr>(loc, UnaryOpKind::Not, std::move(operand)));
}

static std::optional<BinaryOpKind> getComparisonOp(TokenKind kind) {
  switch (kind) {
  case TokenKind::Less: return BinaryOpKind::Lt;
  case TokenKind::Greater: return BinaryOpKind::Gt;
  case TokenKind::LessEqual: return BinaryOpKind::Le;
  case TokenKind::GreaterEqual: return BinaryOpKind::Ge;
  case TokenKind::EqualEqual: return BinaryOpKind::Eq;
  case TokenKind::NotEqual: return BinaryOpKind::Ne;
  default: return std::nullopt;
  }
}

ExprPtr Parser::parseComparison() {
  ExprPtr lhs = parseBitOr();
  auto rejectUnsupported = [&]() {
    if (at(TokenKind::KwIn) ||
        (at(TokenKind::KwNot) && peekToken().is(TokenKind::KwIn)))
      errorAtToken("the 'in' operator is not supported");
  };
  // `is` and `is not` (an identifier to the lexer).
  auto comparisonOp = [&]() -> std::optional<BinaryOpKind> {
    if (at(TokenKind::Identifier) && tok().spelling == "is")
      return peekToken().is(TokenKind::KwNot) ? BinaryOpKind::IsNot
                                              : BinaryOpKind::Is;
    return getComparisonOp(tok().kind);
  };
  rejectUnsupported();
  std::optional<BinaryOpKind> op = comparisonOp();
  if (!op)
    return lhs;
  SourceLoc opLoc = consume().loc;
  if (*op == BinaryOpKind::IsNot)
    consume(); // `not`
  ExprPtr rhs = parseBitOr();
  if (comparisonOp())
    errorAtToken("chained comparisons are not supported; write "
                 "'(a < b) and (b < c)' instead of 'a < b < c'");
  rejectUnsupported();
  return makeBinary(std::move(lhs), *op, opLoc, std::move(rhs));
}

ExprPtr Parser::parseBitOr() {
  ExprPtr lhs = parseBitXor();
  while (at(TokenKind::Pipe)) {
    SourceLoc opLoc = consume().loc;
    lhs = makeBinary(std::move(lhs), BinaryOpKind::BitOr, opLoc,
                     parseBitXor());
  }
  return lhs;
}

ExprPtr Parser::parseBitXor() {
  ExprPtr lhs = parseBitAnd();
  while (at(TokenKind::Caret)) {
    SourceLoc opLoc = consume().loc;
    lhs = makeBinary(std::move(lhs), BinaryOpKind::BitXor, opLoc,
                     parseBitAnd());
  }
  return lhs;
}

ExprPtr Parser::parseBitAnd() {
  ExprPtr lhs = parseShift();
  while (at(TokenKind::Amp)) {
    SourceLoc opLoc = consume().loc;
    lhs = makeBinary(std::move(lhs), BinaryOpKind::BitAnd, opLoc,
                     parseShift());
  }
  return lhs;
}

ExprPtr Parser::parseShift() {
  ExprPtr lhs = parseArith();
  while (at(TokenKind::LessLess) || at(TokenKind::GreaterGreater)) {
    BinaryOpKind op = at(TokenKind::LessLess) ? BinaryOpKind::LShift
                                              : BinaryOpKind::RShift;
    SourceLoc opLoc = consume().loc;
    lhs = makeBinary(std::move(lhs), op, opLoc, parseArith());
  }
  return lhs;
}

ExprPtr Parser::parseArith() {
  ExprPtr lhs = parseTerm();
  while (at(TokenKind::Plus) || at(TokenKind::Minus)) {
    BinaryOpKind op =
        at(TokenKind::Plus) ? BinaryOpKind::Add : BinaryOpKind::Sub;
    SourceLoc opLoc = consume().loc;
    lhs = makeBinary(std::move(lhs), op, opLoc, parseTerm());
  }
  return lhs;
}

ExprPtr Parser::parseTerm() {
  ExprPtr lhs = parseUnary();
  while (true) {
    BinaryOpKind op;
    switch (tok().kind) {
    case TokenKind::Star: op = BinaryOpKind::Mul; break;
    case TokenKind::Slash: op = BinaryOpKind::Div; break;
    case TokenKind::DoubleSlash: op = BinaryOpKind::FloorDiv; break;
    case TokenKind::Percent: op = BinaryOpKind::Mod; break;
    case TokenKind::At: op = BinaryOpKind::MatMul; break;
    default:
      return lhs;
    }
    SourceLoc opLoc = consume().loc;
    lhs = makeBinary(std::move(lhs), op, opLoc, parseUnary());
  }
}

ExprPtr Parser::parseUnary() {
  UnaryOpKind op;
  switch (tok().kind) {
  case TokenKind::Minus: op = UnaryOpKind::Neg; break;
  case TokenKind::Plus: op = UnaryOpKind::Pos; break;
  case TokenKind::Tilde: op = UnaryOpKind::Invert; break;
  default:
    return parsePower();
  }
  DepthGuard guard(*this, tok().loc);
  SourceLoc loc = consume().loc;
  ExprPtr operand = parseUnary();
  return finish(std::make_unique<UnaryExpr>(loc, op, std::move(operand)));
}

ExprPtr Parser::parsePower() {
  ExprPtr base = parsePrimary();
  if (!at(TokenKind::DoubleStar))
    return base;
  DepthGuard guard(*this, tok().loc);
  SourceLoc opLoc = consume().loc;
  // The exponent is a unary-level operand: 2 ** -1, and a ** b ** c
  // groups to the right through parseUnary -> parsePower.
  ExprPtr exponent = parseUnary();
  return makeBinary(std::move(base), BinaryOpKind::Pow, opLoc,
                    std::move(exponent));
}

ExprPtr Parser::parsePrimary() {
  ExprPtr expr = parseAtom();
  while (true) {
    if (at(TokenKind::LParen)) {
      SourceLoc lparenLoc = consume().loc;
      SourceLoc loc = expr->loc;
      auto call = std::make_unique<CallExpr>(loc, std::move(expr), lparenLoc);
      parseArguments(call->args, call->keywords);
      expr = finish(std::move(call));
    } else if (at(TokenKind::LBracket)) {
      SourceLoc lbracketLoc = consume().loc;
      SourceLoc loc = expr->loc;
      auto subscript =
          std::make_unique<SubscriptExpr>(loc, std::move(expr), lbracketLoc);
      if (at(TokenKind::RBracket))
        errorAtToken("expected an index expression inside '[]'");
      while (!at(TokenKind::RBracket)) {
        subscript->indices.push_back(parseSubscriptIndex());
        if (!consumeIf(TokenKind::Comma) && !at(TokenKind::RBracket))
          errorExpected("',' or ']' in subscript");
      }
      consume(); // ']'
      expr = finish(std::move(subscript));
    } else if (at(TokenKind::Dot)) {
      consume();
      if (!at(TokenKind::Identifier))
        errorExpected("an attribute name after '.'");
      const Token &attrToken = consume();
      SourceLoc loc = expr->loc;
      expr = finish(std::make_unique<AttributeExpr>(
          loc, std::move(expr), std::string(attrToken.spelling),
          attrToken.loc));
    } else {
      return expr;
    }
  }
}

ExprPtr Parser::parseSubscriptIndex() {
  SourceLoc loc = tok().loc;
  ExprPtr lower;
  if (!at(TokenKind::Colon)) {
    if (!startsExpression(tok()))
      errorExpected("an index expression");
    lower = parseExpr();
    if (!at(TokenKind::Colon))
      return lower;
  }
  // A slice: [lower] ':' [upper] [':' [step]]
  consume();
  auto slice = std::make_unique<SliceExpr>(loc);
  slice->lower = std::move(lower);
  auto endsPart = [&]() {
    return at(TokenKind::Colon) || at(TokenKind::Comma) ||
           at(TokenKind::RBracket);
  };
  if (!endsPart())
    slice->upper = parseExpr();
  if (consumeIf(TokenKind::Colon)) {
    if (!at(TokenKind::Comma) && !at(TokenKind::RBracket))
      slice->step = parseExpr();
  }
  return finish(std::move(slice));
}

void Parser::rejectComprehension() const {
  if (at(TokenKind::KwFor))
    errorAtToken("comprehensions and generator expressions are not "
                 "supported");
}

void Parser::parseArguments(std::vector<ExprPtr> &args,
                            std::vector<KeywordArg> &keywords) {
  // The '(' has been consumed.
  while (!at(TokenKind::RParen)) {
    if (at(TokenKind::Star) || at(TokenKind::DoubleStar))
      errorAtToken("argument unpacking ('*args', '**kwargs') is not "
                   "supported");
    if (at(TokenKind::Identifier) && peekToken().is(TokenKind::Equal)) {
      const Token &nameToken = consume();
      consume(); // '='
      KeywordArg keyword;
      keyword.name = std::string(nameToken.spelling);
      keyword.loc = nameToken.loc;
      for (const KeywordArg &other : keywords) {
        if (other.name == keyword.name) {
          CompileError err(keyword.loc, "keyword argument '" + keyword.name +
                                            "' repeated");
          err.addNote(other.loc, "previous '" + keyword.name +
                                     "' argument is here");
          throw err;
        }
      }
      if (!startsExpression(tok()))
        errorExpected("a value for keyword argument '" + keyword.name + "'");
      keyword.value = parseExpr();
      keywords.push_back(std::move(keyword));
    } else {
      if (!startsExpression(tok()))
        errorExpected("an argument or ')'");
      if (!keywords.empty())
        errorAtToken("positional argument follows keyword argument");
      args.push_back(parseExpr());
    }
    rejectComprehension();
    if (!consumeIf(TokenKind::Comma) && !at(TokenKind::RParen))
      errorExpected("',' or ')' in argument list");
  }
  consume(); // ')'
}

ExprPtr Parser::parseAtom() {
  const Token &token = tok();
  SourceLoc loc = token.loc;
  switch (token.kind) {
  case TokenKind::Identifier:
    consume();
    return std::make_unique<NameExpr>(loc, std::string(token.spelling));
  case TokenKind::IntLiteral:
    consume();
    return std::make_unique<IntLitExpr>(loc, token.intValue);
  case TokenKind::FloatLiteral:
    consume();
    return std::make_unique<FloatLitExpr>(loc, token.floatValue);
  case TokenKind::StringLiteral: {
    // Adjacent literals concatenate, as in Python: "a" "b" == "ab".
    std::string value;
    while (at(TokenKind::StringLiteral))
      value += consume().stringValue;
    return std::make_unique<StringLitExpr>(loc, std::move(value));
  }
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
    consume();
    return std::make_unique<BoolLitExpr>(loc, token.is(TokenKind::KwTrue));
  case TokenKind::KwNone:
    consume();
    return std::make_unique<NoneLitExpr>(loc);
  case TokenKind::LParen:
    return parseParenthesized();
  case TokenKind::LBracket:
    return parseList();
  case TokenKind::LBrace:
    return parseDict();
  default:
    errorExpected("expression");
  }
}

ExprPtr Parser::parseDict() {
  // Only what triton.Config({"BLOCK": 128, ...}) needs: string keys. The
  // dict is represented as the call dict(BLOCK=128, ...), which @autotune's
  // Config reads (IRGen.cpp); anywhere else it is an unknown function.
  SourceLoc loc = consume().loc; // '{'
  auto call = std::make_unique<CallExpr>(
      loc, std::make_unique<NameExpr>(loc, "dict"), loc);
  while (!at(TokenKind::RBrace)) {
    if (!at(TokenKind::StringLiteral))
      errorAtToken("only dicts with string keys are supported "
                   "({\"BLOCK\": 128, ...}, as in triton.Config)");
    const Token &key = consume();
    std::string name = key.stringValue;
    for (const KeywordArg &other : call->keywords)
      if (other.name == name)
        error(key.loc, "duplicate key '" + name + "'");
    if (!consumeIf(TokenKind::Colon))
      errorExpected("':' after the dict key");
    if (!startsExpression(tok()))
      errorExpected("a value after ':'");
    call->keywords.push_back({name, key.loc, parseExpr()});
    if (!consumeIf(TokenKind::Comma) && !at(TokenKind::RBrace))
      errorExpected("',' or '}' in the dict");
  }
  consume(); // '}'
  return finish(std::move(call));
}

ExprPtr Parser::parseParenthesized() {
  SourceLoc loc = consume().loc; // '('
  if (consumeIf(TokenKind::RParen))
    return finish(std::make_unique<TupleExpr>(loc));
  if (!startsExpression(tok()))
    errorExpected("expression");
  ExprPtr first = parseExpr();
  rejectComprehension();
  if (consumeIf(TokenKind::RParen))
    return first; // just grouping
  if (!at(TokenKind::Comma))
    errorExpected("')'");
  auto tuple = std::make_unique<TupleExpr>(loc);
  tuple->elements.push_back(std::move(first));
  while (consumeIf(TokenKind::Comma)) {
    if (at(TokenKind::RParen))
      break;
    if (!startsExpression(tok()))
      errorExpected("expression or ')'");
    tuple->elements.push_back(parseExpr());
  }
  if (!at(TokenKind::RParen))
    errorExpected("',' or ')' in tuple");
  consume();
  return finish(std::move(tuple));
}

ExprPtr Parser::parseList() {
  SourceLoc loc = consume().loc; // '['
  auto list = std::make_unique<ListExpr>(loc);
  while (!at(TokenKind::RBracket)) {
    if (!startsExpression(tok()))
      errorExpected("expression or ']'");
    list->elements.push_back(parseExpr());
    rejectComprehension();
    if (!consumeIf(TokenKind::Comma) && !at(TokenKind::RBracket))
      errorExpected("',' or ']' in list");
  }
  consume(); // ']'
  return finish(std::move(list));
}

ExprPtr Parser::parseStandaloneExpression() {
  if (!startsExpression(tok()))
    errorExpected("expression");
  ExprPtr expr = parseExprList();
  consumeIf(TokenKind::Newline);
  if (!at(TokenKind::EndOfFile))
    errorExpected("end of expression");
  return expr;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> parseModuleKeepingErrors(const SourceFile &file) {
  Parser parser(file);
  return parser.parseModule();
}

std::unique_ptr<Module> parseModule(const SourceFile &file) {
  std::unique_ptr<Module> module = parseModuleKeepingErrors(file);
  if (const CompileError *error = module->findParseError())
    throw *error;
  return module;
}

ExprPtr parseExpression(const SourceFile &file) {
  Parser parser(file);
  return parser.parseStandaloneExpression();
}

} // namespace tk
