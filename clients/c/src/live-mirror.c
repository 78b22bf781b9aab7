/* The live mirror: fetching, following events, reconnecting, and the
 * app's requests (clients/README.md, "Life of a localizer").
 *
 * Everything here but the functions the header names as "from any thread"
 * runs on the library's I/O thread, so its state needs no lock: the
 * connections' calls made here complete here. The current mirror is the
 * exception: lookups read it from any thread. */
#include "live-mirror.h"

#include <string.h>

#include "cache.h"
#include "connection-private.h"
#include "lprojd-interface-private.h"

#define BACKOFF_FIRST_MS 50
#define BACKOFF_MAX_MS 5000

typedef struct _Op Op;

struct _LiveMirror {
  gatomicrefcount count;
  char *bundle;
  char *client;
  char *socket_path;
  char **preferred_languages;
  GWeakRef owner;
  GMainContext *owner_context;
  LiveMirrorTell tell;

  /* From any thread. */
  Mirror *mirror; /* swapped under mirror_lock, peeked without it */
  GMutex mirror_lock;
  gint connected;
  gint stopped;
  gint queued_refreshes;

  /* The I/O thread's. */
  LprojdConnection *calls;        /* for calls; replaced once closed */
  LprojdConnection *subscription; /* NULL while there is none */
  gulong event_handler, end_handler;
  GCancellable *stop; /* cancelled by live_mirror_stop: ends the work under way */
  GQueue ops;         /* Op *: the first runs, the rest wait */
  GSource *reconnect;
  guint reconnect_attempt;
  gboolean mirror_is_cached;   /* the mirror was read from the cache, not given by lprojd */
  gboolean refetch_everything; /* a refresh found no tables and was not applied: the next fetches all */
  gboolean told_of_keeping;    /* the app was told the last mirror is kept (once until tables come back) */
};

static LiveMirror *live_mirror_ref(LiveMirror *live) {
  g_atomic_ref_count_inc(&live->count);
  return live;
}

void live_mirror_unref(LiveMirror *live) {
  if (!g_atomic_ref_count_dec(&live->count)) return;
  g_assert(g_queue_is_empty(&live->ops));
  g_clear_object(&live->calls);
  g_clear_object(&live->subscription);
  g_clear_object(&live->stop);
  mirror_unref(live->mirror);
  g_mutex_clear(&live->mirror_lock);
  g_weak_ref_clear(&live->owner);
  g_main_context_unref(live->owner_context);
  g_free(live->bundle);
  g_free(live->client);
  g_free(live->socket_path);
  g_strfreev(live->preferred_languages);
  g_free(live);
}

LiveMirror *live_mirror_new(const LiveMirrorSettings *settings, GObject *owner, GMainContext *context,
                            LiveMirrorTell tell) {
  LiveMirror *live = g_new0(LiveMirror, 1);
  g_atomic_ref_count_init(&live->count);
  live->bundle = g_strdup(settings->bundle);
  live->client = g_strdup(settings->client);
  live->socket_path = g_strdup(settings->socket_path);
  live->preferred_languages = g_strdupv((char **)settings->preferred_languages);
  g_weak_ref_init(&live->owner, owner);
  live->owner_context = g_main_context_ref(context);
  live->tell = tell;
  live->mirror = mirror_new(NULL, NULL, NULL, NULL);
  g_mutex_init(&live->mirror_lock);
  live->stop = g_cancellable_new();
  g_queue_init(&live->ops);
  return live;
}

const Mirror *live_mirror_peek(LiveMirror *live) { return g_atomic_pointer_get(&live->mirror); }

Mirror *live_mirror_ref_current(LiveMirror *live) {
  g_mutex_lock(&live->mirror_lock);
  Mirror *mirror = mirror_ref(live->mirror);
  g_mutex_unlock(&live->mirror_lock);
  return mirror;
}

gboolean live_mirror_get_connected(LiveMirror *live) { return g_atomic_int_get(&live->connected) != 0; }

guint live_mirror_queued_refreshes(LiveMirror *live) { return (guint)g_atomic_int_get(&live->queued_refreshes); }

/* Runs `function` with `live` on the I/O thread, in its turn. */
static void on_io(LiveMirror *live, GSourceFunc function) {
  connection_invoke(function, live_mirror_ref(live), (GDestroyNotify)live_mirror_unref);
}

static gboolean is_connection_error(const GError *error) {
  return g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_DISCONNECTED) ||
         g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE) ||
         g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_TIMEOUT);
}

/* ---- telling the owner ---- */

typedef struct {
  LiveMirror *live;
  guint changes;
  Mirror *retired; /* the mirror swapped out: released once the owner's context ran */
} Telling;

static gboolean deliver(gpointer data) {
  Telling *telling = data;
  if (g_atomic_int_get(&telling->live->stopped)) return G_SOURCE_REMOVE;
  g_autoptr(GObject) owner = g_weak_ref_get(&telling->live->owner);
  if (owner != NULL) telling->live->tell(owner, telling->changes);
  return G_SOURCE_REMOVE;
}

static void telling_free(gpointer data) {
  Telling *telling = data;
  g_clear_pointer(&telling->retired, mirror_unref);
  live_mirror_unref(telling->live);
  g_free(telling);
}

/* Tells the owner `changes` on its context, always later: the strings its
 * thread may hold from `retired` (taken) stay valid until it runs again. */
static void tell(LiveMirror *live, guint changes, Mirror *retired) {
  Telling *telling = g_new0(Telling, 1);
  telling->live = live_mirror_ref(live);
  telling->changes = changes;
  telling->retired = retired;
  g_autoptr(GSource) source = g_idle_source_new();
  g_source_set_priority(source, G_PRIORITY_DEFAULT);
  g_source_set_callback(source, deliver, telling, telling_free);
  g_source_attach(source, live->owner_context);
}

static void set_connected(LiveMirror *live, gboolean connected) {
  if (g_atomic_int_exchange(&live->connected, connected) != connected) tell(live, 0, NULL);
}

