/* wb-dtype.c — Thunder dtypes and devices
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "wb-compiler.h"

typedef struct
{
  const char *shortname;
  const char *thunder_name;
  const char *torch_name;
  guint       bits;
  WbDtypeKind kind;
} DtypeInfo;

static const DtypeInfo dtype_info[] = {
  { "?", "unknown", "unknown", 0, WB_DTYPE_KIND_FLOAT },
#define WB_DTYPE(id, s, t, pt, bits, kind) { s, t, pt, bits, WB_DTYPE_KIND_##kind },
#include "wb-dtype.def"
#undef WB_DTYPE
};

G_STATIC_ASSERT (G_N_ELEMENTS (dtype_info) == WB_N_DTYPES);

static inline const DtypeInfo *
info (WbDtype dtype)
{
  if ((guint) dtype >= WB_N_DTYPES)
    dtype = WB_DTYPE_UNKNOWN;
  return &dtype_info[dtype];
}

const char *
wb_dtype_shortname (WbDtype dtype)
{
  return info (dtype)->shortname;
}

const char *
wb_dtype_thunder_name (WbDtype dtype)
{
  return info (dtype)->thunder_name;
}

const char *
wb_dtype_torch_name (WbDtype dtype)
{
  return info (dtype)->torch_name;
}

gint64
wb_dtype_exact_integers (WbDtype dtype)
{
  switch (dtype)
    {
    case WB_DTYPE_FLOAT64:
      return G_GINT64_CONSTANT (1) << 53;
    case WB_DTYPE_FLOAT32:
      return G_GINT64_CONSTANT (1) << 24;
    case WB_DTYPE_FLOAT16:
      return 2048;
    case WB_DTYPE_BFLOAT16:
      return 256;
    default:
      return 0;
    }
}

guint
wb_dtype_bits (WbDtype dtype)
{
  return info (dtype)->bits;
}

gsize
wb_dtype_size (WbDtype dtype)
{
  return (info (dtype)->bits + 7) / 8;
}

WbDtypeKind
wb_dtype_kind (WbDtype dtype)
{
  return info (dtype)->kind;
}

gboolean
wb_dtype_is_float (WbDtype dtype)
{
  return dtype != WB_DTYPE_UNKNOWN && info (dtype)->kind == WB_DTYPE_KIND_FLOAT;
}

gboolean
wb_dtype_is_integer (WbDtype dtype)
{
  WbDtypeKind k = info (dtype)->kind;
  return dtype != WB_DTYPE_UNKNOWN && (k == WB_DTYPE_KIND_INT || k == WB_DTYPE_KIND_UINT);
}

gboolean
wb_dtype_is_complex (WbDtype dtype)
{
  return dtype != WB_DTYPE_UNKNOWN && info (dtype)->kind == WB_DTYPE_KIND_COMPLEX;
}

WbDtype
wb_dtype_from_shortname (const char *s, gssize len)
{
  if (len < 0)
    len = strlen (s);
  /* Common cases first: this runs for every type comment. */
  if (len == 3 && s[0] == 'f' && s[1] == '3' && s[2] == '2')
    return WB_DTYPE_FLOAT32;
  if (len == 4 && memcmp (s, "bf16", 4) == 0)
    return WB_DTYPE_BFLOAT16;
  for (guint i = 1; i < WB_N_DTYPES; i++)
    if (strlen (dtype_info[i].shortname) == (gsize) len && memcmp (dtype_info[i].shortname, s, len) == 0)
      return (WbDtype) i;
  return WB_DTYPE_UNKNOWN;
}

WbDtype
wb_dtype_from_thunder_name (const char *s, gboolean *weak)
{
  gsize    len = strlen (s);
  gboolean w = FALSE;
  if (len > 1 && s[len - 1] == '_')
    {
      w = TRUE;
      len--;
    }
  for (guint i = 1; i < WB_N_DTYPES; i++)
    if (strlen (dtype_info[i].thunder_name) == len && memcmp (dtype_info[i].thunder_name, s, len) == 0)
      {
        if (weak)
          *weak = w;
        return (WbDtype) i;
      }
  /* Thunder also has dtypes.bool8 spelled "bool8"; torch aliases are not valid here. */
  return WB_DTYPE_UNKNOWN;
}

