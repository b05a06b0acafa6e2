//===- TkOps.td - tk operations ----------------------------*- tablegen -*-===//
//
// Shape and type rules live in C++ verifiers (TkOps.cpp) so that every rule
// has one message, tested by one lit file under test/lit/dialect/.
//
//===----------------------------------------------------------------------===//
#ifndef TK_OPS_TD
#define TK_OPS_TD

include "TkDialect.td"
include "TkTypes.td"
include "TkAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Program instance queries
//===----------------------------------------------------------------------===//

def Tk_ProgramIdOp : Tk_Op<"program_id", [Pure]> {
  let summary = "index of this program instance along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tk_NumProgramsOp : Tk_Op<"num_programs", [Pure]> {
  let summary = "number of program instances along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tk_MakeRangeOp : Tk_Op<"make_range", [Pure]> {
  let summary = "the 1-D tensor [start, start+1, ..., end-1]";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tk_SplatOp : Tk_Op<"splat", [Pure]> {
  let summary = "a tensor whose every element is one scalar";
  let arguments = (ins Tk_Scalar:$src);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tk_BroadcastOp : Tk_Op<"broadcast", [Pure]> {
  let summary = "repeat size-1 dimensions to a larger shape of the same rank";
  let arguments = (ins Tk_Tensor:$src);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tk_ExpandDimsOp : Tk_Op<"expand_dims", [Pure]> {
  let summary = "insert a size-1 dimension at `axis`";
  let arguments = (ins Tk_Tensor:$src, I32Attr:$axis);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tk_ReshapeOp : Tk_Op<"reshape", [Pure]> {
  let summary = "same elements in row-major order, another shape";
  let arguments = (ins Tk_Tensor:$src);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tk_TransOp : Tk_Op<"trans", [Pure]> {
  let summary = "permute dimensions: result dim i is source dim order[i]";
  let arguments = (ins Tk_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tk_AddPtrOp : Tk_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by a number of elements";
  let arguments = (ins Tk_PtrLike:$ptr, Tk_IntLike:$offset);
  let results = (outs Tk_PtrLike:$result);
  let assemblyFormat =
      "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$offset), [{
      build($_builder, $_state, ptr.getType(), ptr, offset);
    }]>
  ];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tk_LoadOp : Tk_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    OptionalTypesMatchWith<"'other' has the result type", "result", "other",
                           "$_self">]> {
  let summary = "masked gather from global memory";
  let description = [{
    Lanes whose mask is false do not touch memory and take `other` (or an
    undefined value when `other` is absent).
  }];
  let arguments = (ins Tk_PtrLike:$ptr, Optional<Tk_BoolLike>:$mask,
                   Optional<Tk_Value>:$other, UnitAttr:$isVolatile);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` `mask` $mask^)? (`,` `other` $other^)? attr-dict `:` type($ptr)
    `->` type($result) (`,` type($mask)^)?
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$mask,
                   "::mlir::Value":$other)>
  ];
  let hasVerifier = 1;
}

def Tk_StoreOp : Tk_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "masked scatter to global memory";
  let arguments = (ins Tk_PtrLike:$ptr, Tk_Value:$value, Optional<Tk_BoolLike>:$mask);
  let assemblyFormat = [{
    $ptr `,` $value (`,` `mask` $mask^)? attr-dict `:` type($ptr) `,`
    type($value) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def Tk_AtomicRMWOp : Tk_Op<"atomic_rmw", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "atomic read-modify-write; returns the old values";
  let arguments = (ins Tk_AtomicKindAttr:$kind, Tk_PtrLike:$ptr, Tk_Value:$value,
                   Optional<Tk_BoolLike>:$mask,
                   DefaultValuedAttr<Tk_MemSemanticAttr, "::mlir::tk::MemSemantic::AcqRel">:$sem,
                   DefaultValuedAttr<Tk_MemScopeAttr, "::mlir::tk::MemScope::Gpu">:$scope);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = [{
    $kind $ptr `,` $value (`,` `mask` $mask^)? (`sem` `=` $sem^)?
    (`scope` `=` $scope^)? attr-dict `:` type($ptr) `,` type($value)
    (`,` type($mask)^)?
  }];
  let builders = [
    OpBuilder<(ins "::mlir::tk::AtomicKind":$kind, "::mlir::Value":$ptr,
                   "::mlir::Value":$value, "::mlir::Value":$mask), [{
      build($_builder, $_state, value.getType(), kind, ptr, value, mask,
            ::mlir::tk::MemSemantic::AcqRel, ::mlir::tk::MemScope::Gpu);
    }]>
  ];
  let hasVerifier = 1;
}

def Tk_AtomicCASOp : Tk_Op<"atomic_cas", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["cmp", "value", "result"]>]> {
  let summary = "atomic compare-and-swap; returns the old values";
  let arguments = (ins Tk_PtrLike:$ptr, Tk_Value:$cmp, Tk_Value:$value,
                   DefaultValuedAttr<Tk_MemSemanticAttr, "::mlir::tk::MemSemantic::AcqRel">:$sem,
                   DefaultValuedAttr<Tk_MemScopeAttr, "::mlir::tk::MemScope::Gpu">:$scope);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = [{
    $ptr `,` $cmp `,` $value (`sem` `=` $sem^)? (`scope` `=` $scope^)?
    attr-dict `:` type($ptr) `,` type($value)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointer/integer/bit casts
//===----------------------------------------------------------------------===//

def Tk_IntToPtrOp : Tk_Op<"int_to_ptr", [Pure]> {
  let summary = "reinterpret i64 addresses as pointers";
  let arguments = (ins AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$src);
  let results = (outs Tk_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tk_PtrToIntOp : Tk_Op<"ptr_to_int", [Pure]> {
  let summary = "the i64 addresses of pointers";
  let arguments = (ins Tk_PtrLike:$src);
  let results = (outs AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tk_BitcastOp : Tk_Op<"bitcast", [Pure]> {
  let summary = "reinterpret bits as another element type of the same width";
  let arguments = (ins Tk_Value:$src);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def Tk_DotOp : Tk_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a @ b + c on 2-D blocks";
  let description = [{
    f16/bf16 inputs accumulate in f32 (or f16 when c is f16); f32 inputs use
    `precision` (tf32 tensor cores by default, as Triton); i8 accumulates in
    i32.
  }];
  let arguments = (ins Tk_Tensor:$a, Tk_Tensor:$b, Tk_Tensor:$c,
                   DefaultValuedAttr<Tk_DotPrecisionAttr, "::mlir::tk::DotPrecision::TF32">:$precision);
  let results = (outs Tk_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`precision` `=` $precision^)? attr-dict `:` type($a)
    `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def Tk_ExternElementwiseOp : Tk_Op<"extern_elementwise",
    [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "an elementwise call of a libdevice function";
  let description = [{
    Applies the function `symbol` of CUDA's libdevice (`__nv_erfinvf`, ...)
    to each element: the GPU path calls it from libdevice.10.bc, the
    interpreter runs its own implementation of the same symbol. The operand
    and result types are the function's own (the frontend picks the
    overload); they may differ, as in `__nv_float2int_rn` (f32 -> i32).
  }];
  let arguments = (ins Variadic<Tk_Value>:$srcs, StrAttr:$symbol);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = [{
    $symbol `(` $srcs `)` attr-dict `:` functional-type($srcs, $result)
  }];
  let hasVerifier = 1;
}

def Tk_ReduceOp : Tk_Op<"reduce", [Pure, IsolatedFromAbove]> {
  let summary = "reduce tensors along one axis";
  let description = [{
    The results drop `axis`; reducing a 1-D tensor gives a scalar. A named
    kind (`sum`, `max`, ...) reduces one tensor and has an empty region;
    argmax and argmin return the i32 index of the first extremal element
    (NaN compares greater than every number for argmax, as in numpy).

    `combine` reduces N tensors of one shape together (Triton's tt.reduce):
    the combiner region's block takes 2N scalars, the accumulated values
    of the N operands and then N values to fold in, and returns N scalars
    with `tk.combine_return`. The function must be associative; the order
    in which elements meet is the lowering's.
  }];
  let arguments = (ins Tk_ReduceKindAttr:$kind, Variadic<Tk_Tensor>:$srcs,
                   I32Attr:$axis);
  let results = (outs Variadic<Tk_Value>:$results);
  let regions = (region AnyRegion:$combiner);
  let assemblyFormat = [{
    $kind $srcs attr-dict `:` type($srcs) `->` type($results) ($combiner^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tk_ScanOp : Tk_Op<"scan", [Pure, IsolatedFromAbove]> {
  let summary = "inclusive prefix scans along one axis";
  let description = [{
    A named kind scans one tensor. `combine` scans N tensors of one shape
    together with the combiner region (as tk.reduce's); element i of a
    forward scan is x0 + x1 + ... + xi, the accumulated value the left
    operand. A `reverse` scan runs from the end: element i is
    (x[n-1] + ... + x[i+1]) + x[i], as Triton (flip, scan, flip).
  }];
  let arguments = (ins Tk_ScanKindAttr:$kind, Variadic<Tk_Tensor>:$srcs,
                   I32Attr:$axis, UnitAttr:$reverse);
  let results = (outs Variadic<Tk_Tensor>:$results);
  let regions = (region AnyRegion:$combiner);
  let assemblyFormat = [{
    $kind $srcs attr-dict `:` type($srcs) `->` type($results) ($combiner^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tk_CombineReturnOp : Tk_Op<"combine_return",
    [Pure, Terminator, ParentOneOf<["ReduceOp", "ScanOp"]>]> {
  let summary = "the combined values of a reduce or scan combiner region";
  let arguments = (ins Variadic<Tk_Scalar>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
}

def Tk_HintOp : Tk_Op<"hint", [Pure, SameOperandsAndResultType]> {
  let summary = "the value unchanged, with facts the axis analysis may assume";
  let description = [{
    `multiple_of(x, 16)` and `max_contiguous(x, 128)` in the language. Each
    array has one entry per dimension (one entry for a scalar).
  }];
  let arguments = (ins Tk_Value:$src,
                   OptionalAttr<DenseI32ArrayAttr>:$divisibility,
                   OptionalAttr<DenseI32ArrayAttr>:$contiguity,
                   OptionalAttr<DenseI32ArrayAttr>:$constancy);
  let results = (outs Tk_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tk_PrintOp : Tk_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "device_print: print values with the program id";
  let arguments = (ins StrAttr:$prefix, Variadic<Tk_Value>:$args, UnitAttr:$hex);
  let assemblyFormat = "$prefix attr-dict ($args^ `:` type($args))?";
}

def Tk_AssertOp : Tk_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "device_assert: abort the kernel when any lane is false";
  let description = [{
    The failing source position comes from the op's location.
  }];
  let arguments = (ins Tk_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tk_DebugBarrierOp : Tk_Op<"debug_barrier",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "debug_barrier: synchronize the threads of the program";
  let description = [{
    Every thread of the program waits until all have arrived (bar.sync 0
    on the GPU); memory operations are not moved across it. The
    interpreter runs a program's block operations in order, so there it
    has nothing to wait for.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TK_OPS_TD