/* Swaps `mirror` (taken) in, caches it, and tells the owner `changes`. */
static void apply(LiveMirror *live, Mirror *mirror, guint changes) {
  /* A bundle with no tables left (its directory vanished, during a package
   * upgrade say) keeps the last mirror lprojd gave until tables come back:
   * the last strings are better than keys. The app is told all the same,
   * and the next event fetches everything again (so that a locale chosen
   * meanwhile is not lost). */
  const Mirror *current = live->mirror;
  if (g_hash_table_size(mirror->tables) == 0 && g_hash_table_size(current->tables) > 0 && !live->mirror_is_cached) {
    mirror_unref(mirror);
    /* Told once, and not of a locale: the mirror keeps its own. */
    guint told = changes & ~(guint)LPROJD_CHANGE_LOCALE;
    if (!live->told_of_keeping && told != 0) {
      live->told_of_keeping = TRUE;
      tell(live, told, NULL);
    }
    live->refetch_everything = TRUE;
    return;
  }
  live->refetch_everything = FALSE;
  live->told_of_keeping = FALSE;
  live->mirror_is_cached = FALSE;
  g_mutex_lock(&live->mirror_lock);
  Mirror *retired = live->mirror;
  g_atomic_pointer_set(&live->mirror, mirror);
  g_mutex_unlock(&live->mirror_lock);
  /* The cache is only for lprojd's mirrors, not one read from it. */
  g_autoptr(GError) error = NULL;
  if (live_mirror_get_connected(live) && !cache_save(mirror, live->bundle, live->client, &error))
    g_info("the mirror is not cached: %s", error->message);
  tell(live, changes, retired);
}

/* ---- the connection for calls ---- */

static void on_calls_made(GObject *source, GAsyncResult *result, gpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  /* Its calls fail as it did, each with the error. */
  if (!g_async_initable_init_finish(G_ASYNC_INITABLE(source), result, &error)) g_debug("%s", error->message);
}

/* A connection to make a call on: the last, unless it closed. Calls made
 * while it connects wait for it. */
static LprojdConnection *calls(LiveMirror *live) {
  if (live->calls == NULL || lprojd_connection_get_closed(live->calls)) {
    g_clear_object(&live->calls);
    live->calls = g_object_new(LPROJD_TYPE_CONNECTION, "socket-path", live->socket_path, NULL);
    g_async_initable_init_async(G_ASYNC_INITABLE(live->calls), G_PRIORITY_DEFAULT, NULL, on_calls_made, NULL);
  }
  return live->calls;
}

/* ---- fetching a mirror ---- */

/* A mirror being fetched: its tables' GetTable calls and SupportedLocales
 * go out at once, and their replies come in order. */
typedef struct {
  LiveMirror *live;
  char *locale;
  char *development_locale;
  GHashTable *tables;  /* name -> MirrorTable */
  JsonNode *supported; /* SupportedLocales' reply, fetched or the base's */
  guint outstanding;
  GError *error; /* the first that fails the fetch */
} Fetch;

static void fetch_free(gpointer data) {
  Fetch *fetch = data;
  live_mirror_unref(fetch->live);
  g_free(fetch->locale);
  g_free(fetch->development_locale);
  g_hash_table_unref(fetch->tables);
  g_clear_pointer(&fetch->supported, json_node_unref);
  g_clear_error(&fetch->error);
  g_free(fetch);
}

typedef struct {
  GTask *task; /* the fetch's */
  char *name;
} TableCall;

/* One reply of a fetch (each holds a reference to its task, which this
 * takes); the last builds the mirror. */
static void fetch_step_done(GTask *task) {
  g_autoptr(GTask) owned = task;
  Fetch *fetch = g_task_get_task_data(task);
  if (--fetch->outstanding > 0) return;
  if (fetch->error != NULL) {
    g_task_return_error(task, g_steal_pointer(&fetch->error));
  } else {
    Mirror *mirror = mirror_new(fetch->locale, fetch->development_locale, g_steal_pointer(&fetch->tables),
                                fetch->supported);
    fetch->tables = mirror_copy_tables(NULL);
    g_task_return_pointer(task, mirror, (GDestroyNotify)mirror_unref);
  }
}

static void on_table(GObject *source, GAsyncResult *result, gpointer data) {
  TableCall *call = data;
  Fetch *fetch = g_task_get_task_data(call->task);
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdGetTableReply) reply = lprojd_connection_get_table_finish(LPROJD_CONNECTION(source), result, &error);
  MirrorTable *table = reply != NULL ? mirror_table_new(lprojd_get_table_reply_json(reply), &error) : NULL;
  if (table != NULL) {
    g_hash_table_replace(fetch->tables, g_strdup(call->name), table);
  } else if (g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_TABLE_NOT_FOUND)) {
    /* A table that no longer exists leaves the mirror. */
    g_hash_table_remove(fetch->tables, call->name);
  } else if (fetch->error == NULL) {
    fetch->error = g_steal_pointer(&error);
  }
  fetch_step_done(call->task);
  g_free(call->name);
  g_free(call);
}

static void on_supported(GObject *source, GAsyncResult *result, gpointer data) {
  GTask *task = data;
  Fetch *fetch = g_task_get_task_data(task);
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdSupportedLocalesReply) reply =
      lprojd_connection_supported_locales_finish(LPROJD_CONNECTION(source), result, &error);
  if (reply != NULL) {
    g_clear_pointer(&fetch->supported, json_node_unref);
    fetch->supported = mirror_supported_node(lprojd_supported_locales_reply_json(reply));
  } else if (fetch->error == NULL) {
    fetch->error = g_steal_pointer(&error);
  }
  fetch_step_done(task);
}

static LprojdSupportedLocalesParameters *supported_parameters(LiveMirror *live, const char *locale) {
  LprojdSupportedLocalesParameters *parameters = lprojd_supported_locales_parameters_new(live->bundle);
  lprojd_supported_locales_parameters_set_client(parameters, live->client);
  lprojd_supported_locales_parameters_set_locale(parameters, locale);
  return parameters;
}

