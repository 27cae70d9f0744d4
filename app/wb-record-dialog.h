/* wb-record-dialog.h — the Record dialog: runs `thunder-wb record --session F -- COMMAND` and shows its
 * live output (WbRecordDialog)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WB_TYPE_RECORD_DIALOG (wb_record_dialog_get_type ())
G_DECLARE_FINAL_TYPE (WbRecordDialog, wb_record_dialog, WB, RECORD_DIALOG, AdwWindow)

/* wb_record_dialog_new: (transfer none) a modal dialog over @parent (destroyed with it) that records
 * with the program @thunder_wb into @session, or, when @session is NULL, into a new
 * record-DATE-TIME.wbsession under $XDG_DATA_HOME/thunder-wb/recordings. After a recording that
 * succeeded it emits ::recorded with the session's path. */
WbRecordDialog *wb_record_dialog_new (GtkWindow  *parent,
                                      const char *thunder_wb,
                                      const char *session);
/* wb_record_dialog_get_session: (transfer none) the session file the recordings go to. */
const char *wb_record_dialog_get_session (WbRecordDialog *self);
/* wb_record_dialog_set_command: puts @command (a shell-quoted command line) into the command entry. */
void wb_record_dialog_set_command (WbRecordDialog *self,
                                   const char     *command);
/* wb_record_dialog_start: what Record does: starts the entry's command (nothing while one runs). */
void wb_record_dialog_start (WbRecordDialog *self);
/* wb_record_dialog_stop: what Stop does: sends SIGINT to the running recorder. */
void wb_record_dialog_stop (WbRecordDialog *self);
/* wb_record_dialog_is_running: TRUE while a recorder runs. */
gboolean wb_record_dialog_is_running (WbRecordDialog *self);
/* wb_record_dialog_dup_output: (transfer full) the output shown so far. */
char *wb_record_dialog_dup_output (WbRecordDialog *self);

G_END_DECLS
