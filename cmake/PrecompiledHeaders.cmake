# Precompiled LLVM/MLIR headers (TK_PCH, on by default).
#
# Nearly all the time of a clean build goes into parsing LLVM's and MLIR's
# headers again in every translation unit (cmake/pch/LlvmMlirHeaders.h says
# how much). A precompiled header needs the flags of the TUs that use it;
# all of tk's targets have the same flags (C++ exceptions on everywhere, see
# LLVM_ENABLE_EH in the top-level CMakeLists.txt), so one header, compiled
# once in a small object library of its own (tk_pch), serves every target
# that reuses it (REUSE_FROM). tk_use_precompiled_headers() runs after all
# targets exist (the top-level CMakeLists.txt).
#
# (Until 2026-12-02 there were two families, the add_mlir_library targets
# with LLVM's -fno-exceptions and the rest with exceptions, and so two
# precompiled headers: about 2 minutes of CPU per clean build each.)
#
# The compilers refuse a precompiled header built with other flags, so a
# target with different flags would build correctly but slowly; g++'s
# -Winvalid-pch (which CMake adds) prints a warning for each such TU.

option(TK_PCH "Precompile the LLVM/MLIR headers tk's compiler includes" ON)

# The header list of the precompiled headers: with ASan, the LLVM hooks
# header must come before LLVM's headers (cmake/sanitizers/), so it becomes
# the first precompiled header instead of a separate -include, which a
# compiler would have to process before the precompiled one.
set(TK_PCH_HEADERS "${PROJECT_SOURCE_DIR}/cmake/pch/LlvmMlirHeaders.h")
if(TK_ASAN_HOOKS_HEADER)
  list(PREPEND TK_PCH_HEADERS "${TK_ASAN_HOOKS_HEADER}")
endif()

function(tk_use_precompiled_headers)
  if(NOT TK_PCH)
    return()
  endif()
  add_library(tk_pch OBJECT "${PROJECT_SOURCE_DIR}/cmake/pch/PchAnchor.cpp")
  llvm_update_compile_flags(tk_pch)
  set_target_properties(tk_pch PROPERTIES TK_PCH ON)
  target_precompile_headers(tk_pch PRIVATE ${TK_PCH_HEADERS})
  foreach(target ${ARGN})
    # Optional parts (the JIT, the GPU tests) may not be configured.
    if(TARGET ${target})
      set_target_properties(${target} PROPERTIES TK_PCH ON)
      target_precompile_headers(${target} REUSE_FROM tk_pch)
    endif()
  endforeach()
endfunction()
