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

/// tk-run --bench: after the run, `runs` timed launches.
struct BenchRequest {
  unsigned runs = 0; // 0: no benchmark
  /// Milliseconds of each timed launch.
  std::vector<double> timesMs;
  /// Whether the L2 cache was flushed between launches (GPU only).
  bool flushedL2 = false;
};

/// `backend` names a libtkrt backend; empty means the GPU
/// (tk::Mode::Gpu). `seconds` receives the launch-to-sync time. With
/// `bench` (runs > 0): warm-up launches, then `runs` launches, each
/// between two events, with a 256 MiB buffer cleared before each on the
/// GPU so that no launch finds the previous one's data in L2 (Triton's
/// do_bench).
llvm::Error launchThroughRuntime(const RuntimeImage &image,
                                 const std::string &backend,
                                 const interp::LaunchGrid &grid,
                                 const std::vector<BoundArg> &args,
                                 double &seconds,
                                 BenchRequest *bench = nullptr);

} // namespace tk::run

#endif // TK_TOOLS_TK_RUN_RUNTIMELAUNCH_H
