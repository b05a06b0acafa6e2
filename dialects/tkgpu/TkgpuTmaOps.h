//===- TkgpuTmaOps.h - mbarrier and TMA ops of tkgpu ------------*- C++ -*-===//
#ifndef TK_DIALECTS_TKGPU_TKGPUTMAOPS_H
#define TK_DIALECTS_TKGPU_TKGPUTMAOPS_H

#include "dialects/tkgpu/TkgpuDialect.h"

#define GET_OP_CLASSES
#include "dialects/tkgpu/TkgpuTmaOps.h.inc"

namespace mlir::tkgpu {

/// The TMA box that moves `buffer` (an nvmma_shared memdesc whose
/// contiguous dimension is the last) in whole boxes: the last dimension
/// cut to one swizzle chunk, the one before it to 256 rows, and the outer
/// ones to 256, or to 1 when the buffer has several chunks (whose rows
/// would otherwise interleave with the outer dimensions). Empty when the
/// buffer is not such a memdesc.
SmallVector<int64_t> getTmaBoxShape(MemDescType buffer);

/// On a TMA copy from tkgpu-lower-tma: its tk.descriptor_load promised
/// `multicast` in a clustered kernel (docs/tma.md); tkgpu-warp-specialize
/// turns such copies into multicast ones.
inline constexpr llvm::StringLiteral kMulticastPromiseAttr = "tk.multicast";

} // namespace mlir::tkgpu

#endif // TK_DIALECTS_TKGPU_TKGPUTMAOPS_H
