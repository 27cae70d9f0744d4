/* wb-safetensors.c — reading and writing safetensors files with json-glib
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "wb-executors-private.h"

struct _WbSafetensors
{
  GPtrArray  *names;   /* (element-type utf8) */
  GPtrArray  *tensors; /* (element-type WbTensor) */
  GHashTable *index;   /* name -> position + 1 */
  GPtrArray  *meta_keys;
  GHashTable *meta; /* key -> value */
};

static const struct
{
  const char *name;
  WbDtype     dtype;
} st_dtypes[] = {
  { "F64", WB_DTYPE_FLOAT64 },
  { "F32", WB_DTYPE_FLOAT32 },
  { "BF16", WB_DTYPE_BFLOAT16 },
  { "F16", WB_DTYPE_FLOAT16 },
  { "I64", WB_DTYPE_INT64 },
  { "I32", WB_DTYPE_INT32 },
  { "I16", WB_DTYPE_INT16 },
  { "I8", WB_DTYPE_INT8 },
  { "U8", WB_DTYPE_UINT8 },
  { "BOOL", WB_DTYPE_BOOL8 },
};

const char *
wb_safetensors_dtype_name (WbDtype dtype)
{
  for (guint i = 0; i < G_N_ELEMENTS (st_dtypes); i++)
    if (st_dtypes[i].dtype == dtype)
      return st_dtypes[i].name;
  return NULL;
}

static WbDtype
dtype_from_name (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (st_dtypes); i++)
    if (g_strcmp0 (st_dtypes[i].name, name) == 0)
      return st_dtypes[i].dtype;
  return WB_DTYPE_UNKNOWN;
}

WbSafetensors *
wb_safetensors_new (void)
{
  WbSafetensors *st = g_new0 (WbSafetensors, 1);

  st->names = g_ptr_array_new_with_free_func (g_free);
  st->tensors = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  st->index = g_hash_table_new (g_str_hash, g_str_equal);
  st->meta_keys = g_ptr_array_new_with_free_func (g_free);
  st->meta = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  return st;
}

void
wb_safetensors_free (WbSafetensors *st)
{
  if (st == NULL)
    return;
  g_hash_table_unref (st->index);
  g_hash_table_unref (st->meta);
  g_ptr_array_unref (st->names);
  g_ptr_array_unref (st->tensors);
  g_ptr_array_unref (st->meta_keys);
  g_free (st);
}

void
wb_safetensors_add (WbSafetensors *st, const char *name, WbTensor *tensor)
{
  guint pos = GPOINTER_TO_UINT (g_hash_table_lookup (st->index, name));

  wb_tensor_ref (tensor);
  if (pos > 0)
    {
      wb_tensor_unref (st->tensors->pdata[pos - 1]);
      st->tensors->pdata[pos - 1] = tensor;
      return;
    }
  g_ptr_array_add (st->names, g_strdup (name));
  g_ptr_array_add (st->tensors, tensor);
  g_hash_table_insert (st->index, st->names->pdata[st->names->len - 1], GUINT_TO_POINTER (st->names->len));
}

WbTensor *
wb_safetensors_lookup (const WbSafetensors *st, const char *name)
{
  guint pos = GPOINTER_TO_UINT (g_hash_table_lookup (st->index, name));

  return pos > 0 ? st->tensors->pdata[pos - 1] : NULL;
}

guint
wb_safetensors_get_n (const WbSafetensors *st)
{
  return st->names->len;
}

const char *
wb_safetensors_get_name (const WbSafetensors *st, guint i)
{
  g_return_val_if_fail (i < st->names->len, NULL);
  return st->names->pdata[i];
}

WbTensor *
wb_safetensors_get_tensor (const WbSafetensors *st, guint i)
{
  g_return_val_if_fail (i < st->tensors->len, NULL);
  return st->tensors->pdata[i];
}

const char *
wb_safetensors_get_metadata (const WbSafetensors *st, const char *key)
{
  GPtrArray *keys = st->meta_keys;

  for (guint i = 0; i < keys->len; i++)
    if (strcmp (keys->pdata[i], key) == 0)
      return g_hash_table_lookup (st->meta, keys->pdata[i]);
  return NULL;
}

void
wb_safetensors_set_metadata (WbSafetensors *st, const char *key, const char *value)
{
  for (guint i = 0; i < st->meta_keys->len; i++)
    if (strcmp (st->meta_keys->pdata[i], key) == 0)
      {
        g_hash_table_insert (st->meta, st->meta_keys->pdata[i], g_strdup (value));
        return;
      }
  g_ptr_array_add (st->meta_keys, g_strdup (key));
  g_hash_table_insert (st->meta, st->meta_keys->pdata[st->meta_keys->len - 1], g_strdup (value));
}

