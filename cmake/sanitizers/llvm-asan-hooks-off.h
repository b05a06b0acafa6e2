/*===- llvm-asan-hooks-off.h - LLVM's ASan hooks off in tk's code ---------===*
 *
 * Force-included (-include) into every TU of an ASan build of tk
 * (cmake/Sanitizers.cmake).
 *
 * LLVM's headers poison and unpoison memory themselves when they see an
 * ASan build (llvm/Support/Compiler.h: LLVM_ADDRESS_SANITIZER_BUILD): the
 * BumpPtrAllocator poisons each new slab and unpoisons each allocation, the
 * Recyclers poison freed nodes. That works when all of LLVM is compiled the
 * same way. Here only tk's code is instrumented and libMLIR/libLLVM are
 * not, yet both sides allocate from the same allocators (an MLIRContext's
 * attribute and type storage, for one): a slab started by inlined code in
 * a tk TU is poisoned whole, then the uninstrumented library hands out a
 * piece of it without unpoisoning, and the next intercepted memcpy into
 * that piece reports a use-after-poison that is no bug (seen in tkc: an
 * ASan report inside mlir::StringAttr::get).
 *
 * The hooks are function names, declared by <sanitizer/asan_interface.h>;
 * declaring them first and then defining them as macros turns every call
 * in LLVM's headers into a no-op, while ASan itself (shadow memory, red
 * zones of malloc/new and the stack) stays fully on.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TK_LLVM_ASAN_HOOKS_OFF_H
#define TK_LLVM_ASAN_HOOKS_OFF_H

#include <sanitizer/asan_interface.h>

#define __asan_poison_memory_region(addr, size) ((void)(addr), (void)(size))
#define __asan_unpoison_memory_region(addr, size) ((void)(addr), (void)(size))

#endif /* TK_LLVM_ASAN_HOOKS_OFF_H */
