//===- ArgCheck.h - Checking launch arguments against metadata -*- C++ -*-===//
//
// Backend-neutral checks done before every launch. Exposed so that tools and
// backends can reuse them; Kernel::launch calls them for you.
//
//===----------------------------------------------------------------------===//

#ifndef TK_ARGCHECK_H
#define TK_ARGCHECK_H

#include "tk/ArgValue.h"
#include "tk/Backend.h"
#include "tk/Grid.h"
#include "tk/Metadata.h"

#include <vector>

namespace tk {

/// Checks `args` against the kernel's parameters (count, kind, width,
/// signedness, pointee where known, null pointers, div16/one specs) and
/// returns them converted to exactly the declared types: an `anyInteger`
/// value becomes the parameter's integer type. Throws tk::Error with a
/// message naming the kernel and the argument.
std::vector<ArgValue> checkArguments(const Metadata &metadata,
                                     const std::vector<ArgValue> &args);

/// The same into `checked` (cleared first): with enough capacity, no
/// allocation (the launch-time JIT's cheap path, docs/api.md).
void checkArgumentsInto(const Metadata &metadata, const ArgValue *args,
                        size_t count, std::vector<ArgValue> &checked);

/// Throws tk::Error if a grid dimension is negative or exceeds the
/// device's limit, or if a clustered kernel's grid x is not a multiple of
/// its cluster size.
void checkGrid(const Metadata &metadata, const Grid &grid,
               const DeviceInfo &device);

/// Throws tk::Error if the kernel cannot run on `device` at all (shared
/// memory, threads per block).
void checkKernelFitsDevice(const Metadata &metadata, const DeviceInfo &device);

} // namespace tk

#endif // TK_ARGCHECK_H
