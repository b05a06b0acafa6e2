//===- RuntimeLaunch.cpp - Running a kernel through libtkrt ---------------===//
#include "tools/tk-run/RuntimeLaunch.h"

#include "tk/runtime.h"

#include <algorithm>
#include <chrono>

using namespace tk;
using namespace tk::run;

llvm::Error tk::run::launchThroughRuntime(const RuntimeImage &image,
                                          const std::string &backend,
                                          const interp::LaunchGrid &grid,
                                          const std::vector<BoundArg> &args,
                                          double &seconds,
                                          BenchRequest *bench) {
  try {
    Context context = backend.empty() ? Context::create(Mode::Gpu)
                                      : Context::createWithBackend(backend);
    ModuleImage moduleImage;
    moduleImage.metadata = Metadata::parse(image.metadataJson, image.origin);
    moduleImage.origin = image.origin;
    moduleImage.binaryData = image.cubin;
    moduleImage.tkIrData = image.tkIr;
    Module module = Module::loadImage(context, std::move(moduleImage));
    Kernel kernel = module.kernel();

    std::vector<Buffer> buffers(args.size());
    std::vector<ArgValue> values;
    for (size_t i = 0; i < args.size(); ++i) {
      const BoundArg &arg = args[i];
      std::optional<ArgType> type = parseArgType(arg.param->sourceType);
      if (!type)
        throw Error("parameter '" + arg.param->name + "' has type '" +
                    arg.param->sourceType + "', which libtkrt cannot pass");
      if (arg.buffer) {
        buffers[i] = context.alloc(arg.buffer->bytes);
        buffers[i].upload(arg.buffer->data(), arg.buffer->bytes);
        values.push_back(ArgValue::pointer(buffers[i].ptr(), type->scalar));
        continue;
      }
      ArgValue value;
      value.type = *type;
      value.bits = arg.bits;
      // libtkrt holds signed integers sign-extended to 64 bits.
      unsigned width = arg.type.bits;
      if (isSignedIntegerKind(type->scalar) && width < 64)
        value.bits = static_cast<uint64_t>(
            static_cast<int64_t>(arg.bits << (64 - width)) >> (64 - width));
      values.push_back(value);
    }

    auto start = std::chrono::steady_clock::now();
    kernel.launchPacked(Grid(grid.x, grid.y, grid.z), nullptr, values);
    context.sync();
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            start)
                  .count();
    if (bench && bench->runs) {
      Grid launchGrid(grid.x, grid.y, grid.z);
      // On a GPU, clearing more than the L2 (50 MiB on an H100/H200)
      // between launches leaves none of the inputs there.
      Buffer flush;
      if (!context.isInterpreter())
        flush = context.alloc(size_t(256) << 20);
      bench->flushedL2 = flush.size() != 0;
      unsigned warmup = std::max(3u, bench->runs / 10);
      for (unsigned i = 0; i < warmup; ++i)
        kernel.launchPacked(launchGrid, nullptr, values);
      context.sync();
      Event start(context), end(context);
      for (unsigned i = 0; i < bench->runs; ++i) {
        if (flush.size())
          flush.fill(0);
        start.record();
        kernel.launchPacked(launchGrid, nullptr, values);
        end.record();
        bench->timesMs.push_back(double(end.elapsedMsSince(start)));
      }
      context.sync();
    }
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].buffer)
        buffers[i].download(args[i].buffer->data(), args[i].buffer->bytes);
  } catch (const Error &error) {
    return llvm::createStringError(error.what());
  }
  return llvm::Error::success();
}
