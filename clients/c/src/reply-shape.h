/* What a reply may be before json-glib reads it: a socket at LPROJD_SOCKET
 * is not always lprojd, and json-glib parses any depth by recursion (160 KB
 * of '[' crashed an app). lprojd's replies are a few levels deep. */
#pragma once

#include <glib.h>

/* The deepest nesting of arrays and objects a reply may have. */
#define VARLINK_MAX_DEPTH 64

/* Whether `text` (`length` bytes) nests arrays and objects at most
 * `max_depth` deep, outside its strings; a scan, no parsing. */
gboolean reply_shape_ok(const char *text, gsize length, guint max_depth);
