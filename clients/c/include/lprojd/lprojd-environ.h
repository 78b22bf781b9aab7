/* The user's preferred languages, read as gettext reads them. */
#pragma once

#if !defined(LPROJD_INSIDE) && !defined(LPROJD_COMPILATION)
#error "Only <lprojd/lprojd.h> can be included directly."
#endif

#include <glib.h>
#include <lprojd/lprojd-version.h>

G_BEGIN_DECLS

LPROJD_PUBLIC char **lprojd_preferred_languages_from_environ(const char *const *envp);

G_END_DECLS
