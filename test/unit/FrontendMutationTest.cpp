//===- FrontendMutationTest.cpp - The frontend survives broken programs ---===//
//
// Takes every examples/*.tk, applies random mutations (bytes, tokens, lines,
// indentation, words from a dictionary of the language) and runs the
// frontend on each mutant. Whatever the input, the frontend must either
// succeed or report a diagnostic of the form `file:line:col: error: ...`
// pointing into the file; it must never crash, abort, hang or throw anything
// else. Mutants are deterministic (fixed seed), so a failure reproduces; the
// failing mutant's text is printed (also from a crash, by a signal handler).
//
// Environment knobs for longer fuzzing runs:
//   TK_MUTATION_COUNT  total mutants (default 3000)
//   TK_MUTATION_SEED   seed (default 20261130)
//
// "The frontend" is the driver library's runFrontend (parse, semantic
// analysis, tk IR emission, MLIR verification: compiler/driver/Frontend.h)
// with the -k/-D options of the example's own `tkc` line, reading what it
// prints as a user would; an accepted mutant also goes through the tk
// pipeline (inline, canonicalize, combine, cse) that tkc always runs next.
// A verifier failure ("internal compiler error") or a failing pipeline is a
// failure of the test too. Built without the driver
// (TK_MUTATION_WITH_DRIVER unset), only the parser is exercised.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/Parser.h"

#ifdef TK_MUTATION_WITH_DRIVER
#include "compiler/driver/Compilation.h"
#include "compiler/driver/Frontend.h"
#include "compiler/driver/TkPipeline.h"

#include "llvm/Support/raw_ostream.h"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef TK_EXAMPLES_DIR
#error "TK_EXAMPLES_DIR must name the examples/ folder"
#endif

