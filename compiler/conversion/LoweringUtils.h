//===- LoweringUtils.h - helpers of the tkgpu -> LLVM lowering --*- C++ -*-===//
//
// Shared by the op patterns of convert-tkgpu-to-llvm: the type converter
// (a tensor becomes the struct of the elements this thread owns, in the
// register order of its LinearLayout), index arithmetic from linear layouts,
// warp shuffles, inline PTX (LoweringUtils.cpp), and moving distributed
// tensors through the one dynamic shared-memory buffer
// (SharedMemoryAccess.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_CONVERSION_LOWERINGUTILS_H
#define TK_COMPILER_CONVERSION_LOWERINGUTILS_H

#include "compiler/analysis/ScratchSize.h"
#include "dialects/tkgpu/LinearLayout.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir::tkgpu {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The LLVM type converter of the lowering: `!tk.ptr<T>` -> `!llvm.ptr<1>`;
/// a tensor with a distributed encoding -> `!llvm.struct<(T x N)>` holding
/// the N elements of the calling thread, element i being register i of the
/// tensor's LinearLayout; `!tkgpu.memdesc` -> `!llvm.ptr<3>`, the address
/// of the buffer's element 0 (its allocated offset applied); scalars as the
/// upstream LLVM converter has them.
class TkgpuToLlvmTypeConverter : public LLVMTypeConverter {
public:
  TkgpuToLlvmTypeConverter(MLIRContext *ctx, const LowerToLLVMOptions &options);
};

/// The type an element of `elementType` has in memory: i1 is a byte.
Type getMemoryElementType(Type elementType);
/// Bits of a scalar type in memory (i1: 8, pointers: 64).
unsigned getMemoryBitWidth(Type elementType);

//===----------------------------------------------------------------------===//
// State of one run of the pass
//===----------------------------------------------------------------------===//

/// Per memory op (tk.load/store/atomic_*): the number of consecutive
/// elements each access moves, chosen before the conversion from AxisInfo
/// and the layout (ops are matched by identity, values change on the way).
using VectorWidthMap = llvm::DenseMap<Operation *, unsigned>;

struct LoweringState {
  ModuleOp module;
  unsigned numWarps = 4;
  unsigned threadsPerWarp = 32;
  unsigned computeCapability = 90;
  VectorWidthMap vectorWidths;
  /// The largest scratch any op needed; becomes tkgpu.shared_bytes.
  uint64_t sharedBytes = 0;
  /// Uniquified string constants (format strings, assert messages).
  llvm::StringMap<LLVM::GlobalOp> strings;
  /// convert-tkgpu-to-llvm's rebase-wgmma-descriptors.
  bool rebaseDescriptors = false;

  void requireSharedBytes(uint64_t bytes) {
    sharedBytes = std::max(sharedBytes, bytes);
  }
};

/// Name of the dynamic shared memory global (`extern __shared__`).
inline constexpr llvm::StringLiteral kSharedMemoryName = "tk_smem";

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

Value createI32(OpBuilder &b, Location loc, int64_t value);
Value createIntConstant(OpBuilder &b, Location loc, Type type, int64_t value);
Value createFloatConstant(OpBuilder &b, Location loc, Type type, double value);
Value createI1(OpBuilder &b, Location loc, bool value);
/// Logical and of predicates; a null operand counts as true.
Value createAnd(OpBuilder &b, Location loc, Value lhs, Value rhs);

/// The elements of a converted tensor (a struct), or {value} for a scalar.
SmallVector<Value> unpackValues(OpBuilder &b, Location loc, Value value);
/// The struct of `type` holding `elements` (or elements[0] for a scalar).
Value packValues(OpBuilder &b, Location loc, Type type, ValueRange elements);

/// Applies `build` (ArrayRef<Value> -> Value) to element i of every
/// converted operand, for each element (an operand with one element, a
/// scalar, serves every i), and packs the results as `resultType`
/// converts.
template <typename Build>
Value mapElements(OpBuilder &b, Location loc, Type resultType,
                  const TypeConverter &converter, ValueRange operands,
                  Build build) {
  SmallVector<SmallVector<Value>> elements;
  for (Value v : operands)
    elements.push_back(unpackValues(b, loc, v));
  size_t count = 1;
  for (auto &e : elements)
    count = std::max(count, e.size());
  SmallVector<Value> results;
  for (size_t i = 0; i < count; ++i) {
    SmallVector<Value> args;
    for (auto &e : elements)
      args.push_back(e.size() == 1 ? e[0] : e[i]);
    results.push_back(build(args));
  }
  return packValues(b, loc, converter.convertType(resultType), results);
}

