//===- runtime.h - libtkrt, the tk runtime (C++ API) ------------*- C++ -*-===//
//
// Loads what tkc compiled and launches it, on a GPU through the CUDA driver
// API or on the CPU interpreter, with every argument checked against the
// kernel's metadata. No LLVM, no CUDA headers needed by users. See
// docs/runtime.md.
//
//   tk::Context ctx = tk::Context::create();
//   tk::Kernel k = tk::Module::load(ctx, "softmax.json").kernel("softmax");
//   tk::Buffer in = ctx.alloc(bytes), out = ctx.alloc(bytes);
//   in.upload(host.data(), bytes);
//   k.launch({rows}, out, in, stride, stride, cols);
//   ctx.sync();
//
//===----------------------------------------------------------------------===//

#ifndef TK_RUNTIME_H
#define TK_RUNTIME_H

#include "tk/ArgCheck.h"
#include "tk/ArgValue.h"
#include "tk/Backend.h"
#include "tk/Buffer.h"
#include "tk/Context.h"
#include "tk/Error.h"
#include "tk/Grid.h"
#include "tk/Half.h"
#include "tk/Metadata.h"
#include "tk/Module.h"
#include "tk/ScalarType.h"
#include "tk/Stream.h"

#endif // TK_RUNTIME_H
