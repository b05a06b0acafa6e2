//===- KernelCacheTest.cpp - the on-disk kernel cache ---------------------===//
//
// The cache through its own API, with made-up payloads: hits and misses,
// corrupt entries of every kind, unwritable and full cache folders, and
// processes and threads filling one entry at once.
//
// Unwritable folders: chmod 0555 does not stop root (these tests often run
// as root in containers), so that case is skipped under root; a cache
// folder below a regular file (mkdir fails with ENOTDIR) is unwritable for
// everyone and always runs. A full disk is simulated with the cache's
// write-fault hook (ENOSPC), as no small file system can be mounted here.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/KernelCache.h"
#include "compiler/driver/Sha256.h"
#include "test/unit/cache/TestCacheDir.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <thread>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tk;
using namespace tk::test;
namespace fs = std::filesystem;

namespace {

const std::string kKey = CacheKeyBuilder().add("kernel", "add").getKey();

CacheFiles sampleFiles() {
  CacheFiles files;
  files["metadata.json"] = R"({"name": "add", "num_warps": 4})";
  std::string binary;
  for (int i = 0; i < 5000; ++i)
    binary.push_back(char(i * 7 + 3));
  files["kernel.cubin"] = binary;
  files["kernel.tk.mlir"] = "module {}\n";
  files["empty"] = "";
  return files;
}

class KernelCacheTest : public ::testing::Test {
protected:
  KernelCacheConfig config(std::string directory = "") {
    KernelCacheConfig result;
    result.directory = directory.empty() ? root.path + "/cache" : directory;
    result.warningHandler = warnings.handler();
    return result;
  }
  std::string entryFile(const std::string &name) {
    return root.path + "/cache/" + kKey + "/" + name;
  }
  /// Stores the sample, damages it with `damage`, and checks that the
  /// lookup warns with `reason` and misses, and that a store repairs it.
  void expectCorrupt(const std::function<void()> &damage,
                     const std::string &reason) {
    KernelCache cache(config());
    ASSERT_TRUE(cache.store(kKey, sampleFiles()));
    damage();
    EXPECT_FALSE(cache.lookup(kKey).has_value());
    std::vector<std::string> lines = warnings.take();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].rfind("tk: warning: ignoring corrupt cache entry " +
                                 cache.getEntryPath(kKey) + ": ",
                             0),
              0u)
        << lines[0];
    EXPECT_NE(lines[0].find(reason), std::string::npos) << lines[0];
    // Recompiled and overwritten: the next lookup hits.
    EXPECT_TRUE(cache.store(kKey, sampleFiles()));
    auto again = cache.lookup(kKey);
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(*again, sampleFiles());
    EXPECT_TRUE(warnings.take().empty());
  }
  std::vector<std::string> leftoverTemporaries() {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto &entry :
         fs::directory_iterator(root.path + "/cache", error))
      if (std::string name = entry.path().filename().string();
          name[0] == '.' && name != ".lock")
        names.push_back(name);
    return names;
  }

  TemporaryDirectory root;
  WarningLog warnings;
};

} // namespace

//===----------------------------------------------------------------------===//
// Hashing and keys
//===----------------------------------------------------------------------===//

