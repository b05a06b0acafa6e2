/*===- runtime_c.h - libtkrt, the tk runtime (C API) ---------------------===*\
|*                                                                            *|
|* A C view of the C++ API in runtime.h. No exception crosses it: every       *|
|* function returns TKRT_OK (0) or an error status, and tkrt_last_error()     *|
|* then gives the message (per thread; it stays until the next failure on     *|
|* that thread). Handles are opaque; each *_create / *_load / alloc has a     *|
|* matching destroy / free. Kernels, buffers and streams keep their context   *|
|* alive, so they may be destroyed in any order.                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TK_RUNTIME_C_H
#define TK_RUNTIME_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  TKRT_OK = 0,
  TKRT_ERROR = 1,            /* see tkrt_last_error() */
  TKRT_INVALID_ARGUMENT = 2, /* a NULL handle or output pointer */
};

enum {
  TKRT_MODE_AUTO = 0,
  TKRT_MODE_GPU = 1,
  TKRT_MODE_INTERPRETER = 2,
};

/* Argument type tags: one per parameter type, plus TKRT_ARG_INT, an integer
 * accepted for any integer parameter that can represent it. */
enum {
  TKRT_ARG_I1 = 0,
  TKRT_ARG_I8,
  TKRT_ARG_I16,
  TKRT_ARG_I32,
  TKRT_ARG_I64,
  TKRT_ARG_U8,
  TKRT_ARG_U16,
  TKRT_ARG_U32,
  TKRT_ARG_U64,
  TKRT_ARG_F16,  /* value.bits16: the IEEE half bits */
  TKRT_ARG_BF16, /* value.bits16: the bfloat16 bits */
  TKRT_ARG_F32,
  TKRT_ARG_F64,
  TKRT_ARG_PTR, /* value.ptr; the element type is not checked */
  TKRT_ARG_INT, /* value.i64 */
};

typedef struct tkrt_arg {
  int32_t type; /* a TKRT_ARG_* tag */
  union {
    int64_t i64; /* I1 (0/1), I8, I16, I32, I64, INT */
    uint64_t u64; /* U8, U16, U32, U64 */
    float f32;
    double f64;
    uint16_t bits16; /* F16, BF16 */
    uint64_t ptr;
  } value;
} tkrt_arg;

typedef struct tkrt_context tkrt_context;
typedef struct tkrt_module tkrt_module;
typedef struct tkrt_kernel tkrt_kernel;
typedef struct tkrt_buffer tkrt_buffer;
typedef struct tkrt_stream tkrt_stream;

/* The message of the last failed call on this thread ("" if none). */
const char *tkrt_last_error(void);

int tkrt_context_create(int mode, tkrt_context **out);
/* The same on CUDA device `device` (its primary context); the interpreter
 * has only device 0. */
int tkrt_context_create_on_device(int mode, int device, tkrt_context **out);
int tkrt_context_create_with_backend(const char *backend_name,
                                     tkrt_context **out);
void tkrt_context_destroy(tkrt_context *context);
/* "cuda", "interpreter", ...; valid while the context lives. */
const char *tkrt_context_backend_name(const tkrt_context *context);
int tkrt_sync(tkrt_context *context);

/* path: NAME.json, or NAME.cubin / NAME.ptx with NAME.json beside it. */
int tkrt_module_load(tkrt_context *context, const char *path,
                     tkrt_module **out);
int tkrt_module_load_from_memory(tkrt_context *context,
                                 const char *metadata_json, size_t json_size,
                                 const void *binary, size_t binary_size,
                                 tkrt_module **out);
void tkrt_module_destroy(tkrt_module *module);
int tkrt_module_get_kernel(tkrt_module *module, const char *name,
                           tkrt_kernel **out);
void tkrt_kernel_destroy(tkrt_kernel *kernel);

int tkrt_alloc(tkrt_context *context, size_t bytes, tkrt_buffer **out);
void tkrt_free(tkrt_buffer *buffer);
uint64_t tkrt_buffer_ptr(const tkrt_buffer *buffer);
size_t tkrt_buffer_size(const tkrt_buffer *buffer);
int tkrt_upload(tkrt_buffer *buffer, const void *src, size_t bytes);
int tkrt_download(tkrt_buffer *buffer, void *dst, size_t bytes);
int tkrt_memset(tkrt_buffer *buffer, uint8_t value);

int tkrt_stream_create(tkrt_context *context, tkrt_stream **out);
/* A stream over a CUstream the caller owns (NULL: the legacy default
 * stream); destroying it leaves the CUstream alone. In the interpreter any
 * handle is the immediate queue. */
int tkrt_stream_wrap(tkrt_context *context, void *native_handle,
                     tkrt_stream **out);
void tkrt_stream_destroy(tkrt_stream *stream);
int tkrt_stream_sync(tkrt_stream *stream);

/* stream may be NULL (the default stream). Grid dimensions as in C++: 0
 * launches nothing, negative or above the device limit is an error. */
int tkrt_launch(tkrt_kernel *kernel, int64_t gx, int64_t gy, int64_t gz,
                tkrt_stream *stream, const tkrt_arg *args, int nargs);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TK_RUNTIME_C_H */
