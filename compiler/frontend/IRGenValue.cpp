//===- IRGenValue.cpp - what an expression evaluates to -------------------===//

#include "compiler/frontend/IRGenValue.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tk::irgen {

Value Value::boolean(bool value) {
  Value v;
  v.kind = Kind::Bool;
  v.boolValue = value;
  return v;
}

Value Value::integer(int64_t value) {
  Value v;
  v.kind = Kind::Int;
  v.intValue = value;
  return v;
}

Value Value::floating(double value) {
  Value v;
  v.kind = Kind::Float;
  v.floatValue = value;
  return v;
}

Value Value::string(std::string value) {
  Value v;
  v.kind = Kind::String;
  v.stringValue = std::move(value);
  return v;
}

Value Value::type(sema::ValueType type) {
  Value v;
  v.kind = Kind::Type;
  v.valueType = std::move(type);
  return v;
}

Value Value::blockPointer(std::vector<Value> parts) {
  Value v;
  v.kind = Kind::BlockPointer;
  v.elements = std::move(parts);
  return v;
}

Value Value::tensorDescriptor(std::vector<Value> parts,
                              sema::ValueType blockType) {
  Value v;
  v.kind = Kind::TensorDescriptor;
  v.valueType = std::move(blockType);
  v.elements = std::move(parts);
  return v;
}

Value Value::tuple(std::vector<Value> elements) {
  Value v;
  v.kind = Kind::Tuple;
  v.elements = std::move(elements);
  return v;
}

Value Value::ir(mlir::Value value, sema::ValueType type) {
  Value v;
  v.kind = Kind::IR;
  v.irValue = value;
  v.valueType = std::move(type);
  return v;
}

Value Value::function(const ast::FunctionDef *function) {
  Value v;
  v.kind = Kind::Function;
  v.functionDef = function;
  return v;
}

Value Value::builtin(BuiltinId id) {
  Value v;
  v.kind = Kind::Builtin;
  v.builtinId = id;
  return v;
}

Value Value::libdeviceFunction(std::string name) {
  Value v;
  v.kind = Kind::LibdeviceFunction;
  v.stringValue = std::move(name);
  return v;
}

Value Value::nameSpace(std::string name) {
  Value v;
  v.kind = Kind::Namespace;
  v.stringValue = std::move(name);
  return v;
}

double Value::getAsDouble() const {
  switch (kind) {
  case Kind::Bool:
    return boolValue ? 1.0 : 0.0;
  case Kind::Int:
    return double(intValue);
  case Kind::Float:
    return floatValue;
  default:
    return 0.0;
  }
}

bool Value::isSameConstant(const Value &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::None:
    return true;
  case Kind::Bool:
    return boolValue == other.boolValue;
  case Kind::Int:
    return intValue == other.intValue;
  case Kind::Float:
    // Bitwise equality, so that nan is "unchanged" and 0.0 != -0.0.
    return std::memcmp(&floatValue, &other.floatValue, sizeof(double)) == 0;
  case Kind::String:
    return stringValue == other.stringValue;
  case Kind::Type:
    return valueType == other.valueType;
  case Kind::Tuple:
  case Kind::BlockPointer:
    if (elements.size() != other.elements.size())
      return false;
    for (size_t i = 0; i < elements.size(); ++i)
      if (!elements[i].isSameConstant(other.elements[i]))
        return false;
    return true;
  case Kind::TensorDescriptor:
    if (!(valueType == other.valueType) ||
        elements.size() != other.elements.size())
      return false;
    for (size_t i = 0; i < elements.size(); ++i)
      if (!elements[i].isSameConstant(other.elements[i]))
        return false;
    return true;
  case Kind::IR:
    return irValue == other.irValue && valueType == other.valueType;
  case Kind::Function:
    return functionDef == other.functionDef;
  case Kind::Builtin:
    return builtinId == other.builtinId;
  case Kind::Namespace:
  case Kind::LibdeviceFunction:
    return stringValue == other.stringValue;
  }
  return false;
}

static std::string formatDouble(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  std::string text = buffer;
  if (text.find_first_of(".eEn") == std::string::npos)
    text += ".0";
  return text;
}

std::string Value::constantToString() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return boolValue ? "True" : "False";
  case Kind::Int:
    return std::to_string(intValue);
  case Kind::Float:
    return formatDouble(floatValue);
  case Kind::String:
    return "'" + stringValue + "'";
  case Kind::Type:
    return valueType.toString();
  case Kind::Tuple: {
    std::string text = "(";
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i)
        text += ", ";
      text += elements[i].constantToString();
    }
    if (elements.size() == 1)
      text += ",";
    return text + ")";
  }
  case Kind::IR:
    return valueType.toString();
  case Kind::Function:
    return functionDef->name;
  case Kind::Builtin:
    return "<builtin>";
  case Kind::LibdeviceFunction:
    return "libdevice." + stringValue;
  case Kind::Namespace:
    return stringValue;
  case Kind::BlockPointer:
    return "<block pointer>";
  case Kind::TensorDescriptor:
    return "<tensor descriptor>";
  }
  return "?";
}

std::string Value::describe() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return "constant bool " + constantToString();
  case Kind::Int:
    return "constant int " + constantToString();
  case Kind::Float:
    return "constant float " + constantToString();
  case Kind::String:
    return "string " + constantToString();
  case Kind::Type:
    return "type " + valueType.toString();
  case Kind::Tuple:
    return "tuple " + constantToString();
  case Kind::IR:
    return valueType.toString();
  case Kind::Function:
    return "function '" + functionDef->name + "'";
  case Kind::Builtin:
    return "builtin function";
  case Kind::LibdeviceFunction:
    return "libdevice function '" + stringValue + "'";
  case Kind::Namespace:
    return "namespace '" + stringValue + "'";
  case Kind::TensorDescriptor:
    return "tensor descriptor of " + valueType.toString() + " blocks";
  case Kind::BlockPointer: {
    std::string text = "block pointer to " +
                       sema::DType(elements[0].getType().dtype.getPointee()).toString() +
                       "[";
    const std::vector<Value> &block = elements[4].getElements();
    for (size_t i = 0; i < block.size(); ++i)
      text += (i ? ", " : "") + std::to_string(block[i].getInt());
    return text + "]";
  }
  }
  return "?";
}

} // namespace tk::irgen