namespace {

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

struct Example {
  std::string name; // "softmax.tk"
  std::string text;
  /// From the file's "#   tkc FILE -k NAME -D A=1 ..." comment line.
  std::string kernelName;
  std::vector<std::pair<std::string, std::string>> defines;
};

/// Reads -k and -D from the example's documented tkc command line, so that
/// the unmutated file compiles exactly as its comment says.
void readTkcLine(Example &example) {
  std::istringstream lines(example.text);
  std::string line;
  while (std::getline(lines, line)) {
    size_t at = line.find("tkc ");
    if (line.rfind("#", 0) != 0 || at == std::string::npos)
      continue;
    std::istringstream words(line.substr(at + 4));
    std::string word;
    while (words >> word) {
      if (word == "-k" && words >> word) {
        example.kernelName = word;
      } else if (word == "-D" && words >> word) {
        size_t eq = word.find('=');
        if (eq != std::string::npos)
          example.defines.emplace_back(word.substr(0, eq),
                                       word.substr(eq + 1));
      }
    }
    return;
  }
}

std::vector<Example> loadExamples() {
  std::vector<Example> examples;
  for (const auto &entry :
       std::filesystem::directory_iterator(TK_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".tk")
      continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    Example example;
    example.name = entry.path().filename().string();
    example.text = text.str();
    readTkcLine(example);
    examples.push_back(std::move(example));
  }
  // directory_iterator's order is unspecified; sorting keeps mutants (which
  // depend on the order the generator is used in) reproducible.
  std::sort(examples.begin(), examples.end(),
            [](const Example &a, const Example &b) { return a.name < b.name; });
  return examples;
}

uint64_t envOr(const char *name, uint64_t fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::strtoull(value, nullptr, 10) : fallback;
}

//===----------------------------------------------------------------------===//
// Mutations
//===----------------------------------------------------------------------===//

/// Words of the language and near misses: keywords, builtins (bare and with
/// `tl.`), types, operators, odd literals and fragments.
const std::vector<std::string> &dictionary() {
  static const std::vector<std::string> words = {
      // keywords
      "def", "if", "elif", "else", "for", "in", "while", "return", "pass",
      "and", "or", "not", "True", "False", "None", "break", "continue",
      "lambda", "import", "class", "with", "yield",
      // builtins
      "program_id", "num_programs", "arange", "zeros", "full", "load",
      "store", "dot", "sum", "max", "min", "argmax", "argmin", "cumsum",
      "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "abs",
      "sigmoid", "tanh", "erf", "maximum", "minimum", "where", "cdiv", "fma",
      "atomic_add", "atomic_max", "atomic_min", "atomic_xchg", "atomic_cas",
      "multiple_of", "max_contiguous", "reshape", "trans", "broadcast_to",
      "device_print", "device_assert", "static_assert", "static_range",
      "range", "tl.load", "tl.store", "tl.arange", "tl.dot", "tl.float32",
      "tl.constexpr", "tk.exp", "triton", "tl",
      // types and attributes
      "i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16",
      "bf16", "f32", "f64", "*f32", "**f16", "*constexpr", "constexpr",
      "float32", ".to(f16)", ".to(i1)", ".to(*f32)", ".dtype",
      ".dtype.element_ty", ".element_ty", ".T", "dtype=f32", "axis=0",
      "axis=1", "axis=-1", "axis=7", "mask=mask", "other=-inf", "other=0.0",
      "keep_dims=True", "num_warps=3",
      // operators and punctuation
      "+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "~",
      "<", ">", "<=", ">=", "==", "!=", "=", "+=", "-=", "*=", "/=", "//=",
      "%=", "**=", "<<=", ">>=", "&=", "|=", "^=", "@=", "->", ":", ",",
      ".", ";", "(", ")", "[", "]", "{", "}", "@", "\\", "!", "$", "?", "`",
      // literals and fragments
      "0", "1", "-1", "2", "3", "1024", "1.0", "0.5", "1e-6", "1e400",
      "inf", "-inf", "nan", "0x7fffffff", "0xffffffffffffffff",
      "99999999999999999999999", "0b102", "0o8", "1_000", "1__0", "1.e",
      ".5", "1j", "\"msg\"", "\"unterminated", "'''", "\"\"\"", "\"\\x\"",
      "[:, None]", "[None, :]", "[:, :, None]", "[0]", "[1:2]", "[::2]",
      "(BLOCK, BLOCK)", "(1, 2, 3)", "()", "(,)", "[]",
      "a if b else c", "if else", "x = ", "lambda x: x",
      "zeros((1048576, 1048576), dtype=f32)", "arange(0, 3)",
      "arange(0, 2147483648)", "arange(5, 1)", "full((4,), 1.0, dtype=f16)",
      "reshape(x, (3,))", "trans(x)", "dot(x, x)", "load(x)",
      "static_range(0, 100000)", "range(0, 10, 0)", "cdiv(1, 0)", "1 // 0",
      "1 % 0", "1 << 70", "x.to(f16).to(bf16)", "program_id(3)",
      "program_id(-1)", "static_assert(False, \"boom\")",
      "device_assert(x > 0, \"x\")", "device_print(\"x\", x)",
      "\t", " ", "\n", "\r", "\r\n", "\f", "\v", std::string("\0", 1),
      "\x80", "\xff", "\xc3\xa9", "#", "# comment"};
  return words;
}

/// Whole lines (without indentation) for line insertions.
const std::vector<std::string> &lineDictionary() {
  static const std::vector<std::string> lines = {
      "pass", "return", "return x", "return x, y", "break", "continue",
      "for i in range(0, 10):", "for i in static_range(4):",
      "for i in static_range(0, 100000):", "while True:", "while x:",
      "if True:", "if False:", "elif x:", "else:", "@kernel",
      "@kernel(num_warps=8, num_stages=3)", "@autotune(configs=[], key=[n])",
      "def f(x):", "def g(a: *f32, b: constexpr = 4) -> f32:",
      "x = x[:, None]", "x = x + 1", "x += 1", "a, b = b, a",
      "y = undefined_name", "mask = mask & mask", "acc = dot(acc, acc)",
      "static_assert(BLOCK > 0)", "static_assert(False, \"no\")",
      "device_print(\"x\", x)", "device_assert(x == x, \"nan\")",
      "store(x_ptr, x)", "x = load(x_ptr + arange(0, 7))",
      "x = zeros((1024, 1024, 1024), dtype=f32)", "x = f(x)",
      "x = softmax(x)", "x = x.to(f16)", "\"\"\"docstring\"\"\"", "# only",
      "", "\\", "import triton", "@triton.jit"};
  return lines;
}

/// A span of a mutant's text that looks like one token to the mutator
/// (identifier, number, string, operator character); whitespace excluded.
struct Span {
  size_t begin, length;
};

std::vector<Span> roughTokens(const std::string &text) {
  std::vector<Span> spans;
  size_t i = 0;
  auto isWord = [](unsigned char c) { return std::isalnum(c) || c == '_'; };
  while (i < text.size()) {
    unsigned char c = text[i];
    size_t start = i;
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    if (isWord(c)) {
      while (i < text.size() &&
             (isWord(text[i]) || (std::isdigit(c) && text[i] == '.')))
        ++i;
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < text.size() && text[i] != char(c) && text[i] != '\n')
        ++i;
      if (i < text.size() && text[i] == char(c))
        ++i;
    } else {
      ++i;
    }
    spans.push_back({start, i - start});
  }
  return spans;
}

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::string current;
  for (char c : text) {
    if (c == '\n') {
      lines.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  lines.push_back(current); // text after the last '\n' (maybe empty)
  return lines;
}

std::string joinLines(const std::vector<std::string> &lines) {
  std::string text;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i)
      text += '\n';
    text += lines[i];
  }
  return text;
}

