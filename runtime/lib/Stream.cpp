//===- Stream.cpp - Streams and events ------------------------------------===//

#include "tk/Stream.h"
#include "tk/Context.h"
#include "tk/Error.h"

using namespace tk;

Stream::Stream(const Context &context)
    : backend(context.sharedBackend()), impl(backend->createStream()) {}

Stream Stream::wrap(const Context &context, void *nativeHandle) {
  std::shared_ptr<Backend> backend = context.sharedBackend();
  std::unique_ptr<StreamImpl> impl = backend->wrapStream(nativeHandle);
  return Stream(std::move(backend), std::move(impl));
}

Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    impl.reset(); // Before the backend it belongs to can go away.
    backend = std::move(other.backend);
    impl = std::move(other.impl);
  }
  return *this;
}

Stream::~Stream() = default;

void Stream::sync() {
  if (!impl)
    throw Error("sync of a moved-from tk::Stream");
  impl->sync();
}

Event::Event(const Context &context)
    : backend(context.sharedBackend()), impl(backend->createEvent()) {}

Event &Event::operator=(Event &&other) noexcept {
  if (this != &other) {
    impl.reset();
    backend = std::move(other.backend);
    impl = std::move(other.impl);
  }
  return *this;
}

Event::~Event() = default;

void Event::record(Stream *stream) {
  if (!impl)
    throw Error("record of a moved-from tk::Event");
  if (stream && stream->getBackend() != backend.get())
    throw Error("tk::Event::record: the stream belongs to another context");
  impl->record(stream ? stream->getImpl() : nullptr);
}

void Event::sync() {
  if (!impl)
    throw Error("sync of a moved-from tk::Event");
  impl->sync();
}

float Event::elapsedMsSince(const Event &start) {
  if (!impl || !start.impl)
    throw Error("elapsed time of a moved-from tk::Event");
  if (start.backend != backend)
    throw Error("tk::Event: events of different contexts cannot be compared");
  return impl->elapsedMsSince(*start.impl);
}