/// threadIdx.x, and from it the lane and the warp (i32).
Value getThreadId(OpBuilder &b, Location loc);
std::pair<Value, Value> getLaneAndWarp(OpBuilder &b, Location loc,
                                       unsigned threadsPerWarp);

/// The partition of a tkgpu.warp_specialize that code at `block` runs in:
/// none (every warp), its consumer region (warps 0 .. num_warps - 1) or
/// its producer region (the first warp of the extra group).
enum class Partition { None, Consumer, Producer };
Partition getPartition(Block *block);

/// The thread that issues single-thread operations (mbarrier init and
/// expect, TMA copies) at `block`: 0, or num_warps * 32 in a producer
/// region.
unsigned getIssuingThread(Block *block);

/// A barrier over the threads that run the builder's insertion point:
/// bar.sync 0 (the CTA), or a named barrier over a partition's threads
/// (1 with num_warps * 32 for the consumers, 2 with 32 for the producer).
void createBarrier(OpBuilder &b, Location loc);

/// Base address of the dynamic shared memory (`!llvm.ptr<3>`).
Value getSharedMemoryBase(OpBuilder &b, Location loc, ModuleOp module);

/// A uniquified private constant global holding `text` NUL-terminated;
/// returns its address as a generic `!llvm.ptr`.
Value getStringConstant(OpBuilder &b, Location loc, LoweringState &state,
                        StringRef text);

/// The llvm.func `name` of the module, declared with `type` if missing.
LLVM::LLVMFuncOp getOrDeclareFunction(OpBuilder &b, ModuleOp module,
                                      StringRef name,
                                      LLVM::LLVMFunctionType type);

/// Splits the current block and runs `thenBody` only where `condition`
/// holds; the builder continues after the if.
void createIfThen(RewriterBase &b, Location loc, Value condition,
                  llvm::function_ref<void(RewriterBase &)> thenBody);

//===----------------------------------------------------------------------===//
// Warp shuffles (any scalar type up to 64 bits; split into i32 words)
//===----------------------------------------------------------------------===//

Value shuffleXor(OpBuilder &b, Location loc, Value value, unsigned laneMask);
Value shuffleUp(OpBuilder &b, Location loc, Value value, unsigned delta);
Value shuffleIdx(OpBuilder &b, Location loc, Value value, Value srcLane);

//===----------------------------------------------------------------------===//
// Combining functions of reductions and scans
//===----------------------------------------------------------------------===//

enum class CombineKind { Sum, Prod, Max, Min, UMax, UMin, And, Or, Xor };

/// lhs (op) rhs on scalars. Float max/min propagate NaN (max.NaN); integer
/// max/min are signed unless U*.
Value emitCombine(OpBuilder &b, Location loc, CombineKind kind, Value lhs,
                  Value rhs);
/// The neutral element of `kind` for `type`.
Value emitCombineIdentity(OpBuilder &b, Location loc, CombineKind kind,
                          Type type);

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

/// Collects operands of one inline asm statement. Outputs are numbered first
/// ($0...), then inputs, as LLVM requires: declare every output before the
/// first input. `constraint` is "r" (b32), "l" (b64), "h" (b16), "c" (b8),
/// "f" (f32), "d" (f64) or "b" (predicate).
class PtxAsm {
public:
  /// Returns the operand number of a new output.
  unsigned addOutput(Type type, StringRef constraint);
  /// Returns the operand number of a new input.
  unsigned addInput(Value value, StringRef constraint);
  /// "$n" for operand `n`.
  static std::string operand(unsigned n) { return "$" + std::to_string(n); }
  /// Emits `text`; returns the outputs (none, one value, or a struct's
  /// elements unpacked).
  SmallVector<Value> emit(OpBuilder &b, Location loc, StringRef text,
                          bool hasSideEffects = true);

private:
  SmallVector<Type> outputTypes;
  SmallVector<std::string> outputConstraints;
  SmallVector<Value> inputs;
  SmallVector<std::string> inputConstraints;
};

/// `@pred st.shared` of `elements` (one scalar type, i1 already widened to
/// i8) at consecutive addresses from `ptr` (`!llvm.ptr<3>`, aligned to the
/// total size, at most 16 bytes). A predicated store keeps the code in one
/// basic block, which schedules better than a branch around the store.
void storeSharedPredicated(OpBuilder &b, Location loc, Value ptr,
                           ArrayRef<Value> elements, Value predicate);

/// The inline-asm register constraint of an integer of `bits` bits.
StringRef getConstraintForBits(unsigned bits);

//===----------------------------------------------------------------------===//
// Linear layouts
//===----------------------------------------------------------------------===//

/// The distributed LinearLayout of a tensor type (register, lane, warp ->
/// dim0..dimN-1).
LinearLayout getDistributedLayout(Type tensorType);

