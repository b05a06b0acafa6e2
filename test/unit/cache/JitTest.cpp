//===- JitTest.cpp - the JIT through the kernel cache ---------------------===//
//
// Most tests compile to the tk IR artifact, which needs neither the NVPTX
// back end nor ptxas; the cubin tests skip themselves where ptxas cannot
// be found (TK_PTXAS, PATH, /usr/local/cuda/bin).
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/Jit.h"
#include "compiler/driver/Compilation.h"
#include "compiler/driver/Compiler.h"
#include "compiler/driver/CompilerVersion.h"
#include "compiler/driver/KernelCache.h"
#include "test/unit/cache/TestCacheDir.h"

#include "compiler/target/Ptxas.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <sys/wait.h>
#include <unistd.h>

using namespace tk;
using namespace tk::jit;
using namespace tk::test;
namespace fs = std::filesystem;

namespace {

const char *const kAddSource = R"(
@kernel
def add(x_ptr: *f32, y_ptr: *f32, out_ptr: *f32, n: i32, BLOCK: constexpr):
    pid = program_id(axis=0)
    offsets = pid * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    x = load(x_ptr + offsets, mask=mask)
    y = load(y_ptr + offsets, mask=mask)
    store(out_ptr + offsets, x + y, mask=mask)
)";

// A K loop on wgmma (sm_90a); K is not known to be a multiple of 16.
const char *const kWgmmaLoopSource = R"(
@kernel
def mm(a_ptr: *f16, b_ptr: *f16, c_ptr: *f32, K: i32):
    offs_m = arange(0, 64)
    offs_n = arange(0, 64)
    offs_k = arange(0, 64)
    acc = zeros([64, 64], dtype=f32)
    for k in range(0, K, 64):
        a = load(a_ptr + offs_m[:, None] * K + (k + offs_k)[None, :])
        b = load(b_ptr + (k + offs_k)[:, None] * 64 + offs_n[None, :])
        acc = dot(a, b, acc)
    store(c_ptr + offs_m[:, None] * 64 + offs_n[None, :], acc)
)";

class JitTest : public ::testing::Test {
protected:
  JitTest() {
    KernelCacheConfig config;
    config.directory = root.path + "/cache";
    config.warningHandler = warnings.handler();
    cache = std::make_unique<KernelCache>(config);
  }
  JitOptions options(ArtifactKind artifact = ArtifactKind::TkIr) {
    JitOptions result;
    result.defines = {{"BLOCK", "128"}};
    result.artifact = artifact;
    result.cache = cache.get();
    return result;
  }
  KernelSource source() const { return {"add.tk", kAddSource}; }
  std::string key(const JitOptions &jitOptions,
                  const KernelSource &kernelSource) {
    auto computed = computeCacheKey(kernelSource, "add", jitOptions);
    EXPECT_TRUE(bool(computed));
    return computed ? *computed : "";
  }

  TemporaryDirectory root;
  WarningLog warnings;
  std::unique_ptr<KernelCache> cache;
};

void expectSame(const CompiledKernel &a, const CompiledKernel &b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.metadataJson, b.metadataJson);
  EXPECT_EQ(a.binary, b.binary);
  EXPECT_EQ(a.tkIr, b.tkIr);
  EXPECT_EQ(a.cacheKey, b.cacheKey);
}

bool havePtxas() {
  auto ptxas = findPtxas();
  if (ptxas)
    return true;
  llvm::consumeError(ptxas.takeError());
  return false;
}

} // namespace

TEST_F(JitTest, SecondCompileComesFromTheCache) {
  auto first = compile(source(), "add", options());
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_FALSE(first->fromCache);
  EXPECT_EQ(first->name, "add");
  EXPECT_NE(first->metadataJson.find("\"name\": \"add\""), std::string::npos)
      << first->metadataJson;
  EXPECT_NE(first->tkIr.find("add.tk"), std::string::npos); // locations
  EXPECT_TRUE(first->binary.empty());
  EXPECT_TRUE(fs::is_directory(cache->getEntryPath(first->cacheKey)));

  auto second = compile(source(), "add", options());
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_TRUE(second->fromCache);
  expectSame(*first, *second);
  EXPECT_TRUE(warnings.take().empty());
}