size_t indentationOf(const std::string &line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t'))
    ++n;
  return n;
}

class Mutator {
public:
  explicit Mutator(uint64_t seed) : rng(seed) {}

  /// Applies one random mutation to `text`; returns a description of it.
  std::string mutate(std::string &text) {
    switch (pick(14)) {
    case 0: return deleteByte(text);
    case 1: return insertByte(text);
    case 2: return replaceByte(text);
    case 3: return duplicateBytes(text);
    case 4: return deleteToken(text);
    case 5: return duplicateToken(text);
    case 6: return swapTokens(text);
    case 7: return replaceToken(text);
    case 8: return insertWord(text);
    case 9: return deleteLine(text);
    case 10: return duplicateLine(text);
    case 11: return swapLines(text);
    case 12: return reindentLine(text);
    default: return insertLine(text);
    }
  }

private:
  size_t pick(size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  }
  const std::string &word() {
    const auto &words = dictionary();
    return words[pick(words.size())];
  }
  char randomByte() {
    // Mostly characters the language uses, sometimes anything at all.
    static const std::string common =
        "abcxyz_019.()[]{}:,=+-*/%<>&|^~@#\"'\\ \t\n";
    if (pick(4) != 0)
      return common[pick(common.size())];
    return char(pick(256));
  }