// getInBits, getBasisOrZero, getRegisterIndex, getRegisterPermutation:
// compiler/analysis/ScratchSize.h (the scratch sizes need them too).

/// The tensor index of every register of the calling thread, per dimension
/// as i32: register part (constant) combined with the lane/warp part.
SmallVector<SmallVector<Value>> emitIndices(OpBuilder &b, Location loc,
                                            const LinearLayout &layout,
                                            Value lane, Value warp);
/// The lane/warp part alone: one i32 per output dimension.
SmallVector<Value> emitThreadIndex(OpBuilder &b, Location loc,
                                   const LinearLayout &layout, Value lane,
                                   Value warp);
/// Combines a register part with the thread part of emitThreadIndex (add
/// when their bits cannot overlap, else xor).
Value combineIndex(OpBuilder &b, Location loc, const LinearLayout &layout,
                   unsigned dim, int32_t registerPart, Value threadPart);

/// layout.getNumContiguousRegisters(outDim) reduced until every other basis
/// (higher register bits, and all bits of the other input dimensions)
/// moves along `outDim` by a multiple of it: then every run of n registers
/// of every thread starts at a multiple of n, i.e. is one aligned vector of
/// a memory whose element offsets are `outDim`.
int32_t getNumContiguousAlignedRegisters(const LinearLayout &layout,
                                         const std::string &outDim);

/// The map from a tensor of `shape` (dim0, dim1, ...) to the one output
/// dimension kOffset giving the element offset sum(index[d] * strides[d]),
/// when that sum is linear over GF(2): every stride a power of two or 0 (a
/// broadcast dimension) and no offset bit reached from two dimensions, so
/// that the sum is an XOR. std::nullopt otherwise (e.g. padded rows).
std::optional<LinearLayout> getStridedLayout(ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> strides);

/// i1 that is true on the one thread of each group of threads holding the
/// same data (the free lane/warp bits are 0), or null when no data is
/// replicated across threads.
Value emitUniqueOwnerPredicate(OpBuilder &b, Location loc,
                               const LinearLayout &layout, Value lane,
                               Value warp);
/// Registers whose free bits are set only repeat other registers.
bool isDuplicateRegister(const LinearLayout &layout, int32_t reg);

//===----------------------------------------------------------------------===//
// Distributed tensors through shared memory
//===----------------------------------------------------------------------===//

/// A tensor view of the shared memory: element `index` lives at element
/// offset sum(index[d] * strides[d]) from `byteOffset` (of tk_smem). A
/// stride of 0 broadcasts (reads of a broadcast dimension). The helpers
/// below turn it into a SharedOffsetLayout, so that scratch views and
/// explicit (swizzled) buffers share one address and vectorization
/// routine.
struct SharedView {
  SmallVector<int64_t> strides;
  int64_t byteOffset = 0;

  /// Row-major strides for `shape`, each row (last dimension) followed by
  /// `padding` elements to spread columns over the banks.
  static SharedView rowMajor(ArrayRef<int64_t> shape, int64_t padding = 0);
  /// Bytes spanned by a tensor of `shape` with elements of `elementBytes`.
  int64_t getSizeInBytes(ArrayRef<int64_t> shape, unsigned elementBytes) const;
};

/// Where the elements of a tensor of `shape` live in a shared-memory
/// buffer, in elements from its base address:
///   offset(index) = sum over terms t of t.scale * t.layout(index),
/// each layout a linear map over GF(2) from the tensor dimensions (dim0,
/// dim1, ...) to the one output dimension kOffset. A `#tkgpu.shared` buffer
/// is one term of scale 1, the inverse of its encoding's LinearLayout (the
/// swizzle is an XOR inside it); a SharedView with power-of-two strides is
/// one term too. A padded SharedView (rows of 64 + 8 elements) is not
/// linear over GF(2): it keeps one identity term per dimension, scaled by
/// the dimension's stride, which is exact for any stride.
///
/// Seen from a distributed layout D, each term becomes
/// D.compose(t.layout): (register, lane, warp) -> kOffset, so a register's
/// offset is its constant register part combined (XOR where the bits can
/// overlap, else add) with a lane/warp part computed once per thread.
struct SharedOffsetLayout {
  struct Term {
    LinearLayout layout;
    int64_t scale;
    /// XORed into the layout's image: the offset of a window's origin
    /// (local_load with offsets), whose bits are disjoint from the window's
    /// index bits, so offset(i) = layout(i xor origin) = layout(i) xor
    /// layout(origin).
    int32_t window = 0;
  };
  SmallVector<Term> terms;