WbDtype
wb_dtype_from_torch_name (const char *s)
{
  static const struct
  {
    const char *name;
    WbDtype     dtype;
  } aliases[] = {
    { "float", WB_DTYPE_FLOAT32 },
    { "double", WB_DTYPE_FLOAT64 },
    { "half", WB_DTYPE_FLOAT16 },
    { "long", WB_DTYPE_INT64 },
    { "int", WB_DTYPE_INT32 },
    { "short", WB_DTYPE_INT16 },
    { "cfloat", WB_DTYPE_COMPLEX64 },
    { "cdouble", WB_DTYPE_COMPLEX128 },
  };
  for (guint i = 1; i < WB_N_DTYPES; i++)
    if (strcmp (dtype_info[i].torch_name, s) == 0)
      return (WbDtype) i;
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (strcmp (aliases[i].name, s) == 0)
      return aliases[i].dtype;
  return WB_DTYPE_UNKNOWN;
}

WbDtype
wb_dtype_promote (WbDtype a, WbDtype b)
{
  WbDtypeKind ka, kb;
  if (a == WB_DTYPE_UNKNOWN)
    return b;
  if (b == WB_DTYPE_UNKNOWN || a == b)
    return a;
  ka = wb_dtype_kind (a);
  kb = wb_dtype_kind (b);
  /* uint and int are one level: bool < integer < float < complex. */
  if (ka == WB_DTYPE_KIND_UINT)
    ka = WB_DTYPE_KIND_INT;
  if (kb == WB_DTYPE_KIND_UINT)
    kb = WB_DTYPE_KIND_INT;
  if (ka != kb)
    return ka > kb ? a : b;
  if (ka == WB_DTYPE_KIND_FLOAT)
    {
      if ((a == WB_DTYPE_BFLOAT16 && b == WB_DTYPE_FLOAT16) || (a == WB_DTYPE_FLOAT16 && b == WB_DTYPE_BFLOAT16))
        return WB_DTYPE_FLOAT32;
    }
  if (ka == WB_DTYPE_KIND_INT)
    {
      gboolean ua = wb_dtype_kind (a) == WB_DTYPE_KIND_UINT, ub = wb_dtype_kind (b) == WB_DTYPE_KIND_UINT;
      if (ua != ub)
        {
          /* uint8 with a signed type: the signed type if wider, else the next wider signed type. */
          WbDtype u = ua ? a : b, s = ua ? b : a;
          if (wb_dtype_bits (s) > wb_dtype_bits (u))
            return s;
          switch (wb_dtype_bits (u))
            {
            case 8:
              return WB_DTYPE_INT16;
            case 16:
              return WB_DTYPE_INT32;
            default:
              return WB_DTYPE_INT64;
            }
        }
    }
  if (wb_dtype_bits (a) != wb_dtype_bits (b))
    return wb_dtype_bits (a) > wb_dtype_bits (b) ? a : b;
  return a > b ? a : b;
}

#define DEVICE_REPR_PREFIX "thunder.devices.Device("

gsize
wb_device_repr_length (const char *s, gsize len)
{
  gsize n = strlen (DEVICE_REPR_PREFIX);
  if (len < n || memcmp (s, DEVICE_REPR_PREFIX, n) != 0)
    return 0;
  for (gsize i = n; i < len && i < WB_DEVICE_MAX_TEXT; i++)
    if (s[i] == ')')
      return i + 1;
  return 0;
}

