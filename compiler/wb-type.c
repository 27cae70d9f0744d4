/* wb-type.c — proxy types as printed in type comments
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format is Thunder's `type_string` (thunder/core/proxies.py): "<device> <dtype shortname>[d0, d1]"
 * for tensors, "<kind> <value>" for numbers, a bare class word for the rest. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wb-compiler.h"

static gboolean
word_is (const char *s, gsize len, const char *word)
{
  gsize n = strlen (word);
  return len == n && memcmp (s, word, n) == 0;
}

static gboolean
parse_tensor (const char *s, gsize len, gsize start, WbType *out, gsize *err)
{
  gsize i = start, dev_start = start, dt_start;
  gsize repr = wb_device_repr_length (s + start, len - start);
  /* device: "cuda:0", or Thunder's repr "thunder.devices.Device(type='cuda', index=0)" (with spaces) */
  if (repr > 0)
    i = start + repr;
  else
    while (i < len && s[i] != ' ')
      i++;
  if (i >= len || !wb_device_parse (s + dev_start, i - dev_start, &out->device))
    {
      *err = dev_start;
      return FALSE;
    }
  i++;
  dt_start = i;
  while (i < len && s[i] != '[')
    i++;
  if (i >= len)
    {
      *err = i;
      return FALSE;
    }
  out->dtype = wb_dtype_from_shortname (s + dt_start, i - dt_start);
  if (out->dtype == WB_DTYPE_UNKNOWN)
    {
      *err = dt_start;
      return FALSE;
    }
  i++; /* '[' */
  out->rank = 0;
  if (i < len && s[i] == ']')
    i++;
  else
    for (;;)
      {
        gint64   v = 0;
        gsize    d0 = i;
        gboolean neg = FALSE;
        if (i < len && s[i] == '-')
          neg = TRUE, i++;
        while (i < len && s[i] >= '0' && s[i] <= '9')
          {
            if (v > G_MAXINT64 / 16)
              {
                *err = d0;
                return FALSE;
              }
            v = v * 10 + (s[i] - '0');
            i++;
          }
        if (i == d0 || (neg && i == d0 + 1) || out->rank >= WB_MAX_RANK)
          {
            *err = d0;
            return FALSE;
          }
        out->shape[out->rank++] = neg ? -v : v;
        if (i < len && s[i] == ']')
          {
            i++;
            break;
          }
        if (i + 1 < len && s[i] == ',' && s[i + 1] == ' ')
          i += 2;
        else
          {
            *err = i;
            return FALSE;
          }
      }
  if (i != len)
    {
      *err = i;
      return FALSE;
    }
  return TRUE;
}

/* ---- DTensor ------------------------------------------------------------------------------------ */

static const char *const partial_ops[] = { "sum", "avg", "max", "min", "product", NULL };

const char *
wb_partial_op_to_string (WbPartialOp op)
{
  return op >= WB_PARTIAL_SUM && op <= WB_PARTIAL_PRODUCT ? partial_ops[op - 1] : "?";
}

gboolean
wb_placement_parse (const char *s, gsize len, WbPlacement *out)
{
  memset (out, 0, sizeof *out);
  if (word_is (s, len, "Replicate()"))
    {
      out->kind = WB_PLACEMENT_REPLICATE;
      return TRUE;
    }
  if (len > 11 && memcmp (s, "Shard(dim=", 10) == 0 && s[len - 1] == ')')
    {
      gint64 d = 0;
      for (gsize i = 10; i < len - 1; i++)
        {
          if (!g_ascii_isdigit (s[i]) || d > WB_MAX_RANK)
            return FALSE;
          d = d * 10 + (s[i] - '0');
        }
      if (d >= WB_MAX_RANK)
        return FALSE;
      out->kind = WB_PLACEMENT_SHARD;
      out->dim = (guint8) d;
      return TRUE;
    }
  if (len > 9 && memcmp (s, "Partial(", 8) == 0 && s[len - 1] == ')')
    for (guint i = 0; partial_ops[i] != NULL; i++)
      if (word_is (s + 8, len - 9, partial_ops[i]))
        {
          out->kind = WB_PLACEMENT_PARTIAL;
          out->op = (guint8) (i + 1);
          return TRUE;
        }
  return FALSE;
}

void
wb_placement_append (const WbPlacement *p, GString *out)
{
  switch (p->kind)
    {
    case WB_PLACEMENT_REPLICATE:
      g_string_append (out, "Replicate()");
      break;
    case WB_PLACEMENT_SHARD:
      g_string_append_printf (out, "Shard(dim=%u)", p->dim);
      break;
    case WB_PLACEMENT_PARTIAL:
      g_string_append_printf (out, "Partial(%s)", wb_partial_op_to_string (p->op));
      break;
    default:
      g_string_append (out, "?");
      break;
    }
}

