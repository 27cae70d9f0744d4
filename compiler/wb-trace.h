/* wb-trace.h — a Thunder trace: a Python function of bound symbols (WbTrace, WbBsym)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_COMPILER_INSIDE) && !defined(WB_COMPILER_COMPILATION)
#error "Only <wb-compiler.h> can be included directly."
#endif

#include "wb-type.h"
#include "wb-value.h"

G_BEGIN_DECLS

#define WB_TRACE_ERROR (wb_trace_error_quark ())
GQuark wb_trace_error_quark (void);

/* Errors of WB_TRACE_ERROR. Every message starts with "FILE:LINE:COL: ". */
typedef enum
{
  WB_TRACE_ERROR_SYNTAX = 1,     /* not the printed-trace grammar: says what was expected */
  WB_TRACE_ERROR_UNKNOWN_SYMBOL, /* no longer raised: a call name the table lacks is an opaque symbol */
  WB_TRACE_ERROR_UNKNOWN_DTYPE,  /* a dtype shortname or dtypes./torch. name that does not exist */
  WB_TRACE_ERROR_BAD_TYPE,       /* a malformed type comment */
  WB_TRACE_ERROR_UNSUPPORTED,    /* valid but beyond the IR (rank > WB_MAX_RANK, a line over 16 MiB) */
  WB_TRACE_ERROR_IO,             /* reading a file or directory failed */
  WB_TRACE_ERROR_EMPTY,          /* no trace in the input */
  WB_TRACE_ERROR_NOT_A_TRACE,    /* the text is `None`: Thunder skipped this stage */
  WB_TRACE_ERROR_TOO_LARGE,      /* a file over the size limit (wb_input_get_max_trace_bytes()) */
} WbTraceError;

typedef struct _WbSymbol WbSymbol;

/* What a bound symbol's line is. Thunder prints every one of these from a BoundSymbol
 * (python_del, python_return, unpack_sequence, unpack_trivial and comment included). */
typedef enum
{
  WB_BSYM_CALL = 1,   /* [outputs =] name(args, k=v)  [# out: "type"]   (outputs: NAME, LIST, TUPLE or NULL) */
  WB_BSYM_ASSIGN,     /* out[: "type"] = expression   (prologue unpacking: args[0], module.get_parameter('w')) */
  WB_BSYM_UNPACK,     /* a, b, = value                (unpack_sequence; may wrap with " \") */
  WB_BSYM_DEL,        /* del a, b                     (python_del; args are the names) */
  WB_BSYM_RETURN,     /* return value                 (python_return) */
  WB_BSYM_ANNOTATION, /* # name: "type"               (unpack_trivial and unpack_sequence element types) */
  WB_BSYM_COMMENT,    /* # text                       (source location, header, "# C1 (empty sequence)"); in a
                         parsed body, consecutive plain comment lines are one bsym: @comment holds them
                         all, each next line with its newline, indentation and '#' */
  WB_BSYM_BLANK,      /* an empty line; in a parsed body consecutive blank lines are one bsym and
                         @trailing holds their text but the last newline (NULL: one empty line) */
} WbBsymKind;

typedef struct _WbBsym WbBsym;

/* WbBsym: one bound symbol (one printed statement) with its subsymbols. Read-only; memory belongs to the
 * trace's arena. Subsymbols are printed as "# " comments one level deeper (Thunder's repr form). */
struct _WbBsym
{
  WbBsymKind      kind;
  guint32         line;   /* 1-based line in the file it was parsed from; 0 when computed */
  guint32         col;    /* 1-based column where the statement starts */
  guint32         depth;  /* 0 = top level, 1 = subsymbol, ... */
  const WbSymbol *symbol; /* CALL: the resolved symbol (never NULL for a parsed CALL) */
  const char     *name;   /* CALL: the call name as printed ("ltorch.add", "TorchCompile0");
                             ANNOTATION / ASSIGN: the annotated name */
  WbValue    *outputs;    /* CALL, ASSIGN, UNPACK: NAME, LIST or TUPLE of NAMEs ("_" allowed); or NULL */
  WbValue   **args;       /* CALL: positional args; DEL: the deleted names */
  guint       n_args;
  WbKwarg    *kwargs; /* CALL */
  guint       n_kwargs;
  WbValue    *value;     /* ASSIGN, UNPACK, RETURN: the right-hand side / returned value */
  gboolean    has_type;  /* CALL/ASSIGN/ANNOTATION: a type annotation was printed */
  WbType      type;      /* that annotation */
  const char *type_name; /* CALL: the name in the type comment ("t5" of "# t5: ...") */
  const char *comment;   /* COMMENT: the text after "# "; CALL: a trailing comment that is not a type */
  const char *trailing;  /* whitespace found after the line's last token (lenient parse), or NULL */
  WbBsym    **subsymbols;
  guint       n_subsymbols;
};

/* Kinds of a traces' header lines, kept in order so printing round-trips. */
typedef enum
{
  WB_HEADER_PROVENANCE = 1, /* # Constructed by ... */
  WB_HEADER_IMPORT,         /* import a / import a.b as c / from a import b */
  WB_HEADER_DECORATOR,      /* @torch.no_grad() */
  WB_HEADER_COMMENT,        /* any other comment before def ("# No signature available" is in trace->no_signature) */
  WB_HEADER_BLANK,
} WbHeaderKind;

typedef struct
{
  WbHeaderKind kind;
  guint32      line;
  const char  *text; /* the whole line without its newline; a parsed run of N empty lines is one
                        WB_HEADER_BLANK whose text is N - 1 newlines */
} WbHeaderLine;

typedef struct _WbTrace WbTrace;

