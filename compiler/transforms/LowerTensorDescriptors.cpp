//===- LowerTensorDescriptors.cpp - descriptors as masked loads/stores ----===//
//
// tk.descriptor_load / tk.descriptor_store become the ordinary pointer
// blocks and masks that every target lowers (the non-TMA path):
//
//   coord_d  = indices[d] + arange(block[d])          (i32, then i64)
//   pointers = base + sum_d coord_d * strides[d]      (broadcast along d)
//   mask     = AND_d 0 <= coord_d < shape[d]
//   load:  tk.load pointers, mask, other = 0   (TMA's zero fill)
//   store: tk.store pointers, value, mask      (outside lanes not written)
//
// Each coordinate is computed on its 1-D range and expanded to rank N
// (size 1 elsewhere) before it is broadcast, so the address arithmetic is
// the form the axis analysis recognises (contiguous along a unit stride; a
// stride that is the constant 1 is not multiplied). With keep-host-tma
// (sm_90a), the accesses TMA can serve with a host-encoded tensor map
// (compiler/analysis/TensorMapSource.h) stay for tkgpu-lower-tma.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/Passes.h"

#include "compiler/analysis/TensorMapSource.h"
#include "dialects/tk/TkDescriptorOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKLOWERTENSORDESCRIPTORS
#include "compiler/transforms/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;
using namespace mlir::tk;

namespace {

/// The pointer block and the in-bounds mask of one descriptor access.
struct BlockAccess {
  Value pointers;
  Value mask;
};

BlockAccess computeAccess(OpBuilder &b, Location loc, Value base,
                          ValueRange shapeValues, ValueRange strides,
                          ValueRange indices, RankedTensorType block) {
  ArrayRef<int64_t> shape = block.getShape();
  int64_t rank = block.getRank();
  Type i1 = b.getI1Type(), i32 = b.getI32Type(), i64 = b.getI64Type();
  auto fullType = [&](Type element) {
    return RankedTensorType::get(shape, element);
  };
  auto splat = [&](Value scalar, RankedTensorType type) -> Value {
    return SplatOp::create(b, loc, type, scalar);
  };

  Value offsets, mask;
  for (int64_t d = 0; d < rank; ++d) {
    auto rangeType = RankedTensorType::get({shape[d]}, i32);
    Value range =
        MakeRangeOp::create(b, loc, rangeType, 0u, uint32_t(shape[d]));
    Value coord = arith::AddIOp::create(b, loc, range,
                                        splat(indices[d], rangeType));
    Value wide = arith::ExtSIOp::create(
        b, loc, RankedTensorType::get({shape[d]}, i64), coord);
    // Expand to rank N: size shape[d] along d, 1 elsewhere.
    SmallVector<int64_t> along = {shape[d]};
    for (int64_t e = d - 1; e >= 0; --e) {
      along.insert(along.begin(), 1);
      wide = ExpandDimsOp::create(b, loc, RankedTensorType::get(along, i64),
                                  wide, uint32_t(0));
    }
    for (int64_t e = d + 1; e < rank; ++e) {
      along.push_back(1);
      wide = ExpandDimsOp::create(b, loc, RankedTensorType::get(along, i64),
                                  wide, uint32_t(along.size() - 1));
    }
    auto alongType = RankedTensorType::get(along, i64);

    Value stride = strides[d];
    Value term = wide;
    if (!matchPattern(stride, m_One()))
      term = arith::MulIOp::create(b, loc, wide, splat(stride, alongType));
    term = BroadcastOp::create(b, loc, fullType(i64), term).getResult();
    offsets = offsets ? arith::AddIOp::create(b, loc, offsets, term).getResult()
                      : term;

    Value zero = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(alongType)));
    Value above = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                        wide, zero);
    Value below = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt, wide,
        splat(shapeValues[d], alongType));
    Value inside = arith::AndIOp::create(b, loc, above, below);
    inside = BroadcastOp::create(b, loc, fullType(i1), inside).getResult();
    mask = mask ? arith::AndIOp::create(b, loc, mask, inside).getResult()
                : inside;
  }
  auto pointerType = fullType(base.getType());
  Value bases = splat(base, pointerType);
  return {AddPtrOp::create(b, loc, bases, offsets).getResult(), mask};
}

struct TkLowerTensorDescriptorsPass
    : public mlir::tk::impl::TkLowerTensorDescriptorsBase<
          TkLowerTensorDescriptorsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> accesses;
    getOperation().walk([&](Operation *op) {
      if (isa<DescriptorLoadOp, DescriptorStoreOp>(op) &&
          !(keepHostTma && canUseHostTensorMap(op)))
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      OpBuilder b(op);
      if (auto load = dyn_cast<DescriptorLoadOp>(op)) {
        BlockAccess access = computeAccess(
            b, op->getLoc(), load.getBase(), load.getShape(),
            load.getStrides(), load.getIndices(), load.getType());
        auto resultType = cast<RankedTensorType>(load.getType());
        Value zero = arith::ConstantOp::create(
            b, op->getLoc(), cast<TypedAttr>(b.getZeroAttr(resultType)));
        Value result = LoadOp::create(b, op->getLoc(), access.pointers,
                                      access.mask, zero);
        load.replaceAllUsesWith(result);
      } else {
        auto store = cast<DescriptorStoreOp>(op);
        BlockAccess access = computeAccess(
            b, op->getLoc(), store.getBase(), store.getShape(),
            store.getStrides(), store.getIndices(),
            cast<RankedTensorType>(store.getValue().getType()));
        StoreOp::create(b, op->getLoc(), access.pointers, store.getValue(),
                        access.mask);
      }
      op->erase();
    }
  }
};

} // namespace
