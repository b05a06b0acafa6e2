//===- SubtileTmaStores.cpp - TMA stores staged in column blocks ----------===//
//
// A TMA store stages its whole tile in shared memory (tkgpu-lower-tma:
// `local_alloc %tile` then `async_tma_copy_local_to_global`), and the
// buffer stays allocated until the copy has read it. In a persistent
// matmul that is 64 KB for a 128x256 f16 tile, beside the K loop's
// multi-buffers: 3 stages of 128x256x64 (48 KB each) fit, a fourth does
// not (256 KB against the 227 KB a program may have).
//
// This pass stores such a tile in column blocks through a small ring:
//
//   %ring = local_alloc : memdesc<S x R x W>            (S = 1 or 2 slots)
//   for c in 0 .. C/W - 1:
//     %part = extract_slice %tile at [0, c*W]           (registers only)
//     %slot = memdesc_index %ring[c mod S]
//     local_store %part, %slot
//     async_tma_copy_local_to_global %map[.., j + c*W] %slot
//
// W is a whole number of the map's TMA boxes (so the kernel's tensor map
// and its box stay as they are) and the picking of a block's registers
// must need no data movement (mapWindowRegisters: each thread holds its
// part of the block in the tile's layout; a wgmma accumulator does, its
// columns being registers). tkgpu-membar then places, before block c
// writes its slot, `async_tma_store_wait {pendings = S - 1}`: with two
// slots, block c + 1 is written while block c's copy still reads, and only
// block c - 1's copy must have finished. Each copy is one bulk group
// (TkgpuTmaOps.td), which is what the count is in.
//
// When. `chunks = 0` (the default) subtiles the stores of a function only
// when it needs more shared memory than its target gives a program
// (allocateSharedMemory, without recording offsets), into blocks of one box
// with two slots (one when there are only two blocks): the wider epilogue
// stays where it fits, and a kernel that would be rejected gets its
// stages. `chunks = N` subtiles every store it can into N blocks (one
// slot when N is 2), for measurements (tkc --epilogue-subtile). A store
// whose blocks would not be whole boxes or whose registers cannot be
// picked is left as it is (with a warning when N was asked for).
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/Allocation.h"
#include "compiler/analysis/ScratchSize.h"
#include "compiler/transforms/gpu/Passes.h"
#include "dialects/tkgpu/TkgpuDialect.h"
#include "dialects/tkgpu/TkgpuTmaOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUSUBTILETMASTORES
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// A TMA store of a tile staged by its own local_alloc.
struct StagedStore {
  AsyncTmaCopyLocalToGlobalOp copy;
  LocalAllocOp staging;
};

/// How one store is cut: `blocks` column blocks of `width` columns through
/// `slots` buffers.
struct Cut {
  int64_t blocks = 1;
  int64_t width = 0;
  int64_t slots = 1;
};

std::optional<StagedStore> getStagedStore(AsyncTmaCopyLocalToGlobalOp copy) {
  auto staging = copy.getSrc().getDefiningOp<LocalAllocOp>();
  if (!staging || !staging.getSrc() || !staging->hasOneUse() ||
      staging->getBlock() != copy->getBlock())
    return std::nullopt;
  if (staging.getType().getShape().size() != 2)
    return std::nullopt;
  return StagedStore{copy, staging};
}

/// The staging buffer of a column block of `width` columns of `buffer`
/// (the same layout, fewer columns).
MemDescType getBlockBufferType(MemDescType buffer, int64_t width) {
  return MemDescType::get(buffer.getContext(), {buffer.getShape()[0], width},
                          buffer.getElementType(), buffer.getEncoding());
}

/// The layout of the column block of `width` columns of `tile`: a wgmma
/// accumulator's block is the accumulator of an instruction that wide;
/// other layouts keep their encoding (which wraps over the narrower
/// tensor).
RankedTensorType getBlockType(RankedTensorType tile, int64_t width) {
  Attribute encoding = tile.getEncoding();
  if (auto mma = dyn_cast<MmaEncodingAttr>(encoding);
      mma && mma.isHopper() && mma.getInstrShape()[1] > width) {
    SmallVector<unsigned> instr(mma.getInstrShape());
    instr[1] = width;
    encoding = MmaEncodingAttr::get(tile.getContext(), mma.getVersionMajor(),
                                    mma.getWarpsPerCTA(), instr);
  }
  return RankedTensorType::get({tile.getDimSize(0), width},
                               tile.getElementType(), encoding);
}

