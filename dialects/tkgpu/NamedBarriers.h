//===- NamedBarriers.h - who owns which PTX named barrier -------*- C++ -*-===//
//
// PTX has 16 named barriers per CTA (bar.sync / bar.arrive id, count).
// The lowering takes the first three; the rest are free for schedules of
// warp groups. Plain constants, no MLIR: tk-llvm-prune-barriers reads
// them too.
//
//===----------------------------------------------------------------------===//
#ifndef TK_DIALECTS_TKGPU_NAMEDBARRIERS_H
#define TK_DIALECTS_TKGPU_NAMEDBARRIERS_H

namespace mlir::tkgpu {

/// The CTA barrier of a warp-specialized kernel's compute warps, and the
/// producer warp's (bar.sync 0 would wait for the other partition).
inline constexpr unsigned kConsumerBarrierId = 1;
inline constexpr unsigned kProducerBarrierId = 2;
/// Barrier ids below this one are the lowering's: 0 is bar.sync 0, 1 the
/// compute warps' CTA barrier and 2 the producer warp's in a
/// warp-specialized kernel (createBarrier). From it on, ids belong to
/// schedules of warp groups (tkgpu.named_barrier_sync/arrive).
inline constexpr unsigned kFirstSchedulingBarrierId = 3;
/// PTX's named barriers are 0 to 15.
inline constexpr unsigned kNumNamedBarriers = 16;

} // namespace mlir::tkgpu

#endif // TK_DIALECTS_TKGPU_NAMEDBARRIERS_H