TEST_F(JitTest, EmptyKernelNameMeansTheOnlyKernel) {
  auto compiled = compile(source(), "", options());
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_EQ(compiled->name, "add");
}

TEST_F(JitTest, CompileFile) {
  std::string path = root.path + "/add.tk";
  writeWholeFile(path, kAddSource);
  auto compiled = compileFile(path, "add", options());
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_EQ(compiled->origin, path);
  auto missing = compileFile(root.path + "/none.tk", "add", options());
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError())
                .find("tk: error: cannot open '" + root.path + "/none.tk'"),
            std::string::npos);
}

TEST_F(JitTest, KeySensitivity) {
  JitOptions base = options();
  std::string baseKey = key(base, source());
  EXPECT_EQ(baseKey, key(base, source())); // deterministic

  std::vector<std::pair<std::string, std::string>> changed;
  auto differs = [&](const char *what, const JitOptions &changedOptions,
                     const KernelSource &changedSource) {
    EXPECT_NE(key(changedOptions, changedSource), baseKey) << what;
  };
  JitOptions o = base;
  o.defines = {{"BLOCK", "256"}};
  differs("constexpr value", o, source());
  o = base;
  o.defines.push_back({"EXTRA", "1"});
  differs("another constexpr", o, source());
  o = base;
  o.numWarps = 8;
  differs("num_warps", o, source());
  o = base;
  o.numWarps = 4; // the default, but asked for explicitly
  differs("explicit num_warps", o, source());
  o = base;
  o.numStages = 2;
  differs("num_stages", o, source());
  o = base;
  o.arch = "sm_80";
  differs("arch", o, source());
  o = base;
  o.assumptions = {{"n", 16}};
  differs("assumption", o, source());
  o = base;
  o.assumptions = {{"n", 1}};
  std::string equalsOne = key(o, source());
  o.assumptions = {{"n", 16}};
  EXPECT_NE(key(o, source()), equalsOne);
  o = base;
  o.assumeAlignedPointers = true;
  differs("aligned pointers", o, source());
  o = base;
  o.switches.rebaseDescriptors = true;
  differs("rebased descriptors", o, source());
  o = base;
  o.autotuneConfig = 1;
  differs("autotune config", o, source());
  o = base;
  o.artifact = ArtifactKind::Ptx;
  differs("artifact kind", o, source());
  KernelSource edited = source();
  edited.text += "# a comment\n";
  differs("source text", base, edited);
  KernelSource renamed = source();
  renamed.name = "other.tk";
  differs("source name", base, renamed);
  auto otherKernel = computeCacheKey(source(), "sub", base);
  ASSERT_TRUE(bool(otherKernel));
  EXPECT_NE(*otherKernel, baseKey);

  // Definitions of different names in another order compile alike.
  JitOptions two = base;
  two.defines = {{"A", "1"}, {"BLOCK", "128"}};
  JitOptions swapped = base;
  swapped.defines = {{"BLOCK", "128"}, {"A", "1"}};
  EXPECT_EQ(key(two, source()), key(swapped, source()));
  // Two definitions of one name: the last wins, so order matters.
  JitOptions twice = base;
  twice.defines = {{"BLOCK", "64"}, {"BLOCK", "128"}};
  JitOptions twiceSwapped = base;
  twiceSwapped.defines = {{"BLOCK", "128"}, {"BLOCK", "64"}};
  EXPECT_NE(key(twice, source()), key(twiceSwapped, source()));
}

TEST_F(JitTest, KeyNamesTheCompiler) {
  const std::string &version = getCompilerVersion();
  EXPECT_EQ(version.rfind("tk src:", 0), 0u) << version;
  EXPECT_NE(version.find(" llvm:"), std::string::npos) << version;
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas";
  auto ptxas = getPtxasVersion();
  ASSERT_TRUE(bool(ptxas)) << llvm::toString(ptxas.takeError());
  EXPECT_NE(ptxas->find("Cuda compilation tools"), std::string::npos) << *ptxas;
}

TEST_F(JitTest, ChangedConstexprCompilesAgain) {
  auto first = compile(source(), "add", options());
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  JitOptions other = options();
  other.defines = {{"BLOCK", "256"}};
  auto second = compile(source(), "add", other);
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_FALSE(second->fromCache);
  EXPECT_NE(first->cacheKey, second->cacheKey);
  EXPECT_NE(first->tkIr, second->tkIr);
}

