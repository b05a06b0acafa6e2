# Link every tool against the static MLIR/LLVM archives instead of the
# shared libMLIR.so/libLLVM.so, so that the binaries run on a machine that has
# no LLVM installed (the GPU machine). glibc stays dynamic: the CUDA driver is
# dlopen'ed at run time, which a fully static glibc cannot do reliably.
#
# Debian's exported MLIR targets name the `LLVM` dylib target in their link
# interfaces, and LLVMSupport names shared zstd/z3: both are rewritten here.

set(LLVM_LINK_LLVM_DYLIB OFF)
set(MLIR_LINK_MLIR_DYLIB OFF)

find_library(TK_STATIC_ZSTD NAMES libzstd.a REQUIRED)
find_library(TK_STATIC_Z NAMES libz.a REQUIRED)

llvm_map_components_to_libnames(TK_STATIC_LLVM_LIBS
  Support Core IRReader BitReader BitWriter Passes Analysis TransformUtils
  ScalarOpts InstCombine Target MC MCParser CodeGen AsmPrinter
  NVPTXCodeGen NVPTXDesc NVPTXInfo FrontendOpenMP FrontendOffloading
  Linker IPO Vectorize ObjCARCOpts Coroutines AggressiveInstCombine
  CFGuard Instrumentation TargetParser Demangle Object BinaryFormat)

get_directory_property(tk_imported_targets IMPORTED_TARGETS)
foreach(target ${tk_imported_targets})
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    continue()
  endif()
  get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT deps)
    continue()
  endif()
  set(rewritten)
  foreach(dep ${deps})
    if(dep STREQUAL "LLVM")
      list(APPEND rewritten ${TK_STATIC_LLVM_LIBS})
    elseif(dep MATCHES "libz3" OR dep STREQUAL "zstd::libzstd_shared")
      if(NOT dep MATCHES "libz3")
        list(APPEND rewritten ${TK_STATIC_ZSTD})
      endif()
    elseif(dep STREQUAL "ZLIB::ZLIB")
      list(APPEND rewritten ${TK_STATIC_Z})
    else()
      list(APPEND rewritten ${dep})
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${rewritten}")
endforeach()

# libstdc++ and libgcc go inside the binary; lld links the large archives in
# a fraction of GNU ld's time when it is installed.
add_link_options(-static-libstdc++ -static-libgcc)
find_program(TK_LLD ld.lld)
if(TK_LLD)
  add_link_options(-fuse-ld=lld)
endif()
