//===- FileUtil.cpp - Small file and path helpers -------------------------===//

#include "FileUtil.h"
#include "tk/Error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

using namespace tk;

std::string detail::readFile(const std::string &path, const std::string &what) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw Error("cannot read " + what + " '" + path + "': it is a directory");
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    throw Error("cannot read " + what + " '" + path +
                "': " + std::strerror(errno));
  std::string contents;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    contents.append(buffer, n);
  bool failed = std::ferror(file);
  int savedErrno = errno;
  std::fclose(file);
  if (failed)
    throw Error("cannot read " + what + " '" + path +
                "': " + std::strerror(savedErrno));
  return contents;
}

void detail::writeFile(const std::string &path, std::string_view contents,
                       const std::string &what) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    throw Error("cannot write " + what + " '" + path +
                "': " + std::strerror(errno));
  size_t written = std::fwrite(contents.data(), 1, contents.size(), file);
  int savedErrno = errno;
  bool closeFailed = std::fclose(file) != 0;
  if (written != contents.size() || closeFailed)
    throw Error("cannot write " + what + " '" + path +
                "': " + std::strerror(savedErrno ? savedErrno : EIO));
}

bool detail::fileExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}

std::string detail::parentDirectory(const std::string &path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return "";
  if (slash == 0)
    return "/";
  return path.substr(0, slash);
}

std::string detail::joinPath(const std::string &dir, const std::string &name) {
  if (dir.empty() || (!name.empty() && name.front() == '/'))
    return name;
  if (dir.back() == '/')
    return dir + name;
  return dir + "/" + name;
}

std::string detail::replaceExtension(const std::string &path,
                                     const std::string &extension) {
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  bool hasExtension = dot != std::string::npos &&
                      (slash == std::string::npos || dot > slash + 1);
  return (hasExtension ? path.substr(0, dot) : path) + extension;
}