TEST_F(JitTest, CorruptEntryIsRecompiled) {
  auto first = compile(source(), "add", options());
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  std::string entry = cache->getEntryPath(first->cacheKey);

  std::string ir = readWholeFile(entry + "/kernel.tk.mlir");
  writeWholeFile(entry + "/kernel.tk.mlir", ir.substr(0, ir.size() / 3));
  auto second = compile(source(), "add", options());
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_FALSE(second->fromCache);
  expectSame(*first, *second);
  std::vector<std::string> lines = warnings.take();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("tk: warning: ignoring corrupt cache entry " +
                               entry + ": 'kernel.tk.mlir' has ",
                           0),
            0u)
      << lines[0];

  // Overwritten: the third compile hits again.
  auto third = compile(source(), "add", options());
  ASSERT_TRUE(bool(third)) << llvm::toString(third.takeError());
  EXPECT_TRUE(third->fromCache);
  expectSame(*first, *third);

  // Garbage instead of the manifest.
  writeWholeFile(entry + "/manifest", "\x7f"
                                      "ELF garbage\n");
  auto fourth = compile(source(), "add", options());
  ASSERT_TRUE(bool(fourth)) << llvm::toString(fourth.takeError());
  EXPECT_FALSE(fourth->fromCache);
  EXPECT_EQ(warnings.take().size(), 1u);
}

TEST_F(JitTest, EntryMissingAFileTheJitNeeds) {
  // A well-formed entry (the cache's checks pass) without the kernel name.
  std::string entryKey = key(options(), source());
  ASSERT_TRUE(cache->store(entryKey, {{"metadata.json", "{}"}}));
  auto compiled = compile(source(), "add", options());
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_FALSE(compiled->fromCache);
  std::vector<std::string> lines = warnings.take();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("it has no 'name'"), std::string::npos) << lines[0];
  auto again = compile(source(), "add", options());
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_TRUE(again->fromCache);
}

TEST_F(JitTest, UnwritableCacheStillCompiles) {
  writeWholeFile(root.path + "/file", "x");
  KernelCacheConfig config;
  config.directory = root.path + "/file/cache";
  config.warningHandler = warnings.handler();
  KernelCache unwritable(config);
  JitOptions jitOptions = options();
  jitOptions.cache = &unwritable;
  for (int i = 0; i < 2; ++i) {
    auto compiled = compile(source(), "add", jitOptions);
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    EXPECT_FALSE(compiled->fromCache);
  }
  std::vector<std::string> lines = warnings.take();
  ASSERT_EQ(lines.size(), 1u); // once per cache
  EXPECT_NE(lines[0].find("continuing without caching"), std::string::npos);
}

TEST_F(JitTest, FullCacheStillCompiles) {
  KernelCacheConfig config;
  config.directory = root.path + "/cache";
  config.warningHandler = warnings.handler();
  config.writeFaultHook = [](const std::string &path) {
    return path.find("metadata.json") != std::string::npos ? ENOSPC : 0;
  };
  KernelCache full(config);
  JitOptions jitOptions = options();
  jitOptions.cache = &full;
  auto compiled = compile(source(), "add", jitOptions);
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_FALSE(compiled->fromCache);
  std::vector<std::string> lines = warnings.take();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("No space left on device"), std::string::npos);
}

TEST_F(JitTest, NoCacheTouchesNothing) {
  JitOptions jitOptions = options();
  jitOptions.useCache = false;
  auto compiled = compile(source(), "add", jitOptions);
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_FALSE(compiled->fromCache);
  EXPECT_TRUE(compiled->cacheKey.empty());
  EXPECT_FALSE(fs::exists(root.path + "/cache"));
}

TEST_F(JitTest, CompileErrorsAreMessagesAndNotCached) {
  KernelSource broken{"broken.tk",
                      "@kernel\ndef add(x: *f32, BLOCK: constexpr):\n"
                      "    y = z\n"};
  JitOptions jitOptions = options();
  jitOptions.toolName = "tk-test";
  for (int i = 0; i < 2; ++i) {
    auto compiled = compile(broken, "add", jitOptions);
    ASSERT_FALSE(bool(compiled));
    std::string message = llvm::toString(compiled.takeError());
    EXPECT_NE(message.find("broken.tk:3:"), std::string::npos) << message;
    EXPECT_NE(message.find("error:"), std::string::npos) << message;
  }
  EXPECT_FALSE(fs::exists(root.path + "/cache"));
}