  std::string deleteByte(std::string &text) {
    if (text.empty())
      return "delete byte (empty)";
    size_t at = pick(text.size());
    text.erase(at, 1);
    return "delete byte at " + std::to_string(at);
  }
  std::string insertByte(std::string &text) {
    size_t at = pick(text.size() + 1);
    char c = randomByte();
    text.insert(at, 1, c);
    return "insert byte " + std::to_string(int((unsigned char)c)) + " at " +
           std::to_string(at);
  }
  std::string replaceByte(std::string &text) {
    if (text.empty())
      return insertByte(text);
    size_t at = pick(text.size());
    char c = randomByte();
    text[at] = c;
    return "replace byte at " + std::to_string(at) + " with " +
           std::to_string(int((unsigned char)c));
  }
  std::string duplicateBytes(std::string &text) {
    if (text.empty())
      return "duplicate bytes (empty)";
    size_t at = pick(text.size());
    size_t length = 1 + pick(std::min<size_t>(40, text.size() - at));
    text.insert(at, text.substr(at, length));
    return "duplicate " + std::to_string(length) + " bytes at " +
           std::to_string(at);
  }
  std::string deleteToken(std::string &text) {
    std::vector<Span> spans = roughTokens(text);
    if (spans.empty())
      return deleteByte(text);
    Span s = spans[pick(spans.size())];
    std::string gone = text.substr(s.begin, s.length);
    text.erase(s.begin, s.length);
    return "delete token '" + gone + "' at " + std::to_string(s.begin);
  }
  std::string duplicateToken(std::string &text) {
    std::vector<Span> spans = roughTokens(text);
    if (spans.empty())
      return insertWord(text);
    Span s = spans[pick(spans.size())];
    std::string token = text.substr(s.begin, s.length);
    text.insert(s.begin + s.length, (pick(2) ? " " : "") + token);
    return "duplicate token '" + token + "' at " + std::to_string(s.begin);
  }
  std::string swapTokens(std::string &text) {
    std::vector<Span> spans = roughTokens(text);
    if (spans.size() < 2)
      return insertWord(text);
    // Neighbours most of the time (plausible typos), anywhere otherwise.
    size_t i = pick(spans.size() - 1);
    size_t j = pick(3) ? i + 1 : pick(spans.size());
    if (i == j)
      return "swap token with itself";
    if (i > j)
      std::swap(i, j);
    Span a = spans[i], b = spans[j];
    std::string first = text.substr(a.begin, a.length);
    std::string second = text.substr(b.begin, b.length);
    text.replace(b.begin, b.length, first); // later span first: offsets hold
    text.replace(a.begin, a.length, second);
    return "swap tokens '" + first + "' and '" + second + "'";
  }
  std::string replaceToken(std::string &text) {
    std::vector<Span> spans = roughTokens(text);
    if (spans.empty())
      return insertWord(text);
    Span s = spans[pick(spans.size())];
    const std::string &w = word();
    std::string old = text.substr(s.begin, s.length);
    text.replace(s.begin, s.length, w);
    return "replace token '" + old + "' with '" + w + "'";
  }
  std::string insertWord(std::string &text) {
    std::vector<Span> spans = roughTokens(text);
    size_t at = spans.empty() ? 0 : spans[pick(spans.size())].begin;
    if (pick(2) && !spans.empty()) {
      Span s = spans[pick(spans.size())];
      at = s.begin + s.length;
    }
    const std::string &w = word();
    std::string padded = pick(2) ? " " + w + " " : w;
    text.insert(at, padded);
    return "insert '" + w + "' at " + std::to_string(at);
  }
  std::string deleteLine(std::string &text) {
    std::vector<std::string> lines = splitLines(text);
    size_t at = pick(lines.size());
    lines.erase(lines.begin() + at);
    text = joinLines(lines);
    return "delete line " + std::to_string(at + 1);
  }
  std::string duplicateLine(std::string &text) {
    std::vector<std::string> lines = splitLines(text);
    size_t at = pick(lines.size());
    lines.insert(lines.begin() + at, lines[at]);
    text = joinLines(lines);
    return "duplicate line " + std::to_string(at + 1);
  }
  std::string swapLines(std::string &text) {
    std::vector<std::string> lines = splitLines(text);
    size_t a = pick(lines.size());
    size_t b = pick(2) && a + 1 < lines.size() ? a + 1 : pick(lines.size());
    std::swap(lines[a], lines[b]);
    text = joinLines(lines);
    return "swap lines " + std::to_string(a + 1) + " and " +
           std::to_string(b + 1);
  }
  std::string reindentLine(std::string &text) {
    std::vector<std::string> lines = splitLines(text);
    size_t at = pick(lines.size());
    std::string &line = lines[at];
    size_t indent = indentationOf(line);
    std::string body = line.substr(indent);
    static const char *const indents[] = {"", " ", "  ", "    ", "     ",
                                          "        ", "\t", "    \t", "\t  ",
                                          "            "};
    std::string newIndent;
    switch (pick(3)) {
    case 0: newIndent = indents[pick(10)]; break;
    case 1: newIndent = line.substr(0, indent) + "    "; break;
    default: newIndent = line.substr(0, indent > 4 ? indent - 4 : 0); break;
    }
    line = newIndent + body;
    text = joinLines(lines);
    return "reindent line " + std::to_string(at + 1);
  }
  std::string insertLine(std::string &text) {
    std::vector<std::string> lines = splitLines(text);
    size_t at = pick(lines.size() + 1);
    // Indent like a neighbouring line, one level deeper, or not at all.
    std::string indent;
    if (at < lines.size()) {
      indent = lines[at].substr(0, indentationOf(lines[at]));
      if (pick(3) == 0)
        indent += "    ";
      else if (pick(4) == 0)
        indent.clear();
    }
    const auto &dict = lineDictionary();
    const std::string &line = dict[pick(dict.size())];
    lines.insert(lines.begin() + at, indent + line);
    text = joinLines(lines);
    return "insert line " + std::to_string(at + 1) + ": '" + line + "'";
  }

