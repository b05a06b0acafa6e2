//===- KernelCache.cpp - the on-disk cache of compiled kernels ------------===//
//
// The manifest, a text file checked before anything else is trusted:
//
//   tk-kernel-cache 1
//   key <key>
//   file <name> <size> <sha256>        one line per file
//   checksum <sha256 of every line above, newlines included>
//
// Reading opens the entry folder once and every file relative to it, so a
// concurrent replacement of the entry cannot mix two entries' files.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/KernelCache.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>
#include <vector>

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

namespace tk {

namespace {

constexpr std::string_view kManifestName = "manifest";
constexpr std::string_view kManifestHeader = "tk-kernel-cache 1";
// Bounds on what a manifest may claim, so that garbage cannot make the
// reader allocate without limit.
constexpr size_t kMaxManifestBytes = 64 * 1024;
constexpr size_t kMaxFileBytes = size_t(1) << 31;
constexpr size_t kMaxFiles = 64;

/// Closes a file descriptor when it goes out of scope.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd = -1) : fd(fd) {}
  ~FileDescriptor() {
    if (fd >= 0)
      ::close(fd);
  }
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
  int get() const { return fd; }
  /// Takes ownership of `newFd`, closing the descriptor held so far.
  void reset(int newFd) {
    close();
    fd = newFd;
  }
  /// Closes now; returns close()'s errno, or 0.
  int close() {
    int result = fd >= 0 && ::close(fd) != 0 ? errno : 0;
    fd = -1;
    return result;
  }

private:
  int fd;
};

std::string errorText(int error) { return std::strerror(error); }

/// An exclusive flock(2) on <directory>/.lock, taken only to replace an
/// entry (rare). Best effort: where the lock file cannot be made, the
/// replacement goes ahead unlocked (at worst, a concurrent reader misses).
class ReplacementLock {
public:
  explicit ReplacementLock(const std::string &directory)
      : file(::open((directory + "/.lock").c_str(),
                    O_RDWR | O_CREAT | O_CLOEXEC, 0666)) {
    if (file.get() >= 0)
      while (::flock(file.get(), LOCK_EX) != 0 && errno == EINTR) {
      }
  }

private:
  // Closing the descriptor releases the lock.
  FileDescriptor file;
};

/// Reads `fd` to its end; fails (with a reason) past `limit` bytes.
bool readToEnd(int fd, size_t limit, std::string &out, std::string &why) {
  out.clear();
  char chunk[65536];
  while (true) {
    ssize_t got = ::read(fd, chunk, sizeof(chunk));
    if (got < 0) {
      if (errno == EINTR)
        continue;
      why = errorText(errno);
      return false;
    }
    if (got == 0)
      return true;
    if (out.size() + size_t(got) > limit) {
      why = "larger than " + std::to_string(limit) + " bytes";
      return false;
    }
    out.append(chunk, size_t(got));
  }
}

bool writeAll(int fd, std::string_view data, int &error) {
  while (!data.empty()) {
    ssize_t wrote = ::write(fd, data.data(), data.size());
    if (wrote < 0) {
      if (errno == EINTR)
        continue;
      error = errno;
      return false;
    }
    data.remove_prefix(size_t(wrote));
  }
  return true;
}

bool isHexDigest(std::string_view text) {
  if (text.size() != 64)
    return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  return true;
}

/// Splits `text` at single spaces.
std::vector<std::string_view> splitWords(std::string_view text) {
  std::vector<std::string_view> words;
  while (true) {
    size_t space = text.find(' ');
    words.push_back(text.substr(0, space));
    if (space == std::string_view::npos)
      return words;
    text.remove_prefix(space + 1);
  }
}

bool parseSize(std::string_view text, size_t &value) {
  if (text.empty() || text.size() > 12)
    return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    value = value * 10 + size_t(c - '0');
  }
  return true;
}

struct ManifestFile {
  std::string name;
  size_t size = 0;
  std::string sha256;
};

