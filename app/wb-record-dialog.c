/* wb-record-dialog.c — the Record dialog: `thunder-wb record --session F -- COMMAND` with its live output
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The recorder runs as a child process (GSubprocess, stdout and stderr merged into one pipe that is read
 * as it comes). Each pending read and wait holds a reference on the dialog; closing the dialog cancels
 * them and ends the recorder, so a callback that finds its cancellable cancelled touches no widget. */
#include "config.h"

#include "wb-record-dialog.h"

#include <glib/gi18n.h>
#include <signal.h>

struct _WbRecordDialog
{
  AdwWindow parent_instance;

  char         *thunder_wb; /* the program that records */
  char         *session;    /* the session file the recordings go to */
  GSubprocess  *process;    /* (nullable) the recorder while it runs */
  GCancellable *cancellable;

  /* template children */
  GtkEntry    *command;
  GtkWidget   *start;
  GtkWidget   *stop;
  GtkLabel    *session_label;
  GtkTextView *output_view;
};

enum
{
  RECORDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WbRecordDialog, wb_record_dialog, ADW_TYPE_WINDOW)

/* a new session file under $XDG_DATA_HOME/thunder-wb/recordings, named after the time */
static char *
new_session_path (void)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "thunder-wb", "recordings", NULL);
  g_autofree char *name = g_strdup_printf ("record-%s.wbsession", stamp);

  g_mkdir_with_parents (dir, 0700);
  return g_build_filename (dir, name, NULL);
}

static void
append (WbRecordDialog *self, const char *text, gssize len)
{
  GtkTextBuffer *output = gtk_text_view_get_buffer (self->output_view);
  GtkTextIter    end;

  gtk_text_buffer_get_end_iter (output, &end);
  gtk_text_buffer_insert (output, &end, text, (int) len);
}

static void
read_cb (GObject *stream, GAsyncResult *result, gpointer data)
{
  g_autoptr (WbRecordDialog) self = data;
  g_autoptr (GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (stream), result, NULL);
  gsize       size = 0;
  const char *text = bytes ? g_bytes_get_data (bytes, &size) : NULL;

  if (size == 0 || g_cancellable_is_cancelled (self->cancellable))
    return;
  if (g_utf8_validate (text, (gssize) size, NULL))
    append (self, text, (gssize) size);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, (gssize) size);

      append (self, valid, -1);
    }
  g_input_stream_read_bytes_async (G_INPUT_STREAM (stream), 4096, G_PRIORITY_DEFAULT, self->cancellable, read_cb, g_object_ref (self));
}

static void
done_cb (GObject *process, GAsyncResult *result, gpointer data)
{
  g_autoptr (WbRecordDialog) self = data;
  g_autoptr (GError) error = NULL;

  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  gtk_widget_set_sensitive (self->start, TRUE);
  gtk_widget_set_sensitive (self->stop, FALSE);
  if (!g_subprocess_wait_check_finish (G_SUBPROCESS (process), result, &error))
    {
      g_autofree char *text = g_strdup_printf (_ ("\nThe recording failed: %s\n"), error->message);

      append (self, text, -1);
      g_clear_object (&self->process);
    }
  else
    {
      append (self, _ ("\nRecorded; opening the session.\n"), -1);
      g_clear_object (&self->process);
      g_signal_emit (self, signals[RECORDED], 0, self->session);
    }
}

void
wb_record_dialog_start (WbRecordDialog *self)
{
  const char *text;
  g_auto (GStrv) words = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  g_autoptr (GError) error = NULL;

  g_return_if_fail (WB_IS_RECORD_DIALOG (self));

  if (self->process != NULL)
    return;

  text = gtk_editable_get_text (GTK_EDITABLE (self->command));
  if (!g_shell_parse_argv (text, NULL, &words, &error))
    {
      append (self, error->message, -1);
      append (self, "\n", 1);
      return;
    }
  g_strv_builder_add_many (builder, self->thunder_wb, "record", "--session", self->session, "--", NULL);
  g_strv_builder_addv (builder, (const char **) words);
  argv = g_strv_builder_end (builder);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->output_view), "", 0);
  {
    g_autofree char *line = g_strjoinv (" ", argv);

    append (self, "$ ", 2);
    append (self, line, -1);
    append (self, "\n", 1);
  }
  self->process = g_subprocess_newv ((const char *const *) argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE, &error);
  if (self->process == NULL)
    {
      append (self, error->message, -1);
      return;
    }
  gtk_widget_set_sensitive (self->start, FALSE);
  gtk_widget_set_sensitive (self->stop, TRUE);
  g_input_stream_read_bytes_async (g_subprocess_get_stdout_pipe (self->process), 4096, G_PRIORITY_DEFAULT, self->cancellable, read_cb, g_object_ref (self));
  g_subprocess_wait_check_async (self->process, self->cancellable, done_cb, g_object_ref (self));
}

