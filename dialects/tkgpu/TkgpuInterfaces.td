//===- TkgpuInterfaces.td - layout encoding interface ------*- tablegen -*-===//
//
// Consumers (passes, the LLVM lowering) see encodings only through this
// interface, so new encodings (mma v2/v3, dot_operand, ...) plug in without
// changing them: each answers with a LinearLayout.
//
//===----------------------------------------------------------------------===//
#ifndef TKGPU_INTERFACES_TD
#define TKGPU_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Tkgpu_LayoutEncodingAttrInterface
    : AttrInterface<"LayoutEncodingAttrInterface"> {
  let cppNamespace = "::mlir::tkgpu";
  let description = [{
    A tensor layout. Distributed encodings (blocked, slice, later mma and
    dot_operand) spread a tensor over the registers of the threads of a CTA;
    their linear layout has input dimensions `register`, `lane`, `warp`.
    Memory encodings (shared) describe a buffer; their linear layout has the
    input dimension `offset`. Output dimensions are `dim0` ... `dim<rank-1>`
    with the tensor's sizes.
  }];
  let methods = [
    InterfaceMethod<"Rank of the tensors this encoding lays out.",
      "unsigned", "getRank">,
    InterfaceMethod<[{
        Whether the layout spreads the tensor over threads (register, lane,
        warp) rather than describing memory.
      }], "bool", "isDistributed">,
    InterfaceMethod<[{
        The layout of a tensor of `shape` as a linear map from the input
        dimensions to the tensor index. Distributed layouts smaller than
        their CTA tile broadcast (zero lane/warp bases, dropped register
        bases); larger ones repeat the tile in more registers.
      }], "::mlir::tkgpu::LinearLayout", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<[{
        Tensor dimensions from fastest- to slowest-varying within a thread's
        registers (and, for shared layouts, in memory).
      }], "::llvm::SmallVector<unsigned>", "getLayoutOrder">,
    InterfaceMethod<[{
        Elements of a tensor of `shape` held by each thread (distributed
        layouts; 0 for memory layouts).
      }], "int64_t", "getTotalElemsPerThread",
      (ins "::llvm::ArrayRef<int64_t>":$shape), [{}], [{
        if (!$_attr.isDistributed())
          return 0;
        return $_attr.toLinearLayout(shape).getInDimSize(
            ::mlir::tkgpu::kRegister);
      }]>,
  ];
}

def Tkgpu_ScratchOpInterface : OpInterface<"ScratchOpInterface"> {
  let cppNamespace = "::mlir::tkgpu";
  let description = [{
    An op whose lowering needs shared memory for the duration of the op
    alone (a layout conversion through shared memory, a reduction across
    warps, a scan, an atomic whose old value reaches other threads, a shape
    op that moves data between threads, a print). The size is computed
    from the op's types before lowering; `tkgpu-allocate-shared-memory`
    gives the op an interval of that size (`tkgpu.scratch_offset`), which
    the lowering uses as its base, and `tkgpu-membar` treats the op as a
    read and a write of that interval.

    The interface is attached to tk ops as external models (they belong to
    a dialect that knows nothing about layouts): see
    `registerScratchModels` (compiler/analysis/ScratchSize.h).
  }];
  let methods = [
    InterfaceMethod<[{
        Bytes of shared memory the lowering of this op uses; 0 when it
        needs none (e.g. a reduction that stays inside one warp).
      }], "int64_t", "getScratchSizeInBytes">,
    InterfaceMethod<"Alignment of the scratch interval in bytes.",
      "int64_t", "getScratchAlignment", (ins), [{}], [{ return 16; }]>,
  ];
}

#endif // TKGPU_INTERFACES_TD