  std::mt19937_64 rng;
};

//===----------------------------------------------------------------------===//
// Crash reporting: the mutant being compiled, for the signal handler.
//===----------------------------------------------------------------------===//

// Set before each frontend run; read only by the signal handler, which may
// use nothing but write(2).
const std::string *currentMutantText = nullptr;
const std::string *currentMutantHeader = nullptr;

void writeAll(const char *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(2, data, size);
    if (n <= 0)
      return;
    data += n;
    size -= size_t(n);
  }
}

extern "C" void reportCrashingMutant(int signalNumber) {
  static const char banner[] = "\n*** the frontend crashed (signal) on ";
  writeAll(banner, sizeof(banner) - 1);
  if (currentMutantHeader)
    writeAll(currentMutantHeader->data(), currentMutantHeader->size());
  static const char sep[] = "\n--- mutant source ---\n";
  writeAll(sep, sizeof(sep) - 1);
  if (currentMutantText)
    writeAll(currentMutantText->data(), currentMutantText->size());
  static const char end[] = "\n--- end of mutant ---\n";
  writeAll(end, sizeof(end) - 1);
  std::signal(signalNumber, SIG_DFL);
  std::raise(signalNumber);
}

struct CrashReporter {
  CrashReporter() {
    for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL})
      std::signal(sig, reportCrashingMutant);
  }
  ~CrashReporter() {
    for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL})
      std::signal(sig, SIG_DFL);
    currentMutantText = nullptr;
    currentMutantHeader = nullptr;
  }
};

//===----------------------------------------------------------------------===//
// The frontend under test
//===----------------------------------------------------------------------===//

struct FrontendOutcome {
  bool ok = false;
  /// For !ok: why the outcome is not acceptable ("" when it is a proper
  /// diagnostic).
  std::string problem;
  std::string diagnostic; // what was reported, for messages
};

/// Errors that are about the command line rather than a place in the file
/// (the mutant lost its @kernel, or now has two): these print as
/// "tkc: error: ..." without a position, like any option error.
bool isKernelSelectionError(const std::string &message) {
  for (const char *fragment : {"has no kernel", "no kernel named",
                               "kernels (", "is not a kernel",
                               "has no constexpr parameter",
                               "is not a constexpr", "invalid value '"})
    if (message.find(fragment) != std::string::npos)
      return true;
  return false;
}