/* Fetches `names` in `locale` over `base_tables` (taken; NULL: none), and
 * the supported locales unless `supported` is given: a Mirror. */
static void fetch_mirror(LiveMirror *live, const char *locale, const char *development_locale, const char *const *names,
                         GHashTable *base_tables, JsonNode *supported, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data) {
  GTask *task = g_task_new(NULL, cancellable, callback, user_data);
  Fetch *fetch = g_new0(Fetch, 1);
  fetch->live = live_mirror_ref(live);
  fetch->locale = g_strdup(locale);
  fetch->development_locale = g_strdup(development_locale);
  fetch->tables = base_tables != NULL ? base_tables : mirror_copy_tables(NULL);
  fetch->supported = supported != NULL ? json_node_ref(supported) : NULL;
  fetch->outstanding = 1; /* this function's own, until every call is out */
  g_task_set_task_data(task, fetch, fetch_free);
  LprojdConnection *connection = calls(live);
  for (const char *const *name = names; *name != NULL; name++) {
    g_autoptr(LprojdGetTableParameters) parameters = lprojd_get_table_parameters_new(live->bundle);
    lprojd_get_table_parameters_set_table(parameters, *name);
    lprojd_get_table_parameters_set_locale(parameters, locale);
    lprojd_get_table_parameters_set_client(parameters, live->client);
    TableCall *call = g_new0(TableCall, 1);
    call->task = g_object_ref(task);
    call->name = g_strdup(*name);
    fetch->outstanding++;
    lprojd_connection_get_table_async(connection, parameters, cancellable, on_table, call);
  }
  if (supported == NULL) {
    g_autoptr(LprojdSupportedLocalesParameters) parameters = supported_parameters(live, locale);
    fetch->outstanding++;
    lprojd_connection_supported_locales_async(connection, parameters, cancellable, on_supported, g_object_ref(task));
  }
  fetch_step_done(task);
}

static Mirror *fetch_finish(GAsyncResult *result, GError **error) {
  return g_task_propagate_pointer(G_TASK(result), error);
}

/* `base`'s tables again in `locale`, with the supported locales. */
static void fetch_locale(LiveMirror *live, const Mirror *base, const char *locale, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data) {
  g_autofree const char **names = (const char **)g_hash_table_get_keys_as_array(base->tables, NULL);
  fetch_mirror(live, locale, base->development_locale, names, NULL, NULL, cancellable, callback, user_data);
}

/* `base` with the tables named fetched again (NULL: all). */
static void fetch_tables(LiveMirror *live, const Mirror *base, const char *const *names, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data) {
  g_autofree const char **all = (const char **)g_hash_table_get_keys_as_array(base->tables, NULL);
  fetch_mirror(live, base->locale, base->development_locale, names != NULL ? names : all, mirror_copy_tables(base),
               base->supported, cancellable, callback, user_data);
}

/* ---- the selection, and everything ---- */

static LprojdGetSelectionParameters *selection_parameters(LiveMirror *live) {
  LprojdGetSelectionParameters *parameters = lprojd_get_selection_parameters_new(live->client, live->bundle);
  lprojd_get_selection_parameters_set_preferred_languages(parameters, (const char *const *)live->preferred_languages);
  return parameters;
}

/* The client's locale now: a char *. */
static void fetch_selection(LiveMirror *live, GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer user_data);

static void on_selection(GObject *source, GAsyncResult *result, gpointer data) {
  g_autoptr(GTask) task = data;
  GError *error = NULL;
  g_autoptr(LprojdGetSelectionReply) reply =
      lprojd_connection_get_selection_finish(LPROJD_CONNECTION(source), result, &error);
  if (reply == NULL)
    g_task_return_error(task, error);
  else
    g_task_return_pointer(task, g_strdup(lprojd_selection_get_locale(lprojd_get_selection_reply_get_selection(reply))),
                          g_free);
}

static void fetch_selection(LiveMirror *live, GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer user_data) {
  GTask *task = g_task_new(NULL, cancellable, callback, user_data);
  g_autoptr(LprojdGetSelectionParameters) parameters = selection_parameters(live);
  lprojd_connection_get_selection_async(calls(live), parameters, cancellable, on_selection, task);
}

static char *fetch_selection_finish(GAsyncResult *result, GError **error) {
  return g_task_propagate_pointer(G_TASK(result), error);
}

/* Everything, as at the start: the selection and the bundle (asked at
 * once), then every table in the locale and the supported locales. */
typedef struct {
  LiveMirror *live;
  char *locale;
  LprojdListBundlesReply *bundles;
  guint outstanding;
  GError *error;
} Everything;

static void everything_free(gpointer data) {
  Everything *everything = data;
  live_mirror_unref(everything->live);
  g_free(everything->locale);
  g_clear_pointer(&everything->bundles, lprojd_list_bundles_reply_unref);
  g_clear_error(&everything->error);
  g_free(everything);
}

static void on_everything_fetched(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  g_autoptr(GTask) task = data;
  GError *error = NULL;
  Mirror *mirror = fetch_finish(result, &error);
  if (mirror == NULL)
    g_task_return_error(task, error);
  else
    g_task_return_pointer(task, mirror, (GDestroyNotify)mirror_unref);
}

static void everything_step_done(GTask *task) {
  Everything *everything = g_task_get_task_data(task);
  if (--everything->outstanding > 0) return;
  g_autoptr(GTask) owned = task;
  if (everything->error != NULL) {
    g_task_return_error(task, g_steal_pointer(&everything->error));
    return;
  }
  GPtrArray *bundles = lprojd_list_bundles_reply_get_bundles(everything->bundles);
  LprojdBundle *bundle = NULL;
  for (guint i = 0; i < bundles->len && bundle == NULL; i++)
    if (g_strcmp0(lprojd_bundle_get_name(g_ptr_array_index(bundles, i)), everything->live->bundle) == 0)
      bundle = g_ptr_array_index(bundles, i);
  if (bundle == NULL) {
    g_task_return_new_error(task, LPROJD_ERROR, LPROJD_ERROR_BUNDLE_NOT_FOUND, "lprojd serves no bundle named %s",
                            everything->live->bundle);
    return;
  }
  fetch_mirror(everything->live, everything->locale, lprojd_bundle_get_development_locale(bundle),
               lprojd_bundle_get_tables(bundle), NULL, NULL, g_task_get_cancellable(task), on_everything_fetched,
               g_object_ref(task));
}