/// The cut of `store` into `blocks` blocks, if each is whole TMA boxes and
/// its registers can be picked from the tile's.
std::optional<Cut> getCut(StagedStore store, int64_t blocks) {
  MemDescType buffer = store.staging.getType();
  SmallVector<int64_t> box = getTmaBoxShape(buffer);
  int64_t columns = buffer.getShape()[1];
  if (box.size() != 2 || blocks < 2 || columns % blocks != 0)
    return std::nullopt;
  int64_t width = columns / blocks;
  if (width % box[1] != 0)
    return std::nullopt;
  if (getTmaBoxShape(getBlockBufferType(buffer, width)) != box)
    return std::nullopt;
  auto tile = cast<RankedTensorType>(store.staging.getSrc().getType());
  LinearLayout whole = toLinearLayout(tile);
  LinearLayout part = toLinearLayout(getBlockType(tile, width));
  SmallVector<int32_t> mapping;
  for (int64_t offset = 0; offset < columns; offset += width)
    if (!mapWindowRegisters(whole, part, {0, offset}, mapping))
      return std::nullopt;
  return Cut{blocks, width, blocks > 2 ? 2 : 1};
}

void subtile(StagedStore store, const Cut &cut) {
  AsyncTmaCopyLocalToGlobalOp copy = store.copy;
  MemDescType buffer = store.staging.getType();
  Value tile = store.staging.getSrc();
  auto tileType = cast<RankedTensorType>(tile.getType());
  Location loc = copy.getLoc();
  OpBuilder b(store.staging);
  MemDescType slotType = getBlockBufferType(buffer, cut.width);
  MemDescType ringType = getMultiBufferType(slotType, cut.slots);
  Value ring = LocalAllocOp::create(b, loc, ringType, Value()).getResult();
  b.setInsertionPoint(copy);
  RankedTensorType blockType = getBlockType(tileType, cut.width);
  SmallVector<Value> coords(copy.getCoords());
  Value column = coords.back();
  for (int64_t c = 0; c < cut.blocks; ++c) {
    Value part = ExtractSliceOp::create(b, loc, blockType, tile,
                                        b.getDenseI64ArrayAttr(
                                            {0, c * cut.width}));
    Value index = arith::ConstantIntOp::create(b, loc, c % cut.slots, 32);
    Value slot = MemDescIndexOp::create(b, loc, slotType, ring, index);
    LocalStoreOp::create(b, loc, part, slot);
    coords.back() = c == 0 ? column
                           : arith::AddIOp::create(
                                 b, loc, column,
                                 arith::ConstantIntOp::create(
                                     b, loc, c * cut.width, 32));
    AsyncTmaCopyLocalToGlobalOp::create(b, loc, copy.getDesc(), coords, slot);
  }
  copy.erase();
  store.staging.erase();
}

struct SubtileTmaStoresPass
    : public tkgpu::impl::TkgpuSubtileTmaStoresBase<SubtileTmaStoresPass> {
  using TkgpuSubtileTmaStoresBase::TkgpuSubtileTmaStoresBase;

  void runOnOperation() override {
    // One block is the store as it is.
    if (chunks == 1)
      return;
    ModuleOp module = getOperation();
    int64_t limit =
        getMaxSharedMemoryPerProgram(getComputeCapability(getTarget(module)));
    for (auto func : module.getOps<FunctionOpInterface>()) {
      SmallVector<StagedStore> stores;
      func.walk([&](AsyncTmaCopyLocalToGlobalOp copy) {
        if (std::optional<StagedStore> store = getStagedStore(copy))
          stores.push_back(*store);
      });
      if (stores.empty())
        continue;
      if (chunks == 0 &&
          (limit <= 0 ||
           allocateSharedMemory(func, /*recordOffsets=*/false) <= limit))
        continue;
      for (StagedStore store : stores) {
        int64_t blocks = chunks;
        if (blocks == 0) {
          // Blocks of one box.
          SmallVector<int64_t> box = getTmaBoxShape(store.staging.getType());
          if (box.size() != 2)
            continue;
          blocks = store.staging.getType().getShape()[1] / box[1];
        }
        if (std::optional<Cut> cut = getCut(store, blocks))
          subtile(store, *cut);
        else if (chunks > 0)
          store.copy.emitWarning("TMA store not cut into ")
              << chunks.getValue() << " column blocks: each block must be whole TMA "
              << "boxes of its tensor map, held in registers by the threads "
                 "that hold it in the tile";
      }
    }
  }
};

} // namespace
