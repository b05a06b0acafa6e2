//===- LowerTma.cpp - tensor descriptor accesses as TMA copies ------------===//
//
// On sm_90a, tk-lower-tensor-descriptors leaves the descriptor accesses
// whose tensor map the host can encode (compiler/analysis/TensorMapSource.h)
// and this pass maps them onto the tensor-memory engine:
//
// Blocks of rank 3 to 5 whose leading dimensions are 1 and which the kernel
// reshapes to (or from) their last two (one head of a (Z, H, N, D) tensor:
// getSqueezedTile) move the 2-D tile: the buffer is 2-D, the copy takes all
// coordinates and the map's box has extent 1 in the leading dimensions.
//
// Tensor maps. Each distinct (base, shape, strides, box, swizzle) gets one
// hidden kernel parameter of type `!tkgpu.tensor_map`, appended after the
// kernel's own parameters, and an entry in the kernel's `tk.tensor_maps`
// attribute (base parameter name, dtype, shape and strides as parameter
// names or constants, box, swizzle), which tkc writes into the metadata's
// `tensor_maps` so that libtkrt encodes the CUtensorMap at every launch
// (cuTensorMapEncodeTiled) and passes it, by value, as that parameter
// (docs/runtime.md). The box is the buffer's TMA box (getTmaBoxShape): a
// tile wider than one swizzle chunk moves as several boxes.
//
// Loads. The buffer is the consumer's: when the loaded block (maybe through
// one convert_layout) is only staged by a local_alloc in an nvmma_shared
// layout contiguous along its last dimension (accelerate-matmul's wgmma
// operand), TMA writes that layout itself and the local_alloc goes. When
// a tk.trans stands between them (Q K^T's K, an fp8 B stored N x K), TMA
// writes the block as it is, in the staging layout permuted back, and the
// staged operand becomes a `memdesc_trans` view of that buffer: wgmma
// reads the same bytes with the dimensions renamed (K-major B). A block
// staged several times (attention's Q, once per loop; the backward's Q and
// dO tiles, each the B operand of one dot as they are and of another
// transposed) fills one buffer when every staging wants the same bytes:
// the allocations only read, in one block, of one layout once the
// transposed ones are permuted back. Otherwise the block lands in a
// buffer of the widest swizzle that fits and a local_load reads it in the
// load's layout. Then
//
//   %bar = local_alloc : memdesc<1xi64>;  init_barrier %bar, 1
//   %buf = local_alloc : memdesc<block>
//   barrier_expect %bar, <bytes of the block>, true
//   async_tma_copy_global_to_local %map[indices] %buf, %bar, true
//   wait_barrier %bar, 0;  inval_barrier %bar
//
// one barrier per access, used for one phase: the pipeliner turns such
// accesses in a loop into multi-buffered copies with one barrier per stage
// and carried phases (Pipeline.cpp); tkgpu-membar places the CTA barriers
// (after the init, before the inval) and knows that the copy's bytes are
// visible at the wait.
//
// Stores. The value (before any convert_layout: local_alloc stores every
// distributed layout) is written to an nvmma_shared buffer, then
//
//   async_tma_copy_local_to_global %map[indices] %buf
//
// membar puts the proxy fence (generic writes, async-proxy read) and the
// barrier before the copy, and the `async_tma_store_wait` where the
// buffer's bytes are next written or the kernel ends, so that the copy
// drains while the warps go on (a persistent kernel's next tile).
// Elements outside the tensor are zero on load and not written on store,
// as the descriptor ops promise.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/TensorMapSource.h"
#include "compiler/transforms/gpu/Passes.h"
#include "dialects/tk/TkDescriptorOps.h"
#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/OperandLayouts.h"
#include "dialects/tkgpu/TkgpuTmaOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPULOWERTMA
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

constexpr StringLiteral kTensorMapsAttr = "tk.tensor_maps";

/// The hidden tensor-map parameters of one kernel.
class TensorMapParams {
public:
  explicit TensorMapParams(func::FuncOp kernel) : kernel(kernel) {
    if (auto names = kernel->getAttrOfType<ArrayAttr>("tk.arg_names"))
      for (Attribute name : names)
        argNames.push_back(cast<StringAttr>(name).str());
    if (auto types = kernel->getAttrOfType<ArrayAttr>("tk.arg_types"))
      for (Attribute type : types)
        argTypes.push_back(cast<StringAttr>(type).str());
  }

