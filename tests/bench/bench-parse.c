/* bench-parse.c — parse, verify and print throughput (MB/s) and memory on large real traces
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Inputs, built in memory from ../shared/traces (or --traces DIR):
 *   stages     every trace file of llama_layer and gpt2_block (prologue/forward/backward/epilogue, stages/,
 *              default_execs/ and its stages/), concatenated with a blank line between traces
 *   joint-xN   a N-layer (default 32) Llama joint forward+backward trace made from llama_layer/forward_04.py
 *              (the "Grad transform pass" trace): the forwards of layers 0..N-1, each taking the previous
 *              layer's output as x, then the backwards of layers N-1..0, each taking the next layer's
 *              input gradient as its output gradient; proxies tN of layer l renamed t(N + l*1000), weights
 *              t_layers_<l>_..., so every name stays unique
 *   all        stages and joint-xN together (the "large real trace")
 * For each: parse (wb_trace_parse_many), verify (wb_trace_verify on every trace) and print (wb_trace_print
 * of every trace) repeated for at least --min-time seconds; the median is reported, as MB of trace text
 * per second. Memory: in a forked child, the increase of the peak RSS (VmHWM, reset through
 * /proc/self/clear_refs) from just before parsing to after, holding the parsed traces; the text itself is
 * not counted. Not a test: run it by hand (tests/bench/README.md). */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wb-compiler.h"

#ifndef WB_BENCH_DEFAULT_TRACES
#define WB_BENCH_DEFAULT_TRACES "../shared/traces"
#endif

#define TARGET_MBS 50.0
#define TARGET_RATIO 10.0
#define LAYER_STRIDE 1000

static double min_time = 1.0;
static int    n_layers = 32;
static char  *traces_dir;
static char  *write_dir;

/* ---- building the inputs ------------------------------------------------------------------------ */

