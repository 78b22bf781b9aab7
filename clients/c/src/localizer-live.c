/* Staying live: the subscription, read without blocking on the localizer's
 * context; its events, refreshed on the work queue; and reconnection with
 * backoff (clients/README.md, "Life of a localizer", steps 2, 5 and 6). */
#include <string.h>

#include "cache.h"
#include "localizer-private.h"

#define BACKOFF_FIRST_MS 50
#define BACKOFF_MAX_MS 5000

gboolean localizer_is_connection_error(const GError *error) {
  return g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_DISCONNECTED) ||
         g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE) ||
         g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_TIMEOUT);
}

static void start_reading(LprojdLocalizer *self);

/* ---- events, on the work queue ---- */

/* The subscription is filtered to our client and bundle; an event that
 * names another is not ours all the same. */
static gboolean names_us(const char *value, const char *ours) { return value == NULL || strcmp(value, ours) == 0; }

/* The `tables` of a tablesChanged event, or NULL for all. */
static char **event_tables(JsonObject *event) {
  char **tables = member_strv(event, "tables");
  if (tables != NULL && tables[0] == NULL) g_clear_pointer(&tables, g_strfreev);
  return tables;
}

/* localesChanged: the saved locale may be gone, so ask for it again. */
static Mirror *refresh_locales(LprojdLocalizer *self, const Mirror *base, guint *changes, GCancellable *cancellable,
                               GError **error) {
  g_autofree char *locale = localizer_fetch_selection(self, cancellable, error);
  if (locale == NULL) return NULL;
  if (g_strcmp0(locale, base->locale) != 0) *changes |= LPROJD_CHANGE_LOCALE;
  return localizer_fetch_locale(self, base, locale, cancellable, error);
}

/* The mirror an event calls for (NULL with *error NULL: nothing to fetch),
 * and what changed. */
static Mirror *refresh_for_event(LprojdLocalizer *self, const Mirror *base, JsonObject *event, guint *changes,
                                 GCancellable *cancellable, GError **error) {
  const char *type = member_string(event, "type");
  if (type == NULL || !names_us(member_string(event, "bundle"), self->bundle)) return NULL;
  gboolean for_client = names_us(member_string(event, "client"), self->client_id);
  gboolean refetch = self->refetch_everything && strcmp(type, "preferencesChanged") != 0;
  if (strcmp(type, "bundleChanged") == 0 || base->locale == NULL || refetch) {
    Mirror *mirror = localizer_fetch_everything(self, cancellable, error);
    if (mirror != NULL) *changes = LPROJD_CHANGE_BUNDLE | mirror_difference(base, mirror);
    return mirror;
  }
  if (strcmp(type, "localeChanged") == 0 && for_client) {
    /* The event's locale may be old news: the subscription and the calls
     * are two connections, so the event of an earlier select can come
     * after a later select or reset was applied. The selection now is
     * lprojd's answer, and the same locale means nothing to do (our own
     * select applied it already). */
    g_autofree char *locale = localizer_fetch_selection(self, cancellable, error);
    if (locale == NULL || strcmp(locale, base->locale) == 0) return NULL;
    *changes = LPROJD_CHANGE_LOCALE;
    return localizer_fetch_locale(self, base, locale, cancellable, error);
  }
  if (strcmp(type, "tablesChanged") == 0) {
    g_auto(GStrv) tables = event_tables(event);
    *changes = LPROJD_CHANGE_TABLES;
    return localizer_fetch_tables(self, base, (const char *const *)tables, cancellable, error);
  }
  if (strcmp(type, "localesChanged") == 0) {
    *changes = LPROJD_CHANGE_LOCALES;
    return refresh_locales(self, base, changes, cancellable, error);
  }
  if (strcmp(type, "preferencesChanged") == 0 && for_client) localizer_notify(self, LPROJD_CHANGE_PREFERENCES);
  return NULL;
}

/* Subscribed, but not fetched since (as when the bundle was missing): any
 * event tries everything again. */
