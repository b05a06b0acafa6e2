/*===- jit_c.h - tk's launch-time JIT (C API) -----------------------------===*\
|*                                                                            *|
|* The C view of include/tk/jit.h, for any language with a C FFI (the Python  *|
|* package uses it through ctypes). It extends libtkrt's C API               *|
|* (tk/runtime_c.h): contexts, buffers and streams are tkrt_* handles.       *|
|* Every function returns TKRT_OK (0) or an error status, never crashes on   *|
|* bad input, and tkrt_last_error() (also tk_jit_last_error()) then gives    *|
|* the message: compile errors come as the compiler prints them.             *|
|* Link libtkjit (which holds libtkrt and the CPU interpreter).               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TK_JIT_C_H
#define TK_JIT_C_H

#include "tk/runtime_c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_jit_kernel tk_jit_kernel;
typedef struct tk_jit_meta tk_jit_meta;

typedef struct tk_jit_define {
  const char *name;  /* a constexpr parameter */
  const char *value; /* its value as source text: "1024", "True", "1e-6" */
} tk_jit_define;

/* Zero-initialized (or a NULL pointer): the defaults. */
typedef struct tk_jit_options {
  const tk_jit_define *defines;
  int num_defines;
  int num_warps;        /* 0: @kernel / @autotune value, else 4 */
  int num_stages;       /* 0: @kernel / @autotune value, else 3 */
  const char *arch;     /* NULL: the device's (sm_90a, sm_80) */
  int no_specialize;    /* 1: no per-launch specialization */
  int no_cache;         /* 1: bypass the on-disk kernel cache */
  const char *cache_dir; /* NULL: TK_CACHE_DIR, ... (docs/cache.md) */
  int quiet;            /* 1: no autotune progress on stderr */
  int autotune_warmup;  /* 0: 2 */
  int autotune_repeats; /* 0: 10 */
  int compile_threads;  /* 0: one per core */
  int maxnreg;          /* 0: @kernel / @autotune value, else none; a
                           multiple of 8 from 24 to 256 */
} tk_jit_options;

/* Reads the kernel's signature; compiles at the first launch. kernel_name
 * NULL or "": the file's only kernel. source_name (NULL: "<source>") names
 * the source in messages. */
int tk_jit_kernel_from_source(tkrt_context *context, const char *source,
                              const char *source_name,
                              const char *kernel_name,
                              const tk_jit_options *options,
                              tk_jit_kernel **out);
int tk_jit_kernel_from_file(tkrt_context *context, const char *path,
                            const char *kernel_name,
                            const tk_jit_options *options,
                            tk_jit_kernel **out);
void tk_jit_kernel_destroy(tk_jit_kernel *kernel);

/* Valid while the kernel lives; "" / NULL for a NULL kernel or index out of
 * range. Parameters are the run-time ones (constexprs are not). */
const char *tk_jit_kernel_name(const tk_jit_kernel *kernel);
int tk_jit_kernel_num_params(const tk_jit_kernel *kernel);
const char *tk_jit_kernel_param_name(const tk_jit_kernel *kernel, int index);
/* "*f32", "i32", "bf16", ... */
const char *tk_jit_kernel_param_type(const tk_jit_kernel *kernel, int index);
/* 1 when launches specialize on the parameter. */
int tk_jit_kernel_param_specialized(const tk_jit_kernel *kernel, int index);
size_t tk_jit_kernel_num_specializations(const tk_jit_kernel *kernel);
/* The number of @autotune configs (0 without @autotune). */
int tk_jit_kernel_num_configs(const tk_jit_kernel *kernel);

/* Launches the specialization the arguments select, compiling (and tuning)
 * it first when it is new. stream NULL: the default stream. */
int tk_jit_launch(tk_jit_kernel *kernel, int64_t gx, int64_t gy, int64_t gz,
                  tkrt_stream *stream, const tkrt_arg *args, int nargs);

/* The launch of one call in one buffer, for callers that pay per argument
 * of a foreign call (Python's ctypes): a tk_jit_packet followed directly by
 * num_args tkrt_arg, 16 bytes each, as one struct.pack("<qqqQq" + "i4xQ" *
 * num_args, ...) gives them. The buffer need not be aligned. */
typedef struct tk_jit_packet {
  int64_t grid[3];
  tkrt_stream *stream; /* NULL: the default stream */
  int64_t num_args;
} tk_jit_packet;
/* The same as tk_jit_launch on the packet's grid, stream and arguments. */
int tk_jit_launch_packed(tk_jit_kernel *kernel, const void *packet);

/* A grid from the constexprs of the kernel launched (with @autotune, of
 * each config): fill grid[0..2] and return 0, or non-zero to fail the
 * launch. */
typedef int (*tk_jit_grid_fn)(void *user_data, const tk_jit_meta *meta,
                              int64_t grid[3]);
int tk_jit_launch_grid_fn(tk_jit_kernel *kernel, tk_jit_grid_fn grid,
                          void *user_data, tkrt_stream *stream,
                          const tkrt_arg *args, int nargs);
/* The integer value of constexpr `name`; TKRT_ERROR when there is none. */
int tk_jit_meta_get(const tk_jit_meta *meta, const char *name,
                    int64_t *value);

/* The same as tkrt_last_error(). */
const char *tk_jit_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TK_JIT_C_H */
