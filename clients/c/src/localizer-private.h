/* The localizer's state, shared by its parts: localizer.c (the object and
 * its lookups), localizer-fetch.c (building mirrors from the daemon's
 * replies) and localizer-live.c (the subscription and reconnection). */
#pragma once

#include "json-members.h"
#include "lprojd/localizer.h"
#include "mirror.h"
#include "varlink.h"

struct _LprojdLocalizer {
  GObject parent_instance;
  char *bundle;
  char *client;
  char *socket_path;
  char **preferred_languages;
  GMainContext *context; /* the creator's: all I/O and every signal run there */

  /* The current mirror, never NULL. Swapped atomically under `lock`; read
   * without it on the context's thread (the old mirror is released only
   * when that thread has run again). */
  Mirror *mirror;

  /* Serialises calls on `calls` and whole refreshes (a refresh is several
   * calls), whichever thread asks. */
  GRecMutex lock;
  VarlinkConnection *calls; /* the connection for calls, opened on demand */

  /* The subscription, on a connection of its own; NULL while disconnected. */
  VarlinkConnection *subscription;
  GCancellable *subscription_cancellable;
  gboolean connected;   /* subscribed, ready, and the mirror fetched */
  gboolean mirror_is_cached;    /* the mirror was read from the cache, not given by lprojd */
  gboolean refetch_everything;  /* a refresh found no tables and was not applied: fetch all on the next event */
  gboolean told_of_keeping;     /* the app was told the last mirror is kept (once until tables come back) */
  GSource *reconnect;   /* the pending reconnection attempt, if any */
  guint reconnect_attempt;
};

/* ---- localizer.c ---- */

/* Swaps `mirror` (taken) in, saves it to the cache, and tells the app
 * `changes` on the localizer's context (nothing when 0). */
void localizer_apply(LprojdLocalizer *self, Mirror *mirror, guint changes);

/* Tells the app `changes` on the localizer's context, without a new mirror. */
void localizer_notify(LprojdLocalizer *self, guint changes);

/* A reference to the current mirror, from any thread. */
Mirror *localizer_ref_mirror(LprojdLocalizer *self);

/* ---- localizer-fetch.c ---- */

/* One call on the call connection (opened if need be); its reply's parameters. */
JsonObject *localizer_call(LprojdLocalizer *self, const char *method, JsonObject *parameters, GError **error);

/* The whole mirror, as at the start: selection, tables, supported locales. */
Mirror *localizer_fetch_everything(LprojdLocalizer *self, GError **error);

/* `base`'s tables (and the supported locales) again, in `locale`. */
Mirror *localizer_fetch_locale(LprojdLocalizer *self, const Mirror *base, const char *locale, GError **error);

/* `base` with the tables named fetched again (all when names is NULL). */
Mirror *localizer_fetch_tables(LprojdLocalizer *self, const Mirror *base, const char *const *names, GError **error);

/* The client's locale now (GetSelection with the preferred languages). */
char *localizer_fetch_selection(LprojdLocalizer *self, GError **error);

/* The locale of a Selection reply (SelectLocale, ResetSelection, GetSelection). */
char *localizer_selection_locale(JsonObject *reply, GError **error);

/* ---- localizer-live.c ---- */

/* Opens the subscription; with wait_ready, blocks until it is ready.
 * Events are then read in the background on the localizer's context. */
gboolean localizer_subscribe(LprojdLocalizer *self, gboolean wait_ready, GCancellable *cancellable, GError **error);

/* Drops both connections and tries again later, with backoff. */
void localizer_connection_lost(LprojdLocalizer *self);

/* Stops the subscription and any reconnection (on dispose). */
void localizer_stop(LprojdLocalizer *self);

/* Whether an error means lprojd is gone rather than it refused something. */
gboolean localizer_is_connection_error(const GError *error);
