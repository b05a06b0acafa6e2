//===- ParserExpr.cpp - .tk source to AST: expressions --------------------===//
//
// The expression half of the recursive-descent parser (ParserImpl.h),
// following Python's operator precedence (lowest to highest):
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
// One method per level (precedence climbing by recursive descent), then
// postfix calls / subscripts / attributes, and atoms: names, literals,
// parenthesized expressions and tuples, lists and dicts. Every node built
// goes through finish(), which records its height and rejects trees too
// high to walk recursively.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"

#include <algorithm>
#include <optional>

namespace tk::parser {

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
  case ExprKind::Lambda:
    break; // its body was checked when it was parsed
  }
  expr->height = childHeight + 1;
  if (expr->height > kMaxExprHeight)
    error(expr->loc, "expression is too deeply nested or too long");
  return expr;
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
  if (at(TokenKind::Identifier) && tok().spelling == "lambda" &&
      (peekToken().kind == TokenKind::Identifier ||
       peekToken().kind == TokenKind::Colon))
    return parseLambda();
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

ExprPtr Parser::parseLambda() {
  SourceLoc loc = consume().loc; // lambda
  auto function = std::make_shared<FunctionDef>();
  function->name = "<lambda>";
  function->loc = loc;
  function->defLoc = loc;
  while (!at(TokenKind::Colon)) {
    if (!at(TokenKind::Identifier))
      errorExpected("a parameter name or ':' in lambda");
    Param param;
    param.loc = tok().loc;
    param.name = std::string(consume().spelling);
    for (const Param &other : function->params)
      if (other.name == param.name)
        error(param.loc, "duplicate parameter '" + param.name +
                             "' in lambda");
    if (consumeIf(TokenKind::Equal)) {
      if (!startsExpression(tok()))
        errorExpected("default value after '='");
      param.defaultValue = parseExpr();
    } else if (!function->params.empty() &&
               function->params.back().defaultValue) {
      error(param.loc, "parameter '" + param.name +
                           "' without a default follows one with a default");
    }
    function->params.push_back(std::move(param));
    if (!consumeIf(TokenKind::Comma) && !at(TokenKind::Colon))
      errorExpected("',' or ':' in lambda");
  }
  consume(); // :
  if (!startsExpression(tok()))
    errorExpected("expression after ':' in lambda");
  SourceLoc bodyLoc = tok().loc;
  function->body.push_back(std::make_unique<ReturnStmt>(bodyLoc, parseExpr()));
  return finish(std::make_unique<LambdaExpr>(loc, std::move(function)));
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
} // namespace tk::parser
