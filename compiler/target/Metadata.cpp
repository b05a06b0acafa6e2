//===- Metadata.cpp - the kernel metadata JSON beside each cubin ----------===//
#include "compiler/target/Metadata.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace tk;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Kernels are func.func (tk, tkgpu) or llvm.func (after lowering) with
/// tk.kernel or nvvm.kernel.
static bool isKernelFunction(mlir::Operation *op) {
  return mlir::isa<mlir::FunctionOpInterface>(op) &&
         (op->hasAttr("tk.kernel") || op->hasAttr("nvvm.kernel"));
}

/// The source spelling of an argument type when the frontend did not record
/// one: i32 -> "i32", !tk.ptr<f32> -> "*f32".
static std::string spellType(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  llvm::StringRef ref(text);
  if (ref.consume_front("!tk.ptr<") && ref.consume_back(">"))
    return "*" + ref.str();
  return text;
}

static std::vector<std::string> stringArray(mlir::Operation *op,
                                            llvm::StringRef name) {
  std::vector<std::string> values;
  if (auto array = op->getAttrOfType<mlir::ArrayAttr>(name))
    for (mlir::Attribute a : array)
      if (auto s = mlir::dyn_cast<mlir::StringAttr>(a))
        values.push_back(s.str());
  return values;
}

static std::optional<int64_t> intAttr(mlir::Operation *op,
                                      llvm::ArrayRef<llvm::StringRef> names) {
  for (llvm::StringRef name : names)
    if (auto a = op->getAttrOfType<mlir::IntegerAttr>(name))
      return a.getInt();
  return std::nullopt;
}

llvm::Expected<KernelMetadata>
tk::collectKernelMetadata(mlir::ModuleOp module, llvm::StringRef kernelName) {
  mlir::Operation *kernel = nullptr;
  unsigned kernelCount = 0;
  for (mlir::Operation &op : module.getBody()->getOperations()) {
    if (!isKernelFunction(&op))
      continue;
    ++kernelCount;
    auto name = mlir::SymbolTable::getSymbolName(&op).getValue();
    if (kernelName.empty() ? !kernel : name == kernelName)
      kernel = &op;
  }
  if (!kernel) {
    if (!kernelName.empty())
      return makeError("no kernel named '" + kernelName + "' in the module");
    return makeError("the module has no kernel");
  }
  if (kernelName.empty() && kernelCount > 1)
    return makeError("the module has several kernels: name one");

  KernelMetadata md;
  md.name = mlir::SymbolTable::getSymbolName(kernel).str();
  mlir::Operation *moduleOp = module.getOperation();
  // The warps a launch runs: a warp-specialized kernel's total first.
  md.numWarps = intAttr(moduleOp, {"tkgpu.total_num_warps", "tk.num_warps",
                                   "tkgpu.num_warps"})
                    .value_or(md.numWarps);
  md.numStages = intAttr(moduleOp, {"tk.num_stages"}).value_or(md.numStages);
  md.sharedBytes = intAttr(moduleOp, {"tkgpu.shared_bytes"}).value_or(0);
  md.clusterSize = intAttr(moduleOp, {"tk.cluster_size"}).value_or(1);
  if (auto source = moduleOp->getAttrOfType<mlir::StringAttr>("tk.source"))
    md.source = source.str();

  // Arguments: the frontend's names/types/specs, else what the signature
  // says.
  auto function = mlir::cast<mlir::FunctionOpInterface>(kernel);
  llvm::ArrayRef<mlir::Type> argTypes = function.getArgumentTypes();
  // Tensor maps: hidden parameters after the kernel's own.
  if (auto maps = kernel->getAttrOfType<mlir::ArrayAttr>("tk.tensor_maps")) {
    auto operands = [](mlir::DictionaryAttr entry, llvm::StringRef key) {
      std::vector<TensorMapOperandMetadata> list;
      if (auto array = entry.getAs<mlir::ArrayAttr>(key))
        for (mlir::Attribute item : array) {
          TensorMapOperandMetadata operand;
          if (auto name = mlir::dyn_cast<mlir::StringAttr>(item))
            operand.arg = name.str();
          else if (auto value = mlir::dyn_cast<mlir::IntegerAttr>(item))
            operand.value = value.getInt();
          list.push_back(std::move(operand));
        }
      return list;
    };
    for (mlir::Attribute attr : maps) {
      auto entry = mlir::dyn_cast<mlir::DictionaryAttr>(attr);
      if (!entry)
        return makeError("tk.tensor_maps holds a non-dictionary entry");
      TensorMapMetadata map;
      if (auto base = entry.getAs<mlir::StringAttr>("base"))
        map.base = base.str();
      if (auto dtype = entry.getAs<mlir::StringAttr>("dtype"))
        map.dtype = dtype.str();
      map.shape = operands(entry, "shape");
      map.strides = operands(entry, "strides");
      if (auto block = entry.getAs<mlir::ArrayAttr>("block"))
        for (mlir::Attribute dim : block)
          map.block.push_back(mlir::cast<mlir::IntegerAttr>(dim).getInt());
      if (auto swizzle = entry.getAs<mlir::IntegerAttr>("swizzle"))
        map.swizzle = swizzle.getInt();
      md.tensorMaps.push_back(std::move(map));
    }
    if (md.tensorMaps.size() > argTypes.size())
      return makeError("tk.tensor_maps lists more maps than parameters");
    argTypes = argTypes.drop_back(md.tensorMaps.size());
  }
  std::vector<std::string> names = stringArray(kernel, "tk.arg_names");
  std::vector<std::string> types = stringArray(kernel, "tk.arg_types");
  std::vector<std::string> specs = stringArray(kernel, "tk.arg_specs");
  for (size_t i = 0; i < argTypes.size(); ++i) {
    KernelArgMetadata arg;
    arg.name = i < names.size() ? names[i] : "arg" + std::to_string(i);
    arg.type = i < types.size() ? types[i] : spellType(argTypes[i]);
    if (i < specs.size() && !specs[i].empty())
      arg.spec = specs[i];
    md.args.push_back(std::move(arg));
  }

  if (auto constexprs =
          kernel->getAttrOfType<mlir::DictionaryAttr>("tk.constexprs")) {
    for (mlir::NamedAttribute named : constexprs) {
      ConstexprMetadata c;
      c.name = named.getName().str();
      mlir::Attribute value = named.getValue();
      if (auto b = mlir::dyn_cast<mlir::BoolAttr>(value)) {
        c.kind = ConstexprMetadata::Kind::Bool;
        c.intValue = b.getValue();
      } else if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(value)) {
        c.kind = i.getType().isInteger(1) ? ConstexprMetadata::Kind::Bool
                                          : ConstexprMetadata::Kind::Int;
        c.intValue = i.getType().isInteger(1) ? (i.getValue().isOne() ? 1 : 0)
                                              : i.getInt();
      } else if (auto f = mlir::dyn_cast<mlir::FloatAttr>(value)) {
        c.kind = ConstexprMetadata::Kind::Float;
        c.floatValue = f.getValueAsDouble();
      } else {
        return makeError("constexpr '" + c.name +
                         "' is neither an integer, a float nor a bool");
      }
      md.constexprs.push_back(std::move(c));
    }
  }

  // Grid rank: the highest program axis the kernel asks about, + 1.
  int rank = 1;
  if (auto recorded = intAttr(kernel, {"tk.grid_rank"}))
    rank = std::max<int>(rank, *recorded);
  kernel->walk([&](mlir::Operation *op) {
    llvm::StringRef opName = op->getName().getStringRef();
    if (opName != "tk.program_id" && opName != "tk.num_programs")
      return;
    if (auto axis = op->getAttrOfType<mlir::IntegerAttr>("axis"))
      rank = std::max<int>(rank, axis.getInt() + 1);
  });
  md.gridRank = rank;
  return md;
}

