//===- TkgpuTmaOps.h - mbarrier and TMA ops of tkgpu ------------*- C++ -*-===//
#ifndef TK_DIALECTS_TKGPU_TKGPUTMAOPS_H
#define TK_DIALECTS_TKGPU_TKGPUTMAOPS_H

#include "dialects/tkgpu/TkgpuDialect.h"

#define GET_OP_CLASSES
#include "dialects/tkgpu/TkgpuTmaOps.h.inc"

#endif // TK_DIALECTS_TKGPU_TKGPUTMAOPS_H
