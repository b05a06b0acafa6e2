//===- FileUtil.h - Small file and path helpers (internal) -----*- C++ -*-===//

#ifndef TK_LIB_FILEUTIL_H
#define TK_LIB_FILEUTIL_H

#include <string>
#include <string_view>

namespace tk {
namespace detail {

/// Reads a whole file; throws tk::Error("cannot read <what> '<path>': <why>").
std::string readFile(const std::string &path, const std::string &what);
/// Writes a whole file; throws tk::Error on failure.
void writeFile(const std::string &path, std::string_view contents,
               const std::string &what);
bool fileExists(const std::string &path);
/// The folder part of `path` ("" if none), without the trailing '/'.
std::string parentDirectory(const std::string &path);
/// `name` if absolute or `dir` empty, else dir + "/" + name.
std::string joinPath(const std::string &dir, const std::string &name);
/// `path` with its extension (after the last '.' of the last component)
/// replaced by `extension` (which includes the dot); appended if none.
std::string replaceExtension(const std::string &path,
                             const std::string &extension);

} // namespace detail
} // namespace tk

#endif // TK_LIB_FILEUTIL_H
