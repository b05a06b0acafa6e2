//===- SlotIndexTest.cpp - telling the slots of a multi-buffer apart ------===//
//
// compiler/analysis/SlotIndex.h on parsed IR: the pipeliner's advance of a
// slot index differs from the index, whatever the operand order of its add
// and compare; anything else (a wrong predicate, another modulus, an add
// of N or of 0, another base) is not proven different. tkgpu-membar and
// tkgpu-prefetch rely on exactly these answers.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/SlotIndex.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

// Each value under test carries a `name` attribute; %s and %t are the
// function's arguments 0 and 1.
constexpr const char *kSource = R"mlir(
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sh3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
func.func @f(%s: i32, %t: i32) {
  %c0 = arith.constant {name = "c0"} 0 : i32
  %c1 = arith.constant {name = "c1"} 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %a = arith.addi %s, %c1 : i32
  %w = arith.cmpi eq, %a, %c3 : i32
  %next = arith.select %w, %c0, %a {name = "next"} : i32
  %a2 = arith.addi %c2, %s : i32
  %w2 = arith.cmpi eq, %c3, %a2 : i32
  %next2 = arith.select %w2, %c0, %a2 {name = "next2"} : i32
  %a3 = arith.addi %s, %c3 : i32
  %w3 = arith.cmpi eq, %a3, %c3 : i32
  %byN = arith.select %w3, %c0, %a3 {name = "byN"} : i32
  %wne = arith.cmpi ne, %a, %c3 : i32
  %ne = arith.select %wne, %c0, %a {name = "ne"} : i32
  %w4 = arith.cmpi eq, %a, %c2 : i32
  %mod2 = arith.select %w4, %c0, %a {name = "mod2"} : i32
  %swapped = arith.select %w, %a, %c0 {name = "swapped"} : i32
  %bufA = tkgpu.local_alloc {name = "bufA"} !tkgpu.memdesc<3x64x32xf16, #sh3>
  %bufB = tkgpu.local_alloc !tkgpu.memdesc<3x64x32xf16, #sh3>
  %sA = tkgpu.memdesc_index %bufA[%s] {name = "sA"} : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
  %nA = tkgpu.memdesc_index %bufA[%next] {name = "nA"} : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
  %nB = tkgpu.memdesc_index %bufB[%next] {name = "nB"} : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
  return
}
)mlir";

class SlotIndexTest : public ::testing::Test {
protected:
  SlotIndexTest() {
    ctx.loadDialect<TkgpuDialect, arith::ArithDialect, func::FuncDialect>();
    module = parseSourceString<ModuleOp>(kSource, &ctx);
  }

  Value named(StringRef name) {
    Value found;
    module->walk([&](Operation *op) {
      if (auto attr = op->getAttrOfType<StringAttr>("name"))
        if (attr.getValue() == name)
          found = op->getResult(0);
    });
    EXPECT_TRUE(found) << name.str();
    return found;
  }
  Value arg(unsigned index) {
    return cast<func::FuncOp>(module->getBody()->front())
        .getArgument(index);
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(SlotIndexTest, AdvanceDiffersFromItsIndex) {
  ASSERT_TRUE(module);
  EXPECT_TRUE(areDistinctSlots(named("next"), arg(0), 3));
  EXPECT_TRUE(areDistinctSlots(arg(0), named("next"), 3));
  // Operands of the add and of the compare in the other order, c = 2.
  EXPECT_TRUE(areDistinctSlots(named("next2"), arg(0), 3));
}

TEST_F(SlotIndexTest, OtherFormsAreNotProven) {
  ASSERT_TRUE(module);
  EXPECT_FALSE(areDistinctSlots(arg(0), arg(0), 3));
  // %s + N wraps to 0 only when %s is 0: equal to %s then.
  EXPECT_FALSE(areDistinctSlots(named("byN"), arg(0), 3));
  EXPECT_FALSE(areDistinctSlots(named("ne"), arg(0), 3));
  EXPECT_FALSE(areDistinctSlots(named("swapped"), arg(0), 3));
  // The compare is against 2, the buffer has 3 slots (and the reverse).
  EXPECT_FALSE(areDistinctSlots(named("mod2"), arg(0), 3));
  EXPECT_TRUE(areDistinctSlots(named("mod2"), arg(0), 2));
  EXPECT_FALSE(areDistinctSlots(named("next"), arg(0), 2));
  // Another base, or a buffer of one slot.
  EXPECT_FALSE(areDistinctSlots(named("next"), arg(1), 3));
  EXPECT_FALSE(areDistinctSlots(named("next"), arg(0), 1));
}

TEST_F(SlotIndexTest, Constants) {
  ASSERT_TRUE(module);
  EXPECT_TRUE(areDistinctSlots(named("c0"), named("c1"), 3));
  EXPECT_FALSE(areDistinctSlots(named("c1"), named("c1"), 3));
}

TEST_F(SlotIndexTest, SlotsOfBuffers) {
  ASSERT_TRUE(module);
  std::optional<SlotRef> sA = getSlotRef(named("sA"));
  std::optional<SlotRef> nA = getSlotRef(named("nA"));
  std::optional<SlotRef> nB = getSlotRef(named("nB"));
  ASSERT_TRUE(sA && nA && nB);
  EXPECT_EQ(sA->buffer, named("bufA"));
  EXPECT_EQ(sA->index, arg(0));
  EXPECT_EQ(sA->numSlots, 3);
  EXPECT_TRUE(areDistinctSlots(*sA, *nA));
  // Slots of two allocations are not this query's business.
  EXPECT_FALSE(areDistinctSlots(*sA, *nB));
  EXPECT_FALSE(getSlotRef(named("bufA")));
}

} // namespace