/* "thunder.devices.Device(type='cuda', index=0)", "thunder.devices.Device(type='cpu')": exactly @len bytes. */
static gboolean
parse_repr (const char *s, gsize len, WbDevice *out)
{
  gsize       n = strlen (DEVICE_REPR_PREFIX), i;
  const char *types[] = { "cpu", "cuda", "meta" };
  WbDevice    d = { WB_DEVICE_UNKNOWN, -1, WB_DEVICE_FORM_REPR };

  if (wb_device_repr_length (s, len) != len || len < n + 8 || memcmp (s + n, "type='", 6) != 0)
    return FALSE;
  i = n + 6;
  for (guint k = 0; k < G_N_ELEMENTS (types); k++)
    {
      gsize tl = strlen (types[k]);
      if (i + tl + 1 < len && memcmp (s + i, types[k], tl) == 0 && s[i + tl] == '\'')
        {
          d.type = (WbDeviceType) (WB_DEVICE_CPU + k);
          i += tl + 1;
          break;
        }
    }
  if (d.type == WB_DEVICE_UNKNOWN)
    return FALSE;
  if (i + 8 < len && memcmp (s + i, ", index=", 8) == 0)
    {
      int idx = 0;
      i += 8;
      if (i + 1 >= len || len - 1 - i > 6)
        return FALSE;
      for (; i < len - 1; i++)
        {
          if (s[i] < '0' || s[i] > '9')
            return FALSE;
          idx = idx * 10 + (s[i] - '0');
        }
      d.index = idx;
    }
  if (i != len - 1)
    return FALSE;
  if (out)
    *out = d;
  return TRUE;
}

gboolean
wb_device_parse (const char *s, gssize len, WbDevice *out)
{
  WbDevice d = { WB_DEVICE_UNKNOWN, -1, WB_DEVICE_FORM_SHORT };
  gsize    prefix;
  if (len < 0)
    len = strlen (s);
  if (wb_device_repr_length (s, len) > 0)
    return parse_repr (s, len, out);
  if (len >= 3 && memcmp (s, "cpu", 3) == 0)
    d.type = WB_DEVICE_CPU, prefix = 3;
  else if (len >= 4 && memcmp (s, "cuda", 4) == 0)
    d.type = WB_DEVICE_CUDA, prefix = 4;
  else if (len >= 4 && memcmp (s, "meta", 4) == 0)
    d.type = WB_DEVICE_META, prefix = 4;
  else
    return FALSE;
  if ((gsize) len > prefix)
    {
      int idx = 0;
      if (s[prefix] != ':' || (gsize) len == prefix + 1 || (gsize) len - prefix - 1 > 6)
        return FALSE;
      for (gsize i = prefix + 1; i < (gsize) len; i++)
        {
          if (s[i] < '0' || s[i] > '9')
            return FALSE;
          idx = idx * 10 + (s[i] - '0');
        }
      d.index = idx;
    }
  if (out)
    *out = d;
  return TRUE;
}

char *
wb_device_to_string (const WbDevice *device, char *buf)
{
  const char *name = device->type == WB_DEVICE_CPU ? "cpu" : device->type == WB_DEVICE_CUDA ? "cuda"
                                                         : device->type == WB_DEVICE_META   ? "meta"
                                                                                            : "unknown";
  if (device->index >= 0)
    snprintf (buf, 24, "%s:%d", name, device->index);
  else
    snprintf (buf, 24, "%s", name);
  return buf;
}

void
wb_device_append (const WbDevice *device, GString *out)
{
  char buf[24];
  if (device->form != WB_DEVICE_FORM_REPR)
    {
      g_string_append (out, wb_device_to_string (device, buf));
      return;
    }
  wb_device_to_string (&(WbDevice){ device->type, -1, WB_DEVICE_FORM_SHORT }, buf);
  if (device->index >= 0)
    g_string_append_printf (out, DEVICE_REPR_PREFIX "type='%s', index=%d)", buf, device->index);
  else
    g_string_append_printf (out, DEVICE_REPR_PREFIX "type='%s')", buf);
}

gboolean
wb_device_equal (const WbDevice *a, const WbDevice *b)
{
  return a->type == b->type && a->index == b->index;
}
