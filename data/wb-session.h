/* wb-session.h — a session file (.wbsession): SQLite store of traces, stages, assignments, runs, kernels
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_DATA_INSIDE) && !defined(WB_DATA_COMPILATION)
#error "Only <wb-data.h> can be included directly."
#endif

#include <glib.h>

#include "wb-compiler.h"
#include "wb-profiler.h"

G_BEGIN_DECLS

/* The schema version this build writes (PRAGMA user_version). Older files are migrated forward when
 * opened writable; newer ones are refused (WB_SESSION_ERROR_NEWER_VERSION). */
#define WB_SESSION_SCHEMA_VERSION 8

/* PRAGMA application_id of a session file: "TWBS". */
#define WB_SESSION_APPLICATION_ID 0x54574253

#define WB_SESSION_ERROR (wb_session_error_quark ())
GQuark wb_session_error_quark (void);

/* Errors of WB_SESSION_ERROR. Every message starts with the session's path; SQLite's own message and
 * result code are kept in it ("…: database is locked (SQLITE_BUSY)"). */
typedef enum
{
  WB_SESSION_ERROR_IO = 1,        /* the file cannot be opened, read, written or created */
  WB_SESSION_ERROR_NOT_A_SESSION, /* not an SQLite file (random bytes), an empty file, or another
                                     application's SQLite database */
  WB_SESSION_ERROR_CORRUPT,       /* truncated or malformed file; a run whose checksum does not match */
  WB_SESSION_ERROR_UNTRUSTED,     /* the schema is not exactly ours (an extra trigger, view, table or
                                     index, or a changed definition): refused before anything is read */
  WB_SESSION_ERROR_NEWER_VERSION, /* written by a newer thunder-wb (user_version above ours) */
  WB_SESSION_ERROR_READ_ONLY,     /* a write (or a needed migration) on a file opened read-only */
  WB_SESSION_ERROR_BUSY,          /* another process held the file longer than the busy timeout */
  WB_SESSION_ERROR_NOT_FOUND,     /* no run, stage or trace set with that id */
  WB_SESSION_ERROR_INVALID,       /* the data given cannot be stored (e.g. an assignment that does not parse) */
  WB_SESSION_ERROR_SQLITE,        /* any other SQLite failure */
} WbSessionError;

typedef enum
{
  WB_SESSION_OPEN_DEFAULT = 0,
  WB_SESSION_OPEN_CREATE = 1 << 0,    /* create the file when it does not exist (or is empty) */
  WB_SESSION_OPEN_READ_ONLY = 1 << 1, /* never write: no migration, no WAL switch */
  WB_SESSION_OPEN_CHECK = 1 << 2,     /* also run PRAGMA quick_check (reads every page: O(file size)) */
  /* with READ_ONLY: a file of an older schema that this process may write is migrated first (opened
   * without READ_ONLY, then again read-only), as a reader that opens a user's own file expects */
  WB_SESSION_OPEN_MIGRATE = 1 << 3,
} WbSessionOpenFlags;

typedef struct _WbSession WbSession;

/* wb_session_open: opens (or with WB_SESSION_OPEN_CREATE creates) the session file at @path.
 *
 * The file is untrusted: before SQLite reads any table, the header is checked (an SQLite file of the
 * size its header says, not truncated), the connection is made defensive (SQLITE_DBCONFIG_DEFENSIVE,
 * PRAGMA trusted_schema=OFF, triggers and views disabled, cell_size_check on), the application id and
 * user_version are read, and sqlite_master, as a list of (type, name, table, SQL) rows with duplicate
 * names counted, must be exactly that of the schema version with our definitions. A file of an older
 * schema that will be migrated is first checked page by page (PRAGMA quick_check: a broken one is
 * WB_SESSION_ERROR_CORRUPT and nothing of it is written). Then WAL mode and foreign keys are switched on
 * and an older schema is migrated forward in one transaction, keeping every run. Writers wait up to 10 s
 * for another process (busy timeout).
 *
 * A file this process may not write, or that lies in a folder it may not write, is opened read-only
 * and immutable (`file:PATH?mode=ro&immutable=1`: no lock, journal or shared-memory file beside it)
 * unless WB_SESSION_OPEN_CREATE is given; reading works, writing then fails (SQLITE_READONLY), and a
 * non-empty write-ahead log beside it, which such an open would not read, is WB_SESSION_ERROR_READ_ONLY.
 *
 * Returns (transfer full) the session, or NULL with WB_SESSION_ERROR set. */
WbSession *wb_session_open (const char        *path,
                            WbSessionOpenFlags flags,
                            GError           **error);
/* wb_session_file_has_header: whether @path is a regular file that starts with SQLite's 16-byte header
 * ("SQLite format 3\0"), as every session file does: a cheap test of what a path holds before opening
 * it (wb_session_open checks much more). Reads 16 bytes; sets no error. */
gboolean wb_session_file_has_header (const char *path);
/* wb_session_close: closes the database and frees @session (NULL is ignored). */
void wb_session_close (WbSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbSession, wb_session_close)

