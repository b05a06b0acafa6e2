//===- CompilerVersion.cpp - what identifies the compiler's output --------===//
#include "compiler/driver/CompilerVersion.h"

#include "compiler/target/Ptxas.h"

// TK_COMPILER_SOURCE_HASH, generated in the build folder.
#include "compiler/driver/TkCompilerVersion.inc"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <map>
#include <mutex>

const std::string &tk::getCompilerVersion() {
  static const std::string version = std::string("tk src:") +
                                     TK_COMPILER_SOURCE_HASH +
                                     " llvm:" + LLVM_VERSION_STRING;
  return version;
}

/// Runs `ptxas --version`.
static llvm::Expected<std::string> runPtxasVersion(llvm::StringRef ptxas) {
  llvm::SmallString<128> outputPath;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("tk-ptxas", "txt", outputPath))
    return llvm::createStringError("cannot create a temporary file: " +
                                   error.message());
  auto removeOutput =
      llvm::scope_exit([&] { llvm::sys::fs::remove(outputPath); });
  llvm::StringRef args[] = {ptxas, "--version"};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, outputPath.str(),
                                                outputPath.str()};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/60,
                                         /*MemoryLimit=*/0, &message);
  if (status != 0)
    return llvm::createStringError("'" + ptxas + " --version' failed" +
                                   (message.empty() ? "" : ": " + message));
  auto output = llvm::MemoryBuffer::getFile(outputPath);
  if (!output)
    return llvm::createStringError("cannot read the output of '" + ptxas +
                                   " --version'");
  return (*output)->getBuffer().trim().str();
}

llvm::Expected<std::string> tk::getPtxasVersion() {
  auto ptxas = findPtxas();
  if (!ptxas)
    return ptxas.takeError();
  static std::mutex mutex;
  static std::map<std::string, std::string> versions;
  std::lock_guard<std::mutex> lock(mutex);
  auto known = versions.find(*ptxas);
  if (known != versions.end())
    return known->second;
  auto version = runPtxasVersion(*ptxas);
  if (!version)
    return version.takeError();
  versions.emplace(*ptxas, *version);
  return *version;
}
