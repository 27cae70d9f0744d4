/* wb-dtype.h — Thunder dtypes (WbDtype) and devices (WbDevice)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  WB_DTYPE_KIND_BOOL,
  WB_DTYPE_KIND_UINT,
  WB_DTYPE_KIND_INT,
  WB_DTYPE_KIND_FLOAT,
  WB_DTYPE_KIND_COMPLEX,
} WbDtypeKind;

/* WbDtype: one enumerator per row of wb-dtype.def; WB_DTYPE_UNKNOWN (0) is "not a dtype". */
typedef enum
{
  WB_DTYPE_UNKNOWN = 0,
#define WB_DTYPE(id, s, t, pt, bits, kind) WB_DTYPE_##id,
#include "wb-dtype.def"
#undef WB_DTYPE
  WB_N_DTYPES
} WbDtype;

/* wb_dtype_shortname: "f32", "bf16", ... (transfer none); "?" for WB_DTYPE_UNKNOWN. */
const char *wb_dtype_shortname (WbDtype dtype);
/* wb_dtype_thunder_name: "float32" as in `dtypes.float32` (transfer none). */
const char *wb_dtype_thunder_name (WbDtype dtype);
/* wb_dtype_torch_name: "float32" as in `torch.float32`, "bool" for b8 (transfer none). */
const char *wb_dtype_torch_name (WbDtype dtype);
/* wb_dtype_exact_integers: the largest n such that 0..n are all exact in float @dtype (2^(mantissa bits + 1):
 * 2^53 for f64, 2^24 f32, 2048 f16, 256 bf16); 0 for the other dtypes. Pooling's indices are typed like its
 * input, so a plane larger than this has positions the dtype cannot count. */
gint64 wb_dtype_exact_integers (WbDtype dtype);
/* wb_dtype_bits: storage bits per element (8 for b8). */
guint wb_dtype_bits (WbDtype dtype);
/* wb_dtype_size: storage bytes per element, bits rounded up to a byte. */
gsize       wb_dtype_size (WbDtype dtype);
WbDtypeKind wb_dtype_kind (WbDtype dtype);
gboolean    wb_dtype_is_float (WbDtype dtype);   /* float or f8/f4 */
gboolean    wb_dtype_is_integer (WbDtype dtype); /* uint or int, not bool */
gboolean    wb_dtype_is_complex (WbDtype dtype);
/* wb_dtype_from_shortname: parses exactly @len bytes of @s ("f32"); WB_DTYPE_UNKNOWN if not a shortname. */
WbDtype wb_dtype_from_shortname (const char *s, gssize len);
/* wb_dtype_from_thunder_name: "float32" or the weak "float32_" (sets *weak); WB_DTYPE_UNKNOWN otherwise. */
WbDtype wb_dtype_from_thunder_name (const char *s, gboolean *weak);
/* wb_dtype_from_torch_name: "float32", "float", "half", "bool", "long", ...; WB_DTYPE_UNKNOWN otherwise. */
WbDtype wb_dtype_from_torch_name (const char *s);
/* wb_dtype_promote: PyTorch/Thunder type promotion of two dtypes of equal standing (both tensors or both
 * numbers): the higher kind wins, then the wider type; bf16 with f16 gives f32. Source: thunder/core/dtypes.py
 * and torch's promoteTypes table. */
WbDtype wb_dtype_promote (WbDtype a, WbDtype b);

typedef enum
{
  WB_DEVICE_UNKNOWN = 0,
  WB_DEVICE_CPU,
  WB_DEVICE_CUDA,
  WB_DEVICE_META,
} WbDeviceType;

/* WbDeviceForm: how a device was printed, so that it prints back the same way. Thunder prints a
 * TensorProxy's device as device_str() ("cuda:0", "cpu") and a FutureTensorProxy's as the Device's repr
 * ("thunder.devices.Device(type='cuda', index=0)", "thunder.devices.Device(type='cpu')"). */
typedef enum
{
  WB_DEVICE_FORM_SHORT = 0, /* "cuda:0", "cpu" */
  WB_DEVICE_FORM_REPR,      /* "thunder.devices.Device(type='cuda', index=0)" */
} WbDeviceForm;

/* WbDevice: a device as in "cuda:0"; index -1 when none was given ("cuda"). @form only says how to
 * print it: wb_device_equal ignores it. */
typedef struct
{
  WbDeviceType type;
  int          index;
  WbDeviceForm form;
} WbDevice;

/* The longest device text wb_device_append prints, plus the terminating NUL. */
#define WB_DEVICE_MAX_TEXT 64

/* wb_device_parse: parses exactly @len bytes (-1: up to the NUL) of either form: "cpu", "cuda:0",
 * "meta", or Thunder's repr "thunder.devices.Device(type='cuda', index=0)" /
 * "thunder.devices.Device(type='cpu')"; @out->form records which. FALSE when not a device. */
gboolean wb_device_parse (const char *s, gssize len, WbDevice *out);
/* wb_device_repr_length: the length of the repr form "thunder.devices.Device(...)" at the start of the
 * @len bytes of @s (through its closing parenthesis), or 0 when @s does not start with one. */
gsize wb_device_repr_length (const char *s, gsize len);
/* wb_device_to_string: the short form "cuda:0" (whatever @device->form) into @buf of at least 24
 * bytes, for messages; returns @buf. */
char *wb_device_to_string (const WbDevice *device, char *buf);
/* wb_device_append: appends @device to @out in the form it was read (@device->form), as a trace prints it. */
void     wb_device_append (const WbDevice *device, GString *out);
gboolean wb_device_equal (const WbDevice *a, const WbDevice *b);

G_END_DECLS
