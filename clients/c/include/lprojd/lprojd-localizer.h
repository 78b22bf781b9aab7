/* LprojdLocalizer: one bundle's strings for one app, from memory, kept live
 * by lprojd. The documentation of each function is beside its code
 * (src/localizer*.c) and in the generated reference (gi-docgen). */
#pragma once

#if !defined(LPROJD_INSIDE) && !defined(LPROJD_COMPILATION)
#error "Only <lprojd/lprojd.h> can be included directly."
#endif

#include <gio/gio.h>
#include <lprojd/lprojd-interface.h>
#include <lprojd/lprojd-version.h>

G_BEGIN_DECLS

/**
 * LprojdChange:
 * @LPROJD_CHANGE_LOCALE: the app's locale changed: every value may differ.
 * @LPROJD_CHANGE_TABLES: tables were reloaded (a translation was edited,
 *   or strings were added).
 * @LPROJD_CHANGE_LOCALES: the bundle's supported locales, or their names,
 *   changed.
 * @LPROJD_CHANGE_PREFERENCES: the app's formatting preferences changed:
 *   drop cached formatted values.
 * @LPROJD_CHANGE_BUNDLE: the bundle was added, removed or fetched again
 *   whole.
 * @LPROJD_CHANGE_RECONNECTED: connected to lprojd again after losing it
 *   (or for the first time, for a localizer that started without it).
 *
 * What a [signal@Lprojd.Localizer::changed] signal reports; several may be
 * set at once.
 */
typedef enum /*< flags >*/ {
  LPROJD_CHANGE_LOCALE = 1 << 0,
  LPROJD_CHANGE_TABLES = 1 << 1,
  LPROJD_CHANGE_LOCALES = 1 << 2,
  LPROJD_CHANGE_PREFERENCES = 1 << 3,
  LPROJD_CHANGE_BUNDLE = 1 << 4,
  LPROJD_CHANGE_RECONNECTED = 1 << 5,
} LprojdChange;

#define LPROJD_TYPE_LOCALIZER (lprojd_localizer_get_type())
LPROJD_PUBLIC G_DECLARE_FINAL_TYPE(LprojdLocalizer, lprojd_localizer, LPROJD, LOCALIZER, GObject)

/* Creating one: never blocking, or blocking where the name says so. */
LPROJD_PUBLIC void lprojd_localizer_new_async(const char *bundle, const char *client_id, const char *socket_path,
                                              GCancellable *cancellable, GAsyncReadyCallback callback,
                                              gpointer user_data);
LPROJD_PUBLIC LprojdLocalizer *lprojd_localizer_new_finish(GAsyncResult *result, GError **error);
LPROJD_PUBLIC LprojdLocalizer *lprojd_localizer_new_sync(const char *bundle, const char *client_id,
                                                         const char *socket_path, GCancellable *cancellable,
                                                         GError **error);

/* Properties. */
LPROJD_PUBLIC const char *lprojd_localizer_get_bundle(LprojdLocalizer *self);
LPROJD_PUBLIC const char *lprojd_localizer_get_client_id(LprojdLocalizer *self);
LPROJD_PUBLIC const char *lprojd_localizer_get_socket_path(LprojdLocalizer *self);
LPROJD_PUBLIC const char *const *lprojd_localizer_get_preferred_languages(LprojdLocalizer *self);
LPROJD_PUBLIC const char *lprojd_localizer_get_locale(LprojdLocalizer *self);
LPROJD_PUBLIC gint64 lprojd_localizer_get_generation(LprojdLocalizer *self);
LPROJD_PUBLIC gboolean lprojd_localizer_get_connected(LprojdLocalizer *self);

/* Answers from the mirror: in process, never blocking. */
LPROJD_PUBLIC const char *lprojd_localizer_lookup(LprojdLocalizer *self, const char *key, const char *table,
                                                  const char *default_value);
