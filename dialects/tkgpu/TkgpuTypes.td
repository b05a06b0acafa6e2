//===- TkgpuTypes.td - tkgpu types -------------------------*- tablegen -*-===//
#ifndef TKGPU_TYPES_TD
#define TKGPU_TYPES_TD

include "TkgpuDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Tkgpu_MemDescType : TypeDef<Tkgpu_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "a tensor-shaped buffer in shared memory";
  let description = [{
    `!tkgpu.memdesc<64x32xf16, #tkgpu.shared<{...}>>`: a handle to a
    shared-memory buffer; the encoding says where each element lives.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    "::mlir::Attribute":$encoding
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    int64_t getNumElements() const;
  }];
}

def Tkgpu_TensorMapType : TypeDef<Tkgpu_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "a CUtensorMap kernel parameter (TMA descriptor)";
  let description = [{
    `!tkgpu.tensor_map`: a 128-byte CUtensorMap that the runtime encodes on
    the host at each launch (cuTensorMapEncodeTiled, from the kernel's
    `tk.tensor_maps` entry) and passes by value as a `__grid_constant__`
    parameter (`.param .align 64 .b8 [128]`). Only kernel arguments have
    this type; the TMA ops take it as their descriptor, whose address
    (a generic address of the parameter) the instructions read.
  }];
}

#endif // TKGPU_TYPES_TD