gboolean
wb_placement_equal (const WbPlacement *a, const WbPlacement *b)
{
  if (a->kind != b->kind)
    return FALSE;
  return a->kind == WB_PLACEMENT_SHARD ? a->dim == b->dim : a->kind == WB_PLACEMENT_PARTIAL ? a->op == b->op
                                                                                            : TRUE;
}

/* The mesh's shape from its repr: "DeviceMesh((2,), 'cuda', stride=(1,))" or with dim names
 * "DeviceMesh((dp=2, tp=2), 'cuda', stride=(2, 1))" (torch/distributed/device_mesh.py __repr__). */
static gboolean
parse_mesh (const char *s, gsize len, WbDtensorSpec *spec)
{
  gsize i = 11;
  if (len < 14 || memcmp (s, "DeviceMesh((", 12) != 0 || s[len - 1] != ')')
    return FALSE;
  spec->mesh_rank = 0;
  while (++i < len && s[i] != ')')
    {
      gint64 v = 0;
      gsize  d0;
      while (i < len && s[i] != ')' && s[i] != ',' && !g_ascii_isdigit (s[i]))
        i++; /* a dim name and '=' */
      d0 = i;
      while (i < len && g_ascii_isdigit (s[i]) && v < G_MAXINT32 / 10)
        v = v * 10 + (s[i++] - '0');
      if (i == d0 || v < 1 || spec->mesh_rank >= WB_MAX_MESH_RANK)
        return FALSE;
      spec->mesh_shape[spec->mesh_rank++] = (gint32) v;
      if (i < len && s[i] == ')')
        break;
      if (i + 1 < len && s[i] == ',' && s[i + 1] == ')')
        {
          i++;
          break;
        }
      if (i + 1 >= len || s[i] != ',' || s[i + 1] != ' ')
        return FALSE;
      i++;
    }
  return spec->mesh_rank > 0;
}

/* "DTensor <tensor> mesh=<repr>, placements=(<p>, ...)" from byte @start (after "DTensor "). */
static gboolean
parse_dtensor (const char *s, gsize len, gsize start, WbType *out, gsize *err)
{
  static const char mesh_key[] = " mesh=", pl_key[] = ", placements=(";
  const char       *m = g_strstr_len (s + start, len - start, mesh_key), *pl = NULL, *q;
  gsize             pos, end, n = 0;

  if (m == NULL)
    {
      *err = start;
      return FALSE;
    }
  if (!parse_tensor (s, m - s, start, out, err))
    return FALSE;
  /* the last ", placements=(": a mesh repr has none */
  for (q = m; (q = g_strstr_len (q, len - (q - s), pl_key)) != NULL; q++)
    pl = q;
  pos = (m - s) + strlen (mesh_key);
  if (pl == NULL || s[len - 1] != ')' || !parse_mesh (s + pos, (pl - s) - pos, &out->dtensor))
    {
      *err = pos;
      return FALSE;
    }
  out->dtensor.mesh_offset = (guint16) MIN (pos, G_MAXUINT16);
  out->dtensor.mesh_len = (guint16) MIN ((pl - s) - pos, G_MAXUINT16);
  pos = (pl - s) + strlen (pl_key);
  end = len - 1; /* the tuple's ')' */
  while (pos < end)
    {
      gsize stop = pos;
      while (stop < end && s[stop] != ')')
        stop++;
      if (stop >= end || n >= out->dtensor.mesh_rank || !wb_placement_parse (s + pos, stop + 1 - pos, &out->dtensor.placements[n]))
        {
          *err = pos;
          return FALSE;
        }
      if (out->dtensor.placements[n].kind == WB_PLACEMENT_SHARD && out->dtensor.placements[n].dim >= out->rank)
        {
          *err = pos;
          return FALSE;
        }
      n++;
      pos = stop + 1;
      if (pos < end && s[pos] == ',')
        pos += pos + 1 < end && s[pos + 1] == ' ' ? 2 : 1;
    }
  if (n != out->dtensor.mesh_rank)
    {
      *err = pos;
      return FALSE;
    }
  out->kind = WB_TYPE_DTENSOR;
  out->text = s;
  return TRUE;
}

gboolean
wb_type_is_tensor (const WbType *type)
{
  return type->kind == WB_TYPE_TENSOR || type->kind == WB_TYPE_FUTURE_TENSOR;
}