LPROJD_PUBLIC const char *lprojd_localizer_lookup_source(LprojdLocalizer *self, const char *key, const char *table);
LPROJD_PUBLIC char *lprojd_localizer_dup_lookup(LprojdLocalizer *self, const char *key, const char *table,
                                                const char *default_value);
LPROJD_PUBLIC char *lprojd_localizer_lookup_with_placeholders(LprojdLocalizer *self, const char *key,
                                                              const char *table, const char *default_value,
                                                              GHashTable *placeholders);
LPROJD_PUBLIC GPtrArray *lprojd_localizer_supported_locales(LprojdLocalizer *self);

/* Answers of lprojd: plurals and format arguments (Lookup with arguments). */
LPROJD_PUBLIC void lprojd_localizer_format_async(LprojdLocalizer *self, const char *key, const char *table,
                                                 GVariant *arguments, GHashTable *placeholders,
                                                 GCancellable *cancellable, GAsyncReadyCallback callback,
                                                 gpointer user_data);
LPROJD_PUBLIC char *lprojd_localizer_format_finish(LprojdLocalizer *self, GAsyncResult *result, GError **error);
LPROJD_PUBLIC char *lprojd_localizer_format_sync(LprojdLocalizer *self, const char *key, const char *table,
                                                 GVariant *arguments, GHashTable *placeholders,
                                                 GCancellable *cancellable, GError **error);

/* Numbers, amounts, distances, dates in the app's language (Format). */
LPROJD_PUBLIC void lprojd_localizer_format_value_async(LprojdLocalizer *self, const char *style,
                                                       GVariant *parameters, GCancellable *cancellable,
                                                       GAsyncReadyCallback callback, gpointer user_data);
LPROJD_PUBLIC char *lprojd_localizer_format_value_finish(LprojdLocalizer *self, GAsyncResult *result,
                                                         GError **error);
LPROJD_PUBLIC char *lprojd_localizer_format_value_sync(LprojdLocalizer *self, const char *style,
                                                       GVariant *parameters, GCancellable *cancellable,
                                                       GError **error);

/* The app's language, saved in lprojd: every process of the app follows. */
LPROJD_PUBLIC void lprojd_localizer_select_async(LprojdLocalizer *self, const char *locale,
                                                 GCancellable *cancellable, GAsyncReadyCallback callback,
                                                 gpointer user_data);
LPROJD_PUBLIC gboolean lprojd_localizer_select_finish(LprojdLocalizer *self, GAsyncResult *result, GError **error);
LPROJD_PUBLIC gboolean lprojd_localizer_select_sync(LprojdLocalizer *self, const char *locale,
                                                    GCancellable *cancellable, GError **error);

LPROJD_PUBLIC void lprojd_localizer_reset_async(LprojdLocalizer *self, GCancellable *cancellable,
                                                GAsyncReadyCallback callback, gpointer user_data);
LPROJD_PUBLIC gboolean lprojd_localizer_reset_finish(LprojdLocalizer *self, GAsyncResult *result, GError **error);
LPROJD_PUBLIC gboolean lprojd_localizer_reset_sync(LprojdLocalizer *self, GCancellable *cancellable,
                                                   GError **error);

/* The supported locales named in any language, asked of lprojd. */
LPROJD_PUBLIC void lprojd_localizer_fetch_supported_locales_async(LprojdLocalizer *self, const char *display_locale,
                                                                  GCancellable *cancellable,
                                                                  GAsyncReadyCallback callback, gpointer user_data);
LPROJD_PUBLIC GPtrArray *lprojd_localizer_fetch_supported_locales_finish(LprojdLocalizer *self,
                                                                         GAsyncResult *result, GError **error);
LPROJD_PUBLIC GPtrArray *lprojd_localizer_fetch_supported_locales_sync(LprojdLocalizer *self,
                                                                       const char *display_locale,
                                                                       GCancellable *cancellable, GError **error);

G_END_DECLS