/* Entries in header order (json-glib keeps object member order). */
typedef struct
{
  const char *name;
  WbDtype     dtype;
  guint       rank;
  gint64      shape[WB_MAX_RANK];
  guint64     begin, end;
} Entry;

static gboolean
io_error (GError **error, const char *path, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
io_error (GError **error, const char *path, const char *format, ...)
{
  va_list          args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, "%s: %s", path, msg);
  return FALSE;
}

static gboolean
is_string_member (JsonObject *o, const char *name)
{
  JsonNode *n = json_object_get_member (o, name);

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING;
}

/* @name is an array whose elements are all integers. */
static gboolean
is_int_array_member (JsonObject *o, const char *name)
{
  JsonNode  *n = json_object_get_member (o, name);
  JsonArray *a;

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    return FALSE;
  a = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *e = json_array_get_element (a, i);

      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64)
        return FALSE;
    }
  return TRUE;
}

WbSafetensors *
wb_safetensors_load (const char *path, GError **error)
{
  g_autoptr (GMappedFile) file = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (WbSafetensors) st = NULL;
  g_autoptr (GList) members = NULL;
  const guint8 *data;
  gsize         size;
  guint64       hlen = 0;
  JsonNode     *root;
  JsonObject   *obj;
  int           fd;

  /* opened without blocking and kept only when it is a regular file: a FIFO or a device is refused */
  if ((fd = wb_input_open (path, NULL, &local)) < 0)
    {
      g_set_error_literal (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, local->message);
      return NULL;
    }
  file = g_mapped_file_new_from_fd (fd, FALSE, &local);
  close (fd);
  if (file == NULL)
    return io_error (error, path, "%s", local->message), NULL;
  data = (const guint8 *) g_mapped_file_get_contents (file);
  size = g_mapped_file_get_length (file);
  if (size < 8)
    return io_error (error, path, "too short for a safetensors file (%" G_GSIZE_FORMAT " bytes)", size), NULL;
  for (int i = 7; i >= 0; i--)
    hlen = (hlen << 8) | data[i];
  if (hlen > size - 8 || hlen > 100 * 1024 * 1024)
    return io_error (error, path, "header length %" G_GUINT64_FORMAT " exceeds the file", hlen), NULL;
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, (const char *) data + 8, (gssize) hlen, &local))
    return io_error (error, path, "header is not JSON: %s", local->message), NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return io_error (error, path, "header is not a JSON object"), NULL;
  obj = json_node_get_object (root);
  st = wb_safetensors_new ();
  members = json_object_get_members (obj);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode   *node = json_object_get_member (obj, name);
      JsonObject *t;
      JsonArray  *shape, *offsets;
      Entry       e = { name };
      gint64      numel = 1;

      if (strcmp (name, "__metadata__") == 0)
        {
          if (JSON_NODE_HOLDS_OBJECT (node))
            {
              g_autoptr (GList) keys = json_object_get_members (json_node_get_object (node));
              for (GList *k = keys; k != NULL; k = k->next)
                {
                  JsonNode *v = json_object_get_member (json_node_get_object (node), k->data);
                  if (JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_STRING)
                    wb_safetensors_set_metadata (st, k->data, json_node_get_string (v));
                }
            }
          continue;
        }
      if (!JSON_NODE_HOLDS_OBJECT (node))
        return io_error (error, path, "entry '%s' is not an object", name), NULL;
      t = json_node_get_object (node);
      /* a member of another JSON type is as bad as a missing one (and json-glib's getters would warn) */
      if (!is_string_member (t, "dtype") || !is_int_array_member (t, "shape") || !is_int_array_member (t, "data_offsets"))
        return io_error (error, path, "entry '%s' lacks dtype (a string), shape or data_offsets (arrays of integers)", name), NULL;
      e.dtype = dtype_from_name (json_object_get_string_member (t, "dtype"));
      if (e.dtype == WB_DTYPE_UNKNOWN)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s: entry '%s': dtype %s is not supported",
                       path, name, json_object_get_string_member (t, "dtype"));
          return NULL;
        }
      shape = json_object_get_array_member (t, "shape");
      offsets = json_object_get_array_member (t, "data_offsets");
      if (shape == NULL || offsets == NULL || json_array_get_length (shape) > WB_MAX_RANK ||
          json_array_get_length (offsets) != 2)
        return io_error (error, path, "entry '%s': bad shape or data_offsets", name), NULL;
      e.rank = json_array_get_length (shape);
      for (guint d = 0; d < e.rank; d++)
        {
          e.shape[d] = json_array_get_int_element (shape, d);
          if (e.shape[d] < 0 || (e.shape[d] > 0 && numel > G_MAXINT64 / 16 / e.shape[d]))
            return io_error (error, path, "entry '%s': bad dim %u", name, d), NULL;
          numel *= e.shape[d];
        }
      e.begin = (guint64) json_array_get_int_element (offsets, 0);
      e.end = (guint64) json_array_get_int_element (offsets, 1);
      if (e.end < e.begin || e.end > size - 8 - hlen ||
          e.end - e.begin != (guint64) numel * wb_dtype_size (e.dtype))
        return io_error (error, path, "entry '%s': data_offsets [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "] do not fit its shape or the file", name, e.begin, e.end), NULL;
      {
        WbTensor *tensor = wb_tensor_new (e.dtype, e.rank, e.shape, error);
        if (tensor == NULL)
          return NULL;
        memcpy (wb_tensor_get_data (tensor), data + 8 + hlen + e.begin, e.end - e.begin);
        wb_safetensors_add (st, name, tensor);
        wb_tensor_unref (tensor);
      }
    }
  return g_steal_pointer (&st);
}

