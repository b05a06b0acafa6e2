# Precompiled LLVM/MLIR headers (TK_PCH, on by default).
#
# Nearly all the time of a clean build goes into parsing LLVM's and MLIR's
# headers again in every translation unit (cmake/pch/LlvmMlirHeaders.h says
# how much). A precompiled header needs the flags of the TUs that use it,
# and tk has two flag families:
#   noeh  targets made by add_mlir_library (the dialects and the compiler's
#         passes): LLVM's flags, -fno-exceptions -funwind-tables;
#   eh    plain targets (frontend, interpreter, driver, JIT, tools, unit
#         tests): C++ exceptions on.
# Each family compiles the header once, in a small object library of its
# own, and its targets reuse it (REUSE_FROM). tk_use_precompiled_headers()
# runs after all targets exist (the top-level CMakeLists.txt).
#
# The compilers refuse a precompiled header built with other flags, so a
# target in the wrong family would build correctly but slowly; g++'s
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

function(tk_add_pch_target name eh)
  add_library(${name} OBJECT "${PROJECT_SOURCE_DIR}/cmake/pch/PchAnchor.cpp")
  if(NOT eh)
    llvm_update_compile_flags(${name})
  endif()
  set_target_properties(${name} PROPERTIES TK_PCH ON)
  target_precompile_headers(${name} PRIVATE ${TK_PCH_HEADERS})
endfunction()

function(tk_use_precompiled_headers)
  if(NOT TK_PCH)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "NOEH;EH" ${ARGN})
  tk_add_pch_target(tk_pch_noeh OFF)
  tk_add_pch_target(tk_pch_eh ON)
  foreach(family noeh eh)
    string(TOUPPER ${family} key)
    foreach(target ${ARG_${key}})
      # Optional parts (the JIT, the GPU tests) may not be configured.
      if(TARGET ${target})
        set_target_properties(${target} PROPERTIES TK_PCH ON)
        target_precompile_headers(${target} REUSE_FROM tk_pch_${family})
      endif()
    endforeach()
  endforeach()
endfunction()
