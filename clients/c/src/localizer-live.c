/* Staying live: the subscription's events, read in the background on the
 * localizer's context, and reconnection with backoff (clients/README.md,
 * "Life of a localizer", steps 5 and 6). */
#include <string.h>

#include "localizer-private.h"

#define BACKOFF_FIRST_MS 50
#define BACKOFF_MAX_MS 5000

gboolean localizer_is_connection_error(const GError *error) {
  return g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_DISCONNECTED) ||
         g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE);
}

static void read_events(LprojdLocalizer *self);

/* ---- events ---- */

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
static Mirror *refresh_locales(LprojdLocalizer *self, const Mirror *base, guint *changes, GError **error) {
  g_autofree char *locale = localizer_fetch_selection(self, error);
  if (locale == NULL) return NULL;
  if (g_strcmp0(locale, base->locale) != 0) *changes |= LPROJD_CHANGE_LOCALE;
  return localizer_fetch_locale(self, base, locale, error);
}

/* The mirror an event calls for (NULL with *error NULL: nothing to fetch),
 * and what changed. */
static Mirror *refresh_for_event(LprojdLocalizer *self, const Mirror *base, JsonObject *event, guint *changes,
                                 GError **error) {
  const char *type = member_string(event, "type");
  if (type == NULL || !names_us(member_string(event, "bundle"), self->bundle)) return NULL;
  gboolean for_client = names_us(member_string(event, "client"), self->client);
  gboolean refetch = self->refetch_everything && strcmp(type, "preferencesChanged") != 0;
  if (strcmp(type, "bundleChanged") == 0 || base->locale == NULL || refetch) {
    Mirror *mirror = localizer_fetch_everything(self, error);
    if (mirror != NULL) *changes = LPROJD_CHANGE_BUNDLE | mirror_difference(base, mirror);
    return mirror;
  }
  if (strcmp(type, "localeChanged") == 0 && for_client) {
    const char *locale = member_string(event, "locale");
    /* Our own select() applied it already. */
    if (locale == NULL || strcmp(locale, base->locale) == 0) return NULL;
    *changes = LPROJD_CHANGE_LOCALE;
    return localizer_fetch_locale(self, base, locale, error);
  }
  if (strcmp(type, "tablesChanged") == 0) {
    g_auto(GStrv) tables = event_tables(event);
    *changes = LPROJD_CHANGE_TABLES;
    return localizer_fetch_tables(self, base, (const char *const *)tables, error);
  }
  if (strcmp(type, "localesChanged") == 0) {
    *changes = LPROJD_CHANGE_LOCALES;
    return refresh_locales(self, base, changes, error);
  }
  if (strcmp(type, "preferencesChanged") == 0 && for_client) localizer_notify(self, LPROJD_CHANGE_PREFERENCES);
  return NULL;
}

/* After `ready` on a new connection: everything again, and the app is told. */
static void refresh_after_reconnect(LprojdLocalizer *self) {
  g_autoptr(Mirror) base = localizer_ref_mirror(self);
  g_autoptr(GError) error = NULL;
  Mirror *mirror = localizer_fetch_everything(self, &error);
  if (mirror == NULL) {
    g_info("refresh after reconnecting failed: %s", error->message);
    if (localizer_is_connection_error(error)) localizer_connection_lost(self);
    return;
  }
  {
    g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->lock);
    self->connected = TRUE;
    self->reconnect_attempt = 0;
  }
  localizer_apply(self, mirror, LPROJD_CHANGE_RECONNECTED | mirror_difference(base, mirror));
}

/* Handles one event; FALSE when the subscription is over. */
static gboolean handle_event(LprojdLocalizer *self, JsonObject *parameters) {
  JsonObject *event = member_object(parameters, "event");
  const char *type = member_string(event, "type");
  if (type == NULL) return TRUE; /* an event of a newer daemon, perhaps: not ours to judge */
  if (strcmp(type, "shutdown") == 0) return FALSE;
  /* Not fetched since (re)subscribing, as when the bundle was missing:
   * `ready`, or any later event, tries everything again. */
  if (!lprojd_localizer_is_connected(self)) {
    refresh_after_reconnect(self);
    return TRUE;
  }
  if (strcmp(type, "ready") == 0) return TRUE;
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->lock);
  g_autoptr(Mirror) base = localizer_ref_mirror(self);
  g_autoptr(GError) error = NULL;
  guint changes = 0;
  Mirror *mirror = refresh_for_event(self, base, event, &changes, &error);
  if (mirror != NULL) {
    localizer_apply(self, mirror, changes);
  } else if (error != NULL) {
    /* The last mirror stays; a later event or reconnection fetches again. */
    g_info("refresh after %s failed: %s", type, error->message);
    if (localizer_is_connection_error(error)) return FALSE;
  }
  return TRUE;
}