static void refresh_everything(LprojdLocalizer *self, GCancellable *cancellable) {
  g_autoptr(Mirror) base = localizer_ref_mirror(self);
  g_autoptr(GError) error = NULL;
  Mirror *mirror = localizer_fetch_everything(self, cancellable, &error);
  if (mirror == NULL) {
    g_info("fetching %s after connecting failed: %s", self->bundle, error->message);
    if (localizer_is_connection_error(error)) localizer_connection_lost(self);
    return;
  }
  localizer_set_connected(self, TRUE);
  g_mutex_lock(&self->state_lock);
  self->reconnect_attempt = 0;
  g_mutex_unlock(&self->state_lock);
  localizer_apply(self, mirror, LPROJD_CHANGE_RECONNECTED | mirror_difference(base, mirror));
}

/* A message of `connection`'s subscription as read (parsed on the work
 * queue, never on the app's context: a large one would hold it), its end
 * (frame NULL), or a resynchronisation after events were dropped. */
typedef struct {
  VarlinkConnection *connection;
  GBytes *frame;
  gboolean resync;
} EventWork;

static void free_event_work(gpointer data) {
  EventWork *work = data;
  varlink_connection_unref(work->connection);
  if (work->frame != NULL) g_bytes_unref(work->frame);
  g_free(work);
}

static void handle_event(LprojdLocalizer *self, JsonObject *event, GCancellable *cancellable) {
  const char *type = member_string(event, "type");
  if (type == NULL || strcmp(type, "ready") == 0) return; /* a newer daemon's event, perhaps: not ours to judge */
  if (strcmp(type, "shutdown") == 0) {
    localizer_connection_lost(self);
    return;
  }
  if (!lprojd_localizer_get_connected(self)) {
    refresh_everything(self, cancellable);
    return;
  }
  g_autoptr(Mirror) base = localizer_ref_mirror(self);
  g_autoptr(GError) error = NULL;
  guint changes = 0;
  Mirror *mirror = refresh_for_event(self, base, event, &changes, cancellable, &error);
  if (mirror != NULL) {
    localizer_apply(self, mirror, changes);
  } else if (error != NULL) {
    /* The last mirror stays; a later event or reconnection fetches again. */
    g_info("refresh after %s failed: %s", type, error->message);
    if (localizer_is_connection_error(error)) localizer_connection_lost(self);
  }
}

/* One message of the subscription: an event, or its last reply. */
static void handle_frame(LprojdLocalizer *self, GBytes *frame, GCancellable *cancellable) {
  gsize length = 0;
  const char *text = g_bytes_get_data(frame, &length);
  gboolean continues = FALSE;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) parameters = varlink_parse_message(text, length, &continues, &error);
  if (parameters == NULL) {
    g_info("the subscription failed: %s", error->message);
    localizer_connection_lost(self);
    return;
  }
  JsonObject *event = member_object(parameters, "event");
  if (event != NULL) handle_event(self, event, cancellable);
  if (!continues) localizer_connection_lost(self);
}

static void work_event(LprojdLocalizer *self, GTask *task, gpointer data, GCancellable *cancellable) {
  (void)task;
  EventWork *work = data;
  g_mutex_lock(&self->state_lock);
  gboolean current = self->subscription == work->connection;
  if (work->resync)
    self->resync_queued = FALSE;
  else if (work->frame != NULL)
    self->queued_events--;
  g_mutex_unlock(&self->state_lock);
  /* Events of a subscription since replaced are stale: the reconnection
   * fetched everything. */
  if (!current) return;
  if (work->resync)
    refresh_everything(self, cancellable);
  else if (work->frame != NULL)
    handle_frame(self, work->frame, cancellable);
  else
    localizer_connection_lost(self);
}

/* Queues a message of the subscription (or its end, frame NULL). Past
 * LOCALIZER_MAX_QUEUED_EVENTS waiting (a fetch that is slow, a daemon that
 * floods), the message is dropped and one fetch of everything is queued
 * instead: what was dropped is in what it fetches. */