TEST(Sha256Test, KnownVectors) {
  EXPECT_EQ(sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a', fed in uneven pieces.
  Sha256 hash;
  std::string chunk(997, 'a');
  size_t left = 1000000;
  while (left > 0) {
    size_t take = std::min(left, chunk.size());
    hash.update(chunk.data(), take);
    left -= take;
  }
  EXPECT_EQ(toHex(hash.digest()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(CacheKeyTest, FieldsDoNotRunTogether) {
  std::string a = CacheKeyBuilder().add("a", "bc").getKey();
  std::string b = CacheKeyBuilder().add("ab", "c").getKey();
  std::string c = CacheKeyBuilder().add("a", "b").add("c", "").getKey();
  EXPECT_NE(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(a, CacheKeyBuilder().add("a", "bc").getKey());
  EXPECT_TRUE(KernelCache::isValidKey(a));
  EXPECT_EQ(CacheKeyBuilder().add("n", 5).getKey(),
            CacheKeyBuilder().add("n", "5").getKey());
}

TEST(CacheKeyTest, MalformedKeysAndNames) {
  EXPECT_FALSE(KernelCache::isValidKey("../../etc"));
  EXPECT_FALSE(KernelCache::isValidKey(std::string(64, 'A')));
  EXPECT_FALSE(KernelCache::isValidKey(std::string(63, 'a')));
  EXPECT_FALSE(KernelCache::isValidFileName("../x"));
  EXPECT_FALSE(KernelCache::isValidFileName(".hidden"));
  EXPECT_FALSE(KernelCache::isValidFileName("a b"));
  EXPECT_TRUE(KernelCache::isValidFileName("kernel.tk.mlir"));
}

//===----------------------------------------------------------------------===//
// Hits and misses
//===----------------------------------------------------------------------===//

TEST_F(KernelCacheTest, MissThenHit) {
  KernelCache cache(config());
  EXPECT_FALSE(cache.lookup(kKey).has_value());
  EXPECT_FALSE(fs::exists(root.path + "/cache")); // lookups create nothing
  ASSERT_TRUE(cache.store(kKey, sampleFiles()));
  auto hit = cache.lookup(kKey);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(*hit, sampleFiles());
  EXPECT_TRUE(fs::is_regular_file(entryFile("manifest")));
  EXPECT_TRUE(fs::is_regular_file(entryFile("kernel.cubin")));
  EXPECT_TRUE(leftoverTemporaries().empty());

  // Another cache object (another process) over the same folder.
  KernelCache other(config());
  auto otherHit = other.lookup(kKey);
  ASSERT_TRUE(otherHit.has_value());
  EXPECT_EQ(*otherHit, sampleFiles());
  EXPECT_TRUE(warnings.take().empty());
}

TEST_F(KernelCacheTest, StoringAgainKeepsTheEntry) {
  KernelCache cache(config());
  ASSERT_TRUE(cache.store(kKey, sampleFiles()));
  ASSERT_TRUE(cache.store(kKey, sampleFiles()));
  EXPECT_EQ(*cache.lookup(kKey), sampleFiles());
  EXPECT_TRUE(leftoverTemporaries().empty());
  EXPECT_TRUE(warnings.take().empty());
}

TEST_F(KernelCacheTest, DisabledCacheDoesNothing) {
  KernelCacheConfig disabled = config();
  disabled.enabled = false;
  KernelCache cache(disabled);
  EXPECT_FALSE(cache.store(kKey, sampleFiles()));
  EXPECT_FALSE(cache.lookup(kKey).has_value());
  EXPECT_FALSE(fs::exists(root.path + "/cache"));
  EXPECT_FALSE(KernelCache(KernelCacheConfig()).isEnabled());
}

TEST_F(KernelCacheTest, RejectsBadKeysAndNames) {
  KernelCache cache(config());
  EXPECT_FALSE(cache.store("../escape", sampleFiles()));
  EXPECT_FALSE(cache.lookup("../escape").has_value());
  CacheFiles bad = sampleFiles();
  bad["../x"] = "y";
  EXPECT_FALSE(cache.store(kKey, bad));
  CacheFiles manifest = sampleFiles();
  manifest["manifest"] = "y";
  EXPECT_FALSE(cache.store(kKey, manifest));
  EXPECT_EQ(warnings.take().size(), 3u);
  EXPECT_TRUE(cache.isWritable()); // a caller's mistake, not the disk's
}

TEST(KernelCacheConfigTest, Environment) {
  auto saved = [](const char *name) {
    const char *value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
  const char *names[] = {"TK_CACHE_DIR", "TK_CACHE_DISABLE", "XDG_CACHE_HOME",
                         "HOME"};
  std::vector<std::optional<std::string>> old;
  for (const char *name : names)
    old.push_back(saved(name));

  ::unsetenv("TK_CACHE_DIR");
  ::unsetenv("TK_CACHE_DISABLE");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(getKernelCacheConfigFromEnvironment().directory,
            "/home/someone/.cache/tk");
  EXPECT_TRUE(getKernelCacheConfigFromEnvironment().enabled);
  ::setenv("XDG_CACHE_HOME", "relative/is/ignored", 1);
  EXPECT_EQ(getKernelCacheConfigFromEnvironment().directory,
            "/home/someone/.cache/tk");
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(getKernelCacheConfigFromEnvironment().directory, "/xdg/tk");
  ::setenv("TK_CACHE_DIR", "/explicit", 1);
  EXPECT_EQ(getKernelCacheConfigFromEnvironment().directory, "/explicit");
  for (const char *on : {"1", "true", "YES", "on"}) {
    ::setenv("TK_CACHE_DISABLE", on, 1);
    EXPECT_FALSE(getKernelCacheConfigFromEnvironment().enabled) << on;
  }
  ::setenv("TK_CACHE_DISABLE", "0", 1);
  EXPECT_TRUE(getKernelCacheConfigFromEnvironment().enabled);

  for (size_t i = 0; i < old.size(); ++i) {
    if (old[i])
      ::setenv(names[i], old[i]->c_str(), 1);
    else
      ::unsetenv(names[i]);
  }
}

//===----------------------------------------------------------------------===//
// Corrupt entries
//===----------------------------------------------------------------------===//

TEST_F(KernelCacheTest, TruncatedFile) {
  expectCorrupt([&] { fs::resize_file(entryFile("kernel.cubin"), 100); },
                "'kernel.cubin' has 100 bytes, the manifest says 5000");
}

TEST_F(KernelCacheTest, FlippedByteInFile) {
  expectCorrupt(
      [&] {
        std::string bytes = readWholeFile(entryFile("kernel.cubin"));
        bytes[1234] ^= 0x10;
        writeWholeFile(entryFile("kernel.cubin"), bytes);
      },
      "'kernel.cubin' does not match its checksum");
}

TEST_F(KernelCacheTest, MissingFile) {
  expectCorrupt([&] { fs::remove(entryFile("kernel.tk.mlir")); },
                "'kernel.tk.mlir' is missing");
}

TEST_F(KernelCacheTest, MissingManifest) {
  expectCorrupt([&] { fs::remove(entryFile("manifest")); },
                "'manifest' is missing");
}

TEST_F(KernelCacheTest, FlippedByteInManifest) {
  expectCorrupt(
      [&] {
        std::string text = readWholeFile(entryFile("manifest"));
        text[text.find("kernel.cubin") + 2] ^= 0x01;
        writeWholeFile(entryFile("manifest"), text);
      },
      "the manifest does not match its checksum");
}

TEST_F(KernelCacheTest, TruncatedManifest) {
  expectCorrupt(
      [&] {
        std::string text = readWholeFile(entryFile("manifest"));
        writeWholeFile(entryFile("manifest"), text.substr(0, text.size() / 2));
      },
      "the manifest is truncated");
}

TEST_F(KernelCacheTest, EmptyManifest) {
  expectCorrupt([&] { writeWholeFile(entryFile("manifest"), ""); },
                "the manifest is empty");
}

TEST_F(KernelCacheTest, GarbageManifest) {
  expectCorrupt(
      [&] {
        std::string garbage;
        std::mt19937 random(7);
        for (int i = 0; i < 3000; ++i)
          garbage.push_back(char(random()));
        garbage.push_back('\n');
        writeWholeFile(entryFile("manifest"), garbage);
      },
      "the manifest is truncated (no checksum line)");
}

TEST_F(KernelCacheTest, HugeManifest) {
  expectCorrupt(
      [&] { writeWholeFile(entryFile("manifest"), std::string(200000, 'x')); },
      "cannot read the manifest: larger than");
}

// Well-formed manifests (their checksum matches) that this cache never
// writes: they must not be trusted either.
TEST_F(KernelCacheTest, ForgedManifests) {
  auto forge = [&](const std::string &body) {
    return [this, body] {
      writeWholeFile(entryFile("manifest"),
                     body + "checksum " + sha256Hex(body) + "\n");
    };
  };
  std::string header = "tk-kernel-cache 1\nkey " + kKey + "\n";
  expectCorrupt(forge("tk-kernel-cache 2\nkey " + kKey + "\n"),
                "unknown format");
  expectCorrupt(forge("tk-kernel-cache 1\nkey " + std::string(64, '0') + "\n"),
                "belongs to another key");
  expectCorrupt(forge(header + "file kernel.cubin 99999999999999 " +
                      std::string(64, '0') + "\n"),
                "malformed line 3");
  expectCorrupt(
      forge(header + "file ../../etc/passwd 1 " + std::string(64, '0') + "\n"),
      "malformed line 3");
  expectCorrupt(forge(header + "file kernel.cubin 5000\n"), "malformed line 3");
  std::string twice = "file empty 0 " + sha256Hex("") + "\n";
  expectCorrupt(forge(header + twice + twice), "names 'empty' twice");
}

TEST_F(KernelCacheTest, EntryIsAFile) {
  expectCorrupt(
      [&] {
        fs::remove_all(root.path + "/cache/" + kKey);
        writeWholeFile(root.path + "/cache/" + kKey, "garbage");
      },
      "Not a directory");
}

TEST_F(KernelCacheTest, ManifestIsAFolderOrAFifo) {
  expectCorrupt(
      [&] {
        fs::remove(entryFile("manifest"));
        fs::create_directory(entryFile("manifest"));
      },
      "'manifest' is not a regular file");
  expectCorrupt(
      [&] {
        fs::remove(entryFile("kernel.cubin"));
        ASSERT_EQ(::mkfifo(entryFile("kernel.cubin").c_str(), 0600), 0);
      },
      "'kernel.cubin' is not a regular file");
}

// Random damage to random files of the entry: the lookup never crashes and
// returns either nothing (with a warning) or exactly what was stored.
TEST_F(KernelCacheTest, RandomDamageNeverCrashes) {
  std::mt19937 random(1234);
  const char *names[] = {"manifest", "metadata.json", "kernel.cubin",
                         "kernel.tk.mlir", "empty"};
  KernelCache cache(config());
  for (int round = 0; round < 300; ++round) {
    ASSERT_TRUE(cache.store(kKey, sampleFiles()));
    std::string path = entryFile(names[random() % 5]);
    std::string bytes = readWholeFile(path);
    switch (random() % 4) {
    case 0: // truncate
      bytes.resize(bytes.empty() ? 0 : random() % bytes.size());
      break;
    case 1: // flip bits
      for (int i = 0, n = 1 + random() % 4; i < n && !bytes.empty(); ++i)
        bytes[random() % bytes.size()] ^= char(1 << (random() % 8));
      break;
    case 2: // insert garbage
      bytes.insert(bytes.empty() ? 0 : random() % bytes.size(),
                   std::string(1 + random() % 20, char(random())));
      break;
    case 3: // replace by garbage
      bytes.assign(random() % 300, '\0');
      for (char &c : bytes)
        c = char(random());
      break;
    }
    writeWholeFile(path, bytes);
    auto result = cache.lookup(kKey);
    std::vector<std::string> lines = warnings.take();
    if (result) {
      EXPECT_EQ(*result, sampleFiles()) << "round " << round;
      EXPECT_TRUE(lines.empty());
    } else {
      EXPECT_EQ(lines.size(), 1u) << "round " << round;
    }
    fs::remove_all(root.path + "/cache/" + kKey);
  }
}

TEST_F(KernelCacheTest, DiscardCorruptEntry) {
  KernelCache cache(config());
  ASSERT_TRUE(cache.store(kKey, sampleFiles()));
  cache.discardCorruptEntry(kKey, "it has no 'name'");
  std::vector<std::string> lines = warnings.take();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "tk: warning: ignoring corrupt cache entry " +
                          cache.getEntryPath(kKey) + ": it has no 'name'");
  EXPECT_FALSE(fs::exists(cache.getEntryPath(kKey)));
  EXPECT_TRUE(leftoverTemporaries().empty());
}

//===----------------------------------------------------------------------===//
// Caches that cannot be written
//===----------------------------------------------------------------------===//

TEST_F(KernelCacheTest, FolderBelowARegularFile) {
  writeWholeFile(root.path + "/file", "x");
  KernelCache cache(config(root.path + "/file/cache"));
  EXPECT_FALSE(cache.store(kKey, sampleFiles()));
  EXPECT_FALSE(cache.isWritable());
  EXPECT_FALSE(cache.store(kKey, sampleFiles()));
  EXPECT_FALSE(cache.lookup(kKey).has_value());
  std::vector<std::string> lines = warnings.take();
  ASSERT_EQ(lines.size(), 1u); // once
  EXPECT_EQ(lines[0].rfind("tk: warning: cannot write to the kernel cache " +
                               root.path + "/file/cache",
                           0),
            0u)
      << lines[0];
  EXPECT_NE(lines[0].find("continuing without caching"), std::string::npos);
}

TEST_F(KernelCacheTest, ProcFileSystem) {
  KernelCache cache(config("/proc/tk-kernel-cache"));
  EXPECT_FALSE(cache.store(kKey, sampleFiles()));
  EXPECT_EQ(warnings.take().size(), 1u);
}

TEST_F(KernelCacheTest, ReadOnlyFolder) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root ignores chmod 0555; FolderBelowARegularFile and "
                    "ProcFileSystem cover unwritable folders";
  {
    KernelCache filler(config());
    ASSERT_TRUE(filler.store(kKey, sampleFiles()));
  }
  std::string directory = root.path + "/cache";
  ASSERT_EQ(::chmod(directory.c_str(), 0555), 0);
  KernelCache cache(config());
  // Reading still works; writing warns once.
  EXPECT_EQ(*cache.lookup(kKey), sampleFiles());
  std::string otherKey = CacheKeyBuilder().add("kernel", "other").getKey();
  EXPECT_FALSE(cache.store(otherKey, sampleFiles()));
  EXPECT_FALSE(cache.store(otherKey, sampleFiles()));
  std::vector<std::string> lines = warnings.take();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("Permission denied"), std::string::npos) << lines[0];
  ::chmod(directory.c_str(), 0755);
}

TEST_F(KernelCacheTest, FullDisk) {
  int calls = 0;
  KernelCacheConfig full = config();
  full.writeFaultHook = [&](const std::string &path) {
    ++calls;
    return path.find("/kernel.cubin") != std::string::npos ? ENOSPC : 0;
  };
  KernelCache cache(full);
  EXPECT_FALSE(cache.store(kKey, sampleFiles()));
  std::vector<std::string> lines = warnings.take();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("No space left on device"), std::string::npos)
      << lines[0];
  EXPECT_FALSE(fs::exists(cache.getEntryPath(kKey)));
  EXPECT_TRUE(leftoverTemporaries().empty()); // the staging folder is gone
  // Stores stop trying.
  int before = calls;
  EXPECT_FALSE(cache.store(kKey, sampleFiles()));
  EXPECT_EQ(calls, before);
  EXPECT_TRUE(warnings.take().empty());
}

TEST_F(KernelCacheTest, FailureAtEveryStep) {
  // Fail the n-th change on disk, for every n a store makes: the store
  // fails cleanly, nothing half-written is visible, one warning.
  for (int failAt = 1;; ++failAt) {
    int calls = 0;
    KernelCacheConfig failing = config();
    failing.writeFaultHook = [&](const std::string &) {
      return ++calls == failAt ? EIO : 0;
    };
    KernelCache cache(failing);
    bool stored = cache.store(kKey, sampleFiles());
    if (calls < failAt) { // the store made fewer changes: done
      EXPECT_TRUE(stored);
      break;
    }
    EXPECT_FALSE(stored) << failAt;
    EXPECT_EQ(warnings.take().size(), 1u) << failAt;
    EXPECT_FALSE(fs::exists(cache.getEntryPath(kKey))) << failAt;
    EXPECT_TRUE(leftoverTemporaries().empty()) << failAt;
  }
}

//===----------------------------------------------------------------------===//
// Concurrent writers
//===----------------------------------------------------------------------===//

TEST_F(KernelCacheTest, ProcessesFillOneEntryAtOnce) {
  // Each child stores the same entry many times, each with its own cache
  // object, and checks every lookup; a reader checks that it only ever
  // sees nothing or the whole entry. Exit status 0: no failure, no warning.
  constexpr int kWriters = 4;
  std::vector<pid_t> children;
  for (int child = 0; child <= kWriters; ++child) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      bool warned = false;
      KernelCacheConfig childConfig;
      childConfig.directory = root.path + "/cache";
      childConfig.warningHandler = [&](const std::string &) { warned = true; };
      KernelCache cache(childConfig);
      bool ok = true;
      for (int round = 0; round < 100 && ok; ++round) {
        if (child < kWriters) {
          ok = cache.store(kKey, sampleFiles());
          auto files = cache.lookup(kKey);
          ok = ok && files && *files == sampleFiles();
        } else {
          auto files = cache.lookup(kKey);
          ok = !files || *files == sampleFiles();
        }
      }
      ::_exit(ok && !warned ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  KernelCache cache(config());
  EXPECT_EQ(*cache.lookup(kKey), sampleFiles());
  EXPECT_TRUE(leftoverTemporaries().empty());
}

TEST_F(KernelCacheTest, ProcessesReplaceACorruptEntryAtOnce) {
  KernelCache cache(config());
  ASSERT_TRUE(cache.store(kKey, sampleFiles()));
  writeWholeFile(entryFile("manifest"), "garbage\n");
  std::vector<pid_t> children;
  for (int child = 0; child < 4; ++child) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      KernelCacheConfig childConfig;
      childConfig.directory = root.path + "/cache";
      childConfig.warningHandler = [](const std::string &) {};
      KernelCache childCache(childConfig);
      bool ok = childCache.store(kKey, sampleFiles());
      auto files = childCache.lookup(kKey);
      ::_exit(ok && files && *files == sampleFiles() ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(*cache.lookup(kKey), sampleFiles());
  EXPECT_TRUE(leftoverTemporaries().empty());
}

TEST_F(KernelCacheTest, ThreadsWithSeparateCaches) {
  // Threads, each with its own cache object, on shared and private keys.
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      KernelCache cache(config());
      std::string own = CacheKeyBuilder().add("thread", t).getKey();
      CacheFiles ownFiles = {{"value", std::to_string(t)}};
      for (int round = 0; round < 50; ++round) {
        if (!cache.store(kKey, sampleFiles()) || !cache.store(own, ownFiles))
          ++failures;
        auto shared = cache.lookup(kKey);
        auto mine = cache.lookup(own);
        if (!shared || *shared != sampleFiles() || !mine || *mine != ownFiles)
          ++failures;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_TRUE(warnings.take().empty());
  EXPECT_TRUE(leftoverTemporaries().empty());
}
