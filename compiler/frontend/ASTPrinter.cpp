//===- ASTPrinter.cpp - readable dumps of the AST -------------------------===//

#include "compiler/frontend/ASTPrinter.h"

#include <charconv>
#include <ostream>
#include <sstream>

namespace tk {

using namespace ast;

namespace {

/// Renders a string literal's value with Python-like escapes, in quotes.
std::string quoteString(const std::string &value) {
  std::string out = "\"";
  for (char c : value) {
    switch (c) {
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    case '\0': out += "\\0"; break;
    case '\\': out += "\\\\"; break;
    case '"': out += "\\\""; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        static const char hex[] = "0123456789abcdef";
        out += "\\x";
        out += hex[(static_cast<unsigned char>(c) >> 4) & 0xf];
        out += hex[static_cast<unsigned char>(c) & 0xf];
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

/// The shortest text that reads back as the same double, always looking
/// like a float ("1.0", "1e-06", "inf").
std::string formatFloat(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text = ec == std::errc() ? std::string(buffer, end) : "?";
  if (text.find_first_of(".eni") == std::string::npos)
    text += ".0";
  return text;
}

std::string formatLoc(SourceLoc loc) {
  if (!loc.isValid())
    return "<?>";
  return "<" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ">";
}

class TreePrinter {
public:
  explicit TreePrinter(std::ostream &os) : os(os) {}

  void printModule(const Module &module);
  void printFunction(const FunctionDef &function, unsigned indent);
  void printStmt(const Stmt &stmt, unsigned indent);
  void printExpr(const Expr &expr, unsigned indent,
                 const char *role = nullptr);

private:
  std::ostream &line(unsigned indent) {
    for (unsigned i = 0; i < indent; ++i)
      os << "  ";
    return os;
  }
  void printBody(const char *label, const StmtList &body, unsigned indent);
  void printKeyword(const KeywordArg &keyword, unsigned indent);

  std::ostream &os;
};

} // namespace

void TreePrinter::printModule(const Module &module) {
  os << "Module";
  if (module.file)
    os << " '" << module.file->getName() << "'";
  os << "\n";
  for (const auto &function : module.functions)
    printFunction(*function, 1);
}

void TreePrinter::printKeyword(const KeywordArg &keyword, unsigned indent) {
  line(indent) << "Keyword '" << keyword.name << "' " << formatLoc(keyword.loc)
               << "\n";
  printExpr(*keyword.value, indent + 1);
}

void TreePrinter::printFunction(const FunctionDef &function,
                                unsigned indent) {
  line(indent) << "FunctionDef '" << function.name << "' "
               << formatLoc(function.loc) << "\n";
  for (const Decorator &decorator : function.decorators) {
    line(indent + 1) << "Decorator '" << decorator.name << "'"
                     << (decorator.hasParens ? " (call)" : "") << " "
                     << formatLoc(decorator.loc) << "\n";
    for (const ExprPtr &arg : decorator.args)
      printExpr(*arg, indent + 2);
    for (const KeywordArg &keyword : decorator.keywords)
      printKeyword(keyword, indent + 2);
  }
  for (const Param &param : function.params) {
    line(indent + 1) << "Param '" << param.name << "'";
    if (param.type) {
      os << " : ";
      if (!param.type->qualifier.empty())
        os << param.type->qualifier << ".";
      os << param.type->toString();
    }
    os << " " << formatLoc(param.loc) << "\n";
    if (param.defaultValue)
      printExpr(*param.defaultValue, indent + 2, "default");
  }
  if (function.returnType)
    line(indent + 1) << "Returns " << function.returnType->toString() << " "
                     << formatLoc(function.returnType->loc) << "\n";
  if (function.docstring)
    line(indent + 1) << "Docstring " << quoteString(*function.docstring)
                     << "\n";
  printBody("Body", function.body, indent + 1);
}

void TreePrinter::printBody(const char *label, const StmtList &body,
                            unsigned indent) {
  line(indent) << label << "\n";
  for (const StmtPtr &stmt : body)
    printStmt(*stmt, indent + 1);
}

void TreePrinter::printStmt(const Stmt &stmt, unsigned indent) {
  std::string loc = formatLoc(stmt.loc);
  switch (stmt.kind) {
  case StmtKind::Expr:
    line(indent) << "ExprStmt " << loc << "\n";
    printExpr(*stmt.as<ExprStmt>().value, indent + 1);
    return;
  case StmtKind::Assign: {
    auto &assign = stmt.as<AssignStmt>();
    line(indent) << "Assign" << (assign.isTupleTarget ? " (tuple)" : "")
                 << " " << loc << "\n";
    for (const Identifier &target : assign.targets)
      line(indent + 1) << "Target '" << target.name << "' "
                       << formatLoc(target.loc) << "\n";
    if (assign.annotation)
      printExpr(*assign.annotation, indent + 1, "annotation");
    printExpr(*assign.value, indent + 1);
    return;
  }
  case StmtKind::AugAssign: {
    auto &aug = stmt.as<AugAssignStmt>();
    line(indent) << "AugAssign '" << getOperatorSpelling(aug.op) << "=' "
                 << loc << "\n";
    line(indent + 1) << "Target '" << aug.target.name << "' "
                     << formatLoc(aug.target.loc) << "\n";
    printExpr(*aug.value, indent + 1);
    return;
  }
  case StmtKind::If: {
    auto &ifStmt = stmt.as<IfStmt>();
    line(indent) << (ifStmt.isElif ? "Elif " : "If ") << loc << "\n";
    printExpr(*ifStmt.cond, indent + 1, "cond");
    printBody("Then", ifStmt.thenBody, indent + 1);
    if (!ifStmt.elseBody.empty())
      printBody("Else", ifStmt.elseBody, indent + 1);
    return;
  }
  case StmtKind::For: {
    auto &forStmt = stmt.as<ForStmt>();
    line(indent) << "For " << loc << "\n";
    line(indent + 1) << "Target '" << forStmt.target.name << "' "
                     << formatLoc(forStmt.target.loc) << "\n";
    printExpr(*forStmt.iter, indent + 1, "iter");
    printBody("Body", forStmt.body, indent + 1);
    return;
  }
  case StmtKind::While: {
    auto &whileStmt = stmt.as<WhileStmt>();
    line(indent) << "While " << loc << "\n";
    printExpr(*whileStmt.cond, indent + 1, "cond");
    printBody("Body", whileStmt.body, indent + 1);
    return;
  }
  case StmtKind::Return: {
    auto &ret = stmt.as<ReturnStmt>();
    line(indent) << "Return " << loc << "\n";
    if (ret.value)
      printExpr(*ret.value, indent + 1);
    return;
  }
  case StmtKind::Pass:
    line(indent) << "Pass " << loc << "\n";
    return;
  case StmtKind::Break:
    line(indent) << "Break " << loc << "\n";
    return;
  case StmtKind::Continue:
    line(indent) << "Continue " << loc << "\n";
    return;
  }
}

void TreePrinter::printExpr(const Expr &expr, unsigned indent,
                            const char *role) {
  std::ostream &out = line(indent);
  if (role)
    out << role << ": ";
  std::string loc = formatLoc(expr.loc);
  switch (expr.kind) {
  case ExprKind::Name:
    out << "Name '" << expr.as<NameExpr>().name << "' " << loc << "\n";
    return;
  case ExprKind::IntLit:
    out << "IntLit " << expr.as<IntLitExpr>().value << " " << loc << "\n";
    return;
  case ExprKind::FloatLit:
    out << "FloatLit " << formatFloat(expr.as<FloatLitExpr>().value) << " "
        << loc << "\n";
    return;
  case ExprKind::BoolLit:
    out << "BoolLit " << (expr.as<BoolLitExpr>().value ? "True" : "False")
        << " " << loc << "\n";
    return;
  case ExprKind::NoneLit:
    out << "NoneLit " << loc << "\n";
    return;
  case ExprKind::StringLit:
    out << "StringLit " << quoteString(expr.as<StringLitExpr>().value) << " "
        << loc << "\n";
    return;
  case ExprKind::Unary: {
    auto &unary = expr.as<UnaryExpr>();
    out << "Unary '" << getOperatorSpelling(unary.op) << "' " << loc << "\n";
    printExpr(*unary.operand, indent + 1);
    return;
  }
  case ExprKind::Binary: {
    auto &binary = expr.as<BinaryExpr>();
    out << "Binary '" << getOperatorSpelling(binary.op) << "' " << loc
        << "\n";
    printExpr(*binary.lhs, indent + 1);
    printExpr(*binary.rhs, indent + 1);
    return;
  }
  case ExprKind::Conditional: {
    auto &cond = expr.as<ConditionalExpr>();
    out << "Conditional " << loc << "\n";
    printExpr(*cond.thenValue, indent + 1, "then");
    printExpr(*cond.cond, indent + 1, "if");
    printExpr(*cond.elseValue, indent + 1, "else");
    return;
  }
  case ExprKind::Call: {
    auto &call = expr.as<CallExpr>();
    out << "Call " << loc << "\n";
    printExpr(*call.callee, indent + 1, "callee");
    for (const ExprPtr &arg : call.args)
      printExpr(*arg, indent + 1);
    for (const KeywordArg &keyword : call.keywords)
      printKeyword(keyword, indent + 1);
    return;
  }
  case ExprKind::Attribute: {
    auto &attribute = expr.as<AttributeExpr>();
    out << "Attribute '" << attribute.attr << "' " << loc << "\n";
    printExpr(*attribute.value, indent + 1);
    return;
  }
  case ExprKind::Subscript: {
    auto &subscript = expr.as<SubscriptExpr>();
    out << "Subscript " << loc << "\n";
    printExpr(*subscript.value, indent + 1);
    for (const ExprPtr &index : subscript.indices)
      printExpr(*index, indent + 1, "index");
    return;
  }
  case ExprKind::Slice: {
    auto &slice = expr.as<SliceExpr>();
    out << "Slice " << loc << "\n";
    if (slice.lower)
      printExpr(*slice.lower, indent + 1, "lower");
    if (slice.upper)
      printExpr(*slice.upper, indent + 1, "upper");
    if (slice.step)
      printExpr(*slice.step, indent + 1, "step");
    return;
  }
  case ExprKind::Tuple:
    out << "Tuple " << loc << "\n";
    for (const ExprPtr &element : expr.as<TupleExpr>().elements)
      printExpr(*element, indent + 1);
    return;
  case ExprKind::List:
    out << "List " << loc << "\n";
    for (const ExprPtr &element : expr.as<ListExpr>().elements)
      printExpr(*element, indent + 1);
    return;
  case ExprKind::Lambda: {
    const FunctionDef &function = *expr.as<LambdaExpr>().function;
    out << "Lambda " << loc << " (";
    for (size_t i = 0; i < function.params.size(); ++i)
      out << (i ? ", " : "") << function.params[i].name;
    out << ")\n";
    printExpr(*function.body.front()->as<ReturnStmt>().value, indent + 1,
              "body");
    return;
  }
  }
}

void printAST(const Module &module, std::ostream &os) {
  TreePrinter(os).printModule(module);
}

void printAST(const FunctionDef &function, std::ostream &os,
              unsigned indent) {
  TreePrinter(os).printFunction(function, indent);
}

void printAST(const Stmt &stmt, std::ostream &os, unsigned indent) {
  TreePrinter(os).printStmt(stmt, indent);
}

void printAST(const Expr &expr, std::ostream &os, unsigned indent) {
  TreePrinter(os).printExpr(expr, indent);
}

//===----------------------------------------------------------------------===//
// exprToString
//===----------------------------------------------------------------------===//

static void writeExpr(const Expr &expr, std::string &out);

static void writeList(const std::vector<ExprPtr> &elements, std::string &out) {
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i)
      out += ", ";
    writeExpr(*elements[i], out);
  }
}

static void writeExpr(const Expr &expr, std::string &out) {
  switch (expr.kind) {
  case ExprKind::Name:
    out += expr.as<NameExpr>().name;
    return;
  case ExprKind::IntLit:
    out += std::to_string(expr.as<IntLitExpr>().value);
    return;
  case ExprKind::FloatLit:
    out += formatFloat(expr.as<FloatLitExpr>().value);
    return;
  case ExprKind::BoolLit:
    out += expr.as<BoolLitExpr>().value ? "True" : "False";
    return;
  case ExprKind::NoneLit:
    out += "None";
    return;
  case ExprKind::StringLit:
    out += quoteString(expr.as<StringLitExpr>().value);
    return;
  case ExprKind::Unary: {
    auto &unary = expr.as<UnaryExpr>();
    out += "(";
    out += getOperatorSpelling(unary.op);
    if (unary.op == UnaryOpKind::Not)
      out += " ";
    writeExpr(*unary.operand, out);
    out += ")";
    return;
  }
  case ExprKind::Binary: {
    auto &binary = expr.as<BinaryExpr>();
    out += "(";
    writeExpr(*binary.lhs, out);
    out += " ";
    out += getOperatorSpelling(binary.op);
    out += " ";
    writeExpr(*binary.rhs, out);
    out += ")";
    return;
  }
  case ExprKind::Conditional: {
    auto &cond = expr.as<ConditionalExpr>();
    out += "(";
    writeExpr(*cond.thenValue, out);
    out += " if ";
    writeExpr(*cond.cond, out);
    out += " else ";
    writeExpr(*cond.elseValue, out);
    out += ")";
    return;
  }
  case ExprKind::Call: {
    auto &call = expr.as<CallExpr>();
    writeExpr(*call.callee, out);
    out += "(";
    writeList(call.args, out);
    for (size_t i = 0; i < call.keywords.size(); ++i) {
      if (i || !call.args.empty())
        out += ", ";
      out += call.keywords[i].name + "=";
      writeExpr(*call.keywords[i].value, out);
    }
    out += ")";
    return;
  }
  case ExprKind::Attribute: {
    auto &attribute = expr.as<AttributeExpr>();
    writeExpr(*attribute.value, out);
    out += "." + attribute.attr;
    return;
  }
  case ExprKind::Subscript: {
    auto &subscript = expr.as<SubscriptExpr>();
    writeExpr(*subscript.value, out);
    out += "[";
    writeList(subscript.indices, out);
    out += "]";
    return;
  }
  case ExprKind::Slice: {
    auto &slice = expr.as<SliceExpr>();
    if (slice.lower)
      writeExpr(*slice.lower, out);
    out += ":";
    if (slice.upper)
      writeExpr(*slice.upper, out);
    if (slice.step) {
      out += ":";
      writeExpr(*slice.step, out);
    }
    return;
  }
  case ExprKind::Tuple: {
    auto &tuple = expr.as<TupleExpr>();
    out += "(";
    writeList(tuple.elements, out);
    if (tuple.elements.size() == 1)
      out += ",";
    out += ")";
    return;
  }
  case ExprKind::List:
    out += "[";
    writeList(expr.as<ListExpr>().elements, out);
    out += "]";
    return;
  case ExprKind::Lambda: {
    const FunctionDef &function = *expr.as<LambdaExpr>().function;
    out += "lambda";
    for (size_t i = 0; i < function.params.size(); ++i)
      out += (i ? ", " : " ") + function.params[i].name;
    out += ": ";
    writeExpr(*function.body.front()->as<ReturnStmt>().value, out);
    return;
  }
  }
}

std::string exprToString(const Expr &expr) {
  std::string out;
  writeExpr(expr, out);
  return out;
}

} // namespace tk