/* WbTrace: an immutable, reference-counted trace. Fields are read-only. */
struct _WbTrace
{
  /*< private >*/
  gint        ref_count;
  gpointer    arena;
  GPtrArray  *deps;  /* traces whose nodes this one shares (kept alive) */
  GHashTable *lines; /* computed traces: WbBsym* -> its line in this trace's printed text */
  /* a pipeline's stages: region name -> its fusion-stage key, and a call's key -> the key of the region
   * it was unfused from (both utf8 -> utf8, shared read-only between the pipeline's stages; NULL: none) */
  GHashTable *region_keys;
  GHashTable *unfused_from;
  /*< public >*/
  const char   *filename;   /* for diagnostics; "<string>" when parsed from memory */
  guint32       first_line; /* line of the trace's first line in @filename */
  guint32       last_line;
  const char   *provenance;    /* text after "# Constructed by " without " (took N milliseconds)"; NULL if none */
  double        provenance_ms; /* the N of "(took N milliseconds)"; -1 if absent */
  WbHeaderLine *header;        /* provenance, imports, blank, decorators, in order */
  guint         n_header;
  gboolean      no_signature;  /* "# No signature available" instead of def */
  const char   *function_name; /* "computation", "backward_fn", "prologue", "augmented_forward_fn" */
  WbValue     **params;        /* NAME, STAR (*args) or STARSTAR (**kwargs) */
  guint         n_params;
  guint8       *param_breaks; /* older format: breaks[i] != 0: " \" and a new line after param i */
  WbBsym      **body;
  guint         n_body;
  gboolean      ends_with_newline;
};

WbTrace *wb_trace_ref (WbTrace *trace);
void     wb_trace_unref (WbTrace *trace);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbTrace, wb_trace_unref)

/* wb_trace_parse: parses one trace from @len bytes of @text (-1: NUL-terminated).
 * @filename names the text in diagnostics; @first_line is the line number of text's first line (1).
 * Returns (transfer full) the trace, or NULL with WB_TRACE_ERROR set ("FILE:LINE:COL: expected ...").
 * Several traces printed one after another: use wb_trace_parse_many(). */
WbTrace *wb_trace_parse (const char *text, gssize len, const char *filename, GError **error);
/* wb_trace_parse_many: parses every trace in @text, printed one after another.
 * Returns (transfer full) (element-type WbTrace) an array of traces, or NULL with WB_TRACE_ERROR set.
 * An input holding no trace at all is WB_TRACE_ERROR_EMPTY. */
GPtrArray *wb_trace_parse_many (const char *text, gssize len, const char *filename, GError **error);
/* wb_trace_parse_file: reads @path with wb_input_read_file() (never blocking, within
 * wb_input_get_max_trace_bytes()) and parses every trace in it (WB_TRACE_ERROR_IO when unreadable, or
 * when @path is not a regular file: a FIFO, a device such as /dev/zero, a directory;
 * WB_TRACE_ERROR_TOO_LARGE over the limit).
 * (transfer full) (element-type WbTrace). */
GPtrArray *wb_trace_parse_file (const char *path, GError **error);

/* How wb_trace_parse_file_full reads a file. */
typedef enum
{
  WB_TRACE_PARSE_DEFAULT = 0,
  /* read every float32 of the text as float64 ("f32[" annotations, dtypes.float32, torch.float32): the same
   * program in double precision, the reference that f32 rounding is judged against (same lines and columns) */
  WB_TRACE_PARSE_F32_AS_F64 = 1 << 0,
} WbTraceParseFlags;

/* wb_trace_parse_file_full: wb_trace_parse_file() with @flags. (transfer full) or NULL with WB_TRACE_ERROR. */
GPtrArray *wb_trace_parse_file_full (const char *path, WbTraceParseFlags flags, GError **error);

/* wb_trace_print: appends Thunder's repr form of @trace (every subsymbol as a comment) to @out.
 * For a parsed Thunder trace this is its text byte for byte. */
void wb_trace_print (const WbTrace *trace, GString *out);
/* wb_trace_to_string: (transfer full) the printed trace. */
char *wb_trace_to_string (const WbTrace *trace);
/* wb_bsym_print: appends one bound symbol at @depth with its subsymbols (each line ends in "\n"). */
void wb_bsym_print (const WbBsym *bsym, guint depth, GString *out);

/* wb_trace_get_bsym_line: the 1-based line of @bsym in @trace's printed text: the parsed line for a
 * parsed trace, the line in the printed stage for a computed one (nodes are shared between stages, so
 * the line belongs to the trace, not the node); 0 when @bsym is not in @trace. */
guint wb_trace_get_bsym_line (const WbTrace *trace, const WbBsym *bsym);

/* wb_trace_count_header_lines: the lines @trace's header takes when printed (a run of empty lines is one
 * WbHeaderLine); the `def` line is the next one. */
guint wb_trace_count_header_lines (const WbTrace *trace);
/* wb_trace_count_bsyms: number of top-level bound symbols that are CALL, ASSIGN or UNPACK (what
 * `stages` reports as "bsyms"). */
guint wb_trace_count_bsyms (const WbTrace *trace);
/* wb_bsym_foreach_output: calls @func for every output NAME of @bsym (skipping "_"), in order. */
void wb_bsym_foreach_output (const WbBsym *bsym, void (*func) (const WbValue *name, gpointer data), gpointer data);
/* wb_bsym_get_output_names: appends the output names of @bsym (skipping "_"), in order, to @names (a
 * GPtrArray of const char*, transfer none: the strings belong to the trace). */
void wb_bsym_get_output_names (const WbBsym *bsym, GPtrArray *names);
/* wb_bsym_is_fusion: a CALL of a fusion region (TorchCompileN, nvFusionN, ...). */
gboolean wb_bsym_is_fusion (const WbBsym *bsym);

G_END_DECLS
