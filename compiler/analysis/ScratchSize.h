//===- ScratchSize.h - scratch shared memory of op lowerings ----*- C++ -*-===//
//
// The bytes of shared memory an op's lowering uses for the duration of the
// op alone (layout conversions through shared memory, reductions across
// warps, scans, atomics whose old value reaches other threads, shape ops
// that move data between threads, the FMA dot). Each size is computed here
// from the op's types and layouts, and both the lowering pattern and the
// ScratchOpInterface model (which tkgpu-allocate-shared-memory reads) call
// the same function, so the allocated interval is exactly what the
// lowering touches.
//
// Also here: the pure LinearLayout queries those decisions need (whether a
// conversion is a register permutation, the sliced layout of a reduction),
// shared with the lowering (compiler/conversion/LoweringUtils.h includes
// this header).
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_ANALYSIS_SCRATCHSIZE_H
#define TK_COMPILER_ANALYSIS_SCRATCHSIZE_H

#include "dialects/tkgpu/LinearLayout.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tkgpu {

//===----------------------------------------------------------------------===//
// Linear layout queries
//===----------------------------------------------------------------------===//

/// Size-aware accessors: 0 bits / zero bases when the layout lacks a dim.
int32_t getInBits(const LinearLayout &layout, const char *inDim);
SmallVector<int32_t> getBasisOrZero(const LinearLayout &layout,
                                    const char *inDim, int32_t bit);

/// The tensor index held by register `reg` of lane 0 of warp 0.
SmallVector<int32_t> getRegisterIndex(const LinearLayout &layout, int32_t reg);

/// Whether the conversion from `from` to `to` needs no data movement
/// between threads; fills `permutation[dstReg] = srcReg` when it does not.
bool getRegisterPermutation(const LinearLayout &from, const LinearLayout &to,
                            SmallVectorImpl<int32_t> &permutation);

/// Result element index -> source element index of a shape op.
using IndexMap = std::function<SmallVector<int32_t>(ArrayRef<int32_t>)>;

/// The index map of tk.broadcast, tk.expand_dims, tk.reshape or tk.trans
/// (null for other ops).
IndexMap getShapeOpIndexMap(Operation *op);

/// Whether each thread's result registers (layout `dst`) are source
/// registers of the same thread (layout `src`), result element i being
/// source element map(i); fills `mapping[dstReg] = srcReg`.
bool mapRegisters(const LinearLayout &src, const LinearLayout &dst,
                  const IndexMap &map, SmallVectorImpl<int32_t> &mapping);

/// Whether each thread's registers of `window` (the layout of the aligned
/// window at `offsets` of a `src` tensor, tkgpu.extract_slice) are source
/// registers of the same thread; fills `mapping[windowReg] = srcReg`.
bool mapWindowRegisters(const LinearLayout &src, const LinearLayout &window,
                        ArrayRef<int64_t> offsets,
                        SmallVectorImpl<int32_t> &mapping);

/// `layout` with output dimension `axis` removed and the register bits that
/// only moved along it dropped: where the reduced values live. A full
/// reduction keeps one output dimension of size 1 (`resultShape` = {1}).
LinearLayout sliceLayout(const LinearLayout &layout, unsigned axis,
                         ArrayRef<int64_t> resultShape);

//===----------------------------------------------------------------------===//
// Scratch sizes (bytes)
//===----------------------------------------------------------------------===//

/// Bytes of one element of `elementType` in shared memory (i1: 1, tk
/// pointers: 8).
unsigned getScratchElementBytes(Type elementType);

/// Bytes spanned by a row-major tensor of `shape` whose rows (last
/// dimension) are each followed by `padding` elements.
int64_t getRowMajorBytes(ArrayRef<int64_t> shape, int64_t padding,
                         unsigned elementBytes);

/// Padding (elements) after each row of a layout conversion through shared
/// memory: one 16-byte vector (or one element) for 2-D and up, so that
/// threads walking a column hit different banks.
int64_t getConversionRowPadding(ArrayRef<int64_t> shape,
                                unsigned elementBytes);

/// Padding (elements) after each source row of tk.trans through shared
/// memory: a transposed read walks a column.
int64_t getTransRowPadding(unsigned elementBytes);

/// Scratch of a conversion from `from` to `to`: 0 when the layouts are
/// equal or the conversion only permutes registers.
int64_t getConversionScratchBytes(const LinearLayout &from,
                                  const LinearLayout &to,
                                  ArrayRef<int64_t> shape,
                                  unsigned elementBytes);

/// Consecutive regions ("planes") of the given sizes, each starting at a
/// multiple of 16 bytes: their offsets, and `bytes` in all.
struct ScratchPlanes {
  SmallVector<int64_t> offsets;
  int64_t bytes = 0;
};
ScratchPlanes getScratchPlanes(ArrayRef<int64_t> sizes);

/// The planes of tk.reduce's step across warps, one per carried value
/// (the value, and the index for argmax/argmin; each operand of
/// `combine`): `numWarpsAlongAxis * numSliceElements` elements each.
ScratchPlanes getReduceWarpScratch(int64_t numWarpsAlongAxis,
                                   int64_t numSliceElements,
                                   ArrayRef<unsigned> elementBytes);

/// The element types a reduce carries through its steps: the operands',
/// plus i32 indices for argmax/argmin.
SmallVector<Type> getReduceCarriedTypes(Operation *reduce);

/// The planes in which a reduce's or scan's results move to their
/// layouts, one per result (size 0 when that one needs no scratch), so
/// that the conversions need no barrier between them.
ScratchPlanes getResultConversionScratch(Operation *op,
                                         const LinearLayout &computed,
                                         ArrayRef<int64_t> computedShape);

/// The FMA dot's operands in shared memory: A^T at 0, B at `bOffset`.
struct DotFmaScratch {
  int64_t bOffset = 0;
  int64_t bytes = 0;
};
DotFmaScratch getDotFmaScratch(ArrayRef<int64_t> aShape,
                               ArrayRef<int64_t> bShape, unsigned aBytes,
                               unsigned bBytes);

/// Whole-op sizes, as the lowering patterns of these ops use them.
int64_t getConvertLayoutScratchBytes(Operation *convertLayout);
int64_t getReduceScratchBytes(Operation *reduce);
int64_t getScanScratchBytes(Operation *scan);
int64_t getAtomicScratchBytes(Operation *atomic);
int64_t getShapeOpScratchBytes(Operation *shapeOp);
int64_t getDotScratchBytes(Operation *dot);

/// Attaches ScratchOpInterface to tkgpu.convert_layout and to the tk ops
/// above.
void registerScratchModels(DialectRegistry &registry);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_ANALYSIS_SCRATCHSIZE_H
