//===- TkgpuAttrs.td - layout encodings --------------------*- tablegen -*-===//
#ifndef TKGPU_ATTRS_TD
#define TKGPU_ATTRS_TD

include "TkgpuDialect.td"
include "TkgpuInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"

class Tkgpu_EncodingAttr<string name, string mnemonicName,
                         list<Trait> traits = []>
    : AttrDef<Tkgpu_Dialect, name, !listconcat(traits, [
        DeclareAttrInterfaceMethods<Tkgpu_LayoutEncodingAttrInterface,
                                    ["getTotalElemsPerThread"]>,
        DeclareAttrInterfaceMethods<VerifiableTensorEncoding>])> {
  let mnemonic = mnemonicName;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Tkgpu_BlockedEncodingAttr : Tkgpu_EncodingAttr<"BlockedEncoding", "blocked"> {
  let summary = "a tensor tiled over registers, lanes and warps";
  let description = [{
    `#tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],
    warpsPerCTA = [4, 1], order = [1, 0]}>`

    The CTA tile has sizePerThread[d] * threadsPerWarp[d] * warpsPerCTA[d]
    elements along dimension d: each thread holds a sizePerThread block,
    lanes tile the blocks, warps tile the warp tiles. `order` lists the
    dimensions fastest-varying first (registers, lanes and warps are
    numbered along order[0] first). A tensor larger than the tile repeats
    it in more registers; a smaller one is broadcast (threads replicate
    elements).
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order
  );
  let extraClassDeclaration = [{
    /// Product of warpsPerCTA.
    unsigned getNumWarps() const;
    /// Product of threadsPerWarp.
    unsigned getNumThreadsPerWarp() const;
    /// Elements of the CTA tile along each dimension.
    ::llvm::SmallVector<int64_t> getShapePerCTATile() const;
  }];
}

def Tkgpu_SliceEncodingAttr : Tkgpu_EncodingAttr<"SliceEncoding", "slice"> {
  let summary = "the parent layout with one dimension removed";
  let description = [{
    `#tkgpu.slice<{dim = 1, parent = #tkgpu.blocked<...>}>`

    Layout of a tensor of rank R-1 whose element i is held wherever the
    rank-R parent holds (i with index 0 inserted at `dim`), and replicated
    over the threads the parent spreads along `dim`. Results of reductions
    along `dim` and operands of expand_dims at `dim` carry it.
  }];
  let parameters = (ins
    "unsigned":$dim,
    "::mlir::tkgpu::LayoutEncodingAttrInterface":$parent
  );
  let builders = [
    AttrBuilderWithInferredContext<(ins "unsigned":$dim,
        "::mlir::tkgpu::LayoutEncodingAttrInterface":$parent), [{
      return $_get(parent.getContext(), dim, parent);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The parent's shape for a tensor of `shape` in this layout: a 1
    /// inserted at `dim`.
    ::llvm::SmallVector<int64_t> getParentShape(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def Tkgpu_SharedEncodingAttr : Tkgpu_EncodingAttr<"SharedEncoding", "shared"> {
  let summary = "a swizzled shared-memory layout";
  let description = [{
    `#tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>`

    Rows (dimension order[1]) of the buffer are stored one after the other;
    within row r, the vectors of `vec` elements along order[0] are permuted
    by XOR with ((r / perPhase) % maxPhase), so that threads reading a
    column hit different banks. vec = perPhase = maxPhase = 1 is unswizzled.
    Dimensions beyond order[1] are plain, slower strides.
  }];
  let parameters = (ins
    "unsigned":$vec,
    "unsigned":$perPhase,
    "unsigned":$maxPhase,
    ArrayRefParameter<"unsigned">:$order
  );
}

#endif // TKGPU_ATTRS_TD