gint64
wb_dtensor_shard_size (gint64 size, gint64 n_ranks, gint64 coord, gint64 *offset)
{
  gint64 chunk = n_ranks > 0 ? (size + n_ranks - 1) / n_ranks : size;
  gint64 start = MIN (coord * chunk, size);
  if (offset != NULL)
    *offset = start;
  return MIN (chunk, size - start);
}

void
wb_type_dtensor_mesh_coord (const WbType *dt, gint64 rank, gint64 *coord)
{
  for (int i = (int) dt->dtensor.mesh_rank - 1; i >= 0; i--)
    {
      gint64 n = MAX (dt->dtensor.mesh_shape[i], 1);
      coord[i] = rank % n;
      rank /= n;
    }
}

gboolean
wb_type_dtensor_local (const WbType *dt, const gint64 *coord, WbType *out)
{
  if (dt->kind != WB_TYPE_DTENSOR)
    return FALSE;
  wb_type_init_tensor (out, dt->dtype, &dt->device, dt->rank, dt->shape);
  for (guint i = 0; i < dt->dtensor.mesh_rank; i++)
    if (dt->dtensor.placements[i].kind == WB_PLACEMENT_SHARD && dt->dtensor.placements[i].dim < dt->rank)
      {
        guint d = dt->dtensor.placements[i].dim;
        out->shape[d] = wb_dtensor_shard_size (out->shape[d], dt->dtensor.mesh_shape[i], coord != NULL ? coord[i] : 0, NULL);
      }
  return TRUE;
}

gboolean
wb_type_parse (const char *s, gsize len, WbType *out, gsize *error_offset)
{
  gsize sp, dummy;
  memset (out, 0, sizeof *out);
  if (error_offset == NULL)
    error_offset = &dummy;
  *error_offset = 0;
  out->text = NULL;

  for (sp = 0; sp < len && s[sp] != ' '; sp++)
    ;
  if (sp == len)
    {
      static const struct
      {
        const char *word;
        WbTypeKind  kind;
      } words[] = {
        { "Any", WB_TYPE_ANY },
        { "Collection", WB_TYPE_COLLECTION },
        { "str", WB_TYPE_STR },
        { "tuple", WB_TYPE_TUPLE },
        { "list", WB_TYPE_LIST },
        { "dict", WB_TYPE_DICT },
      };
      for (guint i = 0; i < G_N_ELEMENTS (words); i++)
        if (word_is (s, len, words[i].word))
          {
            out->kind = words[i].kind;
            return TRUE;
          }
      if (len == 0 || s[0] != '<' || s[len - 1] != '>')
        return FALSE;
      out->kind = WB_TYPE_OTHER; /* AnyProxy: str(type), "<class 'torch.dtype'>" */
      out->text = s;
      return TRUE;
    }

  if (word_is (s, sp, "int") || word_is (s, sp, "bool") || word_is (s, sp, "float") || word_is (s, sp, "complex"))
    {
      const char *v = s + sp + 1;
      gsize       vlen = len - sp - 1;
      out->kind = s[0] == 'i' ? WB_TYPE_INT : s[0] == 'b' ? WB_TYPE_BOOL
                                          : s[0] == 'f'   ? WB_TYPE_FLOAT
                                                          : WB_TYPE_COMPLEX;
      out->text = v;
      if (vlen == 0)
        {
          *error_offset = sp + 1;
          return FALSE;
        }
      if (vlen == 1 && v[0] == '?')
        return TRUE;
      out->has_value = TRUE;
      if (out->kind == WB_TYPE_BOOL)
        {
          if (word_is (v, vlen, "True"))
            out->int_value = 1;
          else if (word_is (v, vlen, "False"))
            out->int_value = 0;
          else
            {
              *error_offset = sp + 1;
              return FALSE;
            }
        }
      else if (out->kind == WB_TYPE_INT)
        {
          char buf[32], *end;
          if (vlen >= sizeof buf)
            {
              *error_offset = sp + 1;
              return FALSE;
            }
          memcpy (buf, v, vlen);
          buf[vlen] = 0;
          out->int_value = g_ascii_strtoll (buf, &end, 10);
          if (*end != 0)
            {
              *error_offset = sp + 1 + (end - buf);
              return FALSE;
            }
        }
      else if (out->kind == WB_TYPE_FLOAT)
        {
          char buf[64], *end;
          if (vlen >= sizeof buf)
            {
              *error_offset = sp + 1;
              return FALSE;
            }
          memcpy (buf, v, vlen);
          buf[vlen] = 0;
          out->float_value = g_ascii_strtod (buf, &end);
          if (*end != 0)
            {
              *error_offset = sp + 1 + (end - buf);
              return FALSE;
            }
        }
      return TRUE;
    }

  if (word_is (s, sp, "DTensor"))
    return parse_dtensor (s, len, sp + 1, out, error_offset);
  if (word_is (s, sp, "FUTURE"))
    {
      out->kind = WB_TYPE_FUTURE_TENSOR;
      return parse_tensor (s, len, sp + 1, out, error_offset);
    }
  if (word_is (s, sp, "cpu") || (sp >= 4 && (memcmp (s, "cuda", 4) == 0 || memcmp (s, "meta", 4) == 0)) || wb_device_repr_length (s, len) > 0)
    {
      out->kind = WB_TYPE_TENSOR;
      return parse_tensor (s, len, 0, out, error_offset);
    }
  /* "<class 'torch.dtype'>" and other AnyProxy type strings */
  if (s[0] != '<' || s[len - 1] != '>')
    return FALSE;
  out->kind = WB_TYPE_OTHER;
  out->text = s;
  return TRUE;
}