std::string buildManifest(std::string_view key, const CacheFiles &files) {
  std::string text = std::string(kManifestHeader) + "\n";
  text += "key " + std::string(key) + "\n";
  for (const auto &[name, bytes] : files)
    text += "file " + name + " " + std::to_string(bytes.size()) + " " +
            sha256Hex(bytes) + "\n";
  text += "checksum " + sha256Hex(text) + "\n";
  return text;
}

/// Parses and checks a manifest; on failure `why` says what is wrong.
bool parseManifest(std::string_view text, std::string_view key,
                   std::vector<ManifestFile> &files, std::string &why) {
  if (text.empty()) {
    why = "the manifest is empty";
    return false;
  }
  if (text.back() != '\n') {
    why = "the manifest is truncated";
    return false;
  }
  size_t lastLine = text.rfind('\n', text.size() - 2);
  size_t bodyEnd = lastLine == std::string_view::npos ? 0 : lastLine + 1;
  std::string_view body = text.substr(0, bodyEnd);
  std::string_view checksumLine =
      text.substr(bodyEnd, text.size() - 1 - bodyEnd);
  std::vector<std::string_view> words = splitWords(checksumLine);
  if (words.size() != 2 || words[0] != "checksum" || !isHexDigest(words[1])) {
    why = "the manifest is truncated (no checksum line)";
    return false;
  }
  if (sha256Hex(body) != words[1]) {
    why = "the manifest does not match its checksum";
    return false;
  }

  // The checksum matched: what follows only rejects manifests that were
  // never written by this cache (or by another version of it).
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < body.size();) {
    size_t end = body.find('\n', start);
    lines.push_back(body.substr(start, end - start));
    start = end + 1;
  }
  if (lines.size() < 2 || lines[0] != kManifestHeader) {
    why = "the manifest has an unknown format";
    return false;
  }
  words = splitWords(lines[1]);
  if (words.size() != 2 || words[0] != "key" || words[1] != key) {
    why = "the manifest belongs to another key";
    return false;
  }
  if (lines.size() - 2 > kMaxFiles) {
    why = "the manifest lists too many files";
    return false;
  }
  for (size_t i = 2; i < lines.size(); ++i) {
    words = splitWords(lines[i]);
    ManifestFile file;
    if (words.size() != 4 || words[0] != "file" ||
        !KernelCache::isValidFileName(words[1]) || words[1] == kManifestName ||
        !parseSize(words[2], file.size) || file.size > kMaxFileBytes ||
        !isHexDigest(words[3])) {
      why = "the manifest has a malformed line " + std::to_string(i + 1);
      return false;
    }
    file.name = std::string(words[1]);
    file.sha256 = std::string(words[3]);
    for (const ManifestFile &other : files)
      if (other.name == file.name) {
        why = "the manifest names '" + file.name + "' twice";
        return false;
      }
    files.push_back(std::move(file));
  }
  return true;
}

enum class EntryState { Missing, Valid, Corrupt };

struct EntryRead {
  EntryState state = EntryState::Missing;
  CacheFiles files;
  std::string why;
  /// The folder read, to tell a corrupt entry from one replaced meanwhile.
  dev_t device = 0;
  ino_t inode = 0;
};

EntryRead corrupt(EntryRead read, std::string why) {
  read.state = EntryState::Corrupt;
  read.files.clear();
  read.why = std::move(why);
  return read;
}

