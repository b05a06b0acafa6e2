//===- TkTypes.td - tk types and type constraints ----------*- tablegen -*-===//
#ifndef TK_TYPES_TD
#define TK_TYPES_TD

include "TkDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypes.td"

def Tk_PtrType : TypeDef<Tk_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "pointer to global memory holding elements of one type";
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let genVerifyDecl = 1;
}

// Element types a tk tensor may hold.
// The fp8 types (f8E4M3FN, f8E5M2) are only loaded, stored, selected and
// converted to and from f32 (docs/language.md §4.1).
def Tk_Float : AnyTypeOf<[F16, BF16, F32, F64, F8E4M3FN, F8E5M2]>;
def Tk_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Tk_Scalar : AnyTypeOf<[Tk_Float, Tk_Int, Tk_PtrType]>;

def Tk_Tensor : RankedTensorOf<[Tk_Float, Tk_Int, Tk_PtrType]>;
def Tk_Value : AnyTypeOf<[Tk_Scalar, Tk_Tensor]>;

def Tk_PtrLike : AnyTypeOf<[Tk_PtrType, RankedTensorOf<[Tk_PtrType]>]>;
def Tk_IntLike : AnyTypeOf<[Tk_Int, RankedTensorOf<[Tk_Int]>]>;
def Tk_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def Tk_FloatLike : AnyTypeOf<[Tk_Float, RankedTensorOf<[Tk_Float]>]>;
def Tk_NumLike : AnyTypeOf<[Tk_Float, Tk_Int, RankedTensorOf<[Tk_Float, Tk_Int]>]>;

#endif // TK_TYPES_TD
