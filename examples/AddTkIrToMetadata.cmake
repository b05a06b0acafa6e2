# Adds "tk_ir": "NAME.tk.mlir" to a kernel's metadata JSON, so that the
# interpreter backend can run what tkc compiled for the GPU.
#   cmake -DMETADATA=kernels/add.json -DTK_IR=add.tk.mlir -P AddTkIrToMetadata.cmake
# tkc --emit=cubin writes NAME.cubin and NAME.json but not the tk IR the
# interpreter reads (tk's JIT does); once it does, this step can go.
if(NOT METADATA OR NOT TK_IR)
  message(FATAL_ERROR "usage: cmake -DMETADATA=X.json -DTK_IR=X.tk.mlir -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
file(READ "${METADATA}" json)
string(JSON current ERROR_VARIABLE missing GET "${json}" tk_ir)
if(missing OR NOT current STREQUAL TK_IR)
  string(JSON json SET "${json}" tk_ir "\"${TK_IR}\"")
  file(WRITE "${METADATA}" "${json}\n")
endif()
