/* main.c — thunder-wb's entry point: locale and translations, then the command line
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-cli.h"
#include "wb-locale.h"

int
main (int    argc,
      char **argv)
{
  wb_locale_init ();

  return wb_cli_run (argc, argv);
}