static void queue_event(LprojdLocalizer *self, VarlinkConnection *connection, GBytes *frame) {
  gboolean resync = FALSE;
  g_mutex_lock(&self->state_lock);
  if (frame != NULL && self->queued_events >= LOCALIZER_MAX_QUEUED_EVENTS) {
    resync = !self->resync_queued;
    self->resync_queued = TRUE;
    g_bytes_unref(frame);
    frame = NULL;
    if (!resync) {
      g_mutex_unlock(&self->state_lock);
      return;
    }
  } else if (frame != NULL) {
    self->queued_events++;
  }
  g_mutex_unlock(&self->state_lock);
  EventWork *work = g_new0(EventWork, 1);
  work->connection = varlink_connection_ref(connection);
  work->frame = frame;
  work->resync = resync;
  work_queue_own(self, work_event, work, free_event_work);
}

guint localizer_queued_events(LprojdLocalizer *self) {
  g_mutex_lock(&self->state_lock);
  guint queued = self->queued_events;
  g_mutex_unlock(&self->state_lock);
  return queued;
}

/* ---- the subscription's connection, on the localizer's context ---- */

/* A background read's state: it must not keep the localizer alive, and its
 * buffer lives in the connection, which it holds. */
typedef struct {
  GWeakRef self;
  VarlinkConnection *connection;
} PendingRead;

static PendingRead *pending_read_new(LprojdLocalizer *self, VarlinkConnection *connection) {
  PendingRead *pending = g_new0(PendingRead, 1);
  g_weak_ref_init(&pending->self, self);
  pending->connection = varlink_connection_ref(connection);
  return pending;
}

static void free_pending_read(gpointer data) {
  PendingRead *pending = data;
  g_weak_ref_clear(&pending->self);
  varlink_connection_unref(pending->connection);
  g_free(pending);
}

/* Queues every complete message read so far, unparsed; FALSE when the
 * stream is over (a message past VARLINK_MAX_EVENT). */
static gboolean queue_buffered(LprojdLocalizer *self, VarlinkConnection *connection) {
  GBytes *frame = NULL;
  g_autoptr(GError) error = NULL;
  while (varlink_connection_next_frame(connection, &frame, &error)) queue_event(self, connection, frame);
  if (error != NULL) g_info("the subscription failed: %s", error->message);
  return error == NULL;
}

static gboolean is_current(LprojdLocalizer *self, VarlinkConnection *connection) {
  g_mutex_lock(&self->state_lock);
  gboolean current = self->subscription == connection;
  g_mutex_unlock(&self->state_lock);
  return current;
}

static void read_events(LprojdLocalizer *self, VarlinkConnection *connection, GCancellable *cancellable);

static void on_events_read(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  PendingRead *pending = data;
  g_autoptr(GError) error = NULL;
  gssize count = varlink_connection_read_finish(pending->connection, result, &error);
  g_autoptr(LprojdLocalizer) self = g_weak_ref_get(&pending->self);
  /* Cancelled, or a connection since replaced: nothing of ours to do. */
  if (self != NULL && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      is_current(self, pending->connection)) {
    if (count > 0 && queue_buffered(self, pending->connection)) {
      /* The work queue may have ended the subscription meanwhile (a
       * message it parsed was its last): then there is nothing more to read. */
      g_mutex_lock(&self->state_lock);
      GCancellable *cancellable = self->subscription == pending->connection && self->subscription_cancellable != NULL
                                      ? g_object_ref(self->subscription_cancellable)
                                      : NULL;
      g_mutex_unlock(&self->state_lock);
      if (cancellable != NULL) {
        read_events(self, pending->connection, cancellable);
        g_object_unref(cancellable);
      }
    } else {
      /* The end of the subscription, in its turn after the events before it. */
      if (error != NULL) g_info("the subscription failed: %s", error->message);
      queue_event(self, pending->connection, NULL);
    }
  }
  free_pending_read(pending);
}