/* ---- the subscription's connection ---- */

/* A background read's state: it must not keep the localizer alive, and its
 * buffer lives in the connection, which it holds. */
typedef struct {
  GWeakRef self;
  VarlinkConnection *connection;
} PendingRead;

static void free_pending_read(PendingRead *pending) {
  g_weak_ref_clear(&pending->self);
  varlink_connection_unref(pending->connection);
  g_free(pending);
}

/* Handles every complete reply read so far; FALSE when the subscription is over. */
static gboolean handle_buffered(LprojdLocalizer *self, VarlinkConnection *connection) {
  JsonObject *parameters = NULL;
  gboolean continues = FALSE;
  g_autoptr(GError) error = NULL;
  while (varlink_connection_next_buffered(connection, &parameters, &continues, &error)) {
    if (parameters == NULL) {
      g_info("the subscription failed: %s", error->message);
      return FALSE;
    }
    gboolean live = handle_event(self, parameters) && continues;
    json_object_unref(parameters);
    if (!live || self->subscription != connection) return FALSE;
  }
  if (error != NULL) g_info("the subscription failed: %s", error->message);
  return error == NULL;
}

static void on_events_read(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  PendingRead *pending = data;
  g_autoptr(GError) error = NULL;
  gssize count = varlink_connection_read_finish(pending->connection, result, &error);
  g_autoptr(LprojdLocalizer) self = g_weak_ref_get(&pending->self);
  /* Cancelled, or a connection since replaced: nothing of ours to do. */
  gboolean current = self != NULL && self->subscription == pending->connection &&
                     !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  VarlinkConnection *connection = pending->connection;
  if (current && count > 0 && handle_buffered(self, connection))
    read_events(self);
  else if (current && self->subscription == connection)
    localizer_connection_lost(self);
  free_pending_read(pending);
}

static void read_events(LprojdLocalizer *self) {
  PendingRead *pending = g_new0(PendingRead, 1);
  g_weak_ref_init(&pending->self, self);
  pending->connection = varlink_connection_ref(self->subscription);
  /* The read completes on the localizer's context, whichever thread asks. */
  g_main_context_push_thread_default(self->context);
  varlink_connection_read_async(self->subscription, self->subscription_cancellable, on_events_read, pending);
  g_main_context_pop_thread_default(self->context);
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

gboolean localizer_subscribe(LprojdLocalizer *self, gboolean wait, GCancellable *cancellable, GError **error) {
  g_autoptr(VarlinkConnection) connection = varlink_connection_new(self->socket_path, cancellable, error);
  if (connection == NULL) return FALSE;
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "client", self->client);
  json_object_set_string_member(parameters, "bundle", self->bundle);
  if (!varlink_connection_send(connection, LPROJD_INTERFACE "Subscribe", parameters, TRUE, cancellable, error))
    return FALSE;
  if (wait && !wait_ready(connection, cancellable, error)) return FALSE;
  self->subscription = g_steal_pointer(&connection);
  self->subscription_cancellable = g_cancellable_new();
  read_events(self);
  return TRUE;
}

/* ---- reconnection ---- */

static gboolean on_reconnect(gpointer data) {
  LprojdLocalizer *self = data;
  g_clear_pointer(&self->reconnect, g_source_unref);
  g_autoptr(GError) error = NULL;
  /* Its `ready` arrives through the background read and triggers the refresh. */
  if (!localizer_subscribe(self, FALSE, NULL, &error)) localizer_connection_lost(self);
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

static void drop_connections(LprojdLocalizer *self) {
  if (self->subscription_cancellable != NULL) g_cancellable_cancel(self->subscription_cancellable);
  g_clear_object(&self->subscription_cancellable);
  g_clear_pointer(&self->subscription, varlink_connection_unref);
  g_clear_pointer(&self->calls, varlink_connection_unref);
  self->connected = FALSE;
}

void localizer_connection_lost(LprojdLocalizer *self) {
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->lock);
  drop_connections(self);
  if (self->reconnect != NULL) return;
  self->reconnect = g_timeout_source_new(next_delay_ms(self));
  g_source_set_callback(self->reconnect, on_reconnect, self, NULL);
  g_source_attach(self->reconnect, self->context);
}

void localizer_stop(LprojdLocalizer *self) {
  g_autoptr(GRecMutexLocker) locker = g_rec_mutex_locker_new(&self->lock);
  drop_connections(self);
  if (self->reconnect != NULL) g_source_destroy(self->reconnect);
  g_clear_pointer(&self->reconnect, g_source_unref);
}
