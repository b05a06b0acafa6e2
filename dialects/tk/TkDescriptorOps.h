//===- TkDescriptorOps.h - tensor descriptor ops of tk ----------*- C++ -*-===//
#ifndef TK_DIALECTS_TK_TKDESCRIPTOROPS_H
#define TK_DIALECTS_TK_TKDESCRIPTOROPS_H

#include "dialects/tk/TkDialect.h"

#define GET_OP_CLASSES
#include "dialects/tk/TkDescriptorOps.h.inc"

#endif // TK_DIALECTS_TK_TKDESCRIPTOROPS_H
