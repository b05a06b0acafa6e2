//===- Handlers.h - Choosing the handler for an operation --------*- C++ -*-===//
//
// Internal to the interpreter. The program builder describes an operation
// with these enums and element kinds; each select* function returns the
// handler instantiated for exactly those types, or nullptr when the
// combination is not supported. The handlers' operand conventions are
// documented next to each selector.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_HANDLERS_H
#define TK_COMPILER_INTERPRETER_HANDLERS_H

#include "compiler/interpreter/LibdeviceHost.h"
#include "compiler/interpreter/Program.h"

#include <string>
#include <vector>

namespace tk::interp {

//===----------------------------------------------------------------------===//
// Elementwise (ElementwiseHandlers.cpp): result, operands[0..2], count.
//===----------------------------------------------------------------------===//

enum class BinaryOp : uint8_t {
  // Integers (wrapping; division by zero gives all ones, remainder by zero
  // the dividend; shifts by >= the width give 0, or the sign for shrsi).
  AddI, SubI, MulI, DivSI, DivUI, RemSI, RemUI, CeilDivSI, CeilDivUI,
  FloorDivSI, AndI, OrI, XOrI, ShLI, ShRSI, ShRUI, MaxSI, MinSI, MaxUI, MinUI,
  // Floats.
  AddF, SubF, MulF, DivF, RemF, MaximumF, MinimumF, MaxNumF, MinNumF, PowF,
  Atan2F, CopySignF,
};
Handler selectBinary(BinaryOp op, ElementKind kind);

enum class UnaryOp : uint8_t {
  // Floats.
  NegF, AbsF, Exp, Exp2, ExpM1, Log, Log2, Log10, Log1p, Sqrt, Rsqrt, Cbrt,
  Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Erf,
  Erfc, Floor, Ceil, Round, RoundEven, Trunc,
  // Integers.
  AbsI, CountLeadingZeros, CountTrailingZeros, PopCount,
};
Handler selectUnary(UnaryOp op, ElementKind kind);

/// The arith.cmpi / arith.cmpf predicates, numbered as in MLIR.
enum class IntPredicate : uint8_t { EQ, NE, SLT, SLE, SGT, SGE, ULT, ULE, UGT, UGE };
enum class FloatPredicate : uint8_t {
  False, OEQ, OGT, OGE, OLT, OLE, ONE, ORD, UEQ, UGT, UGE, ULT, ULE, UNE, UNO,
  True,
};
/// Result i1 (one byte, 0/1); `kind` is the operands' kind.
Handler selectIntCompare(IntPredicate predicate, ElementKind kind);
Handler selectFloatCompare(FloatPredicate predicate, ElementKind kind);

/// math.fma: result = operands[0] * operands[1] + operands[2], one rounding.
Handler selectFma(ElementKind kind);

/// tk.extern_elementwise (ExternCallHandler.cpp): result[i] =
/// function(operand slots' element i), the slots and kinds in the aux;
/// every kind is I32, I64, F32 or F64.
struct ExternCallInfo : AuxData {
  LibdeviceHostFunction function = nullptr;
  llvm::SmallVector<uint32_t, 4> operandSlots;
  llvm::SmallVector<ElementKind, 4> operandKinds;
  ElementKind resultKind = ElementKind::I32;
};
Handler externCallHandler();

/// arith.select: operands[0] the i1 condition (one element when
/// `scalarCondition`), [1] true values, [2] false values.
Handler selectSelect(unsigned elementBytes, bool scalarCondition);

enum class CastOp : uint8_t {
  ExtSI, ExtUI, TruncI, SIToFP, UIToFP, FPToSI, FPToUI, ExtF, TruncF,
};
/// Integer <-> float conversions saturate (NaN -> 0) like PTX cvt.
Handler selectCast(CastOp op, ElementKind from, ElementKind to);

//===----------------------------------------------------------------------===//
// Data movement (ShapeHandlers.cpp).
//===----------------------------------------------------------------------===//

/// Fills `count` elements of the result with operands[0]'s one element.
Handler selectSplat(unsigned elementBytes);

/// Strided gather: result element (i0, ..., in) = source element at
/// sum(ik * sourceStrides[k]) (stride 0 repeats). Broadcast and trans.
struct StridedCopyInfo : AuxData {
  llvm::SmallVector<int64_t, 4> resultDims;
  llvm::SmallVector<int64_t, 4> sourceStrides;
};
Handler selectStridedCopy(unsigned elementBytes);

/// Copies `imm` bytes from operands[0] to the result (memmove).
Handler copyHandler();

/// Writes the aux's bytes into the result (constants, in the prologue).
struct ConstantBytes : AuxData {
  std::vector<char> bytes;
};
Handler constantHandler();

/// result[i] = imm + i as i32 (make_range).
Handler iotaHandler();

//===----------------------------------------------------------------------===//
// Memory (MemoryHandlers.cpp). aux: MemoryAccessInfo.
//===----------------------------------------------------------------------===//

/// result = operands[0] + operands[1] (of `offsetKind`, sign-extended;
/// i1 zero-extended) * imm bytes.
Handler selectAddPtr(ElementKind offsetKind);

/// operands: [0] pointers, [1] mask or kNoSlot, [2] other or kNoSlot.
Handler selectLoad(unsigned elementBytes, bool masked, bool hasOther);
/// operands: [0] pointers, [1] values, [2] mask or kNoSlot.
Handler selectStore(unsigned elementBytes, bool masked);

/// Tensor descriptors (DescriptorHandlers.cpp): operands [0] the descriptor
/// (i64: base address, shape, strides), [1] the block's element offsets
/// (i32, one per dimension), [2] the stored values. Out-of-bounds elements
/// read 0 / are not written. aux: DescriptorAccessInfo (shape = block).
struct DescriptorAccessInfo : MemoryAccessInfo {};
Handler selectDescriptorLoad(unsigned elementBytes);
/// Before a multicast descriptor load: operands[0] the i32 indices, count
/// the rank, imm the cluster size. Checks the promise (MulticastLog).
Handler multicastCheckHandler();
Handler selectDescriptorStore(unsigned elementBytes);

enum class AtomicOp : uint8_t { Add, Max, Min, UMax, UMin, Xchg, And, Or, Xor };
/// operands: [0] pointers, [1] values, [2] mask or kNoSlot. Lanes apply in
/// index order; the result holds the old values (0 for masked lanes).
Handler selectAtomicRMW(AtomicOp op, ElementKind kind, bool masked);
/// operands: [0] pointers, [1] compare values, [2] new values.
Handler selectAtomicCAS(unsigned elementBytes);

//===----------------------------------------------------------------------===//
// Dot, reductions and scans (DotHandler.cpp, ReduceHandlers.cpp).
//===----------------------------------------------------------------------===//

/// result (MxN) = operands[0] (MxK) * operands[1] (KxN) + operands[2].
/// Products accumulate in f32 (f64 for f64, i32 for i8); f16/bf16/i8
/// operands are widened into scratch slots A and B of the frame first, and
/// f16/i32 accumulators live in scratch slot C meanwhile (4-byte elements).
struct DotInfo : AuxData {
  int64_t m = 0, n = 0, k = 0;
  uint32_t scratchA = kNoSlot, scratchB = kNoSlot, scratchC = kNoSlot;
};
Handler selectDot(ElementKind input, ElementKind accumulator);

/// The reduced tensor viewed as [outer, length, inner], length the reduced
/// axis.
struct AxisInfo : AuxData {
  int64_t outer = 1, length = 1, inner = 1;
};
enum class ReduceOp : uint8_t {
  Sum, Max, Min, UMax, UMin, ArgMax, ArgMin, And, Or, Xor,
};
Handler selectReduce(ReduceOp op, ElementKind kind);
enum class ScanOp : uint8_t { Sum, Prod, Max, Min };
Handler selectScan(ScanOp op, ElementKind kind, bool reverse);

/// tk.reduce / tk.scan `combine`: N tensors folded together by `body`, the
/// combiner region compiled to scalar instructions of its own (jump
/// targets index `body`). Per output position the handler copies the first
/// element of each operand to its `lhs` slot, then for each further element
/// copies it to `rhs`, runs `body` and moves the `yielded` slots to `lhs`;
/// scans store `lhs` at every step. Reverse scans run from the end, so the
/// accumulated later elements are the left operand (Triton's flip, scan,
/// flip). No operands or result in the instruction: all slots are here.
struct CombineInfo : AuxData {
  struct Operand {
    uint32_t source = kNoSlot, result = kNoSlot;
    uint32_t lhs = kNoSlot, rhs = kNoSlot, yielded = kNoSlot;
    unsigned bytes = 0;
  };
  int64_t outer = 1, length = 1, inner = 1;
  bool isScan = false, reverse = false;
  llvm::SmallVector<Operand, 4> operands;
  std::vector<Instruction> body;
};
Handler combineHandler();

//===----------------------------------------------------------------------===//
// Control and debugging (ControlHandlers.cpp).
//===----------------------------------------------------------------------===//

/// result = program_id(imm) / num_programs(imm) as i32.
Handler programIdHandler();
Handler numProgramsHandler();

/// pc = imm.
Handler jumpHandler();
/// if !operands[0] (i1): pc = imm.
Handler branchIfFalseHandler();
/// End this program instance.
Handler haltHandler();

/// scf.for entry: operands [0] lower bound, [1] upper bound, [2] step;
/// result the induction variable. Checks step > 0, sets iv = lb, and jumps
/// to imm (the exit) when lb >= ub.
Handler selectForEnter(ElementKind ivKind, bool unsignedCompare);
/// scf.for latch: iv += step; jumps to imm (the body) while iv < ub.
Handler selectForNext(ElementKind ivKind, bool unsignedCompare);

struct PrintInfo : AuxData {
  struct Arg {
    uint32_t slot = kNoSlot;
    ElementKind kind = ElementKind::I32;
    Shape shape;
  };
  std::string prefix;
  bool hex = false;
  std::vector<Arg> args;
};
/// device_print: one line per element of each argument (aux: PrintInfo).
Handler printHandler();

struct AssertInfo : AuxData {
  std::string message;
  Shape shape;
};
/// device_assert: fails when any element of operands[0] is false.
Handler assertHandler();

} // namespace tk::interp

#endif // TK_COMPILER_INTERPRETER_HANDLERS_H