/* wb_session_get_path: (transfer none) the path it was opened with. */
const char *wb_session_get_path (const WbSession *session);
/* wb_session_get_opened_version: the user_version the file had before this open migrated it (0: the
 * file was created by this open). */
int wb_session_get_opened_version (const WbSession *session);
/* wb_session_set_busy_timeout: how long a writer waits for another process's lock, ms (default 10000). */
void wb_session_set_busy_timeout (WbSession *session,
                                  int        timeout_ms);
/* wb_session_check_integrity: PRAGMA integrity_check and PRAGMA foreign_key_check, then every text
 * against its stored SHA-256 and every run (kernel records included) against its stored checksums, the
 * rules wb_session_load_trace_set() and wb_session_get_run() apply to what they read. TRUE when all are
 * clean; otherwise FALSE with WB_SESSION_ERROR_CORRUPT naming the first finding (SQLite's findings,
 * "text N", "run N"). O(file size). */
gboolean wb_session_check_integrity (WbSession *session,
                                     GError   **error);
/* wb_session_dup_meta: (transfer full) the value of @key in the meta table ("creator", "created_at"),
 * or NULL when absent (no error) or on failure (error set). */
char *wb_session_dup_meta (WbSession  *session,
                           const char *key,
                           GError    **error);

/* -- traces and stages (wb-session-import.c) ------------------------------------------------------- */

/* What an import did. */
typedef struct
{
  gint64   trace_set_id;   /* the set's id in the session (new or already there) */
  gboolean new_trace_set;  /* FALSE: the same set was stored before, nothing was written */
  guint    n_entries;      /* traces in the set */
  guint    n_new_texts;    /* texts stored now */
  guint    n_known_texts;  /* texts that were already in the session (shared with other sets) */
  guint64  new_text_bytes; /* bytes of the new texts */
} WbSessionImport;

/* One stored trace set, as listed by wb_session_list_trace_sets(). */
typedef struct
{
  gint64 id;
  char  *name;           /* the case: directory or file name */
  char  *origin;         /* the path it was imported from */
  gint64 imported_at_us; /* Unix time, µs */
  guint  n_entries;
} WbSessionTraceSet;

void wb_session_trace_set_free (WbSessionTraceSet *set);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbSessionTraceSet, wb_session_trace_set_free)

/* wb_session_import_trace_set: stores every entry of @set (kind, index, subset, label, path relative to
 * @root, provenance and the printed text with its SHA-256) as one trace set named @name, in one
 * transaction. Idempotent: a set with the same entries and texts is not stored again, and texts are
 * stored once however many sets hold them. @root (nullable) is stripped from entry paths. @result
 * (nullable) gets what was done. */
gboolean wb_session_import_trace_set (WbSession        *session,
                                      const WbTraceSet *set,
                                      const char       *name,
                                      const char       *root,
                                      WbSessionImport  *result,
                                      GError          **error);
/* wb_session_import_path: loads @path (a trace file or a directory like traces/<case>/) with
 * wb_trace_set_load() and imports it. Parse errors are WB_TRACE_ERROR (FILE:LINE:COL). */
gboolean wb_session_import_path (WbSession       *session,
                                 const char      *path,
                                 WbSessionImport *result,
                                 GError         **error);
/* wb_session_list_trace_sets: (transfer full) (element-type WbSessionTraceSet) in import order. */
GPtrArray *wb_session_list_trace_sets (WbSession *session,
                                       GError   **error);
/* wb_session_load_trace_set: parses the texts of set @trace_set_id back into a WbTraceSet (entry paths
 * are the stored relative paths). (transfer full), NULL with an error (WB_SESSION_ERROR_NOT_FOUND,
 * WB_SESSION_ERROR_CORRUPT when a text does not match its stored SHA-256, or WB_TRACE_ERROR when a stored
 * text does not parse). */
WbTraceSet *wb_session_load_trace_set (WbSession *session,
                                       gint64     trace_set_id,
                                       GError   **error);
/* wb_session_add_stage: stores a stage the workbench computed: @text (a printed trace) named @name
 * (the pass, e.g. "fusion"), after the set's other stages, with @provenance_map (JSON text: each bound
 * symbol -> the symbols it came from, nullable). @trace_set_id 0: not tied to a set. Adding the same
 * stage twice returns the first id. Returns the stage id, 0 with @error set on failure. */
gint64 wb_session_add_stage (WbSession  *session,
                             gint64      trace_set_id,
                             const char *name,
                             const char *text,
                             const char *provenance_map,
                             GError    **error);
/* wb_session_get_stage: the stage's name, text and provenance map, each (transfer full) and nullable
 * as an out argument. */
gboolean wb_session_get_stage (WbSession *session,
                               gint64     stage_id,
                               char     **name,
                               char     **text,
                               char     **provenance_map,
                               GError   **error);

/* -- assignments, runs, ceilings (wb-session-assignments.c, wb-session-runs.c, -runs-read.c) ------ */

