#include "cache.h"

#include <errno.h>

#include <glib/gstdio.h>

#include "lprojd/lprojd.h"

/* The cache file is read in whole: a bigger one is not a mirror we wrote. */
#define CACHE_MAX_BYTES (256u * 1024u * 1024u)

static void append_escaped(GString *path, const char *name) {
  for (const char *c = name; *c != '\0'; c++) {
    gboolean plain = g_ascii_isalnum(*c) || *c == '_' || *c == '-' || (*c == '.' && c != name);
    if (plain)
      g_string_append_c(path, *c);
    else
      g_string_append_printf(path, "%%%02X", (guint)(guchar)*c);
  }
}

static char *cache_directory(void) {
  const char *base = g_getenv("XDG_CACHE_HOME");
  if (base != NULL && g_path_is_absolute(base)) return g_build_filename(base, "lprojd", "mirrors", NULL);
  return g_build_filename(g_get_home_dir(), ".cache", "lprojd", "mirrors", NULL);
}

char *cache_path(const char *bundle, const char *client) {
  g_autofree char *directory = cache_directory();
  GString *name = g_string_new(NULL);
  append_escaped(name, bundle);
  g_string_append_c(name, '@');
  append_escaped(name, client);
  g_string_append(name, ".json");
  g_autofree char *file = g_string_free(name, FALSE);
  return g_build_filename(directory, file, NULL);
}

Mirror *cache_load(const char *bundle, const char *client) {
  g_autofree char *path = cache_path(bundle, client);
  GStatBuf status;
  if (g_stat(path, &status) != 0 || status.st_size > (goffset)CACHE_MAX_BYTES) return NULL;
  g_autofree char *text = NULL;
  gsize length = 0;
  if (!g_file_get_contents(path, &text, &length, NULL)) return NULL;
  return mirror_from_cache_json(text, length, bundle, client);
}

gboolean cache_save(const Mirror *mirror, const char *bundle, const char *client, GError **error) {
  g_autofree char *path = cache_path(bundle, client);
  g_autofree char *directory = g_path_get_dirname(path);
  if (g_mkdir_with_parents(directory, 0700) != 0) {
    g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "cannot create %s", directory);
    return FALSE;
  }
  g_autofree char *text = mirror_to_cache_json(mirror, bundle, client);
  /* g_file_set_contents writes a temporary file and renames it over. */
  return g_file_set_contents_full(path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}
