/* wb-cuda-runtime-private.h — the runtime's struct, shared by wb-cuda-runtime.c and wb-cuda-streams.c
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-cuda-graph.h"
#include "wb-cuda-runtime.h"

G_BEGIN_DECLS

/* a run recorded as a flat list of launches (wb-cuda-launch-list.c) */
typedef struct _WbCudaLaunchList WbCudaLaunchList;
/* cuFuncGetParamInfo (CUDA 12.4): a launch list copies a kernel's arguments by the layout it gives */
typedef CUresult (*WbCuFuncGetParamInfo) (CUfunction fn, size_t index, size_t *offset, size_t *size);

struct _WbCudaRuntime
{
  const WbCuApi     *cu;
  CUdevice           dev;
  CUcontext          ctx;
  CUstream           stream; /* where work goes now: @main, or @side during a call placed there */
  CUmemoryPool       pool;
  WbCudaDeviceInfo   info;
  GHashTable        *modules;      /* image key -> CUmodule */
  GHashTable        *functions;    /* "key/entry" -> CUfunction */
  GHashTable        *fn_names;     /* CUfunction -> its entry name (interned), for the launch hook */
  GHashTable        *fn_smem;      /* CUfunction -> the dynamic shared memory it was allowed (bytes, > 48 KiB) */
  GHashTable        *sources;      /* source text -> image key (no re-hash per launch) */
  GHashTable        *static_fns;   /* a static source's address -> (entry -> CUfunction): no hash of its text */
  GHashTable        *index_errors; /* CUfunction -> its module's wb_index_error (a CUdeviceptr), where its source can set it */
  WbCudaRuntimeStats stats;
  gboolean           sync;
  gboolean           broken; /* a sticky error happened: every call fails */
  WbCudaLaunchHook   hook;
  gpointer           hook_data;
  const char        *entry; /* the plan kernel being launched (for the hook), or NULL */
  /* stream capture (wb-cuda-graph.h) */
  gboolean    capturing;
  guint       capture_serial;   /* of the current or last capture */
  GHashTable *aborted_captures; /* serials whose graph never ran: their blocks are not freed */
  GArray     *deferred;         /* (element-type CUdeviceptr) blocks from before the capture freed during it */
  char       *capture_refusal;  /* the first thing the current capture could not hold */
  /* the second stream (wb-cuda-streams.c) */
  CUstream main; /* the run's stream */
  CUstream side; /* created on first use */
  CUevent  ev_fork, ev_join, ev_free;
  guint    side_epoch;   /* bumped at every join: blocks marked with the current epoch were touched by side work */
  gboolean side_pending; /* the side stream holds work @main has not waited for */
  gboolean side_off;     /* WB_CUDA_STREAMS=1 */
  /* the static memory plan's arena (wb-cuda-arena.c) */
  CUdeviceptr arena;
  gint64      arena_bytes;
  GArray     *arena_busy;   /* WbCudaArenaRange: the arena's bytes in use or not yet reusable */
  GArray     *arena_expect; /* WbCudaArenaPlace: where the current call's outputs may go */
  /* the launch list being sized or recorded (wb-cuda-launch-list.c), or NULL */
  WbCudaLaunchList    *list;
  guint                list_serial;         /* of the current or last pass */
  gboolean             list_bypass;         /* the next allocation takes the pool's path (a constant the list keeps) */
  WbCuFuncGetParamInfo func_get_param_info; /* (nullable) the driver lacks it: no launch list */
};

typedef struct
{
  gint64   offset, end;
  guint    hold_epoch;       /* released, but side work of this epoch may still read it: busy until it is joined */
  gboolean released, pinned; /* pinned: released during a capture it predates (the graph's replays read it) */
} WbCudaArenaRange;

