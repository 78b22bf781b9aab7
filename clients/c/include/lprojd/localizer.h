/* lprojd client for GLib apps: a localizer that mirrors one bundle's tables
 * for one client (app id), answers lookups from memory and follows every
 * change lprojd announces. See clients/README.md for the design and
 * clients/c/README.md for this library. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#if defined(LPROJD_COMPILATION)
#define LPROJD_PUBLIC __attribute__((visibility("default")))
#else
#define LPROJD_PUBLIC
#endif

/* Errors, in the domain LPROJD_ERROR. The daemon's Varlink errors map by
 * name; any other Varlink error is LPROJD_ERROR_PROTOCOL. */
#define LPROJD_ERROR (lprojd_error_quark())
typedef enum {
  LPROJD_ERROR_UNAVAILABLE,       /* no daemon: daemon-less mode, or it cannot be reached */
  LPROJD_ERROR_DISCONNECTED,      /* the connection dropped during a call */
  LPROJD_ERROR_MALFORMED_REPLY,   /* a reply that is not what the interface says, or too large */
  LPROJD_ERROR_PROTOCOL,          /* another Varlink error (org.varlink.service.*) */
  LPROJD_ERROR_BUNDLE_NOT_FOUND,
  LPROJD_ERROR_INVALID_LOCALE,
  LPROJD_ERROR_TABLE_NOT_FOUND,
  LPROJD_ERROR_INVALID_ARGUMENTS,
  LPROJD_ERROR_PERMISSION_DENIED,
  LPROJD_ERROR_LIMIT_EXCEEDED,
  LPROJD_ERROR_INVALID_VALUE,
  LPROJD_ERROR_STATE_UNAVAILABLE,
  LPROJD_ERROR_INTERNAL_ERROR,
} LprojdError;

LPROJD_PUBLIC GQuark lprojd_error_quark(void);

/* What a `changed` signal reports; several may be set at once. */
typedef enum {
  LPROJD_CHANGE_LOCALE = 1 << 0,      /* the client's locale: every value may differ */
  LPROJD_CHANGE_TABLES = 1 << 1,      /* tables were reloaded */
  LPROJD_CHANGE_LOCALES = 1 << 2,     /* the bundle's supported locales */
  LPROJD_CHANGE_PREFERENCES = 1 << 3, /* the client's preferences (drop cached formatters) */
  LPROJD_CHANGE_BUNDLE = 1 << 4,      /* the bundle was added, removed or refetched whole */
  LPROJD_CHANGE_RECONNECTED = 1 << 5, /* connected to lprojd again (or for the first time) */
} LprojdChange;

LPROJD_PUBLIC GType lprojd_change_get_type(void);
#define LPROJD_TYPE_CHANGE (lprojd_change_get_type())

#define LPROJD_TYPE_LOCALIZER (lprojd_localizer_get_type())
LPROJD_PUBLIC G_DECLARE_FINAL_TYPE(LprojdLocalizer, lprojd_localizer, LPROJD, LOCALIZER, GObject)

/* Creates a localizer and blocks until its mirror is fetched: subscribes,
 * waits for the subscription to be ready, then fetches the locale, every
 * table and the supported locales. socket_path NULL means $LPROJD_SOCKET,
 * else $XDG_RUNTIME_DIR/lprojd/org.lprojd.Localization if it exists, else
 * /run/lprojd/org.lprojd.Localization.
 *
 * When lprojd cannot be reached, the localizer starts from the cached mirror
 * of the last run (or empty) and keeps trying to connect; this is not an
 * error. Errors are the daemon's (an unknown bundle is
 * LPROJD_ERROR_BUNDLE_NOT_FOUND) or a malformed reply.
 *
 * The `changed` signal, and all of the localizer's I/O, run on the
 * thread-default main context of the calling thread:
 *   void changed(LprojdLocalizer *self, LprojdChange what, gpointer data); */
LPROJD_PUBLIC LprojdLocalizer *lprojd_localizer_new(const char *bundle, const char *client, const char *socket_path,
                                                    GCancellable *cancellable, GError **error);

/* Borrowed strings. Lookups answer from the current mirror, without a
 * round trip, and return either a string of the mirror or the caller's
 * default_value/key. A mirror string stays valid until the localizer's main
 * context next runs after a `changed` signal: use it at once, or copy it.
 * Call these on the thread of that main context; from other threads use
 * lprojd_localizer_dup_lookup(). */