void
wb_record_dialog_stop (WbRecordDialog *self)
{
  g_return_if_fail (WB_IS_RECORD_DIALOG (self));

  if (self->process != NULL)
    g_subprocess_send_signal (self->process, SIGINT);
}

gboolean
wb_record_dialog_is_running (WbRecordDialog *self)
{
  g_return_val_if_fail (WB_IS_RECORD_DIALOG (self), FALSE);

  return self->process != NULL;
}

const char *
wb_record_dialog_get_session (WbRecordDialog *self)
{
  g_return_val_if_fail (WB_IS_RECORD_DIALOG (self), NULL);

  return self->session;
}

void
wb_record_dialog_set_command (WbRecordDialog *self, const char *command)
{
  g_return_if_fail (WB_IS_RECORD_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->command), command ? command : "");
}

char *
wb_record_dialog_dup_output (WbRecordDialog *self)
{
  GtkTextBuffer *output;
  GtkTextIter    start, end;

  g_return_val_if_fail (WB_IS_RECORD_DIALOG (self), NULL);

  output = gtk_text_view_get_buffer (self->output_view);
  gtk_text_buffer_get_bounds (output, &start, &end);
  return gtk_text_buffer_get_text (output, &start, &end, FALSE);
}

WbRecordDialog *
wb_record_dialog_new (GtkWindow *parent, const char *thunder_wb, const char *session)
{
  WbRecordDialog  *self;
  g_autofree char *where = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (thunder_wb != NULL, NULL);

  self = g_object_new (WB_TYPE_RECORD_DIALOG, "transient-for", parent, NULL);
  self->thunder_wb = g_strdup (thunder_wb);
  self->session = session ? g_strdup (session) : new_session_path ();
  /* TRANSLATORS: where the recorded traces go */
  where = g_strdup_printf (_ ("Traces and runs go to the session %s"), self->session);
  gtk_label_set_text (self->session_label, where);
  return self;
}

/* closing the dialog stops the recorder; the pending read and wait then only drop their references */
static void
wb_record_dialog_dispose (GObject *object)
{
  WbRecordDialog *self = WB_RECORD_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  if (self->process != NULL)
    g_subprocess_force_exit (self->process);
  g_clear_object (&self->process);
  gtk_widget_dispose_template (GTK_WIDGET (self), WB_TYPE_RECORD_DIALOG);

  G_OBJECT_CLASS (wb_record_dialog_parent_class)->dispose (object);
}

static void
wb_record_dialog_finalize (GObject *object)
{
  WbRecordDialog *self = WB_RECORD_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_free (self->thunder_wb);
  g_free (self->session);

  G_OBJECT_CLASS (wb_record_dialog_parent_class)->finalize (object);
}

static void
wb_record_dialog_class_init (WbRecordDialogClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = wb_record_dialog_dispose;
  object_class->finalize = wb_record_dialog_finalize;

  /* ::recorded (session): a recording succeeded; @session is the file it went to */
  signals[RECORDED] = g_signal_new ("recorded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/dev/thunderwb/Workbench/ui/wb-record-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, WbRecordDialog, command);
  gtk_widget_class_bind_template_child (widget_class, WbRecordDialog, start);
  gtk_widget_class_bind_template_child (widget_class, WbRecordDialog, stop);
  gtk_widget_class_bind_template_child (widget_class, WbRecordDialog, session_label);
  gtk_widget_class_bind_template_child (widget_class, WbRecordDialog, output_view);
  gtk_widget_class_bind_template_callback (widget_class, wb_record_dialog_start);
  gtk_widget_class_bind_template_callback (widget_class, wb_record_dialog_stop);
}

static void
wb_record_dialog_init (WbRecordDialog *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}