/* the storage of a device tensor (wb_tensor_new_external's destroy data) */
typedef struct
{
  WbCudaRuntime *rt;
  CUdeviceptr    ptr;
  guint          capture;                 /* the capture that allocated it (graph memory), 0 outside captures */
  guint          side_epoch;              /* the side stream's epoch when side work last touched it, 0 never */
  gsize          nbytes;                  /* counted in the runtime's bytes_live until the tensor is dropped */
  gint64         arena_off;               /* >= 0: a sub-range of the runtime's arena at this offset (nothing to free) */
  guint          list_serial, list_index; /* allocated by a launch list's sizing pass: that pass, its allocation */
  gboolean       in_list;                 /* a place in a launch list's arena (nothing to free) */
} WbCudaBlock;

/* wb-cuda-runtime.c: TRUE when @rc is CUDA_SUCCESS; else marks @rt broken for a sticky error and sets @error
 * (WB_CUDA_ERROR, wb_cuda_check: "@what: NAME: message") */
gboolean _wb_cuda_runtime_check (WbCudaRuntime *rt, CUresult rc, const char *what, GError **error);
/* wb-cuda-streams.c: the block under device tensor @t, or NULL for a host tensor */
WbCudaBlock *_wb_cuda_block_of (const WbTensor *t);
/* wb-cuda-streams.c: frees @b's memory in stream order, on the side stream where side work not yet joined
 * touched it (after that stream waits for the run's stream as it is now), else on the current stream */
void _wb_cuda_block_free_ordered (WbCudaRuntime *rt, WbCudaBlock *b);
/* wb-cuda-streams.c: side work not yet joined touched @b */
gboolean _wb_cuda_block_touched_unjoined (WbCudaRuntime *rt, const WbCudaBlock *b);
/* wb-cuda-arena.c: serves an allocation of @nbytes from the current call's planned places: the address, or
 * 0 (take the pool's path) when no place of that size is free now; sets @b->arena_off */
CUdeviceptr _wb_cuda_arena_take (WbCudaRuntime *rt, WbCudaBlock *b, gsize nbytes);
/* wb-cuda-arena.c: @b's range is free again (or held while side work or a graph may read it) */
void _wb_cuda_arena_release (WbCudaRuntime *rt, WbCudaBlock *b);

/* wb-cuda-launch-list.c, while rt->list is set: an allocation's place (the sizing pass: 0, the pool's path, and
 * @b noted; the recording pass: its place in the list's arena, or 0 with the list refused), a block freed, a
 * refusal, and the work a replay repeats (a kernel launch, a memset of @n bytes, an
 * event recorded on @stream or, @wait, waited for by it) */
CUdeviceptr _wb_cuda_list_alloc (WbCudaRuntime *rt, WbCudaBlock *b, gsize nbytes);
void        _wb_cuda_list_free (WbCudaRuntime *rt, WbCudaBlock *b);
void        _wb_cuda_list_refuse (WbCudaRuntime *rt, const char *what);
/* a device tensor every replay reads as the recording left it (an uploaded number): held by the list */
void _wb_cuda_list_keep (WbCudaRuntime *rt, WbTensor *t);
void _wb_cuda_list_kernel (WbCudaRuntime *rt, CUfunction fn, const guint grid[3], guint block, gsize smem, void **args);
void _wb_cuda_list_memset (WbCudaRuntime *rt, CUdeviceptr dst, guint8 value, gsize n);
void _wb_cuda_list_event (WbCudaRuntime *rt, CUstream stream, CUevent ev, gboolean wait);
/* the list itself, for wb-cuda-graph.c: recorded from @body (NULL with WB_CUDA_ERROR_CAPTURE naming what it
 * could not record, or the body's error), replayed, described, freed */
WbCudaLaunchList *_wb_cuda_launch_list_record (WbCudaRuntime *rt, WbCudaGraphBody body, gpointer data, GError **error);
gboolean          _wb_cuda_launch_list_replay (WbCudaLaunchList *l, GError **error);
guint             _wb_cuda_launch_list_get_n_ops (const WbCudaLaunchList *l);
char             *_wb_cuda_launch_list_describe (const WbCudaLaunchList *l);
void              _wb_cuda_launch_list_free (WbCudaLaunchList *l);

G_END_DECLS
