/* test-ui-zh.c — the window in zh_CN (LANGUAGE=zh_CN): its labels come from po/zh_CN.po
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "wb-ui-common.h"

static void
test_zh (void)
{
  g_autofree char *path = wb_ui_case_path ("gpt2_block");
  WbWindow        *window;

  if (g_strcmp0 (_ ("Stages"), "Stages") == 0)
    {
      g_test_skip ("no zh_CN catalogue in the build tree (po/zh_CN/LC_MESSAGES/thunder-wb.mo)");
      return;
    }
  window = wb_ui_open (path);
  g_assert_cmpstr (_ ("Stages"), ==, "阶段");
  g_assert_cmpstr (_ ("Regions"), ==, "区域");
  g_assert_cmpstr (_ ("Graph"), ==, "图");
  g_assert_cmpstr (_ ("Timeline"), ==, "时间线");
  g_assert_cmpstr (_ ("Kernel"), ==, "内核");
  g_assert_cmpstr (_ ("Export the Graph"), ==, "导出图");
  g_assert_cmpstr (_ ("Preferences"), ==, "首选项");
  g_assert_cmpstr (_ ("Open _Recent"), ==, "最近打开(_R)");
  /* the title is "CASE — the application's name", translated */
  g_assert_true (g_str_has_suffix (gtk_window_get_title (GTK_WINDOW (window)), _ ("Thunder Workbench")));
  g_assert_cmpstr (_ ("Thunder Workbench"), !=, "Thunder Workbench");
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "06-zh_CN"));
  /* the graph page in zh_CN: its toolbar's status line is translated */
  wb_window_show_view (window, "graph");
  wb_ui_spin (1.5);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "06b-zh_CN-graph"));
  /* the new pages' strings */
  g_assert_cmpstr (_ ("Recent"), ==, "最近");
  g_assert_cmpstr (_ ("Symbols"), ==, "符号");
  g_assert_cmpstr (_ ("Find a node"), ==, "查找节点");
  g_assert_cmpstr (_ ("By symbol"), ==, "按符号");
  wb_window_show_view (window, "timeline");
  wb_ui_spin (0.3);
  g_free (wb_ui_screenshot (GTK_WIDGET (window), "06c-zh_CN-timeline"));
}

/* thunder-wb itself, run from the build tree, takes the build tree's catalogue (app/wb-locale.h): its
 * --help lists the commands in Chinese */
static void
test_zh_program (void)
{
  const char      *build = g_getenv ("WB_BUILD_ROOT");
  g_autofree char *program = g_build_filename (build ? build : ".", "app", "thunder-wb", NULL);
  const char      *argv[] = { program, "--help", NULL };
  g_autofree char *out = NULL;
  int              status = 0;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (out, "列出 PATH 中的 trace"));
  g_assert_null (strstr (out, "List the traces of PATH"));
}

int
main (int argc, char **argv)
{
  if (!wb_ui_init (&argc, &argv))
    {
      g_print ("1..0 # SKIP no display (run under xvfb-run)\n");
      return 77;
    }
  g_test_add_func ("/ui/zh_CN/labels", test_zh);
  g_test_add_func ("/ui/zh_CN/program", test_zh_program);
  return g_test_run ();
}