/// Checks the first line of what the frontend printed for a rejected
/// mutant: `mutant.tk:LINE:COL: error: MESSAGE` with LINE and COL inside the
/// file, or a kernel-selection error without a position. Returns "" when
/// it is acceptable, else why not.
std::string checkPrintedDiagnostic(const std::string &printed,
                                   const tk::SourceFile &file) {
  if (printed.find("internal compiler error") != std::string::npos)
    return "internal compiler error (a bug in tk, not in the program)";
  std::string first = printed.substr(0, printed.find('\n'));
  static const std::regex located(
      R"(^mutant\.tk:([0-9]+):([0-9]+): error: .+)");
  static const std::regex unlocated(R"(^tkc: error: (.+))");
  std::smatch match;
  if (std::regex_search(first, match, located)) {
    unsigned line = unsigned(std::stoul(match[1]));
    unsigned col = unsigned(std::stoul(match[2]));
    if (line < 1 || line > file.getNumLines())
      return "diagnostic line out of range: '" + first + "'";
    // Columns may point one past the end of the line ("expected ':'").
    if (col < 1 || col > file.getLine(line).size() + 1)
      return "diagnostic column out of range: '" + first + "'";
    return "";
  }
  if (std::regex_search(first, match, unlocated) &&
      isKernelSelectionError(match[1]))
    return "";
  return "diagnostic not of the form 'file:line:col: error: ...': '" +
         first + "'";
}

#ifdef TK_MUTATION_WITH_DRIVER

/// One driver compilation (one MLIR context) per example, reused for all of
/// its mutants: creating a context with every dialect costs more than
/// compiling a mutant.
class FrontendRunner {
public:
  explicit FrontendRunner(const Example &example)
      : errors(printed), compilation(makeOptions(example), &errors) {}

  FrontendOutcome run(const std::string &text) {
    FrontendOutcome outcome;
    printed.clear();
    compilation.setSource(std::make_unique<tk::SourceFile>("mutant.tk", text));
    const tk::SourceFile &file = *compilation.getSource();
    unsigned errorsBefore = compilation.getNumErrors();
    try {
      mlir::OwningOpRef<mlir::ModuleOp> module = tk::runFrontend(compilation);
      errors.flush();
      outcome.diagnostic = printed;
      if (module) {
        // runFrontend verified it; anything printed with success would be
        // an error slipping through.
        outcome.ok = true;
        if (compilation.getNumErrors() != errorsBefore) {
          outcome.problem = "a module came back, but errors were reported: " +
                            printed;
          return outcome;
        }
        // What tkc always runs next (inline, canonicalize, combine, cse):
        // odd but valid IR from odd programs must not break the cleanups.
        bool cleaned = mlir::succeeded(tk::runTkPipeline(compilation, *module));
        errors.flush();
        outcome.diagnostic = printed;
        if (!cleaned || compilation.getNumErrors() != errorsBefore)
          outcome.problem = "the tk pipeline failed on a module the frontend "
                            "accepted: " +
                            printed;
        return outcome;
      }
      if (compilation.getNumErrors() == errorsBefore || printed.empty())
        outcome.problem = "the frontend failed without reporting an error";
      else
        outcome.problem = checkPrintedDiagnostic(printed, file);
    } catch (const std::exception &error) {
      outcome.problem =
          std::string("threw a non-diagnostic exception: ") + error.what();
    } catch (...) {
      outcome.problem = "threw an unknown exception";
    }
    return outcome;
  }

private:
  static tk::CompileOptions makeOptions(const Example &example) {
    tk::CompileOptions options;
    options.inputPath = "mutant.tk";
    options.kernelName = example.kernelName;
    options.defines = example.defines;
    options.emit = tk::EmitKind::TkRaw;
    return options;
  }

  std::string printed;
  llvm::raw_string_ostream errors;
  tk::Compilation compilation;
};

#else

/// The structured form of the same check, for the parser-only build.
std::string checkDiagnostic(const tk::CompileError &error,
                            const tk::SourceFile &file) {
  static const std::regex form(R"(^mutant\.tk:[0-9]+:[0-9]+: error: .+)");
  std::string what = error.what();
  if (!std::regex_search(what, form))
    return "diagnostic not of the form 'file:line:col: error: ...': '" +
           what + "'";
  if (error.loc.file != &file)
    return "diagnostic points into another file: '" + what + "'";
  return checkPrintedDiagnostic(what, file);
}

/// Without the driver: the parser alone.
class FrontendRunner {
public:
  explicit FrontendRunner(const Example &) {}

