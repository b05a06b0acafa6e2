# `cmake --install build --prefix P` (docs/api.md, "Install"):
#   P/bin      tkc, tk-opt, tk-run
#   P/lib      libtkrt.a, libtkrt.so (the runtime), libtkjit.so (the
#              launch-time JIT with the runtime and the CPU interpreter in
#              it), pkgconfig/tkrt.pc, pkgconfig/tkjit.pc,
#              cmake/tk/ (find_package(tk CONFIG): tk::tkrt, tk::tkrt_shared,
#              tk::jit, tk_add_kernel)
#   P/include  tk/*.h: runtime.h and its parts, runtime_c.h, npy.h, jit.h,
#              jit_c.h
# The installed binaries find libMLIR/libLLVM where this build found them
# (the tools and libtkjit link them as shared libraries unless
# TK_STATIC_TOOLS).
include(GNUInstallDirs)

set(TK_INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR}" ${LLVM_LIBRARY_DIR})

# libtkrt as a shared library: the static archive's objects, whole.
if(TARGET tkrt)
  file(WRITE ${CMAKE_BINARY_DIR}/tkrt_shared_empty.cpp
       "// libtkrt.so holds libtkrt.a whole.\n")
  add_library(tkrt_shared SHARED ${CMAKE_BINARY_DIR}/tkrt_shared_empty.cpp)
  set_target_properties(tkrt_shared PROPERTIES OUTPUT_NAME tkrt)
  target_link_options(tkrt_shared PRIVATE "LINKER:--whole-archive"
    $<TARGET_FILE:tkrt> "LINKER:--no-whole-archive")
  target_link_libraries(tkrt_shared PRIVATE tkrt ${CMAKE_DL_LIBS})
  install(TARGETS tkrt tkrt_shared
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/tk
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()

if(TARGET tkjit)
  set_target_properties(tkjit PROPERTIES INSTALL_RPATH "${TK_INSTALL_RPATH}")
  install(TARGETS tkjit LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/include/tk/jit.h
                ${PROJECT_SOURCE_DIR}/include/tk/jit_c.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tk)
endif()

foreach(tool tkc tk-opt tk-run)
  if(TARGET ${tool})
    set_target_properties(${tool} PROPERTIES
                          INSTALL_RPATH "${TK_INSTALL_RPATH}")
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# pkg-config and the CMake package.
set(TK_PC_PREFIX "\${pcfiledir}/../..")
configure_file(${PROJECT_SOURCE_DIR}/cmake/package/tkrt.pc.in
               ${CMAKE_BINARY_DIR}/package/tkrt.pc @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/package/tkjit.pc.in
               ${CMAKE_BINARY_DIR}/package/tkjit.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/tkrt.pc
              ${CMAKE_BINARY_DIR}/package/tkjit.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/package/tkConfig.cmake
              ${PROJECT_SOURCE_DIR}/cmake/package/TkAddKernel.cmake
              ${PROJECT_SOURCE_DIR}/examples/AddTkIrToMetadata.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tk)
