//===- Grid.h - The launch grid ---------------------------------*- C++ -*-===//

#ifndef TK_GRID_H
#define TK_GRID_H

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace tk {

/// Number of programs (CUDA blocks) along x, y, z. Written `{rows}` or
/// `{m, n}` at a launch. Any integer type is accepted (the constructor is a
/// template so that `{n}` with a size_t n is not a narrowing error); values
/// are checked at launch: negative or above the device limit is an Error,
/// and a grid with a zero dimension launches nothing (as in Triton).
struct Grid {
  int64_t x = 1, y = 1, z = 1;

  Grid() = default;
  template <typename X, typename Y = int, typename Z = int,
            typename = std::enable_if_t<std::is_integral_v<X> &&
                                        std::is_integral_v<Y> &&
                                        std::is_integral_v<Z>>>
  Grid(X x, Y y = 1, Z z = 1)
      : x(saturate(x)), y(saturate(y)), z(saturate(z)) {}

  bool isEmpty() const { return x == 0 || y == 0 || z == 0; }
  /// "(x,y,z)"
  std::string toString() const {
    return "(" + std::to_string(x) + "," + std::to_string(y) + "," +
           std::to_string(z) + ")";
  }

private:
  template <typename T> static int64_t saturate(T v) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t)) {
      if (v > static_cast<T>(std::numeric_limits<int64_t>::max()))
        return std::numeric_limits<int64_t>::max();
    }
    return static_cast<int64_t>(v);
  }
};

} // namespace tk

#endif // TK_GRID_H