  FrontendOutcome run(const std::string &text) {
    FrontendOutcome outcome;
    tk::SourceFile file("mutant.tk", text);
    try {
      std::unique_ptr<tk::ast::Module> module = tk::parseModule(file);
      outcome.ok = module != nullptr;
      if (!module)
        outcome.problem = "parseModule returned null without an error";
    } catch (const tk::CompileError &error) {
      outcome.problem = checkDiagnostic(error, file);
      outcome.diagnostic = error.what();
    } catch (const std::exception &error) {
      outcome.problem =
          std::string("threw a non-diagnostic exception: ") + error.what();
    } catch (...) {
      outcome.problem = "threw an unknown exception";
    }
    return outcome;
  }
};

#endif

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

TEST(FrontendMutation, ExamplesCompileUnmutated) {
  std::vector<Example> examples = loadExamples();
  ASSERT_FALSE(examples.empty()) << "no .tk files in " << TK_EXAMPLES_DIR;
  for (const Example &example : examples) {
    FrontendRunner frontend(example);
    FrontendOutcome outcome = frontend.run(example.text);
    EXPECT_TRUE(outcome.ok && outcome.problem.empty())
        << example.name << ": " << outcome.diagnostic << outcome.problem;
  }
}

/// Inputs no mutation of the examples is likely to produce: degenerate
/// files, extreme sizes and nesting, odd bytes. Same contract: success or a
/// proper diagnostic.
TEST(FrontendMutation, HostileInputsNeverCrash) {
  const std::string kernelHeader = "@kernel\ndef k(x: *f32, n: i32):\n";
  std::vector<std::pair<std::string, std::string>> inputs = {
      {"empty file", ""},
      {"only whitespace", "   \n\t\n  \n"},
      {"only a comment", "# nothing here"},
      {"a lone backslash", "\\"},
      // A body whose only line is a backslash continuation reaching the end
      // of the file (or a comment) crashed the parser (empty function body).
      {"backslash then EOF in a body", "def g():\n    \\\n"},
      {"backslash line before a comment", "def g():\n    \\\n# c\n"},
      {"a lone decorator", "@kernel"},
      {"decorator without def", "@kernel\n\n"},
      {"def without body", "def f():"},
      {"def without body, newline", "def f():\n"},
      {"unclosed parameter list", "def f(:"},
      {"NUL bytes", std::string("@kernel\ndef k(x: *f32):\n    p\0ss\n", 30)},
      {"CR line ends", "@kernel\rdef k(x: *f32):\r    pass\r"},
      {"CRLF line ends", "@kernel\r\ndef k(x: *f32):\r\n    pass\r\n"},
      {"UTF-8 BOM", "\xef\xbb\xbf@kernel\ndef k(x: *f32):\n    pass\n"},
      {"invalid UTF-8 in code", "@kernel\ndef k(x: *f32):\n    \xff = 1\n"},
      {"huge integer",
       kernelHeader + "    y = 99999999999999999999999999999999\n"},
      {"huge float", kernelHeader + "    y = 1e999999\n"},
      {"unterminated triple string", kernelHeader + "    \"\"\"abc\n"},
      {"mixed tabs and spaces", kernelHeader + "    y = 1\n\ty = 2\n"},
      {"block too large",
       kernelHeader + "    y = zeros((1048576, 1048576), dtype=f32)\n"},
      {"arange too long", kernelHeader + "    y = arange(0, 1 << 40)\n"},
      {"shift overflow", kernelHeader + "    y = 1 << 4000\n"},
      {"huge static_range",
       kernelHeader + "    for i in static_range(1 << 40):\n        pass\n"},
      {"always-true while", kernelHeader + "    while True:\n        pass\n"},
      {"self recursion", "def f(x):\n    return f(x)\n" + kernelHeader +
                             "    y = f(n)\n"},
      {"mutual recursion", "def f(x):\n    return g(x)\ndef g(x):\n"
                           "    return f(x)\n" + kernelHeader +
                           "    y = f(n)\n"},
  };
  // Deep nesting and long chains: the parser's limits must answer, not
  // the stack.
  inputs.push_back({"deep parentheses",
                    kernelHeader + "    y = " + std::string(5000, '(') + "1" +
                        std::string(5000, ')') + "\n"});
  inputs.push_back({"deep unary minus",
                    kernelHeader + "    y = " + std::string(5000, '-') +
                        "1\n"});
  std::string chain = "    y = n";
  for (int i = 0; i < 20000; ++i)
    chain += " + n";
  inputs.push_back({"long operator chain", kernelHeader + chain + "\n"});
  std::string nested = kernelHeader;
  for (int depth = 1; depth <= 300; ++depth)
    nested += std::string(4 * size_t(depth), ' ') + "if n > 0:\n";
  nested += std::string(4 * 301, ' ') + "pass\n";
  inputs.push_back({"deeply nested ifs", nested});
  inputs.push_back({"very long identifier",
                    kernelHeader + "    " + std::string(1 << 20, 'a') +
                        " = 1\n"});

  Example none; // no -k / -D: the file's only kernel, if any
  CrashReporter crashReporter;
  for (const auto &[what, text] : inputs) {
    FrontendRunner frontend(none);
    std::string header = "hostile input: " + what;
    currentMutantHeader = &header;
    currentMutantText = &text;
    FrontendOutcome outcome = frontend.run(text);
    EXPECT_TRUE(outcome.problem.empty())
        << header << "\n"
        << outcome.problem << "\n--- what the frontend printed ---\n"
        << outcome.diagnostic;
  }
}

