/* wb-region-table-profile.c — WbRegionTable's profiling: the dialog that asks first, progress, cancel
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run goes through wb_document_profile_async (the shared WbProfileJob): the dialog names what runs, on
 * which device, the iterations and the estimate from the last run; the progress bar shows the job's
 * phase and iteration; Cancel stops the run within a second, and a cancel is a note, not an error. */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "wb-region-table-private.h"

/* -- profiling ------------------------------------------------------------------------------------ */

static void
progress_cb (double fraction, const char *text, gpointer data)
{
  WbRegionTable *self = data;

  gtk_progress_bar_set_fraction (self->progress, fraction);
  if (text != NULL)
    gtk_progress_bar_set_text (self->progress, text);
}

/* What the line under the table says after a run (NULL: nothing): on the GPU, how the timed iterations were
 * repeated (a CUDA graph, a launch list, or call by call), then the job's notes a user acts on, in the runner's
 * words: why there was no graph or list, results of a replay that differ from the checked run's, a run that
 * went to the cpu. *@is_error: a replay's results differ. (transfer full) */
static char *
run_summary (WbDocument *doc, gboolean *is_error)
{
  const WbRun *run = wb_document_get_run (doc);
  GPtrArray   *notes = wb_document_get_run_notes (doc);
  GString     *s = g_string_new (NULL);

  *is_error = FALSE;
  if (run != NULL && g_strcmp0 (run->device_name, "cpu") != 0)
    g_string_append (s, run->cuda_graphs   ? _ ("Timed as replays of one CUDA graph.")
                        : run->launch_list ? _ ("Timed as replays of a flat launch list (no CUDA graph).")
                                           : _ ("Timed call by call: no CUDA graph, no launch list."));
  for (guint i = 0; notes != NULL && i < notes->len; i++)
    {
      const char *n = notes->pdata[i];
      gboolean    differ = strstr (n, "differ from the checked run") != NULL;

      /* a rank's notes start "rank R: " */
      if (strstr (n, "cannot capture") == NULL && strstr (n, "cannot record") == NULL && strstr (n, "profiled on cpu") == NULL && !differ)
        continue;
      g_string_append_printf (s, "%s%s", s->len ? "\n" : "", n);
      *is_error |= differ;
    }
  return s->len ? g_string_free (s, FALSE) : (g_string_free (s, TRUE), NULL);
}