/// Reads and checks the entry at `path`.
EntryRead readEntry(const std::string &path, std::string_view key) {
  EntryRead read;
  FileDescriptor folder(
      ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (folder.get() < 0) {
    int error = errno;
    // Only something at the entry's own path is a damaged entry; a cache
    // folder that is missing or cannot be searched is just empty.
    struct stat info;
    if (error == ENOENT || ::lstat(path.c_str(), &info) != 0)
      return read;
    return corrupt(std::move(read), "cannot open it: " + errorText(error));
  }
  struct stat folderStat;
  if (::fstat(folder.get(), &folderStat) == 0) {
    read.device = folderStat.st_dev;
    read.inode = folderStat.st_ino;
  }

  // Opens `name` in the entry as a regular file.
  auto openFile = [&](const std::string &name, FileDescriptor &file,
                      struct stat &info, std::string &why) {
    int fd = ::openat(folder.get(), name.c_str(),
                      O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
      why = errno == ENOENT ? "'" + name + "' is missing"
                            : "cannot open '" + name + "': " + errorText(errno);
      return false;
    }
    file.reset(fd);
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
      why = "'" + name + "' is not a regular file";
      return false;
    }
    return true;
  };

  std::string why;
  std::string manifestText;
  {
    FileDescriptor manifest;
    struct stat info;
    if (!openFile(std::string(kManifestName), manifest, info, why))
      return corrupt(std::move(read), why);
    if (!readToEnd(manifest.get(), kMaxManifestBytes, manifestText, why))
      return corrupt(std::move(read), "cannot read the manifest: " + why);
  }
  std::vector<ManifestFile> listed;
  if (!parseManifest(manifestText, key, listed, why))
    return corrupt(std::move(read), why);

  for (const ManifestFile &entry : listed) {
    FileDescriptor file;
    struct stat info;
    if (!openFile(entry.name, file, info, why))
      return corrupt(std::move(read), why);
    if (size_t(info.st_size) != entry.size)
      return corrupt(std::move(read), "'" + entry.name + "' has " +
                                          std::to_string(info.st_size) +
                                          " bytes, the manifest says " +
                                          std::to_string(entry.size));
    std::string bytes;
    if (!readToEnd(file.get(), entry.size, bytes, why))
      return corrupt(std::move(read),
                     "cannot read '" + entry.name + "': " + why);
    if (bytes.size() != entry.size)
      return corrupt(std::move(read), "'" + entry.name + "' is truncated");
    if (sha256Hex(bytes) != entry.sha256)
      return corrupt(std::move(read),
                     "'" + entry.name + "' does not match its checksum");
    read.files.emplace(entry.name, std::move(bytes));
  }
  read.state = EntryState::Valid;
  return read;
}

/// Whether `path` names another folder than the one `read` came from (the
/// entry was replaced while it was read).
bool wasReplaced(const std::string &path, const EntryRead &read) {
  struct stat now;
  if (::stat(path.c_str(), &now) != 0)
    return true;
  return now.st_dev != read.device || now.st_ino != read.inode;
}

bool isTruthy(const char *value) {
  if (!value)
    return false;
  std::string text = value;
  for (char &c : text)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return text == "1" || text == "true" || text == "yes" || text == "on";
}

std::string getEnvironment(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

} // namespace

//===----------------------------------------------------------------------===//
// CacheKeyBuilder
//===----------------------------------------------------------------------===//

CacheKeyBuilder &CacheKeyBuilder::add(std::string_view field,
                                      std::string_view value) {
  // "<field length>:<field><value length>:<value>" cannot be produced by
  // two different field lists.
  std::string header = std::to_string(field.size()) + ":";
  hash.update(header);
  hash.update(field);
  header = std::to_string(value.size()) + ":";
  hash.update(header);
  hash.update(value);
  return *this;
}

CacheKeyBuilder &CacheKeyBuilder::add(std::string_view field, long long value) {
  return add(field, std::to_string(value));
}

std::string CacheKeyBuilder::getKey() const {
  Sha256 copy = hash;
  return toHex(copy.digest());
}

//===----------------------------------------------------------------------===//
// Configuration
//===----------------------------------------------------------------------===//

KernelCacheConfig getKernelCacheConfigFromEnvironment() {
  KernelCacheConfig config;
  config.enabled = !isTruthy(std::getenv("TK_CACHE_DISABLE"));
  if (std::string limit = getEnvironment("TK_CACHE_MAX_BYTES");
      !limit.empty()) {
    if (std::optional<uint64_t> bytes = parseCacheSize(limit))
      config.maxBytes = *bytes;
    else
      std::fprintf(stderr,
                   "tk: warning: ignoring TK_CACHE_MAX_BYTES='%s' (expected "
                   "a number of bytes, e.g. 500M)\n",
                   limit.c_str());
  }
  if (std::string dir = getEnvironment("TK_CACHE_DIR"); !dir.empty()) {
    config.directory = dir;
    return config;
  }
  // The XDG base directory rules: a relative XDG_CACHE_HOME is ignored.
  if (std::string xdg = getEnvironment("XDG_CACHE_HOME");
      !xdg.empty() && xdg[0] == '/') {
    config.directory = xdg + "/tk";
    return config;
  }
  std::string home = getEnvironment("HOME");
  if (home.empty())
    if (const struct passwd *user = ::getpwuid(::getuid()))
      if (user->pw_dir)
        home = user->pw_dir;
  if (home.empty()) {
    config.enabled = false;
    return config;
  }
  config.directory = home + "/.cache/tk";
  return config;
}

