#include "reply-shape.h"

gboolean reply_shape_ok(const char *text, gsize length, guint max_depth) {
  guint depth = 0;
  gboolean in_string = FALSE, escaped = FALSE;
  for (gsize i = 0; i < length; i++) {
    char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = FALSE;
      else if (c == '\\')
        escaped = TRUE;
      else if (c == '"')
        in_string = FALSE;
    } else if (c == '"') {
      in_string = TRUE;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return FALSE;
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth--;
    }
  }
  return TRUE;
}
