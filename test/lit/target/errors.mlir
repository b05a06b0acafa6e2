// RUN: not tk-translate --tk-to-ptx --tk-arch=sm_12 %s 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not env TK_PTXAS=%t.missing tk-translate --tk-ptxas-stats %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %if ptxas %{ not tk-translate --tk-ptxas-stats %s 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// Back-end errors are messages, not crashes.

// ARCH: error: unknown GPU architecture 'sm_12' (expected e.g. sm_80 or sm_90a)
// MISSING: error: TK_PTXAS is '{{.*}}.missing', which is not an executable file
// PTXAS: error: ptxas failed: ptxas {{.*}}.ptx, line {{[0-9]+}}; error : Unknown modifier '.instruction'
module {
  llvm.func @broken() attributes {nvvm.kernel} {
    llvm.inline_asm has_side_effects "bogus.instruction;", "" : () -> ()
    llvm.return
  }
}