/// Shortest round-tripping spelling that still reads as a float.
static std::string formatFloat(double value) {
  if (!std::isfinite(value))
    return "null"; // JSON has no inf/nan; the runtime rejects it clearly.
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  std::string text = buffer;
  if (text.find_first_of(".eE") == std::string::npos)
    text += ".0";
  return text;
}

std::string tk::buildMetadataJson(const KernelMetadata &md) {
  // llvm::json::Object sorts its keys when printed; write with OStream so
  // that the file reads in the contract's order.
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("tk_metadata_version",
                   md.tensorMaps.empty() ? KernelMetadata::kVersion
                                         : KernelMetadata::kTensorMapVersion);
    json.attribute("name", md.name);
    json.attribute("arch", md.arch);
    json.attribute("num_warps", md.numWarps);
    json.attribute("num_stages", md.numStages);
    json.attribute("shared_bytes", static_cast<int64_t>(md.sharedBytes));
    if (md.clusterSize > 1)
      json.attribute("cluster_size", md.clusterSize);
    if (!md.binary.empty()) {
      json.attribute("binary", md.binary);
      json.attribute("binary_kind", md.binaryKind);
    }
    if (!md.tkIr.empty())
      json.attribute("tk_ir", md.tkIr);
    if (!md.source.empty())
      json.attribute("source", md.source);
    // One line per argument, keys in the contract's order.
    json.attributeArray("args", [&] {
      for (const KernelArgMetadata &arg : md.args) {
        std::string line;
        llvm::raw_string_ostream lineOs(line);
        llvm::json::OStream compact(lineOs);
        compact.object([&] {
          compact.attribute("name", arg.name);
          compact.attribute("type", arg.type);
          compact.attribute("spec", arg.spec);
        });
        json.rawValue(line);
      }
    });
    json.attributeObject("constexprs", [&] {
      for (const ConstexprMetadata &c : md.constexprs) {
        switch (c.kind) {
        case ConstexprMetadata::Kind::Int:
          json.attribute(c.name, c.intValue);
          break;
        case ConstexprMetadata::Kind::Bool:
          json.attribute(c.name, c.intValue != 0);
          break;
        case ConstexprMetadata::Kind::Float:
          // llvm::json prints 2.0 as "2", which reads back as an integer.
          json.attributeBegin(c.name);
          json.rawValue(formatFloat(c.floatValue));
          json.attributeEnd();
          break;
        }
      }
    });
    if (!md.tensorMaps.empty()) {
      auto operands = [](llvm::json::OStream &out, llvm::StringRef key,
                         const std::vector<TensorMapOperandMetadata> &list) {
        out.attributeArray(key, [&] {
          for (const TensorMapOperandMetadata &operand : list) {
            if (operand.arg.empty())
              out.value(operand.value);
            else
              out.value(operand.arg);
          }
        });
      };
      // One line per map, keys in the contract's order.
      json.attributeArray("tensor_maps", [&] {
        for (const TensorMapMetadata &map : md.tensorMaps) {
          std::string line;
          llvm::raw_string_ostream lineOs(line);
          llvm::json::OStream compact(lineOs);
          compact.object([&] {
            compact.attribute("base", map.base);
            compact.attribute("dtype", map.dtype);
            operands(compact, "shape", map.shape);
            operands(compact, "strides", map.strides);
            compact.attributeArray("block", [&] {
              for (int64_t dim : map.block)
                compact.value(dim);
            });
            compact.attribute("swizzle", map.swizzle);
          });
          json.rawValue(line);
        }
      });
    }
    json.attribute("grid_rank", md.gridRank);
  });
  os << "\n";
  return text;
}