//===----------------------------------------------------------------------===//
// KernelCache
//===----------------------------------------------------------------------===//

KernelCache::KernelCache(KernelCacheConfig config) : config(std::move(config)) {
  if (this->config.directory.empty())
    this->config.enabled = false;
}

KernelCache &KernelCache::getDefault() {
  static KernelCache cache(getKernelCacheConfigFromEnvironment());
  return cache;
}

std::string KernelCache::getEntryPath(std::string_view key) const {
  return config.directory + "/" + std::string(key);
}

bool KernelCache::isValidKey(std::string_view key) { return isHexDigest(key); }

bool KernelCache::isValidFileName(std::string_view name) {
  if (name.empty() || name.size() > 100 || name[0] == '.')
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
      return false;
  return true;
}

void KernelCache::warn(const std::string &message) const {
  if (config.warningHandler) {
    config.warningHandler(message);
    return;
  }
  std::cerr << message << std::endl;
}

void KernelCache::disableWrites(const std::string &path, int error) {
  if (!writable.exchange(false))
    return;
  warn("tk: warning: cannot write to the kernel cache " + config.directory +
       " (" + path + ": " + errorText(error) + "); continuing without caching");
}

int KernelCache::injectedFault(const std::string &path) const {
  return config.writeFaultHook ? config.writeFaultHook(path) : 0;
}

std::string KernelCache::makeTemporaryPath(const char *kind,
                                           std::string_view key) const {
  // Unique across processes (pid), threads and calls (counter), and across
  // pid reuse after a crash (a random number drawn once per process).
  static std::atomic<unsigned long long> counter{0};
  static const unsigned long long processNonce = [] {
    std::random_device device;
    return (static_cast<unsigned long long>(device()) << 32) ^ device();
  }();
  char suffix[64];
  std::snprintf(suffix, sizeof(suffix), "%ld-%llu-%llx", long(::getpid()),
                counter.fetch_add(1), processNonce);
  return config.directory + "/." + kind + "-" + std::string(key.substr(0, 16)) +
         "-" + suffix;
}

std::optional<CacheFiles> KernelCache::lookup(std::string_view key) {
  if (!config.enabled || !isValidKey(key))
    return std::nullopt;
  std::string path = getEntryPath(key);
  // A second try when the entry was replaced while it was read (a store
  // overwriting a corrupt entry): that is no corruption.
  for (int attempt = 0; attempt < 2; ++attempt) {
    EntryRead read = readEntry(path, key);
    if (read.state == EntryState::Valid) {
      // The manifest's time is the entry's last use, for LRU eviction; a
      // read-only cache keeps its old times.
      std::string manifest = path + "/" + std::string(kManifestName);
      ::utimensat(AT_FDCWD, manifest.c_str(), nullptr, 0);
      return std::move(read.files);
    }
    if (read.state == EntryState::Missing)
      return std::nullopt;
    if (attempt == 0 && read.inode != 0 && wasReplaced(path, read))
      continue;
    warn("tk: warning: ignoring corrupt cache entry " + path + ": " + read.why);
    return std::nullopt;
  }
  return std::nullopt;
}

