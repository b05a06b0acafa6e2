//===- Ptxas.cpp - assemble PTX to a cubin with ptxas ---------------------===//
#include "compiler/target/Ptxas.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace tk;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::string> tk::findPtxas() {
  if (std::optional<std::string> fromEnv =
          llvm::sys::Process::GetEnv("TK_PTXAS")) {
    if (!fromEnv->empty()) {
      if (!llvm::sys::fs::can_execute(*fromEnv))
        return makeError("TK_PTXAS is '" + *fromEnv +
                         "', which is not an executable file");
      return *fromEnv;
    }
  }
  if (llvm::ErrorOr<std::string> onPath =
          llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  const char *cudaDefault = "/usr/local/cuda/bin/ptxas";
  if (llvm::sys::fs::can_execute(cudaDefault))
    return std::string(cudaDefault);
  return makeError("ptxas not found: set TK_PTXAS, put ptxas on PATH, or "
                   "install CUDA in /usr/local/cuda (or emit PTX with "
                   "--emit=ptx)");
}

llvm::Expected<CubinResult> tk::assemblePtx(llvm::StringRef ptx,
                                            llvm::StringRef arch,
                                            unsigned optLevel) {
  auto ptxas = findPtxas();
  if (!ptxas)
    return ptxas.takeError();

  // Three temporary files: the PTX in, the cubin and the log out.
  llvm::SmallString<128> ptxPath, cubinPath, logPath;
  int ptxFd = -1;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tk", "ptx", ptxFd, ptxPath))
    return makeError("cannot create a temporary file: " + ec.message());
  auto removePtx =
      llvm::scope_exit([&] { llvm::sys::fs::remove(ptxPath); });
  {
    llvm::raw_fd_ostream os(ptxFd, /*shouldClose=*/true);
    os << ptx;
    if (os.has_error())
      return makeError("cannot write " + ptxPath + ": " +
                       os.error().message());
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tk", "cubin", cubinPath))
    return makeError("cannot create a temporary file: " + ec.message());
  auto removeCubin =
      llvm::scope_exit([&] { llvm::sys::fs::remove(cubinPath); });
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tk", "log", logPath))
    return makeError("cannot create a temporary file: " + ec.message());
  auto removeLog =
      llvm::scope_exit([&] { llvm::sys::fs::remove(logPath); });

  std::string archFlag = ("-arch=" + arch).str();
  std::string optFlag = "-O" + std::to_string(std::min(optLevel, 3u));
  llvm::SmallVector<llvm::StringRef> args = {
      *ptxas, archFlag, optFlag, "-v", ptxPath, "-o", cubinPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(*ptxas, args, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/0,
                                     /*MemoryLimit=*/0, &execError);

  CubinResult result;
  if (auto log = llvm::MemoryBuffer::getFile(logPath))
    result.log = (*log)->getBuffer().str();
  if (rc != 0) {
    std::string why = result.log.empty() ? execError : result.log;
    return makeError("ptxas failed: " + llvm::StringRef(why).rtrim());
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin)
    return makeError("ptxas wrote no cubin: " + cubin.getError().message());
  result.cubin = (*cubin)->getBuffer().str();
  // The output file exists (empty) before ptxas runs, so a ptxas that
  // exits 0 without writing it leaves an empty or foreign file, which must
  // not become NAME.cubin.
  if (!llvm::StringRef(result.cubin).starts_with("\x7f"
                                                 "ELF")) {
    std::string what = result.cubin.empty()
                           ? std::string("an empty file")
                           : std::to_string(result.cubin.size()) +
                                 " bytes that are not an ELF file";
    std::string log = llvm::StringRef(result.log).rtrim().str();
    return makeError("ptxas exited successfully but wrote " + what +
                     " instead of a cubin" +
                     (log.empty() ? std::string() : ": " + log));
  }
  result.kernels = parsePtxasLog(result.log);
  return result;
}

std::vector<KernelStats> tk::parsePtxasLog(llvm::StringRef log) {
  // ptxas 12/13 -v prints, per kernel:
  //   ptxas info    : Compiling entry function 'add' for 'sm_90a'
  //   ptxas info    : Function properties for add
  //       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  //   ptxas info    : Used 14 registers, used 1 barriers, 8 bytes smem, ...
  std::vector<KernelStats> kernels;
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::Regex frame("([0-9]+) bytes stack frame, ([0-9]+) bytes spill "
                    "stores, ([0-9]+) bytes spill loads");
  llvm::Regex used("Used ([0-9]+) registers");
  llvm::Regex barriers("used ([0-9]+) barriers");
  llvm::Regex smem("([0-9]+) bytes smem");
  llvm::Regex cmem("([0-9]+) bytes cmem\\[0\\]");
  auto number = [](llvm::StringRef text) {
    unsigned value = 0;
    text.getAsInteger(10, value);
    return value;
  };

  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  llvm::SmallVector<llvm::StringRef, 4> m;
  for (llvm::StringRef line : lines) {
    if (entry.match(line, &m)) {
      kernels.emplace_back();
      kernels.back().name = m[1].str();
      continue;
    }
    if (kernels.empty())
      continue;
    KernelStats &k = kernels.back();
    if (frame.match(line, &m)) {
      k.stackFrameBytes = number(m[1]);
      k.spillStoreBytes = number(m[2]);
      k.spillLoadBytes = number(m[3]);
    }
    if (used.match(line, &m)) {
      k.registers = number(m[1]);
      if (barriers.match(line, &m))
        k.barriers = number(m[1]);
      if (smem.match(line, &m))
        k.staticSharedBytes = number(m[1]);
      if (cmem.match(line, &m))
        k.constantBytes = number(m[1]);
    }
  }
  return kernels;
}

std::string tk::formatKernelStats(const KernelStats &stats) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << stats.name << ": " << stats.registers << " registers, "
     << stats.spillStoreBytes << " bytes spill stores, "
     << stats.spillLoadBytes << " bytes spill loads, "
     << stats.stackFrameBytes << " bytes stack, " << stats.barriers
     << " barriers, " << stats.staticSharedBytes << " bytes static smem";
  return text;
}