TEST(FrontendMutation, RandomMutantsNeverCrash) {
  std::vector<Example> examples = loadExamples();
  ASSERT_FALSE(examples.empty()) << "no .tk files in " << TK_EXAMPLES_DIR;
  const uint64_t total = envOr("TK_MUTATION_COUNT", 3000);
  const uint64_t seed = envOr("TK_MUTATION_SEED", 20261130);

  std::vector<std::unique_ptr<FrontendRunner>> frontends;
  for (const Example &example : examples)
    frontends.push_back(std::make_unique<FrontendRunner>(example));

  CrashReporter crashReporter;
  size_t accepted = 0, rejected = 0, failures = 0;
  for (uint64_t index = 0; index < total; ++index) {
    const Example &example = examples[index % examples.size()];
    FrontendRunner &frontend = *frontends[index % examples.size()];
    // One generator per mutant: any mutant reproduces from (seed, index)
    // alone, whatever the others did.
    Mutator mutator(seed * 1000003 + index);
    std::string text = example.text;
    std::string header = example.name + ", mutant " + std::to_string(index) +
                         " (TK_MUTATION_SEED=" + std::to_string(seed) + "):";
    // One to four mutations; several give the parser states a single edit
    // rarely reaches.
    size_t count = 1 + size_t(index % 4);
    for (size_t i = 0; i < count; ++i)
      header += "\n  " + mutator.mutate(text);

    currentMutantHeader = &header;
    currentMutantText = &text;
    FrontendOutcome outcome = frontend.run(text);
    if (outcome.ok && outcome.problem.empty()) {
      ++accepted;
    } else if (outcome.problem.empty()) {
      ++rejected;
    } else {
      ++failures;
      ADD_FAILURE() << header << "\n" << outcome.problem
                    << "\n--- what the frontend printed ---\n"
                    << outcome.diagnostic << "\n--- mutant source ---\n"
                    << text << "\n--- end of mutant ---";
      if (failures >= 20) {
        ADD_FAILURE() << "stopping after 20 failures";
        break;
      }
    }
  }
  std::printf("[ mutation ] %llu mutants: %zu accepted, %zu rejected with a "
              "diagnostic, %zu failures\n",
              (unsigned long long)total, accepted, rejected, failures);
  // Most mutants must be rejected; if nearly all were accepted the mutator
  // (or the frontend's error checking) would not be doing its job.
  EXPECT_GT(rejected, total / 4);
}

} // namespace