TEST_F(JitTest, ProcessesCompileOneKernelAtOnce) {
  std::vector<pid_t> children;
  for (int child = 0; child < 2; ++child) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      KernelCacheConfig config;
      config.directory = root.path + "/cache";
      bool warned = false;
      config.warningHandler = [&](const std::string &) { warned = true; };
      KernelCache childCache(config);
      JitOptions jitOptions = options();
      jitOptions.cache = &childCache;
      auto compiled = compile(source(), "add", jitOptions);
      bool ok = bool(compiled) && !warned;
      if (!compiled)
        llvm::consumeError(compiled.takeError());
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto cached = compile(source(), "add", options());
  ASSERT_TRUE(bool(cached)) << llvm::toString(cached.takeError());
  EXPECT_TRUE(cached->fromCache);
  EXPECT_TRUE(warnings.take().empty());
}

TEST_F(JitTest, CubinHitReturnsIdenticalBytes) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas: the cubin artifact cannot be built here";
  auto first = compile(source(), "add", options(ArtifactKind::Cubin));
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_FALSE(first->fromCache);
  ASSERT_GE(first->binary.size(), 4u);
  EXPECT_EQ(first->binary.substr(0, 4), "\x7f"
                                        "ELF");
  EXPECT_NE(first->metadataJson.find("\"binary\": \"add.cubin\""),
            std::string::npos)
      << first->metadataJson;
  auto second = compile(source(), "add", options(ArtifactKind::Cubin));
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_TRUE(second->fromCache);
  expectSame(*first, *second);
  EXPECT_TRUE(fs::is_regular_file(cache->getEntryPath(first->cacheKey) +
                                  "/kernel.cubin"));
}

TEST_F(JitTest, PtxArtifact) {
  auto first = compile(source(), "add", options(ArtifactKind::Ptx));
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_NE(first->binary.find(".entry add"), std::string::npos);
  EXPECT_NE(first->metadataJson.find("\"binary_kind\": \"ptx\""),
            std::string::npos)
      << first->metadataJson;
  auto second = compile(source(), "add", options(ArtifactKind::Ptx));
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_TRUE(second->fromCache);
  expectSame(*first, *second);
}

// --rebase-wgmma-descriptors reaches the LLVM lowering through the JIT (as
// tk-run passes it): each wgmma descriptor then takes tk_smem's address
// afresh (a `mov ..., tk_smem;` of its own) instead of one for the kernel.
TEST_F(JitTest, RebasedDescriptorsReachTheLowering) {
  const KernelSource mm{"mm.tk", kWgmmaLoopSource};
  auto countBaseMoves = [](const std::string &ptx) {
    size_t count = 0;
    for (size_t at = ptx.find("tk_smem;"); at != std::string::npos;
         at = ptx.find("tk_smem;", at + 1))
      ++count;
    return count;
  };
  JitOptions plain = options(ArtifactKind::Ptx);
  plain.defines.clear();
  JitOptions rebased = plain;
  rebased.switches.rebaseDescriptors = true;
  auto a = compile(mm, "mm", plain);
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  auto b = compile(mm, "mm", rebased);
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  ASSERT_NE(a->binary.find("wgmma.mma_async"), std::string::npos);
  EXPECT_EQ(countBaseMoves(a->binary), 1u);
  EXPECT_GT(countBaseMoves(b->binary), 1u);
  EXPECT_NE(a->cacheKey, b->cacheKey);
}

