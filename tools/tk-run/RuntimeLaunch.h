//===- RuntimeLaunch.h - Running a kernel through libtkrt ---------*- C++ -*-===//
//
// tk-run --gpu (and, for tests, any other libtkrt backend): loads the image
// into a tk::Context, uploads the bound host buffers into device buffers,
// launches with the scalar arguments typed as declared (libtkrt checks them
// against the metadata), waits, and downloads every buffer back.
//
//===----------------------------------------------------------------------===//

#ifndef TK_TOOLS_TK_RUN_RUNTIMELAUNCH_H
#define TK_TOOLS_TK_RUN_RUNTIMELAUNCH_H

#include "tools/tk-run/Bindings.h"
#include "tools/tk-run/KernelSource.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tk::run {

/// `backend` names a libtkrt backend; empty means the GPU
/// (tk::Mode::Gpu). `seconds` receives the launch-to-sync time.
llvm::Error launchThroughRuntime(const RuntimeImage &image,
                                 const std::string &backend,
                                 const interp::LaunchGrid &grid,
                                 const std::vector<BoundArg> &args,
                                 double &seconds);

} // namespace tk::run

#endif // TK_TOOLS_TK_RUN_RUNTIMELAUNCH_H