bool KernelCache::writeStaging(const std::string &staging, std::string_view key,
                               const CacheFiles &files, std::string &failedPath,
                               int &error) const {
  auto writeFile = [&](const std::string &path, std::string_view bytes) {
    failedPath = path;
    if ((error = injectedFault(path)))
      return false;
    FileDescriptor file(
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
    if (file.get() < 0) {
      error = errno;
      return false;
    }
    if (!writeAll(file.get(), bytes, error))
      return false;
    // A full disk may only show when the data is flushed at close.
    return (error = file.close()) == 0;
  };
  for (const auto &[name, bytes] : files)
    if (!writeFile(staging + "/" + name, bytes))
      return false;
  // The manifest last: a folder without one is never valid.
  return writeFile(staging + "/" + std::string(kManifestName),
                   buildManifest(key, files));
}

bool KernelCache::store(std::string_view key, const CacheFiles &files) {
  if (!config.enabled || !writable.load())
    return false;
  if (!isValidKey(key)) {
    warn("tk: warning: not caching under the malformed key '" +
         std::string(key) + "'");
    return false;
  }
  for (const auto &entry : files)
    if (!isValidFileName(entry.first) || entry.first == kManifestName ||
        entry.second.size() > kMaxFileBytes) {
      warn("tk: warning: not caching the file '" + entry.first +
           "' (a bad name, or too large)");
      return false;
    }

  std::error_code fsError;
  if (int fault = injectedFault(config.directory)) {
    disableWrites(config.directory, fault);
    return false;
  }
  std::filesystem::create_directories(config.directory, fsError);
  if (fsError) {
    disableWrites(config.directory, fsError.value());
    return false;
  }

  std::string staging = makeTemporaryPath("tmp", key);
  int error = injectedFault(staging);
  if (!error && ::mkdir(staging.c_str(), 0777) != 0)
    error = errno;
  if (error) {
    disableWrites(staging, error);
    return false;
  }
  auto discardStaging = [&] {
    std::error_code ignored;
    std::filesystem::remove_all(staging, ignored);
  };
  std::string failedPath;
  if (!writeStaging(staging, key, files, failedPath, error)) {
    discardStaging();
    disableWrites(failedPath, error);
    return false;
  }

  // Publish. An entry already there is either valid (another process
  // stored it first: done) or corrupt: then it is replaced under the
  // replacement lock, so that two processes replacing one corrupt entry
  // cannot remove each other's fresh entries.
  std::string path = getEntryPath(key);
  auto publish = [&] {
    int fault = injectedFault(path);
    if (fault)
      return fault;
    return ::rename(staging.c_str(), path.c_str()) == 0 ? 0 : errno;
  };
  // rename(2) onto a non-empty folder, or onto a file.
  auto isOccupied = [](int failure) {
    return failure == ENOTEMPTY || failure == EEXIST || failure == ENOTDIR ||
           failure == EISDIR;
  };
  error = publish();
  if (error == 0) {
    if (config.maxBytes)
      evictToSize(config.maxBytes, key);
    return true;
  }
  if (isOccupied(error)) {
    ReplacementLock lock(config.directory);
    for (int attempt = 0; attempt < 3; ++attempt) {
      if (readEntry(path, key).state == EntryState::Valid) {
        discardStaging();
        return true;
      }
      if (!removeEntry(key) && errno != ENOENT) {
        error = errno;
        break;
      }
      error = publish();
      if (error == 0)
        return true;
      if (!isOccupied(error))
        break;
    }
  }
  discardStaging();
  disableWrites(path, error);
  return false;
}

bool KernelCache::removeEntry(std::string_view key) {
  // Renamed first, so that readers see the whole entry or nothing.
  std::string stale = makeTemporaryPath("stale", key);
  std::string path = getEntryPath(key);
  if (int fault = injectedFault(path)) {
    errno = fault;
    return false;
  }
  if (::rename(path.c_str(), stale.c_str()) != 0)
    return false;
  std::error_code ignored;
  std::filesystem::remove_all(stale, ignored);
  return true;
}

void KernelCache::discardCorruptEntry(std::string_view key,
                                      const std::string &why) {
  if (!config.enabled || !isValidKey(key))
    return;
  warn("tk: warning: ignoring corrupt cache entry " + getEntryPath(key) + ": " +
       why);
  // A failure here shows up, and is reported, when the entry is stored.
  ReplacementLock lock(config.directory);
  removeEntry(key);
}

} // namespace tk
