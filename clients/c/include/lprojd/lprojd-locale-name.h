/* LprojdLocaleName: a supported locale's names, for a language menu. */
#pragma once

#if !defined(LPROJD_INSIDE) && !defined(LPROJD_COMPILATION)
#error "Only <lprojd/lprojd.h> can be included directly."
#endif

#include <glib-object.h>
#include <lprojd/lprojd-version.h>

G_BEGIN_DECLS

/**
 * LprojdLocaleName:
 * @locale: the locale identifier (`de`, `pt-BR`)
 * @name: its name in the language of the localizer's mirror (`Deutsch`
 *   in German, `German` in English)
 * @native_name: its name in itself (`Deutsch`)
 * @bundle_name: (nullable): the bundle's own name for it
 *   (`LM_locale_name_<locale>` in its `Localizable` table), or %NULL
 *
 * A supported locale of the bundle with its names, as lprojd's
 * `SupportedLocales` gives them: the entries of a language menu.
 */
typedef struct {
  char *locale;
  char *name;
  char *native_name;
  char *bundle_name;
} LprojdLocaleName;

#define LPROJD_TYPE_LOCALE_NAME (lprojd_locale_name_get_type())

LPROJD_PUBLIC GType lprojd_locale_name_get_type(void) G_GNUC_CONST;
LPROJD_PUBLIC LprojdLocaleName *lprojd_locale_name_copy(const LprojdLocaleName *name);
LPROJD_PUBLIC void lprojd_locale_name_free(LprojdLocaleName *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(LprojdLocaleName, lprojd_locale_name_free)

G_END_DECLS
