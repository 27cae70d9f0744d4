/* wb-cuda-loader.h — libcuda, libnvrtc and libcublasLt opened at run time (WbCuApi, WbNvrtcApi, WbLtApi)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nothing links against the CUDA libraries: a program that contains this code starts on a machine without
 * a driver or toolkit, and each library is opened with dlopen on first use (docs/gpu-apis.md §0, §5). The
 * driver comes only from the system (libcuda.so.1; never the toolkit's stubs/ copy, whose calls return
 * CUDA_ERROR_STUB_LIBRARY). NVRTC and cuBLASLt are looked up by soname (LD_LIBRARY_PATH, the system),
 * then under $WB_CUDA_LIB_DIR, the configured toolkit prefix and /usr/local/cuda. Calls go through the
 * tables: wb_cu ()->cuInit (0). The header names of versioned entry points (cuMemcpyHtoD is
 * cuMemcpyHtoD_v2) resolve to the versioned symbols, so the tables match the headers used to build.
 * Threads: loading is once and thread-safe; the tables are read-only afterwards. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include <cublasLt.h>
#include <cuda.h>
#include <glib.h>
#include <nvrtc.h>

G_BEGIN_DECLS

#define WB_CUDA_ERROR (wb_cuda_error_quark ())
GQuark wb_cuda_error_quark (void);

/* Errors of WB_CUDA_ERROR. Messages keep CUDA's own names ("cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX"). */
typedef enum
{
  WB_CUDA_ERROR_NO_DRIVER = 1,  /* libcuda.so.1 cannot be opened, or cuInit fails: no NVIDIA driver */
  WB_CUDA_ERROR_NO_DEVICE,      /* the driver sees no GPU (CUDA_ERROR_NO_DEVICE, CUDA_VISIBLE_DEVICES empty) */
  WB_CUDA_ERROR_DRIVER_TOO_OLD, /* the driver's CUDA version is below the toolkit's */
  WB_CUDA_ERROR_LIBRARY,        /* libnvrtc or libcublasLt cannot be opened or lacks a symbol */
  WB_CUDA_ERROR_CALL,           /* a CUDA, NVRTC or cuBLASLt call failed */
  WB_CUDA_ERROR_COMPILE,        /* NVRTC rejected generated code (the message holds its log) */
  WB_CUDA_ERROR_FAULT,          /* a kernel faulted: the context is lost for good (restart the process) */
  WB_CUDA_ERROR_OUT_OF_MEMORY,  /* device memory exhausted */
  WB_CUDA_ERROR_CAPTURE,        /* work that a CUDA graph cannot hold ran during stream capture (wb-cuda-graph.h) */
  WB_CUDA_ERROR_NOT_SUPPORTED,  /* a library (cuDNN) has no engine for the call, or this build lacks it: fall back */
  WB_CUDA_ERROR_RESIDENT,       /* a kernel waits for more of its blocks than the device holds at once: build it without (WB_CUDA_CODEGEN_NO_WAIT) */
  WB_CUDA_ERROR_SHARED_MEMORY,  /* a kernel asks for more shared memory a block than the device gives: build it without (WB_CUDA_CODEGEN_NO_TABLE) */
} WbCudaError;

#define WB_CUDA_STR_(x) #x
#define WB_CUDA_SYMBOL(x) WB_CUDA_STR_ (x)

/* One function a line: clang-format would join and indent the X-macro lists. */
/* clang-format off */
#define WB_CU_FUNCTIONS(X)      \
  X (cuInit)                    \
  X (cuDriverGetVersion)        \
  X (cuDeviceGetCount)          \
  X (cuDeviceGet)               \
  X (cuDeviceGetName)           \
  X (cuDeviceGetAttribute)      \
  X (cuDeviceTotalMem)          \
  X (cuDevicePrimaryCtxRetain)  \
  X (cuDevicePrimaryCtxRelease) \
  X (cuCtxSetCurrent)           \
  X (cuCtxSynchronize)          \
  X (cuStreamCreate)            \
  X (cuStreamDestroy)           \
  X (cuStreamSynchronize)       \
  X (cuMemAllocAsync)           \
  X (cuMemFreeAsync)            \
  X (cuDeviceGetDefaultMemPool) \
  X (cuMemPoolSetAttribute)     \
  X (cuMemPoolTrimTo)           \
  X (cuMemcpyHtoDAsync)         \
  X (cuMemcpyDtoHAsync)         \
  X (cuMemcpyDtoDAsync)         \
  X (cuMemsetD8Async)           \
  X (cuMemsetD32Async)          \
  X (cuMemAllocHost)            \
  X (cuMemFreeHost)             \
  X (cuMemGetInfo)              \
  X (cuModuleLoadDataEx)        \
  X (cuModuleUnload)            \
  X (cuModuleGetFunction)       \
  X (cuModuleGetGlobal)         \
  X (cuFuncSetAttribute)        \
  X (cuOccupancyMaxActiveBlocksPerMultiprocessor) \
  X (cuLaunchKernel)            \
  X (cuGetErrorName)            \
  X (cuGetErrorString)          \
  X (cuEventCreate)             \
  X (cuEventRecord)             \
  X (cuEventSynchronize)        \
  X (cuEventElapsedTime)        \
  X (cuEventDestroy)            \
  X (cuStreamWaitEvent)         \
  WB_CU_GRAPH_FUNCTIONS (X)