static void on_everything_selection(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  GTask *task = data;
  Everything *everything = g_task_get_task_data(task);
  GError *error = NULL;
  everything->locale = fetch_selection_finish(result, &error);
  if (everything->locale == NULL && everything->error == NULL) everything->error = error;
  else g_clear_error(&error);
  everything_step_done(task);
}

static void on_everything_bundles(GObject *source, GAsyncResult *result, gpointer data) {
  GTask *task = data;
  Everything *everything = g_task_get_task_data(task);
  GError *error = NULL;
  everything->bundles = lprojd_connection_list_bundles_finish(LPROJD_CONNECTION(source), result, &error);
  if (everything->bundles == NULL && everything->error == NULL) everything->error = error;
  else g_clear_error(&error);
  everything_step_done(task);
}

static void fetch_everything(LiveMirror *live, GCancellable *cancellable, GAsyncReadyCallback callback,
                             gpointer user_data) {
  GTask *task = g_task_new(NULL, cancellable, callback, user_data);
  Everything *everything = g_new0(Everything, 1);
  everything->live = live_mirror_ref(live);
  everything->outstanding = 2;
  g_task_set_task_data(task, everything, everything_free);
  fetch_selection(live, cancellable, on_everything_selection, task);
  lprojd_connection_list_bundles_async(calls(live), NULL, cancellable, on_everything_bundles, task);
}

/* ---- the queue: one change of the mirror at a time ---- */

typedef enum {
  OP_START,     /* the first connection */
  OP_SELECT,    /* the app's select (locale) or reset (NULL) */
  OP_REFRESH,   /* what lprojd's events call for, merged */
  OP_RECONNECT, /* subscribe again, then fetch everything */
} OpKind;

/* What a refresh fetches: flags, and the tables named (NULL with REFRESH_ALL_TABLES). */
enum {
  REFRESH_EVERYTHING = 1 << 0, /* bundleChanged, or a subscription not fetched since */
  REFRESH_SELECTION = 1 << 1,  /* localeChanged */
  REFRESH_LOCALES = 1 << 2,    /* localesChanged */
  REFRESH_TABLES = 1 << 3,     /* tablesChanged */
  REFRESH_ALL_TABLES = 1 << 4,
  REFRESH_PREFERENCES = 1 << 5, /* preferencesChanged: nothing to fetch */
};

/* An app's request: its task, returned once, by whichever comes first of
 * its end and its cancellation. */
typedef struct {
  GTask *task;
  gint claimed;
  GCancellable *cancellable;
  gulong handler;
} Request;

struct _Op {
  OpKind kind;
  Request *request; /* the app's, or NULL for the live mirror's own */
  char *locale;     /* OP_SELECT's */
  guint refresh;    /* OP_REFRESH's */
  GPtrArray *tables;
  gboolean started;
  LiveMirror *live; /* while it runs */
  Mirror *base;     /* the mirror it started from */
  guint changes;
  gboolean reconnects; /* a refresh of everything for a subscription not fetched since */
};

static gboolean claim(Request *request) { return g_atomic_int_compare_and_exchange(&request->claimed, 0, 1); }