/* The table's value (table NULL is "Localizable"), else a plural entry's
 * format key, else default_value, else key, as Lookup without arguments. */
LPROJD_PUBLIC const char *lprojd_localizer_lookup(LprojdLocalizer *self, const char *key, const char *table,
                                                  const char *default_value);

/* Where a key's value comes from (a locale, or "Base"), NULL when no table
 * has the key: Lookup's `found` and `locale`. */
LPROJD_PUBLIC const char *lprojd_localizer_lookup_source(LprojdLocalizer *self, const char *key, const char *table);

/* The locale of the mirror, NULL when there is no mirror at all. */
LPROJD_PUBLIC const char *lprojd_localizer_get_locale(LprojdLocalizer *self);

/* Whether a connection to lprojd is up (else the mirror is the last one). */
LPROJD_PUBLIC gboolean lprojd_localizer_is_connected(LprojdLocalizer *self);

/* As lprojd_localizer_lookup, as a copy: callable from any thread. Free with g_free. */
LPROJD_PUBLIC char *lprojd_localizer_dup_lookup(LprojdLocalizer *self, const char *key, const char *table,
                                                const char *default_value);

/* The lookup with {name} placeholders filled from `values` (string to
 * string) exactly as the daemon fills them; NULL values is no placeholders.
 * Free with g_free. */
LPROJD_PUBLIC char *lprojd_localizer_lookup_with_placeholders(LprojdLocalizer *self, const char *key, const char *table,
                                                              const char *default_value, GHashTable *values);

/* A typed format argument (Varlink's Argument). */
typedef enum {
  LPROJD_ARGUMENT_STRING,
  LPROJD_ARGUMENT_INT,
  LPROJD_ARGUMENT_FLOAT,
} LprojdArgumentType;

typedef struct {
  LprojdArgumentType type;
  const char *string;
  gint64 integer;
  double number;
  int fraction_digits; /* for a float: visible fraction digits, or -1 for as written */
} LprojdArgument;

#define LPROJD_ARG_STRING(s) ((LprojdArgument){.type = LPROJD_ARGUMENT_STRING, .string = (s), .fraction_digits = -1})
#define LPROJD_ARG_INT(n) ((LprojdArgument){.type = LPROJD_ARGUMENT_INT, .integer = (n), .fraction_digits = -1})
#define LPROJD_ARG_FLOAT(x) ((LprojdArgument){.type = LPROJD_ARGUMENT_FLOAT, .number = (x), .fraction_digits = -1})

/* Formats a key with arguments (plurals, %d, %@...) and optional
 * placeholders by asking lprojd (Lookup in the mirror's locale for this
 * client), so the text is the daemon's. Blocks for one local round trip.
 * Without lprojd: LPROJD_ERROR_UNAVAILABLE, never an approximation.
 * Free with g_free. */
LPROJD_PUBLIC char *lprojd_localizer_format(LprojdLocalizer *self, const char *key, const char *table,
                                            const LprojdArgument *arguments, gsize n_arguments, GHashTable *placeholders,
                                            GError **error);

/* Saves the client's locale in lprojd (SelectLocale), then applies it at
 * once: when this returns TRUE the mirror is in the locale selected, and a
 * `changed` signal follows. Every process of the app follows the choice. */
LPROJD_PUBLIC gboolean lprojd_localizer_select(LprojdLocalizer *self, const char *locale, GError **error);

/* Forgets the saved locale (ResetSelection) and applies the new one. */
LPROJD_PUBLIC gboolean lprojd_localizer_reset(LprojdLocalizer *self, GError **error);

/* A supported locale's names: in the mirror's locale, in itself, and the
 * bundle's own name for it (NULL when it has none). */
typedef struct {
  char *locale;
  char *name;
  char *native_name;
  char *bundle_name;
} LprojdLocaleName;

LPROJD_PUBLIC void lprojd_locale_name_free(LprojdLocaleName *name);

/* The bundle's supported locales, for a language menu: an array of
 * LprojdLocaleName (freed with it). Empty without a mirror. */
LPROJD_PUBLIC GPtrArray *lprojd_localizer_supported_locales(LprojdLocalizer *self);

/* The user's preferred languages as gettext reads them from an environment
 * (e.g. g_get_environ()), as BCP 47 tags: a NULL-terminated array, possibly
 * empty. Free with g_strfreev. */
LPROJD_PUBLIC char **lprojd_preferred_languages_from_environ(const char *const *envp);

G_END_DECLS
