//===- Module.cpp - Loading kernels and launching them --------------------===//

#include "tk/Module.h"
#include "tk/ArgCheck.h"
#include "tk/Context.h"
#include "tk/Error.h"

#include "FileUtil.h"

using namespace tk;

detail::ModuleState::~ModuleState() {
  impl.reset(); // Explicitly before `backend`, which it belongs to.
}

static bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Module Module::loadImage(const Context &context, ModuleImage image) {
  image.metadata.validate(image.origin);
  checkKernelFitsDevice(image.metadata, context.deviceInfo());
  auto state = std::make_shared<detail::ModuleState>();
  state->backend = context.sharedBackend();
  state->device = context.deviceInfo();
  state->impl = state->backend->loadModule(image);
  if (!state->impl)
    throw Error("kernel '" + image.metadata.name + "': backend '" +
                context.backendName() + "' returned no module");
  state->metadata = std::move(image.metadata);
  return Module(std::move(state));
}

Module Module::load(const Context &context, const std::string &path) {
  std::string jsonPath = path;
  if (!endsWith(path, ".json")) {
    jsonPath = detail::replaceExtension(path, ".json");
    if (!detail::fileExists(jsonPath))
      throw Error("no metadata file '" + jsonPath + "' beside '" + path +
                  "' (tkc writes NAME.json next to NAME.cubin or NAME.ptx)");
  }
  ModuleImage image;
  image.metadata = Metadata::load(jsonPath);
  image.directory = detail::parentDirectory(jsonPath);
  image.origin = jsonPath;
  return loadImage(context, std::move(image));
}

Module Module::loadFromMemory(const Context &context,
                              std::string_view metadataJson,
                              std::string_view binary) {
  ModuleImage image;
  image.origin = "<memory>";
  image.metadata = Metadata::parse(metadataJson, image.origin);
  image.binaryData = std::string(binary);
  return loadImage(context, std::move(image));
}

Kernel Module::kernel(const std::string &name) const {
  if (name != state->metadata.name)
    throw Error("no kernel named '" + name +
                "' in this module; it holds only '" + state->metadata.name +
                "'");
  return Kernel(state);
}

void Kernel::launchPacked(const Grid &grid, Stream *stream,
                          const ArgValue *args, size_t count) const {
  const Metadata &md = state->metadata;
  if (stream && stream->getBackend() != state->backend.get())
    throw Error("kernel '" + md.name +
                "': the stream belongs to a different context than the "
                "module");
  if (stream && !stream->getImpl())
    throw Error("kernel '" + md.name + "': launch on a moved-from tk::Stream");
  // Reused across launches on this thread: no allocation per launch. A
  // backend's launch does not launch again, so one buffer suffices.
  thread_local std::vector<ArgValue> checked;
  checkArgumentsInto(md, args, count, checked);
  checkGrid(md, grid, state->device);
  if (grid.isEmpty())
    return; // Nothing to run, as in Triton.
  state->impl->kernel().launch(grid, stream ? stream->getImpl() : nullptr,
                               checked);
}