  /// The parameter holding the map for `access` moving `buffer`.
  Value get(Operation *access, MemDescType buffer) {
    std::optional<tk::TensorMapSource> source = tk::getTensorMapSource(access);
    Builder b(kernel.getContext());
    auto operands = [&](ArrayRef<tk::TensorMapOperandSource> list) {
      SmallVector<Attribute> attrs;
      for (const tk::TensorMapOperandSource &operand : list)
        attrs.push_back(operand.argIndex >= 0
                            ? Attribute(b.getStringAttr(
                                  argName(unsigned(operand.argIndex))))
                            : Attribute(b.getI64IntegerAttr(operand.value)));
      return b.getArrayAttr(attrs);
    };
    auto layout = cast<NvmmaSharedEncodingAttr>(buffer.getEncoding());
    NamedAttribute fields[] = {
        b.getNamedAttr("base", b.getStringAttr(argName(source->baseArg))),
        b.getNamedAttr("dtype", b.getStringAttr(dtype(source->baseArg,
                                                      buffer))),
        b.getNamedAttr("shape", operands(source->shape)),
        b.getNamedAttr("strides", operands(source->strides)),
        b.getNamedAttr("block", b.getI64ArrayAttr(getMapBox(*source, buffer))),
        b.getNamedAttr("swizzle", b.getI64IntegerAttr(layout.getSwizzle())),
    };
    auto entry = b.getDictionaryAttr(fields);
    auto [it, inserted] = params.try_emplace(entry, Value());
    if (inserted) {
      unsigned index = kernel.getNumArguments();
      (void)kernel.insertArgument(index, TensorMapType::get(b.getContext()),
                                  DictionaryAttr(), access->getLoc());
      it->second = kernel.getArgument(index);
      entries.push_back(entry);
      kernel->setAttr(kTensorMapsAttr, b.getArrayAttr(entries));
    }
    return it->second;
  }

private:
  /// The box of the map: the buffer's TMA box, with extent 1 in the
  /// leading dimensions a squeezed block (getSqueezedTile) spans once.
  static SmallVector<int64_t> getMapBox(const tk::TensorMapSource &source,
                                        MemDescType buffer) {
    SmallVector<int64_t> box(source.shape.size() - buffer.getRank(), 1);
    llvm::append_range(box, getTmaBoxShape(buffer));
    return box;
  }

  std::string argName(unsigned index) const {
    return index < argNames.size() ? argNames[index]
                                   : "arg" + std::to_string(index);
  }

  /// The pointee's spelling in the metadata ("f16"): the frontend's
  /// parameter type without its `*`, else the buffer's element type.
  std::string dtype(unsigned baseArg, MemDescType buffer) const {
    if (baseArg < argTypes.size() && !argTypes[baseArg].empty() &&
        argTypes[baseArg][0] == '*')
      return argTypes[baseArg].substr(1);
    std::string text;
    llvm::raw_string_ostream os(text);
    buffer.getElementType().print(os);
    return text;
  }

  func::FuncOp kernel;
  std::vector<std::string> argNames, argTypes;
  llvm::DenseMap<Attribute, Value> params;
  SmallVector<Attribute> entries;
};

/// The nvmma_shared buffer type this pass gives a block of `type` (row
/// major, the widest swizzle its rows allow).
MemDescType getOwnBufferType(RankedTensorType type) {
  auto layout = getWgmmaOperandSharedEncoding(type.getShape(),
                                              type.getElementType(), {1, 0});
  return MemDescType::get(type.getContext(), type.getShape(),
                          type.getElementType(), layout);
}

/// Whether TMA can write a buffer of `type` as it is.
bool isTmaBuffer(MemDescType type) {
  if (!isa<NvmmaSharedEncodingAttr>(type.getEncoding()))
    return false;
  SmallVector<int64_t> box = getTmaBoxShape(type);
  if (box.empty())
    return false;
  for (auto [dim, boxDim] : llvm::zip_equal(type.getShape(), box))
    if (dim % boxDim != 0)
      return false;
  return (box.back() * type.getElementType().getIntOrFloatBitWidth() / 8) %
             16 ==
         0;
}

