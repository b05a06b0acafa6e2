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

def Tkgpu_MmaEncodingAttr : Tkgpu_EncodingAttr<"MmaEncoding", "mma"> {
  let summary = "the accumulator layout of a tensor-core instruction";
  let description = [{
    `#tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>`

    Version 2 is `mma.sync.aligned.m16n8kK` (sm_80+): one warp holds a
    16x8 tile of the accumulator, thread t holding rows t/4 and t/4 + 8,
    columns 2*(t%4) and 2*(t%4) + 1 (four registers). Warps tile the CTA
    tile, warpsPerCTA[0] along M first; a larger tensor repeats the CTA
    tile in more registers, N fastest. instrShape is [M, N] of one
    instruction.

    `#tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>`

    Version 3 is `wgmma.mma_async.m64nNkK` (sm_90a): four consecutive
    warps (a warp group) compute a 64xN tile, warp w of the group rows
    16*w .. 16*w + 15 in the mma.sync fragment pattern repeated along N
    (registers 4i .. 4i + 3 hold the columns 8i .. 8i + 7). instrShape is
    [16 (rows per warp), N, K]; warpsPerCTA[0] is a multiple of 4 (warp
    groups along M first, then along N); N is a power of two from 8 to
    256, K the instruction's (16 for f16/bf16, 8 for tf32).
  }];
  let parameters = (ins
    "unsigned":$versionMajor,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$instrShape
  );
  let extraClassDeclaration = [{
    /// Product of warpsPerCTA.
    unsigned getNumWarps() const;
    /// Elements of the CTA tile along each dimension:
    /// instrShape[d] * warpsPerCTA[d] (d = 0, 1).
    ::llvm::SmallVector<int64_t> getShapePerCTATile() const;
    /// Version 3 (wgmma).
    bool isHopper() const { return getVersionMajor() == 3; }
  }];
}

def Tkgpu_DotOperandEncodingAttr
    : Tkgpu_EncodingAttr<"DotOperandEncoding", "dot_operand"> {
  let summary = "the register layout of a tensor-core operand";
  let description = [{
    `#tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>`

    Operand A (opIdx 0, M x K) or B (opIdx 1, K x N) of the instruction
    whose accumulator has the `parent` (mma) layout, as the registers of
    `mma.sync` expect it: kWidth consecutive K elements per 32-bit register
    (2 for f16/bf16, 4 for i8, 1 for tf32), so one instruction covers
    K = 8 * kWidth. A is replicated over the warps along N, B over the
    warps along M. A larger tensor repeats the instruction tile in more
    registers, K fastest.
  }];
  let parameters = (ins
    "unsigned":$opIdx,
    "::mlir::tkgpu::LayoutEncodingAttrInterface":$parent,
    "unsigned":$kWidth
  );
  let extraClassDeclaration = [{
    /// The parent as an mma encoding (the verifier guarantees it).
    ::mlir::tkgpu::MmaEncodingAttr getMmaParent() const;
    /// [rows, cols] of one instruction's operand tile: 16 x 8*kWidth (A),
    /// 8*kWidth x 8 (B).
    ::llvm::SmallVector<int64_t> getInstrShape() const;
  }];
}

def Tkgpu_NvmmaSharedEncodingAttr
    : Tkgpu_EncodingAttr<"NvmmaSharedEncoding", "nvmma_shared"> {
  let summary = "the shared layout wgmma reads through matrix descriptors";
  let description = [{
    `#tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>`

    The canonical swizzled layouts of the PTX ISA's wgmma shared-memory
    matrices (and of TMA). The contiguous dimension order[0] is cut into
    chunks of `swizzle` bytes (128, 64 or 32); each chunk stores all rows
    (order[1]) one after the other, `swizzle` bytes each, and the chunks
    follow each other. Within a chunk, the 16-byte piece p of row r sits
    at piece p XOR ((r / (128 / swizzle)) % (swizzle / 16)): the hardware
    swizzle of address bits [4, 4 + log2(swizzle / 16)) with bits 7 and up,
    for a buffer aligned to 8 * swizzle bytes. Dimensions beyond order[1]
    (the leading dimension of a multi-buffer) are slower.
  }];
  let parameters = (ins
    "unsigned":$swizzle,
    "unsigned":$elementBitWidth,
    ArrayRefParameter<"unsigned">:$order
  );
  let extraClassDeclaration = [{
    /// Elements of one swizzle-byte row (a chunk's width).
    unsigned getChunkElements() const {
      return getSwizzle() * 8 / getElementBitWidth();
    }
    /// Alignment in bytes the hardware swizzle pattern needs: 8 rows.
    unsigned getRequiredAlignment() const { return 8 * getSwizzle(); }
  }];
}

#endif // TKGPU_ATTRS_TD