/* CUDA graphs (wb-cuda-graph.h): stream capture, instantiation, launch */
#define WB_CU_GRAPH_FUNCTIONS(X)  \
  X (cuStreamBeginCapture)        \
  X (cuStreamEndCapture)          \
  X (cuStreamIsCapturing)         \
  X (cuEventRecordWithFlags)      \
  X (cuGraphInstantiateWithFlags) \
  X (cuGraphLaunch)               \
  X (cuGraphUpload)               \
  X (cuGraphExecDestroy)          \
  X (cuGraphDestroy)              \
  X (cuGraphGetNodes)

#define WB_NVRTC_FUNCTIONS(X)   \
  X (nvrtcVersion)              \
  X (nvrtcGetNumSupportedArchs) \
  X (nvrtcGetSupportedArchs)    \
  X (nvrtcCreateProgram)        \
  X (nvrtcCompileProgram)       \
  X (nvrtcDestroyProgram)       \
  X (nvrtcGetProgramLogSize)    \
  X (nvrtcGetProgramLog)        \
  X (nvrtcGetCUBINSize)         \
  X (nvrtcGetCUBIN)             \
  X (nvrtcGetPTXSize)           \
  X (nvrtcGetPTX)               \
  X (nvrtcGetErrorString)

#define WB_LT_FUNCTIONS(X)                 \
  X (cublasLtCreate)                       \
  X (cublasLtDestroy)                      \
  X (cublasLtGetVersion)                   \
  X (cublasLtGetStatusString)              \
  X (cublasLtMatmulDescCreate)             \
  X (cublasLtMatmulDescDestroy)            \
  X (cublasLtMatmulDescSetAttribute)       \
  X (cublasLtMatrixLayoutCreate)           \
  X (cublasLtMatrixLayoutDestroy)          \
  X (cublasLtMatrixLayoutSetAttribute)     \
  X (cublasLtMatmulPreferenceCreate)       \
  X (cublasLtMatmulPreferenceDestroy)      \
  X (cublasLtMatmulPreferenceSetAttribute) \
  X (cublasLtMatmulAlgoGetHeuristic)       \
  X (cublasLtMatmul)
/* clang-format on */

#define WB_CUDA_MEMBER(f) __typeof__ (&f) f;

typedef struct
{
  WB_CU_FUNCTIONS (WB_CUDA_MEMBER)
} WbCuApi;
typedef struct
{
  WB_NVRTC_FUNCTIONS (WB_CUDA_MEMBER)
} WbNvrtcApi;
typedef struct
{
  WB_LT_FUNCTIONS (WB_CUDA_MEMBER)
} WbLtApi;

/* wb_cuda_load_driver: opens libcuda.so.1 (once). (transfer none) the table, or NULL with
 * WB_CUDA_ERROR_NO_DRIVER ("no NVIDIA driver: libcuda.so.1: cannot open shared object file ..."). */
const WbCuApi *wb_cuda_load_driver (GError **error);
/* wb_cuda_driver_symbol: (transfer none) a libcuda function newer drivers have and the runtime can do without
 * (cuFuncGetParamInfo, CUDA 12.4), or NULL where the driver lacks it or is missing. */
gpointer wb_cuda_driver_symbol (const char *name);
/* wb_cuda_load_nvrtc: opens libnvrtc (once); NULL with WB_CUDA_ERROR_LIBRARY. */
const WbNvrtcApi *wb_cuda_load_nvrtc (GError **error);
/* wb_cuda_load_cublaslt: opens libcublasLt (once); NULL with WB_CUDA_ERROR_LIBRARY. */
const WbLtApi *wb_cuda_load_cublaslt (GError **error);
/* wb_cuda_open_library: dlopen()s @soname (RTLD_NOW | RTLD_LOCAL) by name, then in $WB_CUDA_LIB_DIR and the
 * toolkit's lib64 and lib (as NVRTC and cuBLASLt are found). (transfer full: dlclose) the handle, @path
 * (transfer full) the file opened; NULL with WB_CUDA_ERROR_LIBRARY listing every attempt. */
gpointer wb_cuda_open_library (const char *soname, char **path, GError **error);
/* wb_cuda_get_library_path: (transfer none) the file a loaded library came from ("nvrtc", "cublasLt",
 * "cuda"), or NULL. */
const char *wb_cuda_get_library_path (const char *which);

/* wb_cuda_check: TRUE for CUDA_SUCCESS; otherwise sets @error ("@what: CUDA_ERROR_X: text"; code CALL,
 * FAULT for errors that poison the context, OUT_OF_MEMORY) and returns FALSE. */
gboolean wb_cuda_check (CUresult rc, const char *what, GError **error);
/* wb_cuda_result_is_sticky: errors after which the context is unusable (illegal address, launch failure...). */
gboolean wb_cuda_result_is_sticky (CUresult rc);

G_END_DECLS