static void read_events(LprojdLocalizer *self, VarlinkConnection *connection, GCancellable *cancellable) {
  /* The read completes on the localizer's context. */
  g_main_context_push_thread_default(self->context);
  varlink_connection_read_async(connection, cancellable, on_events_read, pending_read_new(self, connection));
  g_main_context_pop_thread_default(self->context);
}

/* On the localizer's context: what came with `ready`, then the events as they come. */
static gboolean on_start_reading(gpointer data) {
  g_autoptr(LprojdLocalizer) self = g_weak_ref_get(data);
  if (self == NULL) return G_SOURCE_REMOVE;
  g_mutex_lock(&self->state_lock);
  VarlinkConnection *connection = self->subscription != NULL ? varlink_connection_ref(self->subscription) : NULL;
  GCancellable *cancellable = connection != NULL ? g_object_ref(self->subscription_cancellable) : NULL;
  g_mutex_unlock(&self->state_lock);
  if (connection == NULL) return G_SOURCE_REMOVE;
  if (queue_buffered(self, connection))
    read_events(self, connection, cancellable);
  else
    queue_event(self, connection, NULL);
  varlink_connection_unref(connection);
  g_object_unref(cancellable);
  return G_SOURCE_REMOVE;
}

static void free_weak_ref(gpointer data) {
  g_weak_ref_clear(data);
  g_free(data);
}

static GWeakRef *weak_ref_new(LprojdLocalizer *self) {
  GWeakRef *ref = g_new0(GWeakRef, 1);
  g_weak_ref_init(ref, self);
  return ref;
}

/* From any thread: reading starts on the localizer's context. */
static void start_reading(LprojdLocalizer *self) {
  g_autoptr(GSource) idle = g_idle_source_new();
  g_source_set_priority(idle, G_PRIORITY_DEFAULT);
  g_source_set_callback(idle, on_start_reading, weak_ref_new(self), free_weak_ref);
  g_source_attach(idle, self->context);
}

/* Waits for the `ready` that opens a subscription. */
static gboolean wait_ready(VarlinkConnection *connection, GCancellable *cancellable, GError **error) {
  g_autoptr(JsonObject) first = varlink_connection_receive(connection, NULL, cancellable, error);
  if (first == NULL) return FALSE;
  if (g_strcmp0(member_string(member_object(first, "event"), "type"), "ready") != 0) {
    g_set_error_literal(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "a subscription that does not start ready");
    return FALSE;
  }
  return TRUE;
}

/* Subscribes and waits for `ready` (blocking). */
static VarlinkConnection *subscribe(LprojdLocalizer *self, GCancellable *cancellable, GError **error) {
  g_autoptr(VarlinkConnection) connection = varlink_connection_new(self->socket_path, cancellable, error);
  if (connection == NULL) return NULL;
  varlink_connection_set_max_message(connection, VARLINK_MAX_EVENT);
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "client", self->client_id);
  json_object_set_string_member(parameters, "bundle", self->bundle);
  if (!varlink_connection_send(connection, LPROJD_INTERFACE "Subscribe", parameters, TRUE, cancellable, error))
    return NULL;
  if (!wait_ready(connection, cancellable, error)) return NULL;
  return g_steal_pointer(&connection);
}

/* Makes `connection` the subscription, and reads it. */
static void take_subscription(LprojdLocalizer *self, VarlinkConnection *connection) {
  g_mutex_lock(&self->state_lock);
  if (self->subscription_cancellable != NULL) g_cancellable_cancel(self->subscription_cancellable);
  g_clear_object(&self->subscription_cancellable);
  g_clear_pointer(&self->subscription, varlink_connection_unref);
  self->subscription = connection;
  self->subscription_cancellable = g_cancellable_new();
  g_mutex_unlock(&self->state_lock);
  start_reading(self);
}

