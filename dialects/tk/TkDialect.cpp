//===- TkDialect.cpp - tk dialect, types and attributes -------------------===//
#include "dialects/tk/TkDialect.h"
#include "dialects/tk/TkDescriptorOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tk;

#include "dialects/tk/TkDialect.cpp.inc"
#include "dialects/tk/TkEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/tk/TkAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/tk/TkTypes.cpp.inc"

void TkDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/tk/TkOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "dialects/tk/TkDescriptorOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/tk/TkTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/tk/TkAttrs.cpp.inc"
      >();
}

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type pointee) {
  if (isa<PtrType, RankedTensorType>(pointee) ||
      !(pointee.isIntOrFloat()))
    return emitError() << "!tk.ptr must point to an integer or float type, got "
                       << pointee;
  return success();
}

Type mlir::tk::withElementType(Type type, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(element);
  return element;
}

Type mlir::tk::getPointeeType(Type ptrLike) {
  auto ptr = dyn_cast<PtrType>(getElementTypeOrSelf(ptrLike));
  if (!ptr)
    return {};
  return withElementType(ptrLike, ptr.getPointeeType());
}

bool mlir::tk::isKernel(Operation *op) {
  return op->hasAttr(TkDialect::getKernelAttrName());
}
