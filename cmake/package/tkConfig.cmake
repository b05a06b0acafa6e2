# find_package(tk CONFIG): tk installed by `cmake --install` (docs/api.md).
#   tk::tkrt         libtkrt.a: load and launch compiled kernels (C++ and C
#                    API, tk/runtime.h, tk/runtime_c.h); no compiler inside
#   tk::tkrt_shared  the same as libtkrt.so
#   tk::jit          libtkjit.so: the launch-time JIT (tk/jit.h, tk/jit_c.h),
#                    which holds the runtime and the CPU interpreter too:
#                    link it instead of tk::tkrt, not with it
#   TK_TKC           the tkc executable
#   tk_add_kernel()  compile a .tk kernel at build time (TkAddKernel.cmake)
get_filename_component(_tk_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(_tk_libdir "${_tk_prefix}/lib")
if(NOT EXISTS "${_tk_libdir}/libtkrt.a")
  get_filename_component(_tk_libdir "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
endif()
set(TK_INCLUDE_DIR "${_tk_prefix}/include")
set(TK_TKC "${_tk_prefix}/bin/tkc")

if(NOT TARGET tk::tkrt)
  add_library(tk::tkrt STATIC IMPORTED)
  set_target_properties(tk::tkrt PROPERTIES
    IMPORTED_LOCATION "${_tk_libdir}/libtkrt.a"
    INTERFACE_INCLUDE_DIRECTORIES "${TK_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${CMAKE_DL_LIBS}"
    INTERFACE_COMPILE_FEATURES cxx_std_17)
  add_library(tk::tkrt_shared SHARED IMPORTED)
  set_target_properties(tk::tkrt_shared PROPERTIES
    IMPORTED_LOCATION "${_tk_libdir}/libtkrt.so"
    INTERFACE_INCLUDE_DIRECTORIES "${TK_INCLUDE_DIR}"
    INTERFACE_COMPILE_FEATURES cxx_std_17)
  if(EXISTS "${_tk_libdir}/libtkjit.so")
    add_library(tk::jit SHARED IMPORTED)
    set_target_properties(tk::jit PROPERTIES
      IMPORTED_LOCATION "${_tk_libdir}/libtkjit.so"
      INTERFACE_INCLUDE_DIRECTORIES "${TK_INCLUDE_DIR}"
      INTERFACE_COMPILE_FEATURES cxx_std_17)
  endif()
endif()

include("${CMAKE_CURRENT_LIST_DIR}/TkAddKernel.cmake")
set(tk_FOUND TRUE)