void
wb_type_append (const WbType *type, GString *out)
{
  switch (type->kind)
    {
    case WB_TYPE_FUTURE_TENSOR:
      g_string_append (out, "FUTURE ");
      G_GNUC_FALLTHROUGH;
    case WB_TYPE_DTENSOR:
      if (type->kind == WB_TYPE_DTENSOR)
        g_string_append (out, "DTensor ");
      G_GNUC_FALLTHROUGH;
    case WB_TYPE_TENSOR:
      wb_device_append (&type->device, out);
      g_string_append_c (out, ' ');
      g_string_append (out, wb_dtype_shortname (type->dtype));
      g_string_append_c (out, '[');
      for (guint i = 0; i < type->rank; i++)
        {
          if (i)
            g_string_append (out, ", ");
          g_string_append_printf (out, "%" G_GINT64_FORMAT, type->shape[i]);
        }
      g_string_append_c (out, ']');
      if (type->kind == WB_TYPE_DTENSOR)
        {
          g_string_append (out, " mesh=");
          if (type->text != NULL && type->dtensor.mesh_len > 0)
            g_string_append_len (out, type->text + type->dtensor.mesh_offset, type->dtensor.mesh_len);
          else
            {
              g_string_append (out, "DeviceMesh((");
              for (guint i = 0; i < type->dtensor.mesh_rank; i++)
                g_string_append_printf (out, i ? ", %d" : "%d", type->dtensor.mesh_shape[i]);
              g_string_append (out, type->dtensor.mesh_rank == 1 ? ",))" : "))");
            }
          g_string_append (out, ", placements=(");
          for (guint i = 0; i < type->dtensor.mesh_rank; i++)
            {
              if (i)
                g_string_append (out, ", ");
              wb_placement_append (&type->dtensor.placements[i], out);
            }
          g_string_append (out, type->dtensor.mesh_rank == 1 ? ",)" : ")");
        }
      break;
    case WB_TYPE_INT:
    case WB_TYPE_BOOL:
    case WB_TYPE_FLOAT:
    case WB_TYPE_COMPLEX:
      g_string_append (out, type->kind == WB_TYPE_INT ? "int " : type->kind == WB_TYPE_BOOL ? "bool "
                                                             : type->kind == WB_TYPE_FLOAT  ? "float "
                                                                                            : "complex ");
      if (type->text)
        g_string_append (out, type->text);
      else if (!type->has_value)
        g_string_append_c (out, '?');
      else if (type->kind == WB_TYPE_BOOL)
        g_string_append (out, type->int_value ? "True" : "False");
      else if (type->kind == WB_TYPE_INT)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, type->int_value);
      else
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          g_string_append (out, g_ascii_dtostr (buf, sizeof buf, type->float_value));
        }
      break;
    case WB_TYPE_STR:
      g_string_append (out, "str");
      break;
    case WB_TYPE_COLLECTION:
      g_string_append (out, "Collection");
      break;
    case WB_TYPE_TUPLE:
      g_string_append (out, "tuple");
      break;
    case WB_TYPE_LIST:
      g_string_append (out, "list");
      break;
    case WB_TYPE_DICT:
      g_string_append (out, "dict");
      break;
    case WB_TYPE_ANY:
      g_string_append (out, "Any");
      break;
    case WB_TYPE_OTHER:
      g_string_append (out, type->text ? type->text : "?");
      break;
    case WB_TYPE_UNKNOWN:
    default:
      g_string_append (out, "?");
      break;
    }
}

