# Sanitizer and fuzzing instrumentation for tk's own code.
#
# Included from the top-level CMakeLists.txt after HandleLLVMOptions, so the
# flags apply to every tk target (libraries, tools, tests, examples). The
# prebuilt LLVM/MLIR stay uninstrumented: that is fine for ASan and UBSan as
# long as tk links the shared libMLIR/libLLVM (one copy of each, loaded
# as-is), which is the default build. docs/reliability.md explains the
# choices.

if(TK_SANITIZE)
  if(TK_STATIC_TOOLS)
    # A static link pulls the uninstrumented archives into the instrumented
    # binaries; it works, but is not what the sanitizer runs are about.
    message(WARNING "TK_SANITIZE with TK_STATIC_TOOLS: LLVM/MLIR are linked "
                    "statically and stay uninstrumented")
  endif()
  message(STATUS "tk: instrumenting tk's code with -fsanitize=${TK_SANITIZE}")
  # Frame pointers make the reports' stack traces complete without
  # unwinding tables. No recovery from UBSan findings: the first one fails
  # the test that triggered it instead of scrolling by in a log.
  add_compile_options(-fsanitize=${TK_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${TK_SANITIZE})
  # clang links the sanitizer runtimes into executables only; a shared
  # library (the mock libcuda of the runtime tests) leaves their symbols to
  # the executable, which LLVM's `-z defs` forbids. LLVM's own sanitizer
  # builds drop it too (HandleLLVMOptions, LLVM_USE_SANITIZER).
  string(REPLACE "-Wl,-z,defs" "" CMAKE_SHARED_LINKER_FLAGS
         "${CMAKE_SHARED_LINKER_FLAGS}")
  string(REPLACE "-Wl,-z,defs" "" CMAKE_MODULE_LINKER_FLAGS
         "${CMAKE_MODULE_LINKER_FLAGS}")
  if(TK_SANITIZE MATCHES "address")
    # LLVM's headers would poison allocator memory that the uninstrumented
    # libraries then use: false reports (the header says more).
    # Targets with precompiled headers get it as the first of those
    # (cmake/PrecompiledHeaders.cmake); the flag is joined (-include<file>)
    # so that it can sit inside the generator expression.
    set(TK_ASAN_HOOKS_HEADER
        "${PROJECT_SOURCE_DIR}/cmake/sanitizers/llvm-asan-hooks-off.h")
    add_compile_options(
      "$<$<NOT:$<BOOL:$<TARGET_PROPERTY:TK_PCH>>>:-include${TK_ASAN_HOOKS_HEADER}>")
  endif()
endif()

if(TK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR
      "TK_FUZZ needs clang (libFuzzer ships with it): configure with "
      "CC=clang CXX=clang++ (scripts/fuzz.sh does)")
  endif()
  # Coverage feedback from all of tk's code, not only the fuzz targets'
  # own files: libFuzzer steers by the edges of the lexer, parser, passes
  # and runtime readers. The fuzz executables add -fsanitize=fuzzer
  # (test/fuzz/CMakeLists.txt), which links libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
