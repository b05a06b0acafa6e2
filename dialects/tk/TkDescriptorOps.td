//===- TkDescriptorOps.td - tensor descriptor loads and stores -*- tablegen -*-===//
//
// Triton's tensor descriptors (make_tensor_descriptor, desc.load,
// desc.store; docs/language.md §10.18). The descriptor itself is a
// frontend record: each access carries the whole description (base
// pointer, shape and strides in elements, i64) and the block's element
// offsets (i32), so that no SSA value of a descriptor type flows through
// control flow, and a target's tensor-memory engine (TMA) sees every part
// where it is used. Their own file (and header, TkDescriptorOps.h) so that
// the many users of TkDialect.h do not depend on them.
//
//===----------------------------------------------------------------------===//
#ifndef TK_DESCRIPTOR_OPS_TD
#define TK_DESCRIPTOR_OPS_TD

include "TkDialect.td"
include "TkTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tk_DescriptorLoadOp : Tk_Op<"descriptor_load",
    [AttrSizedOperandSegments, MemoryEffects<[MemRead]>]> {
  let summary = "read one block of a strided N-D tensor (1 to 5-D)";
  let description = [{
    The tensor's element (i0, ..., in) lies at `base + sum(ik * strides[k])`
    for `0 <= ik < shape[k]`. Result element (j0, ..., jn) is tensor
    element (indices[k] + jk); elements outside [0, shape) in any
    dimension, negative indices included, read as zero (what TMA does).
    The last stride is 1 (the frontend requires the constant 1).

    `multicast` (`desc.load([...], multicast=True)`) promises that every
    program of the kernel's thread-block cluster (cluster_size=) executes
    this load, the k-th time, with the same indices, so that the cluster
    can fetch the block once. The interpreter checks the promise.
  }];
  let arguments = (ins Tk_PtrType:$base, Variadic<I64>:$shape,
                   Variadic<I64>:$strides, Variadic<I32>:$indices,
                   UnitAttr:$multicast);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = [{
    $base `[` $indices `]` `shape` `[` $shape `]` `strides` `[` $strides `]`
    attr-dict `:` qualified(type($base)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tk_DescriptorStoreOp : Tk_Op<"descriptor_store",
    [AttrSizedOperandSegments, MemoryEffects<[MemWrite]>]> {
  let summary = "write one block of a strided N-D tensor (1 to 5-D)";
  let description = [{
    As descriptor_load; elements of `value` that fall outside [0, shape)
    are not written.
  }];
  let arguments = (ins Tk_PtrType:$base, Variadic<I64>:$shape,
                   Variadic<I64>:$strides, Variadic<I32>:$indices,
                   Tk_Tensor:$value);
  let assemblyFormat = [{
    $base `[` $indices `]` `,` $value `shape` `[` $shape `]` `strides` `[`
    $strides `]` attr-dict `:` qualified(type($base)) `,` type($value)
  }];
  let hasVerifier = 1;
}

#endif // TK_DESCRIPTOR_OPS_TD