static void
profile_done (GObject *object, GAsyncResult *result, gpointer data)
{
  WbRegionTable *self = data;
  g_autoptr (GError) error = NULL;

  gtk_widget_set_visible (self->progress_box, FALSE);
  if (wb_document_profile_finish (WB_DOCUMENT (object), result, &error))
    {
      gboolean         bad = FALSE;
      g_autofree char *summary = run_summary (WB_DOCUMENT (object), &bad);

      _wb_region_table_show_message (self, summary, bad);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    /* a cancel is what the user asked for, not an error */
    _wb_region_table_show_message (self, _ ("Cancelled: nothing was stored, and what the run held was freed."), FALSE);
  else
    _wb_region_table_show_message (self, error->message, TRUE);
  self->cancelled_us = 0;
  g_object_unref (self);
}

static void
start_profile (WbRegionTable *self, const WbAssignment *assignment)
{
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  gtk_progress_bar_set_fraction (self->progress, 0.02);
  gtk_progress_bar_set_text (self->progress, _ ("Re-running the pipeline…"));
  gtk_widget_set_visible (self->progress_box, TRUE);
  _wb_region_table_show_message (self, NULL, FALSE);
  wb_document_profile_async (self->document, assignment, self->device, self->iters, self->warmup, self->cancellable, progress_cb, self,
                             profile_done, g_object_ref (self));
}

/* What the dialog names: the change, the device, the iterations and the estimate from the last run. */
static char *
confirm_body (WbRegionTable *self, const WbAssignment *assignment)
{
  GString         *s = g_string_new (NULL);
  g_autofree char *spec = wb_assignment_is_empty (assignment) ? NULL : wb_assignment_to_string (assignment);
  double           last, estimate;
  const char      *sub;
  guint            n = 0;

  if (spec != NULL)
    /* TRANSLATORS: %s is the choices of executors per region, "@t12=unfuse,@t40=cpu" */
    g_string_append_printf (s, _ ("The pipeline runs again with %s, then the workbench's final forward and backward run "), spec);
  else
    g_string_append (s, _ ("The pipeline runs again, then the workbench's final forward and backward run "));
  if (self->device == WB_PROFILE_DEVICE_CPU)
    g_string_append (s, _ ("on the cpu"));
  else if (self->device == WB_PROFILE_DEVICE_CUDA)
    g_string_append (s, _ ("on the GPU"));
  else
    g_string_append (s, _ ("on the GPU if the runner finds one, else on the cpu"));
  /* TRANSLATORS: the end of the sentence above: warm-up and timed iterations */
  g_string_append_printf (s, _ (": %u warm-up and %u timed iterations (Preferences)."), self->warmup, self->iters);
  if (wb_document_estimate_seconds (self->document, self->iters, self->warmup, &last, &estimate) && MAX (last, estimate) < 0.95)
    /* TRANSLATORS: milliseconds, for runs under a second ("0.0 s" said nothing) */
    g_string_append_printf (s, _ (" The last run took %.0f ms; this one should take about %.0f ms."), last * 1e3, estimate * 1e3);
  else if (wb_document_estimate_seconds (self->document, self->iters, self->warmup, &last, &estimate))
    /* TRANSLATORS: seconds */
    g_string_append_printf (s, _ (" The last run took %.1f s; this one should take about %.1f s."), last, estimate);
  else
    g_string_append (s, _ (" There is no earlier run to estimate its time from."));
  if ((sub = wb_document_get_subprogram (self->document, &n)) != NULL)
    /* TRANSLATORS: a model torch.compile split into subgraphs: how many, and the folder of the one that runs */
    g_string_append_printf (s, _ (" This folder holds %1$u sub-programs, each with its own inputs: this runs %2$s, the one on screen "
                                  "(`thunder-wb --headless profile FOLDER` runs them all)."),
                            n, sub);
  return g_string_free (s, FALSE);
}

static void
confirm_response_cb (AdwMessageDialog *dialog, const char *response, WbRegionTable *self)
{
  g_autoptr (WbAssignment) assignment = g_steal_pointer (&self->pending);

  self->confirm_dialog = NULL;
  if (g_strcmp0 (response, "profile") == 0 && self->document != NULL && !wb_document_is_busy (self->document))
    start_profile (self, assignment);
}

void
wb_region_table_profile (WbRegionTable *self, const WbAssignment *assignment)
{
  GtkRoot         *root;
  GtkWidget       *dialog;
  g_autofree char *body = NULL;

  g_return_if_fail (WB_IS_REGION_TABLE (self));

  if (self->document == NULL || wb_document_is_busy (self->document) || self->confirm_dialog != NULL)
    return;
  if (assignment == NULL)
    assignment = wb_document_get_assignment (self->document);
  if (!self->confirm)
    {
      start_profile (self, assignment);
      return;
    }
  g_clear_pointer (&self->pending, wb_assignment_unref);
  self->pending = assignment ? wb_assignment_ref ((WbAssignment *) assignment) : NULL;
  body = confirm_body (self, assignment);
  root = gtk_widget_get_root (GTK_WIDGET (self));
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, _ ("Profile Again?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "profile", _ ("_Profile"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "profile", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "profile");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (confirm_response_cb), self);
  self->confirm_dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

GtkWidget *
wb_region_table_get_confirm_dialog (WbRegionTable *self)
{
  g_return_val_if_fail (WB_IS_REGION_TABLE (self), NULL);
  return self->confirm_dialog;
}

void
wb_region_table_set_confirm (WbRegionTable *self, gboolean confirm)
{
  g_return_if_fail (WB_IS_REGION_TABLE (self));
  self->confirm = confirm;
}

void
wb_region_table_set_device (WbRegionTable *self, WbProfileDevice device)
{
  g_return_if_fail (WB_IS_REGION_TABLE (self));
  self->device = device;
}

void
wb_region_table_cancel (WbRegionTable *self)
{
  g_return_if_fail (WB_IS_REGION_TABLE (self));
  if (self->cancellable != NULL && !g_cancellable_is_cancelled (self->cancellable))
    {
      self->cancelled_us = g_get_monotonic_time ();
      gtk_progress_bar_set_text (self->progress, _ ("Cancelling…"));
      g_cancellable_cancel (self->cancellable);
    }
}

const char *
wb_region_table_get_message (WbRegionTable *self, gboolean *is_error)
{
  g_return_val_if_fail (WB_IS_REGION_TABLE (self), NULL);
  if (is_error != NULL)
    *is_error = gtk_widget_has_css_class (GTK_WIDGET (self->status), "error");
  return gtk_widget_get_visible (GTK_WIDGET (self->status)) ? gtk_label_get_text (self->status) : NULL;
}

const char *
wb_region_table_get_progress_text (WbRegionTable *self)
{
  g_return_val_if_fail (WB_IS_REGION_TABLE (self), NULL);
  return gtk_widget_get_visible (self->progress_box) ? gtk_progress_bar_get_text (self->progress) : NULL;
}

double
wb_region_table_get_progress_fraction (WbRegionTable *self)
{
  g_return_val_if_fail (WB_IS_REGION_TABLE (self), -1);
  return gtk_widget_get_visible (self->progress_box) ? gtk_progress_bar_get_fraction (self->progress) : -1;
}

void
wb_region_table_set_iterations (WbRegionTable *self, guint iters, guint warmup)
{
  self->iters = iters;
  self->warmup = warmup;
}