gboolean localizer_start(LprojdLocalizer *self, GCancellable *cancellable, GError **error) {
  GError *local_error = NULL;
  /* Subscribed first, so that no change between the fetches and the
   * subscription is missed. */
  VarlinkConnection *subscription = subscribe(self, cancellable, &local_error);
  Mirror *mirror = subscription != NULL ? localizer_fetch_everything(self, cancellable, &local_error) : NULL;
  if (mirror == NULL) {
    if (subscription != NULL) varlink_connection_unref(subscription);
    if (!localizer_is_connection_error(local_error)) {
      g_propagate_error(error, local_error);
      return FALSE;
    }
    /* Without lprojd: the last mirror, and keep trying to connect. */
    g_info("%s; answering from the cached mirror", local_error->message);
    g_error_free(local_error);
    Mirror *cached = cache_load(self->bundle, self->client_id);
    if (cached != NULL) {
      localizer_apply(self, cached, 0);
      self->mirror_is_cached = TRUE;
    }
    localizer_connection_lost(self);
    return TRUE;
  }
  localizer_set_connected(self, TRUE);
  localizer_apply(self, mirror, 0);
  take_subscription(self, subscription);
  return TRUE;
}

/* ---- reconnection ---- */

static void work_reconnect(LprojdLocalizer *self, GTask *task, gpointer data, GCancellable *cancellable) {
  (void)task, (void)data;
  /* A restarted lprojd: the call connection of the old one is gone too. */
  g_clear_pointer(&self->calls, varlink_connection_unref);
  g_autoptr(GError) error = NULL;
  VarlinkConnection *subscription = subscribe(self, cancellable, &error);
  g_mutex_lock(&self->state_lock);
  self->reconnecting = FALSE;
  g_mutex_unlock(&self->state_lock);
  if (subscription == NULL) {
    g_debug("reconnecting to lprojd failed: %s", error->message);
    localizer_connection_lost(self);
  } else {
    take_subscription(self, subscription);
    refresh_everything(self, cancellable);
  }
}

/* On the localizer's context: the next attempt, queued. */
static gboolean on_reconnect(gpointer data) {
  g_autoptr(LprojdLocalizer) self = g_weak_ref_get(data);
  if (self == NULL) return G_SOURCE_REMOVE;
  g_mutex_lock(&self->state_lock);
  g_clear_pointer(&self->reconnect, g_source_unref);
  self->reconnecting = TRUE;
  g_mutex_unlock(&self->state_lock);
  work_queue_own(self, work_reconnect, NULL, NULL);
  return G_SOURCE_REMOVE;
}

/* 50 ms doubling up to 5 s, each delay drawn from its upper half so that
 * many clients of a restarted daemon do not all come back at once. */
static guint next_delay_ms(LprojdLocalizer *self) {
  guint shift = MIN(self->reconnect_attempt, 10u);
  guint delay = MIN((guint)BACKOFF_FIRST_MS << shift, (guint)BACKOFF_MAX_MS);
  self->reconnect_attempt++;
  return delay / 2 + (guint)g_random_int_range(0, (gint32)(delay / 2 + 1));
}

/* With state_lock held. */
static void drop_subscription(LprojdLocalizer *self) {
  if (self->subscription_cancellable != NULL) g_cancellable_cancel(self->subscription_cancellable);
  g_clear_object(&self->subscription_cancellable);
  g_clear_pointer(&self->subscription, varlink_connection_unref);
}

void localizer_connection_lost(LprojdLocalizer *self) {
  gboolean changed = localizer_set_connected(self, FALSE);
  g_mutex_lock(&self->state_lock);
  drop_subscription(self);
  if (self->reconnect == NULL && !self->reconnecting && !self->stopping) {
    self->reconnect = g_timeout_source_new(next_delay_ms(self));
    g_source_set_callback(self->reconnect, on_reconnect, weak_ref_new(self), free_weak_ref);
    g_source_attach(self->reconnect, self->context);
  }
  g_mutex_unlock(&self->state_lock);
  if (changed) localizer_notify(self, 0);
}

void localizer_stop(LprojdLocalizer *self) {
  g_mutex_lock(&self->state_lock);
  drop_subscription(self);
  if (self->reconnect != NULL) g_source_destroy(self->reconnect);
  g_clear_pointer(&self->reconnect, g_source_unref);
  g_mutex_unlock(&self->state_lock);
}