char *
wb_type_to_string (const WbType *type)
{
  GString *s = g_string_new (NULL);
  wb_type_append (type, s);
  return g_string_free (s, FALSE);
}

gboolean
wb_type_equal (const WbType *a, const WbType *b)
{
  if (a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case WB_TYPE_TENSOR:
    case WB_TYPE_FUTURE_TENSOR:
      return a->dtype == b->dtype && wb_device_equal (&a->device, &b->device) && a->rank == b->rank && memcmp (a->shape, b->shape, sizeof (gint64) * a->rank) == 0;
    case WB_TYPE_DTENSOR:
      if (a->dtensor.mesh_rank != b->dtensor.mesh_rank ||
          memcmp (a->dtensor.mesh_shape, b->dtensor.mesh_shape, sizeof (gint32) * a->dtensor.mesh_rank) != 0)
        return FALSE;
      for (guint i = 0; i < a->dtensor.mesh_rank; i++)
        if (!wb_placement_equal (&a->dtensor.placements[i], &b->dtensor.placements[i]))
          return FALSE;
      return a->dtype == b->dtype && wb_device_equal (&a->device, &b->device) && a->rank == b->rank && memcmp (a->shape, b->shape, sizeof (gint64) * a->rank) == 0;
    case WB_TYPE_INT:
    case WB_TYPE_BOOL:
      return !a->has_value || !b->has_value || a->int_value == b->int_value;
    case WB_TYPE_FLOAT:
      return !a->has_value || !b->has_value || a->float_value == b->float_value || (a->float_value != a->float_value && b->float_value != b->float_value);
    case WB_TYPE_OTHER:
      return g_strcmp0 (a->text, b->text) == 0;
    default:
      return TRUE;
    }
}

gint64
wb_type_numel (const WbType *type)
{
  gint64 n = 1;
  for (guint i = 0; i < type->rank; i++)
    if (type->shape[i] == 0)
      return 0;
  for (guint i = 0; i < type->rank; i++)
    {
      if (type->shape[i] < 0)
        return 0;
      if (n > G_MAXINT64 / type->shape[i])
        return G_MAXINT64; /* impossible; wb_type_check_shape() says why */
      n *= type->shape[i];
    }
  return n;
}

gint64
wb_type_nbytes (const WbType *type)
{
  gint64 n, size;
  if (type->kind != WB_TYPE_TENSOR && type->kind != WB_TYPE_FUTURE_TENSOR)
    return 0;
  n = wb_type_numel (type);
  size = (gint64) wb_dtype_size (type->dtype);
  if (size > 0 && n > G_MAXINT64 / size)
    return G_MAXINT64;
  return n * size;
}

gboolean
wb_type_check_shape (const WbType *type, char **why)
{
  gint64 n = 1, size;
  if (why != NULL)
    *why = NULL;
  if (type->kind != WB_TYPE_TENSOR && type->kind != WB_TYPE_FUTURE_TENSOR && type->kind != WB_TYPE_DTENSOR)
    return TRUE;
  for (guint i = 0; i < type->rank; i++)
    if (type->shape[i] < 0)
      {
        if (why != NULL)
          *why = g_strdup_printf ("dimension %u is negative (%" G_GINT64_FORMAT ")", i, type->shape[i]);
        return FALSE;
      }
  for (guint i = 0; i < type->rank; i++)
    if (type->shape[i] == 0)
      return TRUE; /* no elements, whatever the other dimensions */
  for (guint i = 0; i < type->rank; i++)
    {
      if (n > G_MAXINT64 / type->shape[i])
        {
          if (why != NULL)
            *why = g_strdup ("its element count overflows 64 bits");
          return FALSE;
        }
      n *= type->shape[i];
    }
  size = (gint64) wb_dtype_size (type->dtype);
  if (size > 0 && n > G_MAXINT64 / size)
    {
      if (why != NULL)
        *why = g_strdup_printf ("its size in bytes (%" G_GINT64_FORMAT " elements of %" G_GINT64_FORMAT " bytes) overflows 64 bits", n,
                                size);
      return FALSE;
    }
  return TRUE;
}

void
wb_type_init_tensor (WbType *out, WbDtype dtype, const WbDevice *device, guint rank, const gint64 *shape)
{
  memset (out, 0, sizeof *out);
  g_return_if_fail (rank <= WB_MAX_RANK);
  out->kind = WB_TYPE_TENSOR;
  out->dtype = dtype;
  out->device = *device;
  out->rank = rank;
  if (rank)
    memcpy (out->shape, shape, sizeof (gint64) * rank);
}
