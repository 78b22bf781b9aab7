/* The localizer's state, shared by its parts:
 *   localizer.c        the object: properties, construction, lookups, and
 *                      telling the app (notify and `changed`)
 *   localizer-work.c   the serial queue of work that talks to lprojd, run on
 *                      a worker thread, never on the app's main context
 *   localizer-calls.c  the calls the app makes (_async, _finish, _sync)
 *   localizer-fetch.c  building mirrors from the daemon's replies (blocking)
 *   localizer-live.c   the subscription and reconnection
 *
 * Threads. The app's main context (the thread-default context of the thread
 * that created the localizer) reads the subscription's events without
 * blocking and runs every signal. Everything that waits for lprojd runs on
 * the work queue (one item at a time, in order, on a thread of a pool), or
 * in the caller's thread for _sync calls; both hold `io_lock`. Lookups read
 * the mirror pointer without any lock. `state_lock` guards the few fields
 * both sides change, and is never held while waiting. */
#pragma once

#include "json-members.h"
#include "lprojd/lprojd.h"
#include "mirror.h"
#include "varlink.h"

struct _LprojdLocalizer {
  GObject parent_instance;
  /* Construct-only, read-only afterwards. */
  char *bundle;
  char *client_id;
  char *socket_path;
  char **preferred_languages;
  GMainContext *context; /* the creator's: the subscription and every signal run there */
  gboolean initialized;  /* init or init_async was called */

  /* The current mirror, never NULL. Swapped under `state_lock`; read without
   * it on the context's thread (a retired mirror is released only once that
   * thread has run again). */
  Mirror *mirror;

  /* Held by whoever talks to lprojd on `calls` or builds a mirror: the work
   * queue's thread, or a _sync caller. Guards `calls` and the flags below. */
  GRecMutex io_lock;
  VarlinkConnection *calls;    /* the connection for calls, opened on demand */
  gboolean mirror_is_cached;   /* the mirror was read from the cache, not given by lprojd */
  gboolean refetch_everything; /* a refresh found no tables and was not applied: fetch all on the next event */
  gboolean told_of_keeping;    /* the app was told the last mirror is kept (once until tables come back) */

  /* Short critical sections only, from any thread. */
  GMutex state_lock;
  gint connected;                  /* subscribed, ready, mirror fetched (atomic reads) */
  VarlinkConnection *subscription; /* NULL while disconnected */
  GCancellable *subscription_cancellable;
  GSource *reconnect; /* the pending reconnection attempt, if any */
  gboolean reconnecting; /* a reconnection is queued or running */
  guint reconnect_attempt;
  guint queued_events;  /* the subscription's messages queued, not yet handled */
  gboolean resync_queued; /* events were dropped: a fetch of everything is queued */
  GQueue work;          /* Work: queued, not yet run */
  gboolean working;     /* the queue's thread is draining it: the localizer must live */
  gboolean stopping;    /* disposed: nothing more is queued, notified or scheduled */
  GCond idle;           /* signalled when `working` clears */
  GCancellable *stop;   /* cancelled on dispose: interrupts the localizer's own work */

  /* What the app was last told, on the context's thread only: a
   * notification emits notify for each property that differs. */
  char *told_locale;
  gint64 told_generation;
  gboolean told_connected;
};

/* The most events of the subscription waiting for the work queue: past it
 * they are dropped, and everything is fetched again instead. */
#define LOCALIZER_MAX_QUEUED_EVENTS 64

/* ---- localizer.c ---- */

/* Swaps `mirror` (taken) in, saves it to the cache, and tells the app
 * `changes` on the localizer's context. Called with io_lock held. */
void localizer_apply(LprojdLocalizer *self, Mirror *mirror, guint changes);

/* Tells the app `changes` (and any property that changed) on the
 * localizer's context, without a new mirror. From any thread. */
void localizer_notify(LprojdLocalizer *self, guint changes);

/* A reference to the current mirror, from any thread. */
Mirror *localizer_ref_mirror(LprojdLocalizer *self);

/* Sets `connected`; TRUE when it changed. From any thread. */
gboolean localizer_set_connected(LprojdLocalizer *self, gboolean connected);