static void
collect (const char *dir, GPtrArray *out)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect (path, out);
      else if (g_str_has_suffix (name, ".py"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

static int
cmp_str (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static char *
read_or_die (const char *path, gsize *len)
{
  g_autoptr (GError) error = NULL;
  char *text = NULL;
  if (!g_file_get_contents (path, &text, len, &error))
    {
      fprintf (stderr, "bench-parse: %s\n", error->message);
      exit (3);
    }
  return text;
}

/* Appends @text as one more trace of a multi-trace text: a blank line between traces, a final newline. */
static void
append_trace (GString *out, const char *text, gsize len)
{
  if (out->len > 0)
    g_string_append_c (out, '\n');
  g_string_append_len (out, text, (gssize) len);
  if (len > 0 && text[len - 1] != '\n')
    g_string_append_c (out, '\n');
}

static GString *
build_stages (guint *n_files)
{
  static const char *const cases[] = { "llama_layer", "gpt2_block" };
  GString                 *out = g_string_new (NULL);
  *n_files = 0;
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *dir = g_build_filename (traces_dir, cases[c], NULL);
      g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
      collect (dir, files);
      g_ptr_array_sort (files, cmp_str);
      if (files->len == 0)
        {
          fprintf (stderr, "bench-parse: no trace files under %s\n", dir);
          exit (3);
        }
      for (guint i = 0; i < files->len; i++)
        {
          gsize            len;
          g_autofree char *text = read_or_die (files->pdata[i], &len);
          append_trace (out, text, len);
          (*n_files)++;
        }
    }
  return out;
}

typedef struct
{
  int         layer;
  GHashTable *weights;  /* original weight name -> itself (set) */
  const char *x_name;   /* what x becomes in this layer (NULL: x) */
  const char *grad_out; /* what t591 (the output gradient) becomes (NULL: renamed t591) */
} Rename;

static gboolean
is_proxy_tn (const char *s, gsize n)
{
  if (n < 2 || s[0] != 't')
    return FALSE;
  for (gsize i = 1; i < n; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

static void
append_renamed_token (GString *out, const char *s, gsize n, const Rename *r)
{
  if (is_proxy_tn (s, n))
    {
      guint64 v = g_ascii_strtoull (s + 1, NULL, 10);
      if (r->grad_out != NULL && n == 4 && memcmp (s, "t591", 4) == 0)
        g_string_append (out, r->grad_out);
      else
        g_string_append_printf (out, "t%" G_GUINT64_FORMAT, v + (guint64) r->layer * LAYER_STRIDE);
      return;
    }
  if (n == 1 && s[0] == 'x' && r->x_name != NULL)
    {
      g_string_append (out, r->x_name);
      return;
    }
  if (r->layer > 0 && n > 2 && s[0] == 't' && s[1] == '_')
    {
      g_autofree char *key = g_strndup (s, n);
      if (g_hash_table_contains (r->weights, key))
        {
          g_string_append_printf (out, "t_layers_%d_%s", r->layer, key + 2);
          return;
        }
    }
  g_string_append_len (out, s, (gssize) n);
}

/* Appends @line with the layer's names: identifiers that are not attributes (after '.') and not inside
 * a string literal; a source-location comment ("  # gen_traces.py:184: ...") is kept as it is. */
static void
append_renamed_line (GString *out, const char *s, gsize n, const Rename *r)
{
  gsize i = 0;
  char  quote = 0;
  gsize ind = 0;
  while (ind < n && s[ind] == ' ')
    ind++;
  if (ind == 2 && n > 4 && s[2] == '#')
    {
      gsize j = 4;
      while (j < n && (g_ascii_isalnum (s[j]) || s[j] == '_'))
        j++;
      if (!(j + 2 < n && s[j] == ':' && s[j + 1] == ' ' && s[j + 2] == '"'))
        {
          g_string_append_len (out, s, (gssize) n);
          g_string_append_c (out, '\n');
          return;
        }
    }
  while (i < n)
    {
      char c = s[i];
      if (quote)
        {
          g_string_append_c (out, c);
          if (c == quote)
            quote = 0;
          i++;
        }
      else if (c == '\'')
        {
          quote = c;
          g_string_append_c (out, c);
          i++;
        }
      else if (g_ascii_isdigit (c))
        {
          gsize j = i;
          while (j < n && (g_ascii_isalnum (s[j]) || s[j] == '.' || s[j] == '_'))
            j++;
          g_string_append_len (out, s + i, (gssize) (j - i));
          i = j;
        }
      else if (g_ascii_isalpha (c) || c == '_')
        {
          gsize j = i;
          while (j < n && (g_ascii_isalnum (s[j]) || s[j] == '_'))
            j++;
          if (i > 0 && s[i - 1] == '.')
            g_string_append_len (out, s + i, (gssize) (j - i));
          else
            append_renamed_token (out, s + i, j - i, r);
          i = j;
        }
      else
        {
          g_string_append_c (out, c);
          i++;
        }
    }
  g_string_append_c (out, '\n');
}

typedef struct
{
  const char *s;
  gsize       n;
} Line;

static GString *
build_joint (int layers)
{
  g_autofree char *path = g_build_filename (traces_dir, "llama_layer", "forward_04.py", NULL);
  gsize            len;
  g_autofree char *text = read_or_die (path, &len);
  g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autoptr (GHashTable) weights = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) params = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *params_text = NULL;
  GString         *out = g_string_sized_new (len * (gsize) layers + 4096);
  guint            def_line = 0, first_body = 0, bw_start = 0, ret_line = 0;
  gsize            start = 0;

  for (gsize i = 0; i <= len; i++)
    if (i == len || text[i] == '\n')
      {
        Line l = { text + start, i - start };
        g_array_append_val (lines, l);
        start = i + 1;
      }
#define LINE(k) (&g_array_index (lines, Line, (k)))
  for (guint k = 0; k < lines->len; k++)
    {
      const Line *l = LINE (k);
      if (def_line == 0 && l->n > 4 && memcmp (l->s, "def ", 4) == 0)
        def_line = k;
      else if (l->n > 9 && memcmp (l->s, "  return ", 9) == 0)
        ret_line = k;
      else if (g_strstr_len (l->s, (gssize) l->n, "t591 = prims.get_grad(t590)") != NULL)
        bw_start = k;
    }
  if (def_line == 0 || ret_line == 0 || bw_start == 0)
    {
      fprintf (stderr, "bench-parse: %s is not the llama_layer joint trace this bench knows "
                       "(def, 't591 = prims.get_grad(t590)', return)\n",
               path);
      exit (3);
    }
  /* parameters: "def computation(x, cos, sin, t_...):" */
  {
    const Line *d = LINE (def_line);
    const char *open = memchr (d->s, '(', d->n), *close = d->s + d->n - 2;
    g_auto (GStrv) names = NULL;
    params_text = g_strndup (open + 1, (gsize) (close - open - 1));
    names = g_strsplit (params_text, ", ", -1);
    for (guint i = 0; names[i] != NULL; i++)
      {
        g_ptr_array_add (params, g_strdup (names[i]));
        if (g_str_has_prefix (names[i], "t_"))
          g_hash_table_add (weights, g_strdup (names[i]));
      }
  }
  first_body = def_line + 1 + params->len; /* after the parameter annotations */

  /* header and signature */
  for (guint k = 0; k < def_line; k++)
    {
      g_string_append_len (out, LINE (k)->s, (gssize) LINE (k)->n);
      g_string_append_c (out, '\n');
    }
  g_string_append (out, "def computation(x, cos, sin");
  for (int l = 0; l < layers; l++)
    for (guint p = 3; p < params->len; p++)
      {
        Rename r = { l, weights, NULL, NULL };
        g_string_append (out, ", ");
        append_renamed_token (out, params->pdata[p], strlen (params->pdata[p]), &r);
      }
  g_string_append (out, "):\n");
  /* parameter annotations: x, cos, sin once, every layer's weights */
  for (guint k = def_line + 1; k < def_line + 4; k++)
    {
      g_string_append_len (out, LINE (k)->s, (gssize) LINE (k)->n);
      g_string_append_c (out, '\n');
    }
  for (int l = 0; l < layers; l++)
    for (guint k = def_line + 4; k < first_body; k++)
      {
        Rename r = { l, weights, NULL, NULL };
        append_renamed_line (out, LINE (k)->s, LINE (k)->n, &r);
      }
  /* forwards 0..N-1: x of layer l is layer l-1's output t590 */
  for (int l = 0; l < layers; l++)
    {
      g_autofree char *x = l > 0 ? g_strdup_printf ("t%d", 590 + (l - 1) * LAYER_STRIDE) : NULL;
      Rename           r = { l, weights, x, NULL };
      for (guint k = first_body; k < bw_start; k++)
        append_renamed_line (out, LINE (k)->s, LINE (k)->n, &r);
    }
  /* backwards N-1..0: the output gradient of layer l < N-1 is layer l+1's gradient of x (t632) */
  for (int l = layers - 1; l >= 0; l--)
    {
      g_autofree char *x = l > 0 ? g_strdup_printf ("t%d", 590 + (l - 1) * LAYER_STRIDE) : NULL;
      g_autofree char *grad = l < layers - 1 ? g_strdup_printf ("t%d", 632 + (l + 1) * LAYER_STRIDE) : NULL;
      Rename           r = { l, weights, x, grad };
      for (guint k = bw_start; k < ret_line; k++)
        {
          if (grad != NULL && k == bw_start)
            continue; /* no get_grad: the gradient comes from the layer above */
          append_renamed_line (out, LINE (k)->s, LINE (k)->n, &r);
        }
    }
  /* return: x's gradient from layer 0, None for cos and sin, every layer's weight gradients */
  {
    const Line *rl = LINE (ret_line);
    const char *o = g_strstr_len (rl->s, (gssize) rl->n, "'output': (");
    const char *e = o ? memchr (o, ')', rl->n - (gsize) (o - rl->s)) : NULL;
    g_auto (GStrv) outs = NULL;
    g_autofree char *list = NULL;
    if (o == NULL || e == NULL)
      {
        fprintf (stderr, "bench-parse: unexpected return statement in %s\n", path);
        exit (3);
      }
    list = g_strndup (o + 11, (gsize) (e - o - 11));
    outs = g_strsplit (list, ", ", -1);
    g_string_append (out, "  return {'output': (t632, None, None");
    for (int l = 0; l < layers; l++)
      for (guint i = 3; outs[i] != NULL; i++)
        {
          Rename r = { l, weights, NULL, NULL };
          g_string_append (out, ", ");
          append_renamed_token (out, outs[i], strlen (outs[i]), &r);
        }
    g_string_append (out, "), 'flat_args': [x, cos, sin");
    for (int l = 0; l < layers; l++)
      for (guint p = 3; p < params->len; p++)
        {
          Rename r = { l, weights, NULL, NULL };
          g_string_append (out, ", ");
          append_renamed_token (out, params->pdata[p], strlen (params->pdata[p]), &r);
        }
    g_string_append_printf (out, "], 'fw_flat_out': (t%d,)}\n", 590 + (layers - 1) * LAYER_STRIDE);
  }
#undef LINE
  return out;
}

/* ---- measuring ---------------------------------------------------------------------------------- */

static gint64
status_kb (const char *key)
{
  g_autofree char *status = NULL;
  const char      *p;
  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  p = strstr (status, key);
  if (p == NULL)
    return -1;
  return g_ascii_strtoll (p + strlen (key), NULL, 10);
}

/* In a forked child: reset the peak RSS, parse, read the peak. Returns bytes, or -1. */
static gint64
measure_parse_memory (const char *text, gsize len)
{
  int    fds[2];
  pid_t  pid;
  gint64 result = -1;
  if (pipe (fds) != 0)
    return -1;
  pid = fork ();
  if (pid == 0)
    {
      gint64     before, after = -1;
      GPtrArray *traces;
      FILE      *f;
      close (fds[0]);
      /* free heap memory of the parent (earlier rows) would be reused unseen: give it back first */
      malloc_trim (0);
      f = fopen ("/proc/self/clear_refs", "w");
      /* "5" resets the peak RSS (VmHWM) to the current RSS (Linux >= 4.0) */
      if (f == NULL || fputs ("5", f) < 0 || fclose (f) != 0)
        _exit (1);
      before = status_kb ("VmRSS:");
      traces = wb_trace_parse_many (text, (gssize) len, "bench.py", NULL);
      if (traces != NULL)
        after = status_kb ("VmHWM:");
      if (after >= 0 && before >= 0)
        after = (after - before) * 1024;
      if (write (fds[1], &after, sizeof after) != sizeof after)
        _exit (1);
      _exit (0);
    }
  close (fds[1]);
  if (pid > 0)
    {
      int st;
      if (read (fds[0], &result, sizeof result) != sizeof result)
        result = -1;
      waitpid (pid, &st, 0);
    }
  close (fds[0]);
  return result;
}

/* CPU time of this thread, seconds: unlike the wall clock, not stretched by other processes on a busy machine. */
static double
cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

typedef struct
{
  const char *name;
  GString    *text;
  guint       n_traces;
  guint       n_bsyms;
  guint       n_verify_errors;
  gboolean    roundtrip;
  double      parse_mbs, verify_mbs, print_mbs;             /* wall clock */
  double      parse_cpu_mbs, verify_cpu_mbs, print_cpu_mbs; /* thread CPU time */
  gint64      peak_bytes;
  int         reps_parse, reps_verify, reps_print;
} Row;

#define MAX_REPS 1000

static double
median_mbs (double *secs, int n, gsize bytes)
{
  qsort (secs, (size_t) n, sizeof *secs, cmp_double);
  return (double) bytes / 1e6 / secs[n / 2];
}

static void
run_row (Row *row)
{
  const char *text = row->text->str;
  gsize       len = row->text->len;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) traces = NULL;
  g_autoptr (GString) printed = g_string_sized_new (len + 1);
  double secs[MAX_REPS], cpu[MAX_REPS], total;
  int    n;

  row->peak_bytes = measure_parse_memory (text, len);

  traces = wb_trace_parse_many (text, (gssize) len, "bench.py", &error);
  if (traces == NULL)
    {
      fprintf (stderr, "bench-parse: %s does not parse: %s\n", row->name, error->message);
      exit (1);
    }
  row->n_traces = traces->len;
  for (guint i = 0; i < traces->len; i++)
    row->n_bsyms += wb_trace_count_bsyms (traces->pdata[i]);

  for (n = 0, total = 0; n < MAX_REPS && (n < 3 || total < min_time); n++)
    {
      double     c0 = cpu_now ();
      gint64     t0 = g_get_monotonic_time ();
      GPtrArray *again = wb_trace_parse_many (text, (gssize) len, "bench.py", NULL);
      secs[n] = (double) (g_get_monotonic_time () - t0) / 1e6;
      cpu[n] = cpu_now () - c0;
      total += secs[n];
      g_ptr_array_unref (again);
    }
  row->reps_parse = n;
  row->parse_mbs = median_mbs (secs, n, len);
  row->parse_cpu_mbs = median_mbs (cpu, n, len);

#ifdef WB_HAVE_VERIFIER
  for (n = 0, total = 0; n < MAX_REPS && (n < 3 || total < min_time); n++)
    {
      guint  errors = 0;
      double c0 = cpu_now ();
      gint64 t0 = g_get_monotonic_time ();
      for (guint i = 0; i < traces->len; i++)
        {
          GPtrArray *diags = wb_trace_verify (traces->pdata[i], WB_VERIFY_DEFAULT);
          errors += wb_diagnostics_count_errors (diags);
          g_ptr_array_unref (diags);
        }
      secs[n] = (double) (g_get_monotonic_time () - t0) / 1e6;
      cpu[n] = cpu_now () - c0;
      total += secs[n];
      row->n_verify_errors = errors;
    }
  row->reps_verify = n;
  row->verify_mbs = median_mbs (secs, n, len);
  row->verify_cpu_mbs = median_mbs (cpu, n, len);
#else
  row->verify_mbs = -1;
  row->verify_cpu_mbs = -1;
#endif

  for (n = 0, total = 0; n < MAX_REPS && (n < 3 || total < min_time); n++)
    {
      gint64 t0;
      double c0;
      g_string_truncate (printed, 0);
      c0 = cpu_now ();
      t0 = g_get_monotonic_time ();
      for (guint i = 0; i < traces->len; i++)
        wb_trace_print (traces->pdata[i], printed);
      secs[n] = (double) (g_get_monotonic_time () - t0) / 1e6;
      cpu[n] = cpu_now () - c0;
      total += secs[n];
    }
  row->reps_print = n;
  row->print_mbs = median_mbs (secs, n, printed->len);
  row->print_cpu_mbs = median_mbs (cpu, n, printed->len);
  row->roundtrip = printed->len == len && memcmp (printed->str, text, len) == 0;
}

static void
print_table (Row *rows, guint n_rows)
{
  printf ("\n%-12s %8s %7s %7s %11s %11s %10s %12s %9s\n", "input", "size MB", "traces", "bsyms", "parse MB/s",
          "verify MB/s", "print MB/s", "peak RSS MB", "RSS/text");
  printf ("%-12s %8s %7s %7s %11s %11s %10s %12s %9s\n", "------------", "-------", "------", "------",
          "----------", "-----------", "---------", "-----------", "--------");
  for (guint i = 0; i < n_rows; i++)
    {
      Row   *r = &rows[i];
      double mb = (double) r->text->len / 1e6;
      char   verify[32], peak[32], ratio[32];
      if (r->verify_mbs < 0)
        g_snprintf (verify, sizeof verify, "n/a");
      else
        g_snprintf (verify, sizeof verify, "%.1f", r->verify_mbs);
      if (r->peak_bytes < 0)
        {
          g_snprintf (peak, sizeof peak, "n/a");
          g_snprintf (ratio, sizeof ratio, "n/a");
        }
      else
        {
          g_snprintf (peak, sizeof peak, "%.1f", (double) r->peak_bytes / 1e6);
          g_snprintf (ratio, sizeof ratio, "%.2fx", (double) r->peak_bytes / (double) r->text->len);
        }
      printf ("%-12s %8.2f %7u %7u %11.1f %11s %10.1f %12s %9s\n", r->name, mb, r->n_traces, r->n_bsyms,
              r->parse_mbs, verify, r->print_mbs, peak, ratio);
    }
  printf ("\n");
  for (guint i = 0; i < n_rows; i++)
    {
      Row     *r = &rows[i];
      gboolean ok = r->parse_mbs >= TARGET_MBS && r->print_mbs >= TARGET_MBS &&
                    (r->peak_bytes < 0 || (double) r->peak_bytes <= TARGET_RATIO * (double) r->text->len);
      printf ("%-12s round trip %s; verify errors %u; reps parse/verify/print %d/%d/%d; "
              "by CPU time parse/verify/print %.1f/%.1f/%.1f MB/s; target (parse, print >= %.0f MB/s, RSS <= %.0fx text) %s\n",
              r->name, r->roundtrip ? "byte-identical" : "DIFFERS", r->n_verify_errors, r->reps_parse,
              r->reps_verify, r->reps_print, r->parse_cpu_mbs, r->verify_cpu_mbs, r->print_cpu_mbs, TARGET_MBS,
              TARGET_RATIO, ok ? "met" : "MISSED");
    }
}

/* Recomputing every stage (the pipeline) from a joint trace: llama_layer's own and the N-layer one.
 * Issue targets: llama_layer within 1/100 of Thunder's first call (10.4 s in its meta.json, so
 * 104 ms) and the 32-layer joint trace within 1 s. */
static double
pipeline_ms (WbTrace *joint, const char *const *executors, guint *n_stages, guint *n_regions)
{
  double            best[5];
  WbPipelineOptions opts = { executors, WB_FUSION_DATAFLOW, NULL };
  for (guint r = 0; r < G_N_ELEMENTS (best); r++)
    {
      g_autoptr (GError) error = NULL;
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr (WbPipeline) p = wb_pipeline_run (joint, &opts, &error);
      best[r] = (g_get_monotonic_time () - t0) / 1000.0;
      if (p == NULL)
        {
          fprintf (stderr, "bench-parse: pipeline failed: %s\n", error->message);
          return -1;
        }
      *n_stages = wb_pipeline_get_n_stages (p);
      *n_regions = wb_pipeline_get_regions (p)->len;
    }
  qsort (best, G_N_ELEMENTS (best), sizeof (double), cmp_double);
  return best[G_N_ELEMENTS (best) / 2];
}

static void
bench_pipeline (const char *joint_name, GString *joint_text)
{
  static const char *const thunder[] = { "sdpa", "torchcompile", "torch", "python", NULL };
  g_autofree char         *path = g_build_filename (traces_dir, "llama_layer", "forward_04.py", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) one = wb_trace_parse_file (path, &error);
  g_autoptr (GPtrArray) many = NULL;
  struct
  {
    const char *input;
    WbTrace    *trace;
  } inputs[2];
  if (one == NULL)
    {
      fprintf (stderr, "bench-parse: %s\n", error->message);
      return;
    }
  many = wb_trace_parse_many (joint_text->str, (gssize) joint_text->len, joint_name, &error);
  if (many == NULL)
    {
      fprintf (stderr, "bench-parse: %s\n", error->message);
      return;
    }
  inputs[0].input = "llama_layer";
  inputs[0].trace = one->pdata[0];
  inputs[1].input = joint_name;
  inputs[1].trace = many->pdata[0];
  printf ("\npipeline: every stage recomputed from the joint trace (median of 5 runs, wall clock)\n");
  printf ("%-12s %-28s %7s %8s %10s\n", "input", "executors", "stages", "regions", "ms");
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    for (guint e = 0; e < 2; e++)
      {
        guint  n_stages = 0, n_regions = 0;
        double ms = pipeline_ms (inputs[i].trace, e ? thunder : NULL, &n_stages, &n_regions);
        printf ("%-12s %-28s %7u %8u %10.1f\n", inputs[i].input, e ? "sdpa,torchcompile,torch,python" : "cudnn,cublas,nvrtc,cuda",
                n_stages, n_regions, ms);
      }
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— parse/verify/print throughput and memory");
  g_autoptr (GError) error = NULL;
  GOptionEntry entries[] = {
    { "traces", 't', 0, G_OPTION_ARG_FILENAME, &traces_dir, "The real traces (default $WB_TRACES_DIR, else ../shared/traces)", "DIR" },
    { "layers", 'l', 0, G_OPTION_ARG_INT, &n_layers, "Layers of the joint trace (32)", "N" },
    { "min-time", 'm', 0, G_OPTION_ARG_DOUBLE, &min_time, "Seconds each measurement repeats for (1.0)", "S" },
    { "write", 'w', 0, G_OPTION_ARG_FILENAME, &write_dir, "Also write the inputs as .py files to DIR", "DIR" },
    { NULL },
  };
  Row   rows[3] = { { 0 } };
  guint n_files;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-parse: %s\n", error->message);
      return 2;
    }
  if (traces_dir == NULL)
    traces_dir = g_strdup (g_getenv ("WB_TRACES_DIR"));
  if (traces_dir == NULL || !g_file_test (traces_dir, G_FILE_TEST_IS_DIR))
    {
      g_free (traces_dir);
      traces_dir = g_strdup (WB_BENCH_DEFAULT_TRACES);
    }
  if (!g_file_test (traces_dir, G_FILE_TEST_IS_DIR) || n_layers < 1 || n_layers > 1000)
    {
      fprintf (stderr, "bench-parse: no traces folder %s (use --traces DIR), or --layers out of 1..1000\n", traces_dir);
      return 3;
    }

  rows[0].name = "stages";
  rows[0].text = build_stages (&n_files);
  rows[1].name = g_strdup_printf ("joint-x%d", n_layers);
  rows[1].text = build_joint (n_layers);
  rows[2].name = "all";
  rows[2].text = g_string_new_len (rows[0].text->str, (gssize) rows[0].text->len);
  g_string_append_c (rows[2].text, '\n');
  g_string_append_len (rows[2].text, rows[1].text->str, (gssize) rows[1].text->len);

  printf ("bench-parse: %s; stages = %u files of llama_layer and gpt2_block; joint-x%d = llama_layer/forward_04.py x %d layers\n",
          traces_dir, n_files, n_layers, n_layers);
  printf ("median of >= 3 repetitions and >= %.1f s per measurement; MB = 10^6 bytes of trace text\n", min_time);
  {
    /* timings on a busy machine are not comparable: say how busy it was */
    g_autofree char *load = NULL;
    if (g_file_get_contents ("/proc/loadavg", &load, NULL, NULL))
      printf ("%u CPUs online, load average %s", (guint) sysconf (_SC_NPROCESSORS_ONLN), load);
  }
  if (write_dir != NULL)
    {
      g_mkdir_with_parents (write_dir, 0755);
      for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
        {
          g_autofree char *base = g_strconcat (rows[i].name, ".py", NULL);
          g_autofree char *path = g_build_filename (write_dir, base, NULL);
          g_file_set_contents (path, rows[i].text->str, (gssize) rows[i].text->len, NULL);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    run_row (&rows[i]);
  print_table (rows, G_N_ELEMENTS (rows));
  bench_pipeline (rows[1].name, rows[1].text);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    g_string_free (rows[i].text, TRUE);
  g_free ((char *) rows[1].name);
  g_free (traces_dir);
  g_free (write_dir);
  return 0;
}