int64_t getBufferBytes(MemDescType type) {
  return type.getNumElements() * type.getElementType().getIntOrFloatBitWidth() /
         8;
}

/// The single user of `op`'s result, or null.
Operation *getOnlyUser(Operation *op) {
  return op && op->hasOneUse() ? *op->user_begin() : nullptr;
}

/// One way a loaded block reaches its consumer: a local_alloc TMA can
/// fill, reached through at most one convert_layout, or through a tk.trans
/// with at most one convert_layout on either side (the tile transposed
/// into a wgmma operand: the buffer is then the transposed allocation's
/// layout permuted back, and the allocation becomes a memdesc_trans view
/// of it).
struct StagingPath {
  LocalAllocOp alloc;
  tk::TransOp trans;
  SmallVector<Operation *> dropped; // the ops between load and alloc
  MemDescType bufferType;           // the layout TMA writes for this path
};

/// The consumer's staging of a loaded block: one path, or several whose
/// allocations sit in one block, are only read and want the same buffer
/// (attention's Q, staged for the QK^T of each of its loops; the
/// backward's Q and dO tiles, each read by one dot as they are and by
/// another transposed), which one TMA buffer then serves. Paths in block
/// order: the buffer is filled where the first one was.
struct TmaStaging {
  SmallVector<StagingPath> paths;
  MemDescType bufferType;
};

/// Whether nothing writes the buffer `alloc` returns.
bool isOnlyRead(LocalAllocOp alloc) {
  for (Operation *user : alloc->getUsers()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances)
      if (isa<MemoryEffects::Write>(effect.getEffect()) &&
          (!effect.getValue() || effect.getValue() == alloc.getResult()))
        return false;
  }
  return true;
}

/// The staging path that starts at `user`, a user of the loaded tile.
std::optional<StagingPath> getStagingPath(Operation *user) {
  StagingPath path;
  auto skipConvert = [&] {
    if (auto convert = dyn_cast_or_null<ConvertLayoutOp>(user)) {
      path.dropped.push_back(convert);
      user = getOnlyUser(convert);
    }
  };
  skipConvert();
  if (auto trans = dyn_cast_or_null<tk::TransOp>(user)) {
    path.trans = trans;
    path.dropped.push_back(trans);
    user = getOnlyUser(trans);
    skipConvert();
  }
  path.alloc = dyn_cast_or_null<LocalAllocOp>(user);
  if (!path.alloc)
    return std::nullopt;
  path.bufferType = path.alloc.getType();
  if (path.trans) {
    path.bufferType =
        getTransposeSourceType(path.alloc.getType(), path.trans.getOrder());
    if (!path.bufferType)
      return std::nullopt;
  }
  return path;
}

std::optional<TmaStaging> getTmaStaging(Operation *tile) {
  TmaStaging staging;
  for (Operation *user : tile->getUsers()) {
    std::optional<StagingPath> path = getStagingPath(user);
    if (!path)
      return std::nullopt;
    staging.paths.push_back(std::move(*path));
  }
  if (staging.paths.empty())
    return std::nullopt;
  const StagingPath &first = staging.paths.front();
  staging.bufferType = first.bufferType;
  if (staging.paths.size() > 1)
    for (const StagingPath &path : staging.paths)
      if (path.bufferType != staging.bufferType || !isOnlyRead(path.alloc) ||
          path.alloc->getBlock() != first.alloc->getBlock())
        return std::nullopt;
  llvm::sort(staging.paths, [](const StagingPath &a, const StagingPath &b) {
    return a.alloc->isBeforeInBlock(b.alloc);
  });
  if (!isTmaBuffer(staging.bufferType))
    return std::nullopt;
  return staging;
}

