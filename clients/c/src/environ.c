/* The user's preferred languages, read from the environment the way
 * gettext reads them (clients/README.md, "Preferred languages"). */
#include <string.h>

#include "lprojd/lprojd.h"

static const char *environ_value(const char *const *envp, const char *name) {
  const char *value = g_environ_getenv((char **)envp, name);
  return value != NULL && value[0] != '\0' ? value : NULL;
}

/* gettext ignores LANGUAGE in the C locale, and skips C entries in it. */
static gboolean is_c_locale(const char *locale) {
  return strcmp(locale, "C") == 0 || strcmp(locale, "POSIX") == 0 || g_str_has_prefix(locale, "C.");
}

/* A POSIX locale name (language[_territory][.codeset][@modifier]) as a
 * BCP 47 tag: the codeset dropped, @latin/@cyrillic as a script, other
 * modifiers dropped. NULL when nothing is left. */
static char *bcp47_from_posix(const char *locale) {
  const char *modifier = strchr(locale, '@');
  gsize base_length = modifier != NULL ? (gsize)(modifier - locale) : strlen(locale);
  const char *codeset = memchr(locale, '.', base_length);
  if (codeset != NULL) base_length = (gsize)(codeset - locale);
  if (base_length == 0) return NULL;
  g_autofree char *base = g_strndup(locale, base_length);
  g_strdelimit(base, "_", '-');
  const char *script = NULL;
  if (modifier != NULL && strcmp(modifier, "@latin") == 0) script = "Latn";
  if (modifier != NULL && strcmp(modifier, "@cyrillic") == 0) script = "Cyrl";
  if (script == NULL) return g_steal_pointer(&base);
  char *region = strchr(base, '-');
  if (region == NULL) return g_strdup_printf("%s-%s", base, script);
  *region = '\0';
  return g_strdup_printf("%s-%s-%s", base, script, region + 1);
}

static void add_language(GPtrArray *languages, const char *locale) {
  char *tag = bcp47_from_posix(locale);
  if (tag == NULL) return;
  for (guint i = 0; i < languages->len; i++) {
    if (strcmp(g_ptr_array_index(languages, i), tag) == 0) {
      g_free(tag);
      return;
    }
  }
  g_ptr_array_add(languages, tag);
}

/**
 * lprojd_preferred_languages_from_environ:
 * @envp: (array zero-terminated=1) (element-type filename): an environment,
 *   such as g_get_environ() gives
 *
 * The user's preferred languages as gettext reads them from an environment,
 * as BCP 47 tags: the locale of messages is the first non-empty of
 * `LC_ALL`, `LC_MESSAGES` and `LANG`; in the C locale there are none; else
 * `LANGUAGE`'s colon-separated entries, else that locale
 * (`sr_RS.UTF-8@latin` becomes `sr-Latn-RS`). A localizer gives these to
 * lprojd unless it was created with
 * [property@Lprojd.Localizer:preferred-languages].
 *
 * Returns: (transfer full) (array zero-terminated=1): the languages, most
 *   preferred first (possibly none)
 */
char **lprojd_preferred_languages_from_environ(const char *const *envp) {
  GPtrArray *languages = g_ptr_array_new();
  const char *messages = environ_value(envp, "LC_ALL");
  if (messages == NULL) messages = environ_value(envp, "LC_MESSAGES");
  if (messages == NULL) messages = environ_value(envp, "LANG");
  const char *language = environ_value(envp, "LANGUAGE");
  if (messages != NULL && is_c_locale(messages)) {
    /* none */
  } else if (language != NULL) {
    g_auto(GStrv) entries = g_strsplit(language, ":", -1);
    for (char **entry = entries; *entry != NULL; entry++)
      if ((*entry)[0] != '\0' && !is_c_locale(*entry)) add_language(languages, *entry);
  } else if (messages != NULL) {
    add_language(languages, messages);
  }
  g_ptr_array_add(languages, NULL);
  return (char **)g_ptr_array_free(languages, FALSE);
}
