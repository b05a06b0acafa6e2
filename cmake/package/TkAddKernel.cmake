# tk_add_kernel(TARGET FILE x.tk KERNEL k [NAME n] [DEFINES A=1 ...]
#               [ARCH sm_90a] [NUM_WARPS n] [NUM_STAGES n] [ASSUME a=16 ...]
#               [HEADER])
# Runs tkc at build time (again when the .tk file or tkc changes) and adds
# the result to TARGET, in ${CMAKE_CURRENT_BINARY_DIR}/tk_kernels/:
#   default  NAME.cubin, NAME.json (its metadata, also naming the tk IR)
#            and NAME.tk.mlir (the CPU interpreter runs it): load it with
#            tk::Module::load(ctx, TK_KERNEL_DIR "/NAME.json")
#   HEADER   NAME_tk.h, the self-contained AOT header (tkc --emit=header),
#            on TARGET's include path
# TARGET gets the definition TK_KERNEL_DIR="<that folder>". NAME defaults
# to KERNEL.
function(tk_add_kernel target)
  cmake_parse_arguments(ARG "HEADER" "FILE;KERNEL;NAME;ARCH;NUM_WARPS;NUM_STAGES"
                        "DEFINES;ASSUME" ${ARGN})
  if(NOT ARG_FILE OR NOT ARG_KERNEL)
    message(FATAL_ERROR "tk_add_kernel(${target} FILE x.tk KERNEL k ...)")
  endif()
  if(NOT TK_TKC)
    message(FATAL_ERROR "tk_add_kernel: TK_TKC (the tkc executable) is unset")
  endif()
  get_filename_component(source "${ARG_FILE}" ABSOLUTE)
  set(name ${ARG_KERNEL})
  if(ARG_NAME)
    set(name ${ARG_NAME})
  endif()
  set(arch sm_90a)
  if(ARG_ARCH)
    set(arch ${ARG_ARCH})
  endif()
  set(flags -k ${ARG_KERNEL} --arch ${arch})
  foreach(define IN LISTS ARG_DEFINES)
    list(APPEND flags -D ${define})
  endforeach()
  foreach(assumption IN LISTS ARG_ASSUME)
    list(APPEND flags --assume ${assumption})
  endforeach()
  if(ARG_NUM_WARPS)
    list(APPEND flags --num-warps ${ARG_NUM_WARPS})
  endif()
  if(ARG_NUM_STAGES)
    list(APPEND flags --num-stages ${ARG_NUM_STAGES})
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/tk_kernels)
  set(base ${dir}/${name})
  if(ARG_HEADER)
    set(outputs ${base}_tk.h)
    set(commands COMMAND ${TK_TKC} ${source} ${flags} --emit=header
                         -o ${base}_tk.h)
    target_include_directories(${target} PRIVATE ${dir})
  else()
    set(outputs ${base}.cubin ${base}.json ${base}.tk.mlir)
    set(commands
      COMMAND ${TK_TKC} ${source} ${flags} --emit=tk -o ${base}.tk.mlir
      COMMAND ${TK_TKC} ${source} ${flags} --emit=cubin -o ${base}.cubin
      COMMAND ${CMAKE_COMMAND} -DMETADATA=${base}.json -DTK_IR=${name}.tk.mlir
              -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/AddTkIrToMetadata.cmake)
  endif()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    ${commands}
    DEPENDS ${source} ${TK_TKC}
    COMMENT "tkc ${ARG_FILE} -> tk_kernels/${name}"
    VERBATIM)
  target_sources(${target} PRIVATE ${outputs})
  target_compile_definitions(${target} PRIVATE TK_KERNEL_DIR="${dir}")
endfunction()