  /// A buffer layout (kOffset -> tensor dimensions), bijective.
  static SharedOffsetLayout get(const LinearLayout &shared);
  /// A strided view of a tensor of `shape`.
  static SharedOffsetLayout get(ArrayRef<int64_t> shape,
                                const SharedView &view);
};

/// The offset layout of a `!tkgpu.memdesc` (its encoding's LinearLayout
/// inverted).
SharedOffsetLayout getSharedOffsetLayout(Type memDescType);
/// The same for the window of a `!tkgpu.memdesc` at element `origin` (one
/// offset per dimension, each a multiple of the window's extent).
SharedOffsetLayout getSharedOffsetLayout(Type memDescType,
                                         ArrayRef<int64_t> origin);

/// `layout` (a distributed layout of a window) with its output dimensions
/// widened to `bufferShape`, so that it composes with the buffer's offset
/// layout.
LinearLayout widenToBuffer(const LinearLayout &layout,
                           ArrayRef<int64_t> bufferShape);

/// The alignment in bytes (a power of two, at most 16) of the address of
/// `buffer` (a `!tkgpu.memdesc` of the op being converted): from the
/// `tkgpu.offset` of its local_alloc and the memdesc_index steps on the
/// way; 16 for a block argument (allocations are 16-byte aligned).
unsigned getBufferAlignment(Value buffer);

/// Registers one shared-memory access of `layout` moves through `offsets`:
/// consecutive registers at consecutive offsets, every access aligned to
/// its size given a base aligned to `baseAlignment` bytes, at most 16
/// bytes. A power of two; any smaller power of two is valid too.
int32_t getSharedVectorWidth(const LinearLayout &layout,
                             const SharedOffsetLayout &offsets,
                             unsigned elementBytes, unsigned baseAlignment);

/// The element offsets (i32) of registers 0, vec, 2 * vec, ... of the
/// calling thread (lane, warp), from the buffer base.
SmallVector<Value> emitSharedOffsets(OpBuilder &b, Location loc,
                                     const LinearLayout &layout,
                                     const SharedOffsetLayout &offsets,
                                     int32_t vec, Value lane, Value warp);

/// Writes each register of `values` (laid out by `layout`) to the buffer
/// at `base` (`!llvm.ptr<3>`, aligned to `baseAlignment` bytes), vectorized
/// by getSharedVectorWidth. Registers that repeat others are skipped;
/// `predicate` (may be null) guards every store. Does not synchronize.
void storeToShared(RewriterBase &b, Location loc, Value base,
                   ArrayRef<Value> values, const LinearLayout &layout,
                   const SharedOffsetLayout &offsets, Type elementType,
                   Value lane, Value warp, Value predicate = nullptr,
                   unsigned baseAlignment = 16);

/// Reads the registers of `layout` from the buffer at `base` (vectorized
/// like storeToShared; a register repeating another is read once). Does not
/// synchronize.
SmallVector<Value> loadFromShared(OpBuilder &b, Location loc, Value base,
                                  const LinearLayout &layout,
                                  const SharedOffsetLayout &offsets,
                                  Type elementType, Value lane, Value warp,
                                  unsigned baseAlignment = 16);

/// Writes each register of `values` (laid out by `layout`) to `view`,
/// vectorized up to 16 bytes where registers and addresses are contiguous.
/// Registers that repeat others are skipped; `predicate` (may be null)
/// guards every store. Does not synchronize.
void storeDistributed(RewriterBase &b, Location loc, LoweringState &state,
                      ArrayRef<Value> values, const LinearLayout &layout,
                      ArrayRef<int64_t> shape, const SharedView &view,
                      Type elementType, Value lane, Value warp,
                      Value predicate = nullptr);

/// Reads the registers of `layout` from `view` (vectorized like
/// storeDistributed). Does not synchronize.
SmallVector<Value> loadDistributed(OpBuilder &b, Location loc,
                                   LoweringState &state,
                                   const LinearLayout &layout,
                                   ArrayRef<int64_t> shape,
                                   const SharedView &view, Type elementType,
                                   Value lane, Value warp);

/// Moves `values` from layout `from` to layout `to` (same shape): nothing
/// when equal, a register permutation when every thread already holds what
/// it needs, otherwise through the shared memory at byte `scratchOffset`
/// (store, barrier, load; getConversionScratchBytes bytes). No barrier
/// precedes the store: tkgpu-membar's job, or the caller's when it used
/// the same scratch before.
SmallVector<Value> convertDistributed(RewriterBase &b, Location loc,
                                      LoweringState &state,
                                      ArrayRef<Value> values,
                                      const LinearLayout &from,
                                      const LinearLayout &to,
                                      ArrayRef<int64_t> shape,
                                      Type elementType, int64_t scratchOffset);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_CONVERSION_LOWERINGUTILS_H
