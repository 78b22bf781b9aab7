/* A bundle's mirror for one client, kept live by lprojd: what a localizer
 * stands on.
 *
 * It subscribes, fetches the mirror, follows lprojd's events, reconnects
 * and answers the app's requests, all on the library's I/O thread (the
 * connections'), one change of the mirror at a time: the app's own (start,
 * select, reset) in the order made, lprojd's events merged into one
 * refresh while another runs. A request comes as a GTask made on the app's
 * thread, and is completed from there (GTask runs its callback on the
 * context it was made in); a cancelled request returns at once. Lookups
 * read the current mirror from any thread without a lock.
 *
 *   connection (generated calls) -> mirror -> live mirror -> localizer */
#pragma once

#include "lprojd/lprojd.h"
#include "mirror.h"

typedef struct _LiveMirror LiveMirror;

typedef struct {
  const char *bundle;
  const char *client;
  const char *socket_path;
  const char *const *preferred_languages;
} LiveMirrorSettings;

/* Told on the owner's context, with the owner alive and not stopped: what
 * changed (LprojdChange flags; 0 when only a property may differ). */
typedef void (*LiveMirrorTell)(GObject *owner, guint changes);

/* Its events merged while a refresh runs: past this many tables named, a
 * refresh fetches them all. */
#define LIVE_MIRROR_MAX_NAMED_TABLES 256

LiveMirror *live_mirror_new(const LiveMirrorSettings *settings, GObject *owner, GMainContext *context,
                            LiveMirrorTell tell);
void live_mirror_unref(LiveMirror *live);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LiveMirror, live_mirror_unref)

/* Ends it (on the owner's dispose): connections closed, nothing told after. */
void live_mirror_stop(LiveMirror *live);

/* The current mirror, never NULL: borrowed, valid until the owner's context
 * runs again after a change (peek), or a reference (from any thread). */
const Mirror *live_mirror_peek(LiveMirror *live);
Mirror *live_mirror_ref_current(LiveMirror *live);

/* Subscribed, and the mirror is lprojd's (from any thread). */
gboolean live_mirror_get_connected(LiveMirror *live);

/* The requests. Each takes `task` and returns into it: */
/* connects, subscribes and fetches (TRUE; without lprojd: TRUE, from the cache, trying again later); */
void live_mirror_start(LiveMirror *live, GTask *task);
/* SelectLocale (`locale`) or ResetSelection (NULL), then the new locale's mirror (TRUE); */
void live_mirror_select(LiveMirror *live, const char *locale, GTask *task);
/* Lookup with `parameters` (the mirror's locale unless they name one): its value (char *); */
void live_mirror_lookup(LiveMirror *live, LprojdLookupParameters *parameters, GTask *task);
/* Format with `parameters` (likewise): its value (char *); */
void live_mirror_format(LiveMirror *live, LprojdFormatParameters *parameters, GTask *task);
/* SupportedLocales in `display_locale` (NULL: the client's): a GPtrArray of LprojdLocaleName. */
void live_mirror_fetch_supported(LiveMirror *live, const char *display_locale, GTask *task);

/* For tests: the refreshes running or queued (at most one waits behind each other change). */
guint live_mirror_queued_refreshes(LiveMirror *live);
