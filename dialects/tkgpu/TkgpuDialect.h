//===- TkgpuDialect.h - the tkgpu dialect -----------------------*- C++ -*-===//
//
// Encodings (blocked, slice, shared), the memdesc type, the tkgpu ops, and
// helpers to read layouts and module attributes. Consumers should go through
// LayoutEncodingAttrInterface / toLinearLayout rather than switch over
// encoding classes, so new encodings need no change to them.
//
//===----------------------------------------------------------------------===//
#ifndef TK_DIALECTS_TKGPU_TKGPUDIALECT_H
#define TK_DIALECTS_TKGPU_TKGPUDIALECT_H

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/LinearLayout.h"
#include "dialects/tkgpu/NamedBarriers.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "dialects/tkgpu/TkgpuDialect.h.inc"
#include "dialects/tkgpu/TkgpuInterfaces.h.inc"
#include "dialects/tkgpu/TkgpuOpInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/tkgpu/TkgpuAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/tkgpu/TkgpuTypes.h.inc"

namespace mlir::tkgpu {
/// The side-effect resource of shared-memory ops.
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};
} // namespace mlir::tkgpu

#define GET_OP_CLASSES
#include "dialects/tkgpu/TkgpuOps.h.inc"

namespace mlir::tkgpu {

//===----------------------------------------------------------------------===//
// Layout queries
//===----------------------------------------------------------------------===//

/// The layout encoding of a tensor (or memdesc) type, or null.
LayoutEncodingAttrInterface getLayoutEncoding(Type type);

/// The linear layout of a tensor or memdesc type; the type must carry a
/// layout encoding.
LinearLayout toLinearLayout(Type type);
LinearLayout toLinearLayout(ArrayRef<int64_t> shape, Attribute encoding);

/// Elements each thread holds of a value of this type: 1 for a scalar, the
/// register count for a tensor with a distributed encoding.
int64_t getTotalElemsPerThread(Type type);

/// `type` (a ranked tensor) with its encoding replaced.
RankedTensorType withEncoding(Type type, Attribute encoding);

/// Whether two encodings lay out a tensor of `shape` identically (e.g. a
/// slice and a blocked layout can be equivalent).
bool areLayoutsEquivalent(ArrayRef<int64_t> shape, Attribute a, Attribute b);

//===----------------------------------------------------------------------===//
// Building encodings
//===----------------------------------------------------------------------===//

/// Triton-style default blocked layout for a tensor of `shape`: the given
/// sizePerThread (all 1 when empty) and order (reversed dimensions, i.e.
/// row-major, when empty); lanes then warps are spread over the dimensions
/// fastest first, each taking as many as the dimension still has elements
/// for; what is left over goes to the slowest dimension (replicating data
/// when the tensor is smaller than the CTA).
BlockedEncodingAttr getDefaultBlockedEncoding(MLIRContext *ctx,
                                              ArrayRef<int64_t> shape,
                                              unsigned numWarps,
                                              unsigned threadsPerWarp,
                                              ArrayRef<unsigned> sizePerThread = {},
                                              ArrayRef<unsigned> order = {});

/// Whether `value` is absent or +0 in every element (a zero constant, or a
/// tk.splat / convert_layout of one): what cp.async writes for masked
/// elements, so the `other` an async copy can have.
bool isZeroFill(Value value);

/// The shared layout (#tkgpu.shared or #tkgpu.nvmma_shared) of `count`
/// copies of a tile in `tile`'s layout along a new leading dimension, the
/// slowest (the pipeliner's multi-buffers), and back: one buffer of such a
/// multi-buffer (memdesc_index).
Attribute addLeadingBufferDim(Attribute tile);
Attribute dropLeadingBufferDim(Attribute multiBuffer);

/// The buffer of `count` copies of `tile` along a new leading dimension
/// (addLeadingBufferDim's layout); memdesc_index picks one.
MemDescType getMultiBufferType(MemDescType tile, int64_t count);

/// The layout of a tensor or buffer whose dimension i is dimension
/// order[i] of one in `layout` (tk.trans, memdesc_trans): the same
/// elements in the same registers or bytes, the dimensions renamed. For a
/// #tkgpu.blocked, #tkgpu.shared or #tkgpu.nvmma_shared layout; null for
/// any other.
Attribute permuteLayout(Attribute layout, ArrayRef<int32_t> order);

/// The inverse of the permutation `order` (the order that undoes a
/// tk.trans or memdesc_trans with `order`).
SmallVector<int32_t> invertPermutation(ArrayRef<int32_t> order);

/// The buffer that a memdesc_trans with `order` shows as `view`: the same
/// bytes, its dimensions and layout permuted back (a tile staged as loaded
/// for a reader that wants it transposed); null when the layout cannot be
/// permuted (permuteLayout).
MemDescType getTransposeSourceType(MemDescType view, ArrayRef<int32_t> order);

//===----------------------------------------------------------------------===//
// Shared-memory allocation (set by tkgpu-allocate-shared-memory)
//===----------------------------------------------------------------------===//

/// Byte offset of a local_alloc's buffer in the dynamic shared memory (i64
/// attribute on the op).
inline constexpr llvm::StringLiteral kSharedOffsetAttr = "tkgpu.offset";
/// Byte offset of an op's scratch interval (ScratchOpInterface ops).
inline constexpr llvm::StringLiteral kScratchOffsetAttr =
    "tkgpu.scratch_offset";
/// Total dynamic shared memory of the module in bytes (i32, on the module).
inline constexpr llvm::StringLiteral kSharedBytesAttr = "tkgpu.shared_bytes";

/// The byte offset `op` was given (kSharedOffsetAttr or kScratchOffsetAttr),
/// or 0 when the allocation pass did not run (tests of single ops).
int64_t getAllocatedOffset(Operation *op, StringRef attrName);

/// Bytes a memdesc occupies in shared memory (elements of i1 are bytes).
int64_t getSizeInBytes(MemDescType type);

//===----------------------------------------------------------------------===//
// Module attributes
//===----------------------------------------------------------------------===//

/// `tkgpu.num_warps` of the module enclosing `op` (or `op` itself); 0 when
/// absent.
unsigned getNumWarps(Operation *op);
/// The warps a launch runs: `tkgpu.total_num_warps`, else num_warps.
unsigned getTotalNumWarps(Operation *op);
/// The registers per thread a kernel of `threads` threads may hold when it
/// starts: its share of the SM's 64K, a multiple of 8 (setmaxnreg's unit),
/// at most 248 (PTX allows 255) and at most the module's `tk.maxnreg`
/// (the kernel's maxnreg=, a cap that lets more programs share an SM).
unsigned getEntryRegisters(Operation *op, unsigned threads);
/// The module's `tk.maxnreg`; 0 when absent.
unsigned getMaxRegisters(Operation *op);
/// The module's `tk.cluster_size` (programs per thread-block cluster along
/// x, the kernel's cluster_size=); 1 when absent.
unsigned getClusterSize(Operation *op);
/// `tkgpu.threads_per_warp`; 32 when absent.
unsigned getThreadsPerWarp(Operation *op);
/// `tkgpu.target`, e.g. "sm_90a"; empty when absent.
StringRef getTarget(Operation *op);
/// The compute capability of a target name: "sm_90a" -> 90; 0 if unknown.
unsigned getComputeCapability(StringRef target);
/// The dynamic shared memory one program may use on compute capability
/// `cc` (the opt-in maximum per block: 227 KB on sm_90, 163 KB on sm_80);
/// 0 when unknown.
int64_t getMaxSharedMemoryPerProgram(unsigned cc);

} // namespace mlir::tkgpu

#endif // TK_DIALECTS_TKGPU_TKGPUDIALECT_H
