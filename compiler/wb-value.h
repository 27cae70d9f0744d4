/* wb-value.h — a printed Python value: literals, proxy names, tuples, lists, dicts, attribute/subscript/call
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-dtype.h"

G_BEGIN_DECLS

typedef enum
{
  WB_VALUE_NONE = 1,  /* None */
  WB_VALUE_BOOL,      /* True / False: b */
  WB_VALUE_INT,       /* 4, -1: i (text keeps the spelling) */
  WB_VALUE_FLOAT,     /* 2.0, 1e-05, float('inf'), -float('inf'), float('nan'): f (text keeps the spelling) */
  WB_VALUE_COMPLEX,   /* complex(1.0, 2.0), 1j: text only */
  WB_VALUE_STRING,    /* 'none': s = decoded contents, text = the quoted spelling */
  WB_VALUE_ELLIPSIS,  /* ... */
  WB_VALUE_NAME,      /* t5, ltorch, _ : text = identifier */
  WB_VALUE_TUPLE,     /* (a, b), (a,), () ; a bare "a, b" when WB_VALUE_FLAG_BARE */
  WB_VALUE_LIST,      /* [a, b] */
  WB_VALUE_DICT,      /* {'k': v}: items = k0, v0, k1, v1, ... */
  WB_VALUE_ATTRIBUTE, /* base.text (dtypes.float32, torch.float32, module.get_parameter) */
  WB_VALUE_SUBSCRIPT, /* base[index] */
  WB_VALUE_CALL,      /* base(items..., kwargs...) */
  WB_VALUE_SLICE,     /* slice(a,b,c) as Thunder prints it: items = start, stop, step */
  WB_VALUE_NEG,       /* -base, for operands that are not number literals */
  WB_VALUE_STAR,      /* *base in a parameter list */
  WB_VALUE_STARSTAR,  /* **base in a parameter list */
} WbValueKind;

enum
{
  WB_VALUE_FLAG_BARE = 1 << 0,           /* tuple printed without parentheses */
  WB_VALUE_FLAG_TRAILING_COMMA = 1 << 1, /* "a, b," / "(a, b,)" */
};

typedef struct _WbValue WbValue;
typedef struct _WbKwarg WbKwarg;

struct _WbKwarg
{
  const char *name;
  WbValue    *value;
};

/* WbValue: read-only once its trace is built; memory belongs to the trace's arena. */
struct _WbValue
{
  WbValueKind kind;
  guint16     flags;
  guint32     col;  /* 1-based column in the source line, 0 if computed */
  const char *text; /* spelling: literals, NAME, ATTRIBUTE's attribute name */
  union
  {
    gboolean    b;
    gint64      i;
    double      f;
    const char *s; /* STRING: decoded contents (NUL-terminated; embedded NULs unsupported) */
  } v;
  WbValue  *base;  /* ATTRIBUTE, SUBSCRIPT, CALL, NEG, STAR, STARSTAR */
  WbValue **items; /* TUPLE, LIST, DICT, CALL positional args, SUBSCRIPT index (1), SLICE (3) */
  guint     n_items;
  WbKwarg  *kwargs; /* CALL */
  guint     n_kwargs;
  guint8   *breaks; /* bare TUPLE: breaks[i] != 0 means " \" and a new line after item i; may be NULL */
};

/* wb_value_append: appends the Python spelling Thunder prints for @value to @out. */
void wb_value_append (const WbValue *value, GString *out);
/* wb_value_to_string: (transfer full) the Python spelling of @value. */
char *wb_value_to_string (const WbValue *value);
/* wb_value_is_name: TRUE if @value is a NAME (optionally equal to @name when not NULL). */
gboolean wb_value_is_name (const WbValue *value, const char *name);
/* wb_value_get_dtype: recognises dtypes.float32, dtypes.float32_ (weak), torch.float32 and the Python
 * types float/int/bool/complex (mapped to weak f32/i64/b8/c64 as Thunder does); FALSE otherwise. */
gboolean wb_value_get_dtype (const WbValue *value, WbDtype *dtype, gboolean *weak);
/* wb_value_get_device: recognises devices.Device("cuda:0"), torch.device("cuda:0") and 'cuda:0'. */
gboolean wb_value_get_device (const WbValue *value, WbDevice *device);
/* wb_value_get_int: INT literal or BOOL (as 0/1); FALSE otherwise. */
gboolean wb_value_get_int (const WbValue *value, gint64 *out);
/* wb_value_get_number: INT, BOOL or FLOAT literal as a double; FALSE otherwise. */
gboolean wb_value_get_number (const WbValue *value, double *out);
/* wb_value_get_int_sequence: a tuple or list of INT literals (at most @max) into @out; FALSE otherwise.
 * A lone INT counts as a sequence of one when @allow_scalar. */
gboolean wb_value_get_int_sequence (const WbValue *value, gint64 *out, guint max, guint *n_out, gboolean allow_scalar);
/* wb_value_is_sequence: TUPLE or LIST. */
gboolean wb_value_is_sequence (const WbValue *value);

G_END_DECLS
