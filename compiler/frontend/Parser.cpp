//===- Parser.cpp - .tk source to AST: module, functions, statements ------===//
//
// Recursive descent over the token vector produced by the lexer, following
// Python's grammar. This file holds the top of the grammar: the module
// (imports and decorated `def`s, with recovery to the next `def`),
// decorators, parameters and type annotations, blocks and statements, and
// the entry points of Parser.h. Expressions are in ParserExpr.cpp; the
// Parser class is declared in ParserImpl.h.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Parser.h"

#include "compiler/frontend/ParserImpl.h"

#include <algorithm>
#include <optional>

namespace tk {
namespace parser {

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
        parseImport(*module);
        break;
      }
      errorAtToken("only 'def' is allowed at top level");
    }
  }
  return module;
}

std::string Parser::parseModulePath(SourceLoc &loc) {
  loc = tok().loc;
  std::string module(
      expect(TokenKind::Identifier, "expected a module name").spelling);
  while (consumeIf(TokenKind::Dot))
    module += "." + std::string(expect(TokenKind::Identifier,
                                       "expected a name after '.'")
                                    .spelling);
  if (module != "triton" && module.rfind("triton.", 0) != 0)
    error(loc, "cannot import '" + module + "': only triton modules may be "
               "imported (tk needs none)");
  return module;
}

void Parser::parseImport(Module &module) {
  // `import triton`, `import triton.language as tl`, `from triton import
  // language as tl`, `from triton.language.extra import libdevice`, `from
  // triton.language import sum as tsum, *`: Triton files start with these.
  // Each binds a name to a path under triton (resolved when used, so that
  // importing what tk does not have is only an error where it is used);
  // `import triton.language` binds `triton` itself, a builtin namespace.
  // Any other module is an error.
  auto bind = [&](const Token &name, std::string path) {
    if (path == "triton.language" &&
        std::find(typeQualifiers.begin(), typeQualifiers.end(),
                  name.spelling) == typeQualifiers.end())
      typeQualifiers.emplace_back(name.spelling);
    importedPaths.emplace_back(std::string(name.spelling), path);
    module.imports.push_back({std::string(name.spelling), std::move(path),
                              name.loc});
  };
  auto atAs = [&] { return at(TokenKind::Identifier) && tok().spelling == "as"; };
  bool isFrom = tok().spelling == "from";
  consume();
  SourceLoc loc;
  if (!isFrom) {
    do {
      std::string path = parseModulePath(loc);
      if (atAs()) {
        consume();
        bind(expect(TokenKind::Identifier, "expected a name after 'as'"),
             path);
      }
    } while (consumeIf(TokenKind::Comma));
  } else {
    std::string path = parseModulePath(loc);
    if (!at(TokenKind::Identifier) || tok().spelling != "import")
      errorExpected("'import'");
    consume();
    if (!consumeIf(TokenKind::Star)) {
      bool parenthesized = consumeIf(TokenKind::LParen);
      do {
        if (parenthesized && at(TokenKind::RParen))
          break; // a trailing comma
        const Token &name =
            expect(TokenKind::Identifier, "expected a name to import");
        const Token *bound = &name;
        if (atAs()) {
          consume();
          bound = &expect(TokenKind::Identifier, "expected a name after 'as'");
        }
        bind(*bound, path + "." + std::string(name.spelling));
      } while (consumeIf(TokenKind::Comma));
      if (parenthesized)
        expect(TokenKind::RParen, "expected ')' to close the import list");
    }
  }
  if (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile))
    errorExpected("the end of the import line");
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
  // A decorator through an imported name means the path it names.
  std::string head = decorator.name.substr(0, decorator.name.find('.'));
  for (auto it = importedPaths.rbegin(); it != importedPaths.rend(); ++it)
    if (it->first == head) {
      decorator.name = it->second + decorator.name.substr(head.size());
      break;
    }
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
    if (std::find(typeQualifiers.begin(), typeQualifiers.end(), qualifier) ==
        typeQualifiers.end())
      error(nameToken->loc, "unknown type qualifier '" + qualifier +
                                "'; only 'tl.' or 'tk.' (or a name imported "
                                "as triton.language) may prefix a type");
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

} // namespace parser

using namespace ast;
using parser::Parser;

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
