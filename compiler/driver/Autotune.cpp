//===- Autotune.cpp - remembered @autotune results ------------------------===//
#include "compiler/driver/Autotune.h"

#include "compiler/driver/Compilation.h"
#include "compiler/driver/Frontend.h"
#include "compiler/driver/KernelCache.h"
#include "compiler/frontend/IRGen.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace tk;
using namespace tk::jit;

static constexpr const char *kRecordFile = "autotune.json";

llvm::Expected<AutotuneDecorator>
jit::readAutotuneDecorator(const KernelSource &source,
                           const std::string &kernelName,
                           const std::string &toolName) {
  AutotuneDecorator result;
  auto read = [&](const ast::Module &module) -> llvm::Error {
    const ast::FunctionDef *kernel = nullptr;
    if (!kernelName.empty()) {
      kernel = module.findFunction(kernelName);
    } else if (std::vector<const ast::FunctionDef *> kernels =
                   findKernels(module);
               kernels.size() == 1) {
      kernel = kernels.front();
    }
    // No such kernel: compiling it reports that.
    const ast::Decorator *autotune =
        kernel ? kernel->findDecorator("autotune") : nullptr;
    if (!autotune)
      return llvm::Error::success();
    if (const ast::KeywordArg *configs = autotune->findKeyword("configs"))
      if (const auto *list = configs->value->getAs<ast::ListExpr>())
        result.configCount = list->elements.size();
    if (const ast::KeywordArg *key = autotune->findKeyword("key"))
      if (const auto *list = key->value->getAs<ast::ListExpr>())
        for (const ast::ExprPtr &element : list->elements) {
          if (const auto *text = element->getAs<ast::StringLitExpr>())
            result.key.push_back(text->value);
          else if (const auto *name = element->getAs<ast::NameExpr>())
            result.key.push_back(name->name);
        }
    return llvm::Error::success();
  };
  if (llvm::Error error =
          withParsedSource(source.name, source.text, toolName, read))
    return std::move(error);
  return result;
}

llvm::Expected<std::string> jit::computeAutotuneCacheKey(
    const KernelSource &source, const std::string &kernelName,
    const JitOptions &options, const std::vector<std::string> &keyValues) {
  JitOptions untuned = options;
  untuned.autotuneConfig = 0;
  auto compileKey = computeCacheKey(source, kernelName, untuned);
  if (!compileKey)
    return compileKey.takeError();
  CacheKeyBuilder key;
  key.add("format", "tk-autotune 1");
  key.add("compile-key", *compileKey);
  for (const std::string &value : keyValues)
    key.add("key-value", value);
  return key.getKey();
}

std::optional<AutotuneRecord> jit::lookupAutotuneRecord(KernelCache &cache,
                                                        const std::string &key,
                                                        size_t configCount) {
  std::optional<CacheFiles> files = cache.lookup(key);
  if (!files)
    return std::nullopt;
  // The cache checked the bytes; this checks that they are a record.
  auto reject = [&](const std::string &why) -> std::optional<AutotuneRecord> {
    cache.discardCorruptEntry(key, why);
    return std::nullopt;
  };
  auto text = files->find(kRecordFile);
  if (text == files->end())
    return reject(std::string("it has no '") + kRecordFile + "'");
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text->second);
  if (!json)
    return reject(std::string(kRecordFile) +
                  " is not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *object = json->getAsObject();
  std::optional<int64_t> config =
      object ? object->getInteger("config") : std::nullopt;
  if (!config || *config < 0 || size_t(*config) >= configCount)
    return reject(std::string(kRecordFile) + " names no config of the " +
                  std::to_string(configCount) + " the kernel has");
  AutotuneRecord record;
  record.config = unsigned(*config);
  if (const llvm::json::Array *times = object->getArray("times_ms"))
    for (const llvm::json::Value &time : *times)
      record.timesMs.push_back(time.getAsNumber().value_or(-1));
  return record;
}

bool jit::storeAutotuneRecord(KernelCache &cache, const std::string &key,
                              const AutotuneRecord &record,
                              const CompiledKernel &kernel,
                              const std::vector<std::string> &keyValues) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("kernel", kernel.name);
    json.attributeArray("key", [&] {
      for (const std::string &name : kernel.autotuneKey)
        json.value(name);
    });
    json.attributeArray("key_values", [&] {
      for (const std::string &value : keyValues)
        json.value(value);
    });
    json.attribute("config", int64_t(record.config));
    json.attributeArray("configs", [&] {
      for (const std::string &config : kernel.autotuneConfigs)
        json.value(config);
    });
    json.attributeArray("times_ms", [&] {
      for (double time : record.timesMs)
        json.value(time);
    });
  });
  os << "\n";
  return cache.store(key, {{kRecordFile, text}});
}
