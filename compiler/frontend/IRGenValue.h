//===- IRGenValue.h - what an expression evaluates to -----------*- C++ -*-===//
//
// During emission every expression evaluates to a Value: either a
// compile-time constant (None, bool, int, float, string, a type, a tuple of
// values, a function or builtin, the `tl`/`tk` namespace) or a run-time IR
// value with its semantic type. Compile-time ints/floats/bools are the
// "literals" of the promotion rules: they adapt to the other operand.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_IRGENVALUE_H
#define TK_COMPILER_FRONTEND_IRGENVALUE_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/TypeSystem.h"

#include "mlir/IR/Value.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tk::irgen {

enum class BuiltinId : unsigned;

class Value {
public:
  enum class Kind {
    None,
    Bool,
    Int,
    Float,
    String,
    Type,     // a dtype (scalar ValueType) or a block type (`x.type`)
    Tuple,
    IR,       // a run-time scalar or block
    Function, // a `def` of the module (helper or kernel)
    Builtin,  // a builtin function
    /// a libdevice function without a tk builtin (`libdevice.pow`), by its
    /// name (IRGenLibdevice.cpp)
    LibdeviceFunction,
    Namespace, // `tl`, `tk`, `triton.language`, `math`
    /// make_block_ptr's result: elements are the base pointer, then tuples
    /// of the shape, strides, offsets, block shape and order
    /// (IRGenBlockPointer.cpp).
    BlockPointer,
    /// make_tensor_descriptor's result: the block type (element dtype and
    /// block shape) as its type; elements are the base pointer, then the
    /// shape, then the strides (i64 scalars; IRGenTensorDescriptor.cpp).
    TensorDescriptor
  };

  Value() = default;

  static Value none() { return Value(); }
  static Value boolean(bool value);
  static Value integer(int64_t value);
  static Value floating(double value);
  static Value string(std::string value);
  static Value type(sema::ValueType type);
  static Value tuple(std::vector<Value> elements);
  static Value ir(mlir::Value value, sema::ValueType type);
  static Value function(const ast::FunctionDef *function);
  static Value builtin(BuiltinId id);
  static Value libdeviceFunction(std::string name);
  static Value nameSpace(std::string name);
  static Value blockPointer(std::vector<Value> parts);
  static Value tensorDescriptor(std::vector<Value> parts,
                                sema::ValueType blockType);

  Kind getKind() const { return kind; }
  bool is(Kind k) const { return kind == k; }
  bool isNone() const { return kind == Kind::None; }
  bool isIR() const { return kind == Kind::IR; }
  /// A compile-time bool, int or float: a literal for promotion.
  bool isNumericConstant() const {
    return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float;
  }
  /// Anything known at compile time (everything but IR values).
  bool isConstant() const { return kind != Kind::IR; }
  bool isBlock() const { return kind == Kind::IR && valueType.isBlock(); }

  bool getBool() const { return boolValue; }
  int64_t getInt() const { return intValue; }
  double getFloat() const { return floatValue; }
  /// Int or Bool as an integer (Python's True == 1).
  int64_t getIntLike() const { return kind == Kind::Bool ? boolValue : intValue; }
  /// Any numeric constant as a double.
  double getAsDouble() const;
  const std::string &getString() const { return stringValue; }
  /// Kind::Type: the type; Kind::IR: the value's type.
  const sema::ValueType &getType() const { return valueType; }
  const sema::Shape &getShape() const { return valueType.shape; }
  sema::DType getDType() const { return valueType.dtype; }
  mlir::Value getIR() const { return irValue; }
  const std::vector<Value> &getElements() const { return elements; }
  const ast::FunctionDef *getFunction() const { return functionDef; }
  BuiltinId getBuiltin() const { return builtinId; }
  const std::string &getNamespace() const { return stringValue; }
  const std::string &getLibdeviceName() const { return stringValue; }

  /// Whether two compile-time values are the same constant (used to see
  /// whether a loop or branch changed a constexpr variable).
  bool isSameConstant(const Value &other) const;

  /// For messages: "i32", "f32[128]", "constexpr int 3", "tuple", ...
  std::string describe() const;
  /// The constant as source text: "3", "1.5", "True", "'abc'", "f16".
  std::string constantToString() const;

private:
  Kind kind = Kind::None;
  bool boolValue = false;
  int64_t intValue = 0;
  double floatValue = 0.0;
  std::string stringValue;
  sema::ValueType valueType;
  mlir::Value irValue;
  std::vector<Value> elements;
  const ast::FunctionDef *functionDef = nullptr;
  BuiltinId builtinId{};
};

} // namespace tk::irgen

#endif // TK_COMPILER_FRONTEND_IRGENVALUE_H