// The JIT keeps the compiler's remarks with the kernel (what `tkc
// --remarks` prints), and the cache returns them with it: here the K loop
// is not pipelined because K is not known to be a multiple of 16.
TEST_F(JitTest, RemarksComeWithTheKernelAndFromTheCache) {
  const KernelSource mm{"mm.tk", kWgmmaLoopSource};
  JitOptions jit = options(ArtifactKind::Ptx);
  jit.defines.clear();
  auto first = compile(mm, "mm", jit);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_FALSE(first->fromCache);
  EXPECT_NE(first->remarks.find("mm.tk:11:15: remark: dot on wgmma"),
            std::string::npos)
      << first->remarks;
  EXPECT_NE(first->remarks.find("mm.tk:9:13: remark: load not pipelined"),
            std::string::npos)
      << first->remarks;
  auto second = compile(mm, "mm", jit);
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_TRUE(second->fromCache);
  EXPECT_EQ(second->remarks, first->remarks);

  // TK_REMARKS=1: the JIT prints them (here from the cache) to stderr.
  ::setenv("TK_REMARKS", "1", 1);
  testing::internal::CaptureStderr();
  auto third = compile(mm, "mm", jit);
  std::string printed = testing::internal::GetCapturedStderr();
  ::unsetenv("TK_REMARKS");
  ASSERT_TRUE(bool(third)) << llvm::toString(third.takeError());
  EXPECT_TRUE(third->fromCache);
  EXPECT_EQ(printed, first->remarks);
  testing::internal::CaptureStderr();
  auto quiet = compile(mm, "mm", jit);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  ASSERT_TRUE(bool(quiet)) << llvm::toString(quiet.takeError());
}

// One pipeline: for the same source and options, the JIT (tk-run, the C
// API and Python go through it) produces byte for byte the PTX that tkc
// writes, with the default switches and with every switch changed.
TEST_F(JitTest, JitAndTkcProduceTheSamePtx) {
  const std::string path = root.path + "/mm.tk";
  {
    std::ofstream file(path);
    file << R"(
@kernel
def mm(a_ptr: *f16, b_ptr: *f16, c_ptr: *f16, K: i32, BK: constexpr):
    offs_m = arange(0, 128)
    offs_n = arange(0, 128)
    offs_k = arange(0, BK)
    acc = zeros([128, 128], dtype=f32)
    for k in range(0, K, BK):
        a = load(a_ptr + offs_m[:, None] * K + (k + offs_k)[None, :])
        b = load(b_ptr + (k + offs_k)[:, None] * 128 + offs_n[None, :])
        acc = dot(a, b, acc)
    store(c_ptr + offs_m[:, None] * 128 + offs_n[None, :], acc.to(f16))
)";
  }
  TkgpuPipelineSwitches changed;
  changed.mmaVersion = 2;
  changed.pingPong = false;
  changed.deferRowSums = false;
  changed.prefetchBeforeCopies = false;
  changed.epilogueSubtile = 1;
  changed.invariantA = InvariantARegisters::Never;
  changed.rebaseDescriptors = true;
  TkgpuPipelineSwitches rebasedOnly;
  rebasedOnly.rebaseDescriptors = true;
  for (const TkgpuPipelineSwitches &switches :
       {TkgpuPipelineSwitches(), changed, rebasedOnly}) {
    SCOPED_TRACE(describeSwitches(switches));
    CompileOptions tkc;
    tkc.inputPath = path;
    tkc.kernelName = "mm";
    tkc.defines = {{"BK", "64"}};
    tkc.numWarps = 8;
    tkc.numStages = 4;
    tkc.assumptions = {{"K", 16}};
    tkc.assumeAlignedPointers = true;
    tkc.switches = switches;
    tkc.emit = EmitKind::Ptx;
    tkc.outputPath = root.path + "/mm.ptx";
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    {
      Compilation compilation(tkc, &errorStream);
      ASSERT_EQ(compileAndReturnStatus(compilation), 0) << errors;
    }
    std::ifstream written(tkc.outputPath);
    std::string tkcPtx((std::istreambuf_iterator<char>(written)),
                       std::istreambuf_iterator<char>());

    JitOptions jit = options(ArtifactKind::Ptx);
    jit.defines = tkc.defines;
    jit.numWarps = tkc.numWarps;
    jit.numStages = tkc.numStages;
    jit.assumptions = tkc.assumptions;
    jit.assumeAlignedPointers = true;
    jit.switches = switches;
    auto kernel = compileFile(path, "mm", jit);
    ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
    ASSERT_FALSE(tkcPtx.empty());
    EXPECT_TRUE(kernel->binary == tkcPtx)
        << "the JIT's PTX differs from tkc's";
  }
  // Every switch is in the key: the three compiles were three entries.
  JitOptions a = options(ArtifactKind::Ptx), b = a;
  b.switches = changed;
  EXPECT_NE(key(a, source()), key(b, source()));
  b.switches = rebasedOnly;
  EXPECT_NE(key(a, source()), key(b, source()));
}