gboolean
wb_safetensors_save (const WbSafetensors *st, const char *path, GError **error)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_autofree char *header = NULL;
  g_autoptr (GPtrArray) contig = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_tensor_unref);
  gsize   hlen;
  guint64 offset = 0;
  guint8  len8[8];

  json_builder_begin_object (b);
  if (st->meta_keys->len > 0)
    {
      json_builder_set_member_name (b, "__metadata__");
      json_builder_begin_object (b);
      for (guint i = 0; i < st->meta_keys->len; i++)
        {
          json_builder_set_member_name (b, st->meta_keys->pdata[i]);
          json_builder_add_string_value (b, g_hash_table_lookup (st->meta, st->meta_keys->pdata[i]));
        }
      json_builder_end_object (b);
    }
  for (guint i = 0; i < st->names->len; i++)
    {
      WbTensor   *t = st->tensors->pdata[i];
      const char *dn = wb_safetensors_dtype_name (t->dtype);
      WbTensor   *c;
      gint64      nbytes;

      if (dn == NULL)
        {
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s: tensor '%s': dtype %s cannot be saved",
                       path, (char *) st->names->pdata[i], wb_dtype_shortname (t->dtype));
          return FALSE;
        }
      c = wb_tensor_contiguous (t, error);
      if (c == NULL)
        return FALSE;
      g_ptr_array_add (contig, c);
      nbytes = wb_tensor_nbytes (c);
      json_builder_set_member_name (b, st->names->pdata[i]);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "dtype");
      json_builder_add_string_value (b, dn);
      json_builder_set_member_name (b, "shape");
      json_builder_begin_array (b);
      for (guint d = 0; d < c->rank; d++)
        json_builder_add_int_value (b, c->shape[d]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "data_offsets");
      json_builder_begin_array (b);
      json_builder_add_int_value (b, (gint64) offset);
      json_builder_add_int_value (b, (gint64) offset + nbytes);
      json_builder_end_array (b);
      json_builder_end_object (b);
      offset += (guint64) nbytes;
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  header = json_generator_to_data (gen, &hlen);
  {
    gsize padded = (hlen + 7) & ~(gsize) 7;
    for (int i = 0; i < 8; i++)
      len8[i] = (guint8) (((guint64) padded >> (8 * i)) & 0xff);
    g_byte_array_append (out, len8, 8);
    g_byte_array_append (out, (const guint8 *) header, hlen);
    for (gsize i = hlen; i < padded; i++)
      g_byte_array_append (out, (const guint8 *) " ", 1);
  }
  for (guint i = 0; i < contig->len; i++)
    {
      WbTensor *c = contig->pdata[i];
      g_byte_array_append (out, wb_tensor_get_data (c), (guint) wb_tensor_nbytes (c));
    }
  if (!wb_output_write (path, (const char *) out->data, (gssize) out->len, error))
    {
      if (error && *error)
        {
          GError *e = *error;
          *error = NULL;
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, "%s", e->message);
          g_error_free (e);
        }
      return FALSE;
    }
  return TRUE;
}
