//===- FuzzParse.cpp - libFuzzer target: the lexer and the parser ---------===//
//
// tk-fuzz-parse: the input is the text of a .tk file. It is tokenized,
// parsed as a module (and the AST printed), and parsed as a single
// expression the way `-D NAME=VALUE` values are. No LLVM inside, so it runs
// tens of thousands of inputs per second; tk-fuzz-frontend goes further
// (semantic analysis and IR emission) at a lower rate.
//
//===----------------------------------------------------------------------===//

#include "DiagnosticCheck.h"

#include "compiler/frontend/ASTPrinter.h"
#include "compiler/frontend/Lexer.h"
#include "compiler/frontend/Parser.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <sstream>
#include <string>

using namespace tk;

namespace {

template <typename Step> void runStep(const SourceFile &file, Step step) {
  try {
    step();
  } catch (const CompileError &error) {
    fuzz::checkDiagnostic(error, file);
  } catch (const std::exception &error) {
    fuzz::fail(std::string("the frontend threw a non-diagnostic exception: ") +
               error.what());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  SourceFile file("fuzz.tk",
                  std::string(reinterpret_cast<const char *>(data), size));

  runStep(file, [&] {
    std::vector<Token> tokens = tokenize(file);
    fuzz::require(!tokens.empty() && tokens.back().is(TokenKind::EndOfFile),
                  "tokenize() did not end with EndOfFile");
  });

  runStep(file, [&] {
    std::unique_ptr<ast::Module> module = parseModule(file);
    fuzz::require(module != nullptr, "parseModule returned null");
    std::ostringstream printed;
    printAST(*module, printed);
  });

  runStep(file, [&] {
    ast::ExprPtr expr = parseExpression(file);
    fuzz::require(expr != nullptr, "parseExpression returned null");
    (void)exprToString(*expr);
  });
  return 0;
}