void lowerLoad(tk::DescriptorLoadOp load, TensorMapParams &maps) {
  // A block with leading unit dimensions is the 2-D tile its reshape
  // makes of it: the buffer holds that tile.
  Operation *tile = load;
  if (Value squeezed = tk::getSqueezedTile(load))
    tile = squeezed.getDefiningOp();
  // The consumer's staging buffer, when TMA can fill it.
  std::optional<TmaStaging> staging = getTmaStaging(tile);
  LocalAllocOp alloc = staging ? staging->paths.front().alloc : nullptr;

  auto type = cast<RankedTensorType>(tile->getResult(0).getType());
  MemDescType bufferType =
      staging ? staging->bufferType : getOwnBufferType(type);
  Location loc = load.getLoc();
  OpBuilder b(alloc ? alloc.getOperation() : load.getOperation());
  Value map = maps.get(load, bufferType);
  MLIRContext *ctx = b.getContext();
  auto barrierType = MemDescType::get(
      ctx, {1}, b.getI64Type(), SharedEncodingAttr::get(ctx, 1, 1, 1, {0}));
  Value barrier = LocalAllocOp::create(b, loc, barrierType, Value());
  InitBarrierOp::create(b, loc, barrier, 1);
  Value buffer = LocalAllocOp::create(b, loc, bufferType, Value());
  Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  BarrierExpectOp::create(b, loc, barrier, getBufferBytes(bufferType), yes);
  auto copy = AsyncTmaCopyGlobalToLocalOp::create(
      b, loc, map, load.getIndices(), buffer, barrier, yes);
  // multicast=True: the promise travels with the copy; only
  // tkgpu-warp-specialize, which frees slots cluster-wide, acts on it.
  if (load.getMulticast() && getClusterSize(load) > 1)
    copy->setAttr(kMulticastPromiseAttr, b.getUnitAttr());
  Value phase = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  WaitBarrierOp::create(b, loc, barrier, phase);
  InvalBarrierOp::create(b, loc, barrier);

  if (alloc) {
    for (StagingPath &path : staging->paths) {
      Value staged = buffer;
      if (path.trans) {
        // At its allocation, which every reader of the view follows.
        OpBuilder view(path.alloc);
        staged = MemDescTransOp::create(view, path.alloc.getLoc(), buffer,
                                        path.trans.getOrder());
      }
      path.alloc.replaceAllUsesWith(staged);
      path.alloc.erase();
      for (Operation *op : llvm::reverse(path.dropped))
        op->erase();
    }
  } else {
    Value value = LocalLoadOp::create(b, loc, type, buffer);
    tile->getResult(0).replaceAllUsesWith(value);
  }
  if (tile != load.getOperation())
    tile->erase();
  load.erase();
}

void lowerStore(tk::DescriptorStoreOp store, TensorMapParams &maps) {
  // A block with leading unit dimensions stores the 2-D tile it was
  // reshaped from.
  Value tile = store.getValue();
  Operation *squeeze = nullptr;
  if (Value squeezed = tk::getSqueezedTile(store)) {
    squeeze = tile.getDefiningOp();
    tile = squeezed;
  }
  Value value = tile;
  auto convert = value.getDefiningOp<ConvertLayoutOp>();
  if (convert)
    value = convert.getSrc();
  MemDescType bufferType =
      getOwnBufferType(cast<RankedTensorType>(tile.getType()));
  Location loc = store.getLoc();
  OpBuilder b(store);
  Value map = maps.get(store, bufferType);
  Value buffer = LocalAllocOp::create(b, loc, bufferType, value);
  AsyncTmaCopyLocalToGlobalOp::create(b, loc, map, store.getIndices(), buffer);
  store.erase();
  if (squeeze && squeeze->use_empty())
    squeeze->erase();
  if (convert && convert->use_empty())
    convert.erase();
}

struct LowerTmaPass : public tkgpu::impl::TkgpuLowerTmaBase<LowerTmaPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      SmallVector<Operation *> accesses;
      func.walk([&](Operation *op) {
        if (isa<tk::DescriptorLoadOp, tk::DescriptorStoreOp>(op))
          accesses.push_back(op);
      });
      if (accesses.empty())
        continue;
      TensorMapParams maps(func);
      for (Operation *op : accesses) {
        if (!tk::canUseHostTensorMap(op)) {
          op->emitError("this tensor descriptor access cannot use TMA "
                        "(tk-lower-tensor-descriptors should have lowered it)");
          return signalPassFailure();
        }
        if (auto load = dyn_cast<tk::DescriptorLoadOp>(op))
          lowerLoad(load, maps);
        else
          lowerStore(cast<tk::DescriptorStoreOp>(op), maps);
      }
    }
  }
};

} // namespace