static void on_request_cancelled(GCancellable *cancellable, gpointer data) {
  (void)cancellable;
  Request *request = data;
  if (claim(request))
    g_task_return_new_error(request->task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
}

static Request *request_new(GTask *task) {
  Request *request = g_new0(Request, 1);
  request->task = task;
  GCancellable *cancellable = g_task_get_cancellable(task);
  if (cancellable != NULL) {
    request->cancellable = g_object_ref(cancellable);
    request->handler = g_cancellable_connect(cancellable, G_CALLBACK(on_request_cancelled), request, NULL);
  }
  return request;
}

static void request_free(Request *request) {
  if (request->cancellable != NULL) g_cancellable_disconnect(request->cancellable, request->handler);
  g_clear_object(&request->cancellable);
  g_clear_object(&request->task);
  g_free(request);
}

static void request_return_boolean(Request *request) {
  if (claim(request)) g_task_return_boolean(request->task, TRUE);
}

static void request_return_pointer(Request *request, gpointer value, GDestroyNotify free_value) {
  if (claim(request))
    g_task_return_pointer(request->task, value, free_value);
  else if (value != NULL)
    free_value(value);
}

static void request_return_error(Request *request, GError *error) {
  if (claim(request))
    g_task_return_error(request->task, error);
  else
    g_error_free(error);
}

/* The cancellable of the work for a request: the app's, or the live mirror's own. */
static GCancellable *request_cancellable(LiveMirror *live, Request *request) {
  return request != NULL && request->cancellable != NULL ? request->cancellable : live->stop;
}

static void op_free(Op *op) {
  if (op->request != NULL) request_free(op->request);
  g_free(op->locale);
  g_clear_pointer(&op->tables, g_ptr_array_unref);
  g_clear_pointer(&op->base, mirror_unref);
  g_clear_pointer(&op->live, live_mirror_unref);
  g_free(op);
}

static void run_next(LiveMirror *live);
static void run_start(Op *op);
static void run_select(Op *op);
static void run_refresh(Op *op);
static void run_reconnect(Op *op);
static void connection_lost(LiveMirror *live);

/* The running op is over: the next runs. */
static void op_done(Op *op) {
  LiveMirror *live = live_mirror_ref(op->live);
  g_assert(g_queue_peek_head(&live->ops) == op);
  g_queue_pop_head(&live->ops);
  if (op->kind == OP_REFRESH) g_atomic_int_dec_and_test(&live->queued_refreshes);
  op_free(op);
  run_next(live);
  live_mirror_unref(live);
}

static void run_next(LiveMirror *live) {
  Op *op = g_queue_peek_head(&live->ops);
  if (op == NULL || op->started) return;
  op->started = TRUE;
  op->live = live_mirror_ref(live);
  op->base = live_mirror_ref_current(live);
  if (g_atomic_int_get(&live->stopped) || (op->request != NULL && g_atomic_int_get(&op->request->claimed))) {
    /* Stopped, or cancelled before its turn. */
    if (op->request != NULL)
      request_return_error(op->request, g_error_new_literal(G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled"));
    op_done(op);
    return;
  }
  switch (op->kind) {
    case OP_START: run_start(op); break;
    case OP_SELECT: run_select(op); break;
    case OP_REFRESH: run_refresh(op); break;
    case OP_RECONNECT: run_reconnect(op); break;
  }
}

static void queue_op(LiveMirror *live, Op *op) {
  g_queue_push_tail(&live->ops, op);
  if (op->kind == OP_REFRESH) g_atomic_int_inc(&live->queued_refreshes);
  run_next(live);
}

/* Queues what an event calls for, merged into a refresh that waits. */
static void queue_refresh(LiveMirror *live, guint refresh, const char *const *tables) {
  Op *last = g_queue_peek_tail(&live->ops);
  Op *op = last != NULL && last->kind == OP_REFRESH && !last->started ? last : NULL;
  gboolean fresh = op == NULL;
  if (fresh) {
    op = g_new0(Op, 1);
    op->kind = OP_REFRESH;
  }
  if (refresh & REFRESH_TABLES && !(op->refresh & REFRESH_ALL_TABLES)) {
    if (tables == NULL || tables[0] == NULL) {
      refresh |= REFRESH_ALL_TABLES;
    } else {
      if (op->tables == NULL) op->tables = g_ptr_array_new_with_free_func(g_free);
      for (const char *const *table = tables; *table != NULL; table++) {
        gboolean known = FALSE;
        for (guint i = 0; i < op->tables->len && !known; i++) known = strcmp(op->tables->pdata[i], *table) == 0;
        if (!known) g_ptr_array_add(op->tables, g_strdup(*table));
        if (op->tables->len > LIVE_MIRROR_MAX_NAMED_TABLES) {
          refresh |= REFRESH_ALL_TABLES;
          break;
        }
      }
    }
    if (refresh & REFRESH_ALL_TABLES) g_clear_pointer(&op->tables, g_ptr_array_unref);
  }
  op->refresh |= refresh;
  if (fresh) queue_op(live, op);
}

/* ---- start ---- */

static void subscribe(LiveMirror *live, Op *op);

static void run_start(Op *op) { subscribe(op->live, op); }

/* Without lprojd at the start: the cached mirror, and keep trying. */
static void start_without_lprojd(Op *op, const GError *error) {
  LiveMirror *live = op->live;
  g_info("%s; answering from the cached mirror", error->message);
  Mirror *cached = cache_load(live->bundle, live->client);
  if (cached != NULL) {
    apply(live, cached, 0);
    live->mirror_is_cached = TRUE;
  }
  connection_lost(live);
  request_return_boolean(op->request);
}

/* ---- the subscription ---- */

static void on_event(LprojdConnection *connection, LprojdSubscribeReply *reply, gpointer data);
static void on_stream_ended(LprojdConnection *connection, GError *error, gpointer data);

static void drop_subscription(LiveMirror *live) {
  if (live->subscription == NULL) return;
  g_signal_handler_disconnect(live->subscription, live->event_handler);
  g_signal_handler_disconnect(live->subscription, live->end_handler);
  lprojd_connection_close(live->subscription);
  g_clear_object(&live->subscription);
}

static void on_subscription_fetched(GObject *source, GAsyncResult *result, gpointer data);

static void on_subscribed(GObject *source, GAsyncResult *result, gpointer data) {
  Op *op = data;
  LiveMirror *live = op->live;
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdSubscribeReply) reply = lprojd_connection_subscribe_finish(LPROJD_CONNECTION(source), result, &error);
  if (reply != NULL && lprojd_event_get_kind(lprojd_subscribe_reply_get_event(reply)) != LPROJD_EVENT_KIND_READY)
    g_set_error_literal(&error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "a subscription that does not start ready");
  if (error != NULL || live->subscription != LPROJD_CONNECTION(source)) {
    if (live->subscription == LPROJD_CONNECTION(source)) drop_subscription(live);
    if (error == NULL)
      g_set_error_literal(&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
    if (op->kind == OP_START && is_connection_error(error)) {
      start_without_lprojd(op, error);
    } else if (op->kind == OP_START) {
      request_return_error(op->request, g_steal_pointer(&error));
    } else {
      g_debug("reconnecting to lprojd failed: %s", error->message);
      connection_lost(live);
    }
    op_done(op);
    return;
  }
  /* Subscribed first, so that no change between the fetches and the
   * subscription is missed; then everything. */
  fetch_everything(live, request_cancellable(live, op->request), on_subscription_fetched, op);
}

static void on_subscription_fetched(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  Op *op = data;
  LiveMirror *live = op->live;
  g_autoptr(GError) error = NULL;
  Mirror *mirror = fetch_finish(result, &error);
  if (mirror == NULL) {
    if (op->kind == OP_START && is_connection_error(error)) {
      drop_subscription(live);
      start_without_lprojd(op, error);
    } else if (op->kind == OP_START) {
      drop_subscription(live);
      request_return_error(op->request, g_steal_pointer(&error));
    } else {
      g_info("fetching %s after connecting failed: %s", live->bundle, error->message);
      if (is_connection_error(error)) connection_lost(live);
    }
    op_done(op);
    return;
  }
  live->reconnect_attempt = 0;
  set_connected(live, TRUE);
  apply(live, mirror, op->kind == OP_START ? 0 : LPROJD_CHANGE_RECONNECTED | mirror_difference(op->base, mirror));
  if (op->request != NULL) request_return_boolean(op->request);
  op_done(op);
}

static void subscribe(LiveMirror *live, Op *op) {
  drop_subscription(live);
  /* A restarted lprojd: the call connection of the old one is gone too. */
  g_clear_object(&live->calls);
  live->subscription = g_object_new(LPROJD_TYPE_CONNECTION, "socket-path", live->socket_path, NULL);
  live->event_handler = g_signal_connect(live->subscription, "subscribe-reply", G_CALLBACK(on_event), live);
  live->end_handler = g_signal_connect(live->subscription, "stream-ended", G_CALLBACK(on_stream_ended), live);
  g_async_initable_init_async(G_ASYNC_INITABLE(live->subscription), G_PRIORITY_DEFAULT, NULL, on_calls_made, NULL);
  g_autoptr(LprojdSubscribeParameters) parameters = lprojd_subscribe_parameters_new();
  lprojd_subscribe_parameters_set_client(parameters, live->client);
  lprojd_subscribe_parameters_set_bundle(parameters, live->bundle);
  lprojd_connection_subscribe_async(live->subscription, parameters, request_cancellable(live, op->request),
                                    on_subscribed, op);
}

/* The subscription is filtered to our client and bundle; an event that
 * names another is not ours all the same. */
static gboolean names_us(const char *value, const char *ours) { return value == NULL || strcmp(value, ours) == 0; }

static void on_event(LprojdConnection *connection, LprojdSubscribeReply *reply, gpointer data) {
  LiveMirror *live = data;
  if (connection != live->subscription) return;
  LprojdEvent *event = lprojd_subscribe_reply_get_event(reply);
  if (!names_us(lprojd_event_get_bundle(event), live->bundle)) return;
  gboolean ours = names_us(lprojd_event_get_client(event), live->client);
  switch ((gint)lprojd_event_get_kind(event)) {
    case LPROJD_EVENT_KIND_SHUTDOWN: connection_lost(live); break;
    case LPROJD_EVENT_KIND_BUNDLE_CHANGED: queue_refresh(live, REFRESH_EVERYTHING, NULL); break;
    case LPROJD_EVENT_KIND_LOCALE_CHANGED:
      if (ours) queue_refresh(live, REFRESH_SELECTION, NULL);
      break;
    case LPROJD_EVENT_KIND_TABLES_CHANGED: queue_refresh(live, REFRESH_TABLES, lprojd_event_get_tables(event)); break;
    case LPROJD_EVENT_KIND_LOCALES_CHANGED: queue_refresh(live, REFRESH_LOCALES, NULL); break;
    case LPROJD_EVENT_KIND_PREFERENCES_CHANGED:
      if (ours) queue_refresh(live, REFRESH_PREFERENCES, NULL);
      break;
    default: break; /* ready, a table's error, or a newer lprojd's event: nothing to fetch */
  }
}

static void on_stream_ended(LprojdConnection *connection, GError *error, gpointer data) {
  LiveMirror *live = data;
  if (connection != live->subscription) return;
  g_info("the subscription ended: %s", error != NULL ? error->message : "lprojd ended it");
  connection_lost(live);
}

/* ---- reconnection ---- */

static gboolean on_reconnect(gpointer data) {
  LiveMirror *live = data;
  g_clear_pointer(&live->reconnect, g_source_unref);
  if (g_atomic_int_get(&live->stopped)) return G_SOURCE_REMOVE;
  Op *op = g_new0(Op, 1);
  op->kind = OP_RECONNECT;
  queue_op(live, op);
  return G_SOURCE_REMOVE;
}

static void run_reconnect(Op *op) { subscribe(op->live, op); }

/* 50 ms doubling up to 5 s, each delay drawn from its upper half so that
 * many clients of a restarted daemon do not all come back at once. */
static guint next_delay_ms(LiveMirror *live) {
  guint shift = MIN(live->reconnect_attempt, 10u);
  guint delay = MIN((guint)BACKOFF_FIRST_MS << shift, (guint)BACKOFF_MAX_MS);
  live->reconnect_attempt++;
  return delay / 2 + (guint)g_random_int_range(0, (gint32)(delay / 2 + 1));
}

/* Drops the subscription and tries again later, with backoff. */
static void connection_lost(LiveMirror *live) {
  set_connected(live, FALSE);
  drop_subscription(live);
  if (live->reconnect != NULL || g_atomic_int_get(&live->stopped)) return;
  for (GList *link = live->ops.head; link != NULL; link = link->next)
    if (((Op *)link->data)->kind == OP_RECONNECT && !((Op *)link->data)->started) return;
  live->reconnect = g_timeout_source_new(next_delay_ms(live));
  g_source_set_callback(live->reconnect, on_reconnect, live_mirror_ref(live), (GDestroyNotify)live_mirror_unref);
  g_source_attach(live->reconnect, g_main_context_get_thread_default());
}

/* ---- refreshing after events ---- */

static void on_refreshed(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  Op *op = data;
  LiveMirror *live = op->live;
  g_autoptr(GError) error = NULL;
  Mirror *mirror = fetch_finish(result, &error);
  if (mirror != NULL) {
    if (op->changes & (LPROJD_CHANGE_BUNDLE | LPROJD_CHANGE_RECONNECTED))
      op->changes |= mirror_difference(op->base, mirror);
    if (op->reconnects) {
      live->reconnect_attempt = 0;
      set_connected(live, TRUE);
    }
    apply(live, mirror, op->changes);
  } else {
    /* The last mirror stays; a later event or reconnection fetches again. */
    g_info("a refresh of %s failed: %s", live->bundle, error->message);
    if (is_connection_error(error)) connection_lost(live);
  }
  op_done(op);
}

/* After GetSelection: the locale's mirror if it changed (or the locales
 * did), else the tables named. */
static void on_refresh_selection(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  Op *op = data;
  LiveMirror *live = op->live;
  g_autoptr(GError) error = NULL;
  g_autofree char *locale = fetch_selection_finish(result, &error);
  if (locale == NULL) {
    g_info("a refresh of %s failed: %s", live->bundle, error->message);
    if (is_connection_error(error)) connection_lost(live);
    op_done(op);
    return;
  }
  /* A localeChanged event may be old news (the subscription and the calls
   * are two connections, so an earlier select's event can come after a
   * later select was applied): the selection now is lprojd's answer, and
   * the same locale needs nothing fetched for it. */
  gboolean new_locale = g_strcmp0(locale, op->base->locale) != 0;
  if (new_locale) op->changes |= LPROJD_CHANGE_LOCALE;
  if (op->refresh & REFRESH_LOCALES) op->changes |= LPROJD_CHANGE_LOCALES;
  if (new_locale || op->refresh & REFRESH_LOCALES) {
    if (op->refresh & REFRESH_TABLES) op->changes |= LPROJD_CHANGE_TABLES;
    fetch_locale(live, op->base, locale, live->stop, on_refreshed, op);
  } else if (op->refresh & REFRESH_TABLES) {
    op->changes |= LPROJD_CHANGE_TABLES;
    fetch_tables(live, op->base, op->tables != NULL ? (const char *const *)op->tables->pdata : NULL, live->stop,
                 on_refreshed, op);
  } else {
    if (op->changes != 0) tell(live, op->changes, NULL);
    op_done(op);
  }
}

static void run_refresh(Op *op) {
  LiveMirror *live = op->live;
  if (op->tables != NULL) g_ptr_array_add(op->tables, NULL);
  if (op->refresh & REFRESH_PREFERENCES) op->changes |= LPROJD_CHANGE_PREFERENCES;
  guint fetching = op->refresh & ~(guint)REFRESH_PREFERENCES;
  if (fetching == 0) {
    tell(live, op->changes, NULL);
    op_done(op);
    return;
  }
  if (!live_mirror_get_connected(live) && live->subscription == NULL) {
    /* Events of a subscription since lost: the reconnection fetches everything. */
    op_done(op);
    return;
  }
  gboolean connected = live_mirror_get_connected(live);
  if (op->refresh & REFRESH_EVERYTHING || op->base->locale == NULL || live->refetch_everything || !connected) {
    /* Subscribed but not fetched since (as when the bundle was missing):
     * any event fetches everything. */
    op->changes |= connected ? LPROJD_CHANGE_BUNDLE : LPROJD_CHANGE_RECONNECTED;
    op->reconnects = !connected;
    fetch_everything(live, live->stop, on_refreshed, op);
  } else if (op->refresh & (REFRESH_SELECTION | REFRESH_LOCALES)) {
    fetch_selection(live, live->stop, on_refresh_selection, op);
  } else {
    op->changes |= LPROJD_CHANGE_TABLES;
    fetch_tables(live, op->base, op->tables != NULL ? (const char *const *)op->tables->pdata : NULL, live->stop,
                 on_refreshed, op);
  }
}

/* ---- select and reset ---- */

static void on_selected_fetched(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  Op *op = data;
  GError *error = NULL;
  Mirror *mirror = fetch_finish(result, &error);
  if (mirror == NULL) {
    request_return_error(op->request, error);
  } else {
    apply(op->live, mirror, LPROJD_CHANGE_LOCALE);
    request_return_boolean(op->request);
  }
  op_done(op);
}

/* Applies a Selection reply at once: the mirror in its locale. */
static void on_selected(Op *op, LprojdSelection *selection, GError *error) {
  if (selection == NULL) {
    request_return_error(op->request, error);
    op_done(op);
    return;
  }
  const char *locale = lprojd_selection_get_locale(selection);
  if (g_strcmp0(locale, op->base->locale) == 0) {
    request_return_boolean(op->request);
    op_done(op);
    return;
  }
  fetch_locale(op->live, op->base, locale, request_cancellable(op->live, op->request), on_selected_fetched, op);
}

static void on_select_locale(GObject *source, GAsyncResult *result, gpointer data) {
  GError *error = NULL;
  g_autoptr(LprojdSelectLocaleReply) reply =
      lprojd_connection_select_locale_finish(LPROJD_CONNECTION(source), result, &error);
  on_selected(data, reply != NULL ? lprojd_select_locale_reply_get_selection(reply) : NULL, error);
}

static void on_reset_selection(GObject *source, GAsyncResult *result, gpointer data) {
  GError *error = NULL;
  g_autoptr(LprojdResetSelectionReply) reply =
      lprojd_connection_reset_selection_finish(LPROJD_CONNECTION(source), result, &error);
  on_selected(data, reply != NULL ? lprojd_reset_selection_reply_get_selection(reply) : NULL, error);
}

static GError *unavailable(LiveMirror *live) {
  return g_error_new(LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE, "lprojd is not available at %s", live->socket_path);
}

static void run_select(Op *op) {
  LiveMirror *live = op->live;
  if (!live_mirror_get_connected(live)) {
    request_return_error(op->request, unavailable(live));
    op_done(op);
    return;
  }
  GCancellable *cancellable = request_cancellable(live, op->request);
  if (op->locale != NULL) {
    g_autoptr(LprojdSelectLocaleParameters) parameters =
        lprojd_select_locale_parameters_new(live->client, live->bundle, op->locale);
    lprojd_connection_select_locale_async(calls(live), parameters, cancellable, on_select_locale, op);
  } else {
    g_autoptr(LprojdResetSelectionParameters) parameters =
        lprojd_reset_selection_parameters_new(live->client, live->bundle);
    lprojd_connection_reset_selection_async(calls(live), parameters, cancellable, on_reset_selection, op);
  }
}

/* ---- requests from the app's thread ---- */

typedef struct {
  LiveMirror *live;
  Op *op;
} Queuing;

static gboolean queue_on_io(gpointer data) {
  Queuing *queuing = data;
  queue_op(queuing->live, g_steal_pointer(&queuing->op));
  return G_SOURCE_REMOVE;
}

static void queuing_free(gpointer data) {
  Queuing *queuing = data;
  if (queuing->op != NULL) op_free(queuing->op);
  live_mirror_unref(queuing->live);
  g_free(queuing);
}

static void queue_request(LiveMirror *live, OpKind kind, const char *locale, GTask *task) {
  Queuing *queuing = g_new0(Queuing, 1);
  queuing->live = live_mirror_ref(live);
  queuing->op = g_new0(Op, 1);
  queuing->op->kind = kind;
  queuing->op->locale = g_strdup(locale);
  queuing->op->request = request_new(task);
  connection_invoke(queue_on_io, queuing, queuing_free);
}

void live_mirror_start(LiveMirror *live, GTask *task) { queue_request(live, OP_START, NULL, task); }

void live_mirror_select(LiveMirror *live, const char *locale, GTask *task) {
  queue_request(live, OP_SELECT, locale, task);
}

/* A call that does not change the mirror: made at once, on the calls' connection. */
typedef enum { ASK_LOOKUP, ASK_FORMAT, ASK_SUPPORTED } AskKind;

typedef struct {
  LiveMirror *live;
  AskKind kind;
  Request *request;
  gpointer parameters;
  GDestroyNotify free_parameters;
} Ask;

static void ask_free(Ask *ask) {
  live_mirror_unref(ask->live);
  if (ask->request != NULL) request_free(ask->request);
  if (ask->parameters != NULL) ask->free_parameters(ask->parameters);
  g_free(ask);
}

static void on_asked(GObject *source, GAsyncResult *result, gpointer data) {
  Ask *ask = data;
  LprojdConnection *connection = LPROJD_CONNECTION(source);
  GError *error = NULL;
  switch (ask->kind) {
    case ASK_LOOKUP: {
      g_autoptr(LprojdLookupReply) reply = lprojd_connection_lookup_finish(connection, result, &error);
      if (reply != NULL) request_return_pointer(ask->request, g_strdup(lprojd_lookup_reply_get_value(reply)), g_free);
      break;
    }
    case ASK_FORMAT: {
      g_autoptr(LprojdFormatReply) reply = lprojd_connection_format_finish(connection, result, &error);
      if (reply != NULL) request_return_pointer(ask->request, g_strdup(lprojd_format_reply_get_value(reply)), g_free);
      break;
    }
    case ASK_SUPPORTED: {
      g_autoptr(LprojdSupportedLocalesReply) reply =
          lprojd_connection_supported_locales_finish(connection, result, &error);
      if (reply != NULL) {
        GPtrArray *locales = lprojd_supported_locales_reply_get_locales(reply);
        GPtrArray *names = g_ptr_array_new_full(locales->len, (GDestroyNotify)lprojd_locale_name_unref);
        for (guint i = 0; i < locales->len; i++) g_ptr_array_add(names, lprojd_locale_name_ref(locales->pdata[i]));
        request_return_pointer(ask->request, names, (GDestroyNotify)g_ptr_array_unref);
      }
      break;
    }
  }
  if (error != NULL) request_return_error(ask->request, error);
  ask_free(ask);
}

static gboolean ask_on_io(gpointer data) {
  Ask *ask = data;
  LiveMirror *live = ask->live;
  if (!live_mirror_get_connected(live)) {
    request_return_error(ask->request, unavailable(live));
    ask_free(ask);
    return G_SOURCE_REMOVE;
  }
  const char *locale = live->mirror->locale;
  GCancellable *cancellable = request_cancellable(live, ask->request);
  switch (ask->kind) {
    case ASK_LOOKUP:
      if (lprojd_lookup_parameters_get_locale(ask->parameters) == NULL)
        lprojd_lookup_parameters_set_locale(ask->parameters, locale);
      lprojd_connection_lookup_async(calls(live), ask->parameters, cancellable, on_asked, ask);
      break;
    case ASK_FORMAT:
      if (lprojd_format_parameters_get_locale(ask->parameters) == NULL)
        lprojd_format_parameters_set_locale(ask->parameters, locale);
      lprojd_connection_format_async(calls(live), ask->parameters, cancellable, on_asked, ask);
      break;
    case ASK_SUPPORTED:
      lprojd_connection_supported_locales_async(calls(live), ask->parameters, cancellable, on_asked, ask);
      break;
  }
  return G_SOURCE_REMOVE;
}

static void ask(LiveMirror *live, AskKind kind, gpointer parameters, GDestroyNotify free_parameters, GTask *task) {
  Ask *asking = g_new0(Ask, 1);
  asking->live = live_mirror_ref(live);
  asking->kind = kind;
  asking->request = request_new(task);
  asking->parameters = parameters;
  asking->free_parameters = free_parameters;
  connection_invoke(ask_on_io, asking, NULL);
}

void live_mirror_lookup(LiveMirror *live, LprojdLookupParameters *parameters, GTask *task) {
  ask(live, ASK_LOOKUP, lprojd_lookup_parameters_ref(parameters), (GDestroyNotify)lprojd_lookup_parameters_unref, task);
}

void live_mirror_format(LiveMirror *live, LprojdFormatParameters *parameters, GTask *task) {
  ask(live, ASK_FORMAT, lprojd_format_parameters_ref(parameters), (GDestroyNotify)lprojd_format_parameters_unref, task);
}

void live_mirror_fetch_supported(LiveMirror *live, const char *display_locale, GTask *task) {
  ask(live, ASK_SUPPORTED, supported_parameters(live, display_locale),
      (GDestroyNotify)lprojd_supported_locales_parameters_unref, task);
}

/* ---- stopping ---- */

static gboolean stop_on_io(gpointer data) {
  LiveMirror *live = data;
  drop_subscription(live);
  if (live->calls != NULL) lprojd_connection_close(live->calls);
  if (live->reconnect != NULL) g_source_destroy(live->reconnect);
  g_clear_pointer(&live->reconnect, g_source_unref);
  return G_SOURCE_REMOVE;
}

void live_mirror_stop(LiveMirror *live) {
  g_atomic_int_set(&live->stopped, TRUE);
  g_cancellable_cancel(live->stop);
  on_io(live, stop_on_io);
}
