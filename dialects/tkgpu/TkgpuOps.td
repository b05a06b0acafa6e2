//===- TkgpuOps.td - tkgpu operations ----------------------*- tablegen -*-===//
#ifndef TKGPU_OPS_TD
#define TKGPU_OPS_TD

include "TkgpuDialect.td"
include "TkgpuTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

// Shared memory as one side-effect resource, so that loads and stores of
// it are ordered against each other but not against global memory.
def Tkgpu_SharedMemory : Resource<"::mlir::tkgpu::SharedMemory">;

def Tkgpu_Tensor : RankedTensorOf<[AnyType]>;

def Tkgpu_ConvertLayoutOp : Tkgpu_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "the same tensor in another layout";
  let description = [{
    Moves data between threads (shuffles or shared memory) so that the
    result holds the source's elements in the result type's encoding.
  }];
  let arguments = (ins Tkgpu_Tensor:$src);
  let results = (outs Tkgpu_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tkgpu_LocalAllocOp : Tkgpu_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<Tkgpu_SharedMemory>]>]> {
  let summary = "allocate a shared-memory buffer, optionally filled";
  let arguments = (ins Optional<Tkgpu_Tensor>:$src);
  let results = (outs Tkgpu_MemDescType:$result);
  let assemblyFormat = [{
    ($src^ `:` type($src) `->`)? attr-dict qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tkgpu_LocalDeallocOp : Tkgpu_Op<"local_dealloc", [
    MemoryEffects<[MemFree<Tkgpu_SharedMemory>]>]> {
  let summary = "end the lifetime of a shared-memory buffer";
  let arguments = (ins Tkgpu_MemDescType:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer))";
}

def Tkgpu_LocalLoadOp : Tkgpu_Op<"local_load", [
    MemoryEffects<[MemRead<Tkgpu_SharedMemory>]>]> {
  let summary = "read a shared-memory buffer into a distributed tensor";
  let arguments = (ins Tkgpu_MemDescType:$buffer);
  let results = (outs Tkgpu_Tensor:$result);
  let assemblyFormat =
      "$buffer attr-dict `:` qualified(type($buffer)) `->` type($result)";
  let hasVerifier = 1;
}

def Tkgpu_LocalStoreOp : Tkgpu_Op<"local_store", [
    MemoryEffects<[MemWrite<Tkgpu_SharedMemory>]>]> {
  let summary = "write a distributed tensor into a shared-memory buffer";
  let arguments = (ins Tkgpu_Tensor:$src, Tkgpu_MemDescType:$buffer);
  let assemblyFormat = [{
    $src `,` $buffer attr-dict `:` type($src) `->` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

#endif // TKGPU_OPS_TD
