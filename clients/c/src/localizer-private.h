/* The localizer's state, shared by its two files:
 *   localizer.c        the object: properties, creation, lookups from the
 *                      mirror, and telling the app (notify and `changed`)
 *   localizer-calls.c  the calls that ask lprojd (_async, _finish, _sync)
 * Both stand on the live mirror (live-mirror.h), which does the work on
 * the library's I/O thread; neither calls the other's functions. */
#pragma once

#include "live-mirror.h"
#include "lprojd/lprojd.h"

struct _LprojdLocalizer {
  GObject parent_instance;
  /* Construct-only, read-only afterwards. */
  char *bundle;
  char *client_id;
  char *socket_path;
  char **preferred_languages;
  GMainContext *context; /* the creator's: every signal runs there */
  gboolean initialized;  /* init or init_async was called */
  LiveMirror *live;      /* made in constructed */

  /* What the app was last told, on the context's thread only: a
   * notification emits notify for each property that differs. */
  char *told_locale;
  gint64 told_generation;
  gboolean told_connected;
};