/* ---- localizer-work.c ---- */

typedef struct _Work Work;

/* Work run on the queue's thread with io_lock held. For the app's call it
 * finishes `task` with work_return_*, and `cancellable` is the task's; for
 * the localizer's own work `task` is NULL and `cancellable` is cancelled
 * when the localizer is disposed. */
typedef void (*WorkFunc)(LprojdLocalizer *self, GTask *task, gpointer data, GCancellable *cancellable);

/* A task for work: its callback runs on the caller's thread-default
 * context. When `cancellable` is cancelled, the task returns
 * G_IO_ERROR_CANCELLED at once, even while work queued before it is still
 * waiting for lprojd; the work itself is then skipped or interrupted. */
GTask *work_task_new(LprojdLocalizer *self, WorkFunc run, gpointer data, GDestroyNotify free_data,
                     GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data, gpointer tag);

/* Queues the task (taken) behind any work queued before. */
void work_queue(LprojdLocalizer *self, GTask *task);

/* Queues the localizer's own work: it holds no reference, and is dropped
 * unrun if the localizer is disposed first. */
void work_queue_own(LprojdLocalizer *self, WorkFunc run, gpointer data, GDestroyNotify free_data);

/* On dispose: no more work; cancels the work in progress and waits until the
 * queue's thread has left the localizer. */
void work_stop(LprojdLocalizer *self);

/* Finishes a task of the queue, unless it already returned (cancelled). */
void work_return_pointer(GTask *task, gpointer result, GDestroyNotify free_result);
void work_return_boolean(GTask *task, gboolean result);
void work_return_error(GTask *task, GError *error);

/* ---- localizer-fetch.c ---- */

/* One call on the call connection (opened if need be); its reply's parameters. */
JsonObject *localizer_call(LprojdLocalizer *self, const char *method, JsonObject *parameters,
                           GCancellable *cancellable, GError **error);

/* The whole mirror, as at the start: selection, tables, supported locales. */
Mirror *localizer_fetch_everything(LprojdLocalizer *self, GCancellable *cancellable, GError **error);

/* `base`'s tables (and the supported locales) again, in `locale`. */
Mirror *localizer_fetch_locale(LprojdLocalizer *self, const Mirror *base, const char *locale,
                               GCancellable *cancellable, GError **error);

/* `base` with the tables named fetched again (all when names is NULL). */
Mirror *localizer_fetch_tables(LprojdLocalizer *self, const Mirror *base, const char *const *names,
                               GCancellable *cancellable, GError **error);

/* The client's locale now (GetSelection with the preferred languages). */
char *localizer_fetch_selection(LprojdLocalizer *self, GCancellable *cancellable, GError **error);

/* SupportedLocales' reply, in `locale` (NULL: the client's). */
JsonObject *localizer_fetch_supported(LprojdLocalizer *self, const char *locale, GCancellable *cancellable,
                                      GError **error);

/* The locale of a Selection reply (SelectLocale, ResetSelection, GetSelection). */
char *localizer_selection_locale(JsonObject *reply, GError **error);

/* ---- localizer-live.c ---- */

/* Connects (blocking, io_lock held): subscribes, waits for `ready`, fetches
 * everything, then reads the events on the localizer's context. Without
 * lprojd (unreachable, or not answering), starts from the cached mirror and
 * keeps trying; that is not an error. */
gboolean localizer_start(LprojdLocalizer *self, GCancellable *cancellable, GError **error);

/* Drops the subscription and tries again later, with backoff. From any thread. */
void localizer_connection_lost(LprojdLocalizer *self);

/* The subscription's messages waiting for the work queue (for tests). */
guint localizer_queued_events(LprojdLocalizer *self);

/* Stops the subscription and any reconnection (on dispose). */
void localizer_stop(LprojdLocalizer *self);

/* Whether an error means lprojd is gone or stuck rather than it refused something. */
gboolean localizer_is_connection_error(const GError *error);

/* ---- localizer-calls.c ---- */

/* LprojdLocaleName entries of a SupportedLocales reply (NULL: none). */
GPtrArray *localizer_locale_names(JsonObject *supported);
