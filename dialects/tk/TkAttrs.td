//===- TkAttrs.td - tk enum attributes ---------------------*- tablegen -*-===//
#ifndef TK_ATTRS_TD
#define TK_ATTRS_TD

include "TkDialect.td"
include "mlir/IR/EnumAttr.td"

// Each enum prints bare (`sum`, not `<sum>`) inside op assembly.
class Tk_EnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<Tk_Dialect, info, mnemonic> {
  let assemblyFormat = "$value";
}

def Tk_ReduceKind : I32EnumAttr<"ReduceKind", "block reduction", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,      // signed int / float maximum
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"UMax", 3, "umax">,    // unsigned int maximum
    I32EnumAttrCase<"UMin", 4, "umin">,
    I32EnumAttrCase<"ArgMax", 5, "argmax">, // index (i32) of the first maximum
    I32EnumAttrCase<"ArgMin", 6, "argmin">,
    I32EnumAttrCase<"And", 7, "and">,
    I32EnumAttrCase<"Or", 8, "or">,
    I32EnumAttrCase<"Xor", 9, "xor">,
    // The op's combiner region combines (user-written combine functions).
    I32EnumAttrCase<"Combine", 10, "combine">]> {
  let cppNamespace = "::mlir::tk";
  let genSpecializedAttr = 0;
}
def Tk_ReduceKindAttr : Tk_EnumAttr<Tk_ReduceKind, "reduce_kind">;

def Tk_ScanKind : I32EnumAttr<"ScanKind", "inclusive block scan", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Prod", 1, "prod">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">,
    I32EnumAttrCase<"Combine", 4, "combine">]> { // the combiner region
  let cppNamespace = "::mlir::tk";
  let genSpecializedAttr = 0;
}
def Tk_ScanKindAttr : Tk_EnumAttr<Tk_ScanKind, "scan_kind">;

def Tk_AtomicKind : I32EnumAttr<"AtomicKind", "atomic read-modify-write", [
    I32EnumAttrCase<"Add", 0, "add">,      // integer or float add
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"UMax", 3, "umax">,
    I32EnumAttrCase<"UMin", 4, "umin">,
    I32EnumAttrCase<"Xchg", 5, "xchg">,
    I32EnumAttrCase<"And", 6, "and">,
    I32EnumAttrCase<"Or", 7, "or">,
    I32EnumAttrCase<"Xor", 8, "xor">]> {
  let cppNamespace = "::mlir::tk";
  let genSpecializedAttr = 0;
}
def Tk_AtomicKindAttr : Tk_EnumAttr<Tk_AtomicKind, "atomic_kind">;

def Tk_MemSemantic : I32EnumAttr<"MemSemantic", "atomic memory ordering", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">,
    I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">,
    I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let cppNamespace = "::mlir::tk";
  let genSpecializedAttr = 0;
}
def Tk_MemSemanticAttr : Tk_EnumAttr<Tk_MemSemantic, "sem">;

def Tk_MemScope : I32EnumAttr<"MemScope", "atomic visibility scope", [
    I32EnumAttrCase<"Gpu", 0, "gpu">,
    I32EnumAttrCase<"Cta", 1, "cta">,
    I32EnumAttrCase<"Sys", 2, "sys">]> {
  let cppNamespace = "::mlir::tk";
  let genSpecializedAttr = 0;
}
def Tk_MemScopeAttr : Tk_EnumAttr<Tk_MemScope, "scope">;

def Tk_DotPrecision : I32EnumAttr<"DotPrecision", "f32 dot input precision", [
    I32EnumAttrCase<"TF32", 0, "tf32">,
    I32EnumAttrCase<"IEEE", 1, "ieee">,
    I32EnumAttrCase<"TF32x3", 2, "tf32x3">]> {
  let cppNamespace = "::mlir::tk";
  let genSpecializedAttr = 0;
}
def Tk_DotPrecisionAttr : Tk_EnumAttr<Tk_DotPrecision, "precision">;

#endif // TK_ATTRS_TD
