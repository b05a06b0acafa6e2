//===- ProgramBuilder.h - tk IR -> the interpreter's flat program -*- C++ -*-===//
//
// The builder that compileKernel runs (ProgramBuilder.cpp has the walk and
// its algorithm; ProgramBuilderTkOps.cpp the tk dialect's operations).
// Internal to the interpreter.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_INTERPRETER_PROGRAMBUILDER_H
#define TK_COMPILER_INTERPRETER_PROGRAMBUILDER_H

#include "compiler/interpreter/Handlers.h"
#include "compiler/interpreter/Interpreter.h"
#include "compiler/interpreter/Program.h"
#include "dialects/tk/TkDialect.h"
#include "dialects/tk/TkDescriptorOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

namespace tk::interp::detail {

namespace arith = mlir::arith;
namespace func = mlir::func;
namespace scf = mlir::scf;
using llvm::Error;
using mlir::Block;
using mlir::Operation;
using mlir::Region;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;

/// Where a value lives in the frame.
struct Slot {
  uint32_t offset = kNoSlot;
  ElementKind kind = ElementKind::I32;
  Shape shape;
  /// Computed in the prologue (never written by the body).
  bool isConstant = false;

  int64_t count() const { return shape.numElements(); }
  uint64_t bytes() const { return count() * storageBytes(kind); }
};

/// The interpreter's element kind of a scalar IR type, if it has one.
std::optional<ElementKind> kindOf(Type type);
/// "f32", "i32", "*f16": the language's spelling of an IR type.
std::string sourceTypeName(Type type);
/// The .tk position of a location, and the call site it was inlined at.
void describeLocation(mlir::Location loc, std::string &position,
                      std::string &inlinedAt);

class ProgramBuilder {
public:
  explicit ProgramBuilder(KernelProgram &program) : program(program) {
    program.sites.push_back(SourceSite());
  }

  Error build(func::FuncOp kernel);

private:
  KernelProgram &program;
  llvm::DenseMap<Value, Slot> slots;
  llvm::StringMap<uint32_t> siteIndex;
  /// Functions being inlined (to reject recursion) and their call sites.
  llvm::SmallVector<Operation *> callStack;
  llvm::SmallVector<std::string> callSites;

  //--- Slots ----------------------------------------------------------------
  uint32_t allocate(uint64_t bytes) {
    uint64_t offset = (program.frameBytes + 63) & ~uint64_t(63);
    program.frameBytes = offset + std::max<uint64_t>(bytes, 1);
    return static_cast<uint32_t>(offset);
  }
  llvm::Expected<Slot> slotFor(Operation *where, Type type);
  llvm::Expected<Slot> define(Operation *where, Value value);
  void alias(Value value, const Slot &storage, Type type);
  const Slot &get(Value value) const { return slots.find(value)->second; }

  //--- Emission ---------------------------------------------------------------
  uint32_t siteOf(Operation *op);
  Error fail(Operation *op, const llvm::Twine &message);
  Error unsupported(Operation *op, const llvm::Twine &why = "");
  /// Appends an instruction for `op` (to the prologue when `constant`),
  /// returning its index in that list.
  size_t emit(Operation *op, Handler handler, uint32_t result,
              std::initializer_list<uint32_t> operands, int64_t count,
              int64_t imm = 0, const AuxData *aux = nullptr,
              bool constant = false);
  /// Whether `op` can run once in the prologue: pure, no regions, every
  /// operand constant.
  bool isConstantOp(Operation *op) const;
  /// Defines op's single result and emits `handler` on operands.
  Error emitSimple(Operation *op, Handler handler, llvm::ArrayRef<Value> inputs,
                   int64_t imm = 0, const AuxData *aux = nullptr);
  Error emitParallelCopy(Operation *op, ValueRange sources,
                         llvm::ArrayRef<Slot> destinations);

  Error emitBlock(Block &block);
  Error emitOp(Operation *op);
  Error emitConstant(arith::ConstantOp op);
  Error emitBinary(Operation *op, BinaryOp kind);
  Error emitUnary(Operation *op, UnaryOp kind);
  Error emitCast(Operation *op, CastOp kind);
  Error emitIndexCast(Operation *op, bool isUnsigned);
  Error emitSelect(arith::SelectOp op);
  Error emitFor(scf::ForOp op);
  Error emitIf(scf::IfOp op);
  Error emitWhile(scf::WhileOp op);
  Error emitCall(func::CallOp op);
  Error emitBroadcast(mlir::tk::BroadcastOp op);
  Error emitTrans(mlir::tk::TransOp op);
  Error emitAddPtr(mlir::tk::AddPtrOp op);
  MemoryAccessInfo *memoryInfo(Type ptrType);
  Error emitLoad(mlir::tk::LoadOp op);
  Error emitStore(mlir::tk::StoreOp op);
  Error emitDescriptorAccess(Operation *op, Value base, ValueRange shape,
                             ValueRange strides, ValueRange indices,
                             Value stored);
  Error emitAtomicRMW(mlir::tk::AtomicRMWOp op);
  Error emitAtomicCAS(mlir::tk::AtomicCASOp op);
  Error emitDot(mlir::tk::DotOp op);
  Error emitReduce(mlir::tk::ReduceOp op);
  Error emitScan(mlir::tk::ScanOp op);
  /// tk.reduce / tk.scan `combine`: the combiner region becomes a scalar
  /// sub-program the handler runs per pair of elements.
  Error emitCombining(Operation *op, Region &combiner, int64_t axis,
                      bool isScan, bool reverse);
  Error emitExternElementwise(mlir::tk::ExternElementwiseOp op);
  Error emitPrint(mlir::tk::PrintOp op);
  Error emitAssert(mlir::tk::AssertOp op);
};


} // namespace tk::interp::detail

#endif // TK_COMPILER_INTERPRETER_PROGRAMBUILDER_H