/* One named assignment (a set of region -> executor choices). */
typedef struct
{
  gint64 id;
  char  *name;
  char  *spec; /* canonical "REGION=EXECUTOR,..." sorted by region */
  guint  n_regions;
  guint  n_runs;        /* runs that used exactly this set of choices */
  gint64 created_at_us; /* Unix time, µs */
} WbSessionAssignment;

void wb_session_assignment_free (WbSessionAssignment *assignment);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbSessionAssignment, wb_session_assignment_free)

/* wb_session_add_assignment: stores the choices of @spec ("REGION=EXECUTOR,...", the --executors
 * syntax) under @name (nullable: "a<N>"). The same set of choices is stored once: a second call
 * returns the first id (keeping the first name). Returns the id, 0 with @error set (a spec that does
 * not parse is WB_SESSION_ERROR_INVALID; a name taken by other choices likewise). */
gint64 wb_session_add_assignment (WbSession  *session,
                                  const char *name,
                                  const char *spec,
                                  GError    **error);
/* wb_session_add_assignment_choices: wb_session_add_assignment of an assignment already parsed
 * (@assignment: transfer none; its keys, region names or region keys "@t12", are stored as they are). */
gint64 wb_session_add_assignment_choices (WbSession          *session,
                                          const char         *name,
                                          const WbAssignment *assignment,
                                          GError            **error);
/* wb_session_list_assignments: (transfer full) (element-type WbSessionAssignment) by id. */
GPtrArray *wb_session_list_assignments (WbSession *session,
                                        GError   **error);

/* wb_session_store_run: stores @run, its region statistics, kernel records and kernel attribution
 * (@run->attribution, when it has any figure) in one transaction (BEGIN IMMEDIATE: a second writer waits
 * up to the busy timeout). The regions' executors form the run's assignment (stored once per distinct
 * set, named after @run->assignment when it is set).
 * @trace_set_id (0: none) ties the run to the traces it ran. On success sets @run->id and returns it;
 * returns 0 with @error set otherwise (nothing of the run is then in the file). */
gint64 wb_session_store_run (WbSession *session,
                             WbRun     *run,
                             gint64     trace_set_id,
                             GError   **error);

typedef enum
{
  WB_SESSION_READ_SUMMARY = 0,      /* the run and its region statistics */
  WB_SESSION_READ_KERNELS = 1 << 0, /* also the kernel records */
} WbSessionReadFlags;

/* wb_session_get_run: reads run @run_id back in one read transaction (a concurrent writer never shows
 * half a run), its kernel attribution included (NULL and zeros for a run stored without one, e.g. by
 * schema version 2 or older), and checks it against the checksums stored with it. (transfer full), or
 * NULL with WB_SESSION_ERROR_NOT_FOUND or WB_SESSION_ERROR_CORRUPT. */
WbRun *wb_session_get_run (WbSession         *session,
                           gint64             run_id,
                           WbSessionReadFlags flags,
                           GError           **error);
/* wb_session_list_runs: (transfer full) (element-type WbRun) every run in store order, without region
 * statistics or kernels (their arrays are empty); iteration_ns and the attribution are filled (not
 * checked against the checksum: wb_session_get_run checks). */
GPtrArray *wb_session_list_runs (WbSession *session,
                                 GError   **error);
/* wb_session_list_group_runs: (transfer full) (element-type WbRun) the runs whose group
 * (WbRun.group: the ranks of one multi-GPU run) is @group, by rank (then store order), each read as
 * wb_session_get_run reads it (@flags; checked against its checksums), all in one read transaction. An
 * empty array when no run has that group (schema version 5 on; older runs have none). NULL with
 * WB_SESSION_ERROR_CORRUPT (a run fails its checksum) or an SQLite error. */
GPtrArray *wb_session_list_group_runs (WbSession         *session,
                                       const char        *group,
                                       WbSessionReadFlags flags,
                                       GError           **error);
/* wb_session_get_run_pair: reads runs @a_id and @b_id (WB_SESSION_READ_SUMMARY) in one read
 * transaction; with both ids 0, the latest two runs stored (older first). (transfer full) both. */
gboolean wb_session_get_run_pair (WbSession *session,
                                  gint64     a_id,
                                  gint64     b_id,
                                  WbRun    **a,
                                  WbRun    **b,
                                  GError   **error);
/* wb_session_count_runs: number of runs, -1 with @error set. */
gint64 wb_session_count_runs (WbSession *session,
                              GError   **error);

/* wb_session_store_ceilings: stores (replaces) the ceilings of @ceilings->device_model. */
gboolean wb_session_store_ceilings (WbSession              *session,
                                    const WbDeviceCeilings *ceilings,
                                    GError                **error);
/* wb_session_lookup_ceilings: (transfer full) the cached ceilings of @device_model, or NULL: with
 * @error unset when none are stored. */
WbDeviceCeilings *wb_session_lookup_ceilings (WbSession  *session,
                                              const char *device_model,
                                              GError    **error);

G_END_DECLS
