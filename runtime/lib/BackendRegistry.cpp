//===- BackendRegistry.cpp - Named backend factories ----------------------===//
//
// A function-local static, so that registration from other libraries'
// static initializers works regardless of initialization order.
//
//===----------------------------------------------------------------------===//

#include "tk/Backend.h"
#include "tk/Error.h"

#include "CudaBackend.h"

#include <map>
#include <mutex>

using namespace tk;

namespace {
struct Registry {
  std::mutex mutex;
  std::map<std::string, BackendFactory> factories;

  Registry() { factories["cuda"] = [] { return detail::createCudaBackend(); }; }
};
} // namespace

static Registry &registry() {
  static Registry instance;
  return instance;
}

void tk::registerBackend(const std::string &name, BackendFactory factory) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.factories[name] = std::move(factory);
}

bool tk::unregisterBackend(const std::string &name) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.factories.erase(name) > 0;
}

bool tk::isBackendRegistered(const std::string &name) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.factories.count(name) > 0;
}

std::vector<std::string> tk::registeredBackendNames() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto &entry : r.factories)
    names.push_back(entry.first);
  return names;
}

std::unique_ptr<Backend> tk::createBackend(const std::string &name) {
  BackendFactory factory;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.factories.find(name);
    if (it != r.factories.end())
      factory = it->second;
  }
  if (!factory) {
    std::string known;
    for (const std::string &n : registeredBackendNames())
      known += (known.empty() ? "" : ", ") + n;
    throw Error("no backend named '" + name + "' is registered (registered: " +
                (known.empty() ? "none" : known) + ")");
  }
  // Run the factory outside the lock: it may be slow (driver start-up).
  std::unique_ptr<Backend> backend = factory();
  if (!backend)
    throw Error("the factory of backend '" + name + "' returned nothing");
  return backend;
}
