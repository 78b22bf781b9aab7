/* LprojdConnection: Varlink to lprojd, with one I/O model.
 *
 * Every socket operation is a GIO async operation on one thread of the
 * library's own, which runs its own main context (as GDBus runs its
 * worker): calls from any thread are queued there, written in order, and
 * their replies read, cut at their NULs, checked (size, nesting, then the
 * interface's types) and parsed there, so a large reply never holds the
 * app's main loop. Each call completes on the thread-default context of
 * the thread that made it (a GTask); a _sync call makes a context of its
 * own and waits in it, as GIO's do. There is no thread pool and no lock
 * around the I/O: the state of a link lives on that thread alone. */
#include "connection-private.h"

#include <gio/gunixsocketaddress.h>
#include <string.h>

#include "lprojd-interface-private.h"
#include "reply-shape.h"
#include "sync-wait.h"

#define READ_CHUNK (64u * 1024u)

/* ---- the library's I/O thread ---- */

static gpointer run_io(gpointer data) {
  GMainContext *context = data;
  g_main_context_push_thread_default(context);
  for (;;) g_main_context_iteration(context, TRUE);
  return NULL;
}

static GMainContext *io_context(void) {
  static gsize once = 0;
  static GMainContext *context;
  if (g_once_init_enter(&once)) {
    context = g_main_context_new();
    g_thread_unref(g_thread_new("lprojd-io", run_io, context));
    g_once_init_leave(&once, 1);
  }
  return context;
}

void connection_invoke(GSourceFunc function, gpointer data, GDestroyNotify destroy) {
  GSource *source = g_idle_source_new();
  g_source_set_priority(source, G_PRIORITY_DEFAULT);
  g_source_set_callback(source, function, data, destroy);
  g_source_attach(source, io_context());
  g_source_unref(source);
}

/* ---- a link: the socket and what waits on it, the I/O thread's ---- */

typedef struct _Link Link;

/* A call sent and not yet (fully) answered. */
typedef struct {
  LprojdCall call;
  GTask *task;                  /* the first reply's; held until returned */
  gint claimed;                 /* atomic: the task was returned (or cancelled) */
  GCancellable *cancellable;
  gulong cancelled_handler;
  GMainContext *stream_context; /* a streaming call's: where its later replies go */
  GSource *timeout;             /* until the first reply */
  gboolean answered;            /* its first reply came: a stream now */
  Link *link;                   /* not a reference: the link owns the pending call */
} Pending;

struct _Link {
  gatomicrefcount count;
  char *socket_path;
  GWeakRef owner;              /* the LprojdConnection: its signals */
  GMainContext *owner_context; /* where it was made: notify::closed runs there */
  GSocketConnection *socket;
  GCancellable *io;
  GQueue pending; /* Pending *, in the order sent */
  GQueue output;  /* GBytes *, not yet written */
  gboolean writing, reading;
  gboolean paused;  /* reading waits until the stream's signals are delivered */
  gint undelivered; /* atomic: the stream's replies read, their signals not yet run */
  gint closed;    /* atomic: read from other threads (the `closed` property) */
  GError *failure; /* why it closed: what later calls fail with */
  GByteArray *input;
  guint8 chunk[READ_CHUNK];
};

static Link *link_ref(Link *link) {
  g_atomic_ref_count_inc(&link->count);
  return link;
}

static void link_unref(Link *link) {
  if (!g_atomic_ref_count_dec(&link->count)) return;
  g_weak_ref_clear(&link->owner);
  g_clear_pointer(&link->owner_context, g_main_context_unref);
  g_clear_object(&link->socket);
  g_clear_object(&link->io);
  g_queue_clear_full(&link->output, (GDestroyNotify)g_bytes_unref);
  g_byte_array_unref(link->input);
  g_clear_error(&link->failure);
  g_free(link->socket_path);
  g_free(link);
}

static gboolean claim(Pending *pending) { return g_atomic_int_compare_and_exchange(&pending->claimed, 0, 1); }

static void pending_free(Pending *pending) {
  if (pending->timeout != NULL) g_source_destroy(pending->timeout);
  g_clear_pointer(&pending->timeout, g_source_unref);
  if (pending->cancellable != NULL && pending->cancelled_handler != 0)
    g_cancellable_disconnect(pending->cancellable, pending->cancelled_handler);
  g_clear_object(&pending->cancellable);
  g_clear_object(&pending->task);
  g_clear_pointer(&pending->stream_context, g_main_context_unref);
  g_free(pending);
}

/* ---- what goes to the owner's signals, on a streaming call's context ---- */

enum { SIGNAL_STREAM_ENDED, N_SIGNALS };
static guint signals[N_SIGNALS];
/* The signals of the later replies of the calls that continue (lprojd_streams). */
static guint stream_signals[LPROJD_N_STREAMS];

typedef struct {
  Link *link; /* counts its undelivered emissions */
  GWeakRef owner;
  guint signal;
  gpointer value;
  GDestroyNotify free_value;
} Emission;

static void read_more(Link *link);

static gboolean resume_reading(gpointer data) {
  Link *link = data;
  link->paused = FALSE;
  read_more(link);
  return G_SOURCE_REMOVE;
}

static gboolean emit(gpointer data) {
  Emission *emission = data;
  g_autoptr(LprojdConnection) owner = g_weak_ref_get(&emission->owner);
  if (owner != NULL) g_signal_emit(owner, emission->signal, 0, emission->value);
  return G_SOURCE_REMOVE;
}

static void emission_free(gpointer data) {
  Emission *emission = data;
  g_weak_ref_clear(&emission->owner);
  if (emission->value != NULL) emission->free_value(emission->value);
  /* Half the stream's signals ran: read on (whether or not it paused). */
  if (g_atomic_int_add(&emission->link->undelivered, -1) == CONNECTION_MAX_UNDELIVERED / 2 + 1)
    connection_invoke(resume_reading, link_ref(emission->link), (GDestroyNotify)link_unref);
  link_unref(emission->link);
  g_free(emission);
}

static void emit_on(Link *link, GMainContext *context, guint signal, gpointer value, GDestroyNotify free_value) {
  Emission *emission = g_new0(Emission, 1);
  emission->link = link_ref(link);
  g_atomic_int_inc(&link->undelivered);
  g_autoptr(GObject) owner = g_weak_ref_get(&link->owner);
  g_weak_ref_init(&emission->owner, owner);
  emission->signal = signal;
  emission->value = value;
  emission->free_value = free_value;
  GSource *source = g_idle_source_new();
  g_source_set_priority(source, G_PRIORITY_DEFAULT);
  g_source_set_callback(source, emit, emission, emission_free);
  g_source_attach(source, context);
  g_source_unref(source);
}

/* ---- ending ---- */

static void notify_closed(Link *link);

/* Closes the link: every call waiting gets `error` (a copy), a stream ends with it. */
static void link_fail(Link *link, const GError *error) {
  if (link->closed) return;
  g_atomic_int_set(&link->closed, TRUE);
  link->failure = g_error_copy(error);
  g_cancellable_cancel(link->io);
  if (link->socket != NULL) g_io_stream_close(G_IO_STREAM(link->socket), NULL, NULL);
  Pending *pending;
  while ((pending = g_queue_pop_head(&link->pending)) != NULL) {
    if (!pending->answered) {
      if (claim(pending)) g_task_return_error(pending->task, g_error_copy(error));
    } else if (pending->stream_context != NULL) {
      emit_on(link, pending->stream_context, signals[SIGNAL_STREAM_ENDED], g_error_copy(error), (GDestroyNotify)g_error_free);
    }
    pending_free(pending);
  }
  notify_closed(link);
}

static void link_fail_with(Link *link, LprojdError code, const char *message) {
  g_autoptr(GError) error = g_error_new_literal(LPROJD_ERROR, (gint)code, message);
  link_fail(link, error);
}

/* The error for a failed read or write: a dropped connection. */
static void link_fail_io(Link *link, const GError *cause) {
  g_autofree char *message =
      g_strdup_printf("the connection to lprojd dropped: %s", cause != NULL ? cause->message : "end of stream");
  link_fail_with(link, LPROJD_ERROR_DISCONNECTED, message);
}

/* ---- messages ---- */

static void set_varlink_error(GError **error, const char *name, JsonObject *parameters) {
  g_autoptr(JsonNode) node = json_node_init_object(json_node_alloc(), parameters);
  g_autofree char *details = json_to_string(node, FALSE);
  g_set_error(error, LPROJD_ERROR, (gint)lprojd_error_from_name(name), "%s %s", name, details);
}

JsonObject *connection_parse_message(const char *text, gsize length, gboolean *continues, GError **error) {
  if (!reply_shape_ok(text, length, VARLINK_MAX_DEPTH)) {
    g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "a reply nests arrays or objects more than %d deep",
                VARLINK_MAX_DEPTH);
    return NULL;
  }
  g_autoptr(JsonParser) parser = json_parser_new();
  g_autoptr(GError) parse_error = NULL;
  if (!json_parser_load_from_data(parser, text, (gssize)length, &parse_error)) {
    g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "a reply is not JSON: %s", parse_error->message);
    return NULL;
  }
  JsonNode *root = json_parser_get_root(parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT(root)) {
    g_set_error_literal(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "a reply is not a JSON object");
    return NULL;
  }
  JsonObject *message = json_node_get_object(root);
  JsonNode *parameters = json_object_get_member(message, "parameters");
  if (parameters != NULL && !JSON_NODE_HOLDS_OBJECT(parameters) && !JSON_NODE_HOLDS_NULL(parameters)) {
    g_set_error_literal(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "a reply's parameters are not an object");
    return NULL;
  }
  g_autoptr(JsonObject) object = parameters != NULL && JSON_NODE_HOLDS_OBJECT(parameters)
                                     ? json_object_ref(json_node_get_object(parameters))
                                     : json_object_new();
  JsonNode *error_name = json_object_get_member(message, "error");
  if (error_name != NULL && !JSON_NODE_HOLDS_NULL(error_name)) {
    const char *name = JSON_NODE_HOLDS_VALUE(error_name) ? json_node_get_string(error_name) : NULL;
    set_varlink_error(error, name != NULL ? name : "(unnamed)", object);
    return NULL;
  }
  JsonNode *more = json_object_get_member(message, "continues");
  *continues = more != NULL && JSON_NODE_HOLDS_VALUE(more) && json_node_get_value_type(more) == G_TYPE_BOOLEAN &&
               json_node_get_boolean(more);
  return g_steal_pointer(&object);
}

/* One message read: the first call's reply, or a stream's next. FALSE when the link had to close. */
static gboolean take_message(Link *link, const char *text, gsize length) {
  Pending *pending = g_queue_peek_head(&link->pending);
  if (pending == NULL) {
    link_fail_with(link, LPROJD_ERROR_MALFORMED_REPLY, "lprojd sent a reply to no call");
    return FALSE;
  }
  gboolean continues = FALSE;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) parameters = connection_parse_message(text, length, &continues, &error);
  gpointer reply = NULL;
  if (parameters != NULL) reply = pending->call.decode(parameters, &error);
  if (reply == NULL && !g_error_matches(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY) && error != NULL) {
    /* An error reply ends the call, and leaves the link as it is. */
    g_queue_pop_head(&link->pending);
    if (!pending->answered) {
      if (claim(pending)) g_task_return_error(pending->task, g_steal_pointer(&error));
    } else {
      emit_on(link, pending->stream_context, signals[SIGNAL_STREAM_ENDED], g_steal_pointer(&error), (GDestroyNotify)g_error_free);
    }
    pending_free(pending);
    return TRUE;
  }
  if (reply == NULL || (continues && !pending->call.more)) {
    /* A reply that is not what the interface says: the stream cannot be trusted. */
    if (reply != NULL) pending->call.free_reply(reply);
    link_fail(link, error != NULL ? error
                                  : &(GError){LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, (char *)"a reply continues a call that does not"});
    return FALSE;
  }
  if (!pending->answered) {
    pending->answered = TRUE;
    if (pending->timeout != NULL) g_source_destroy(pending->timeout);
    g_clear_pointer(&pending->timeout, g_source_unref);
    if (claim(pending))
      g_task_return_pointer(pending->task, reply, pending->call.free_reply);
    else
      pending->call.free_reply(reply);
  } else {
    emit_on(link, pending->stream_context, stream_signals[pending->call.stream - 1], reply,
            pending->call.free_reply);
  }
  if (!continues) {
    g_queue_pop_head(&link->pending);
    if (pending->stream_context != NULL && pending->call.more) {
      emit_on(link, pending->stream_context, signals[SIGNAL_STREAM_ENDED], NULL, (GDestroyNotify)g_error_free);
    }
    pending_free(pending);
  }
  return TRUE;
}

/* Takes every complete message read; FALSE when the link closed. */
static gboolean take_messages(Link *link) {
  for (;;) {
    GByteArray *input = link->input;
    Pending *head = g_queue_peek_head(&link->pending);
    gsize limit = head != NULL && head->answered ? CONNECTION_MAX_STREAMED : CONNECTION_MAX_REPLY;
    const guint8 *end = input->len > 0 ? memchr(input->data, '\0', input->len) : NULL;
    if (end == NULL || (gsize)(end - input->data) > limit) {
      if (end != NULL || input->len > limit) {
        g_autofree char *message = g_strdup_printf("a reply is over %" G_GSIZE_FORMAT " bytes", limit);
        link_fail_with(link, LPROJD_ERROR_MALFORMED_REPLY, message);
        return FALSE;
      }
      return TRUE;
    }
    gsize length = (gsize)(end - input->data);
    gboolean open = take_message(link, (const char *)input->data, length);
    if (link->closed) return FALSE;
    g_byte_array_remove_range(link->input, 0, (guint)length + 1);
    /* A large reply's buffer is not kept for the small messages that follow. */
    if (link->input->len == 0 && length > 64 * 1024) {
      g_byte_array_unref(link->input);
      link->input = g_byte_array_new();
    }
    if (!open) return FALSE;
  }
}

/* ---- reading and writing, on the I/O thread ---- */

static void on_read(GObject *source, GAsyncResult *result, gpointer data) {
  Link *link = data;
  g_autoptr(GError) error = NULL;
  gssize count = g_input_stream_read_finish(G_INPUT_STREAM(source), result, &error);
  link->reading = FALSE;
  if (!link->closed) {
    if (count <= 0) {
      link_fail_io(link, error);
    } else {
      g_byte_array_append(link->input, link->chunk, (guint)count);
      if (take_messages(link)) read_more(link);
    }
  }
  link_unref(link);
}

/* Reads while anything waits for a reply, and the stream's signals keep up:
 * a reader slower than lprojd leaves the replies in the socket (lprojd
 * bounds what it queues for a subscriber), not in this process. */
static void read_more(Link *link) {
  if (link->socket == NULL || link->reading || link->closed || g_queue_is_empty(&link->pending)) return;
  if (g_atomic_int_get(&link->undelivered) >= CONNECTION_MAX_UNDELIVERED) {
    link->paused = TRUE;
    return;
  }
  link->reading = TRUE;
  GInputStream *stream = g_io_stream_get_input_stream(G_IO_STREAM(link->socket));
  g_input_stream_read_async(stream, link->chunk, sizeof link->chunk, G_PRIORITY_DEFAULT, link->io, on_read, link_ref(link));
}

static void write_next(Link *link);

static void on_written(GObject *source, GAsyncResult *result, gpointer data) {
  Link *link = data;
  g_autoptr(GError) error = NULL;
  gboolean written = g_output_stream_write_all_finish(G_OUTPUT_STREAM(source), result, NULL, &error);
  link->writing = FALSE;
  g_bytes_unref(g_queue_pop_head(&link->output));
  if (!link->closed) {
    if (written)
      write_next(link);
    else
      link_fail_io(link, error);
  }
  link_unref(link);
}

static void write_next(Link *link) {
  if (link->socket == NULL || link->writing || link->closed || g_queue_is_empty(&link->output)) return;
  link->writing = TRUE;
  GBytes *bytes = g_queue_peek_head(&link->output);
  gsize length = 0;
  const void *data = g_bytes_get_data(bytes, &length);
  GOutputStream *stream = g_io_stream_get_output_stream(G_IO_STREAM(link->socket));
  g_output_stream_write_all_async(stream, data, length, G_PRIORITY_DEFAULT, link->io, on_written, link_ref(link));
}

/* ---- a call ---- */

typedef struct {
  Link *link;
  Pending *pending;
  GBytes *message;
} Start;

static gboolean on_timeout(gpointer data) {
  Pending *pending = data;
  g_autofree char *message = g_strdup_printf("lprojd did not answer %s within %d s", pending->call.method, CONNECTION_CALL_TIMEOUT);
  /* Replies come in order: one never given leaves the rest unreadable. */
  g_clear_pointer(&pending->timeout, g_source_unref);
  link_fail_with(pending->link, LPROJD_ERROR_TIMEOUT, message);
  return G_SOURCE_REMOVE;
}

static gboolean start_call(gpointer data) {
  Start *start = data;
  Link *link = start->link;
  Pending *pending = g_steal_pointer(&start->pending);
  if (link->closed) {
    if (claim(pending)) g_task_return_error(pending->task, g_error_copy(link->failure));
    pending_free(pending);
    return G_SOURCE_REMOVE;
  }
  pending->timeout = g_timeout_source_new_seconds(CONNECTION_CALL_TIMEOUT);
  g_source_set_callback(pending->timeout, on_timeout, pending, NULL);
  g_source_attach(pending->timeout, io_context());
  g_queue_push_tail(&link->pending, pending);
  g_queue_push_tail(&link->output, g_steal_pointer(&start->message));
  write_next(link);
  read_more(link);
  return G_SOURCE_REMOVE;
}

static void start_free(gpointer data) {
  Start *start = data;
  if (start->pending != NULL) pending_free(start->pending);
  if (start->message != NULL) g_bytes_unref(start->message);
  link_unref(start->link);
  g_free(start);
}

/* A cancelled call returns at once; its reply, if it comes, is dropped. A
 * call that continues ends with its connection. */
static gboolean close_link(gpointer data);

static void on_cancelled(GCancellable *cancellable, gpointer data) {
  (void)cancellable;
  Pending *pending = data;
  if (claim(pending)) {
    g_autoptr(GError) error = g_error_new_literal(G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
    g_task_return_error(pending->task, g_steal_pointer(&error));
  }
  /* Only the end of its connection ends a call that continues. */
  if (pending->call.more) connection_invoke(close_link, link_ref(pending->link), (GDestroyNotify)link_unref);
}

/* The call's message: the method, its parameters, and more if it continues. */
static GBytes *message_bytes(const LprojdCall *call) {
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable();
  json_builder_begin_object(builder);
  json_builder_set_member_name(builder, "method");
  json_builder_add_string_value(builder, call->method);
  json_builder_set_member_name(builder, "parameters");
  if (call->parameters != NULL) {
    g_autoptr(JsonNode) parameters = json_node_init_object(json_node_alloc(), call->parameters);
    json_builder_add_value(builder, json_node_copy(parameters));
  } else {
    json_builder_begin_object(builder);
    json_builder_end_object(builder);
  }
  if (call->more) {
    json_builder_set_member_name(builder, "more");
    json_builder_add_boolean_value(builder, TRUE);
  }
  json_builder_end_object(builder);
  g_autoptr(JsonNode) root = json_builder_get_root(builder);
  char *text = json_to_string(root, FALSE);
  gsize length = strlen(text) + 1; /* the NUL ends the frame */
  return g_bytes_new_take(text, length);
}

static Link *connection_link(LprojdConnection *self);

static void call_async_on(LprojdConnection *self, LprojdCall call, GMainContext *stream_context, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data, gpointer tag) {
  GTask *task = g_task_new(self, cancellable, callback, user_data);
  g_task_set_source_tag(task, tag);
  Link *link = connection_link(self);
  if (link == NULL) {
    g_task_return_new_error(task, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE, "the connection was not made");
    g_object_unref(task);
    return;
  }
  Pending *pending = g_new0(Pending, 1);
  pending->call = call;
  pending->call.parameters = NULL; /* serialized below: not kept */
  pending->task = task;
  pending->link = link;
  if (call.more) pending->stream_context = g_main_context_ref(stream_context);
  if (cancellable != NULL) {
    pending->cancellable = g_object_ref(cancellable);
    pending->cancelled_handler = g_cancellable_connect(cancellable, G_CALLBACK(on_cancelled), pending, NULL);
  }
  Start *start = g_new0(Start, 1);
  start->link = link_ref(link);
  start->pending = pending;
  start->message = message_bytes(&call);
  connection_invoke(start_call, start, start_free);
}

void connection_call_async(LprojdConnection *self, LprojdCall call, GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data, gpointer tag) {
  g_return_if_fail(LPROJD_IS_CONNECTION(self));
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default();
  call_async_on(self, call, context, cancellable, callback, user_data, tag);
}

gpointer connection_call_finish(LprojdConnection *self, GAsyncResult *result, gpointer tag, GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, self), NULL);
  g_return_val_if_fail(g_task_get_source_tag(G_TASK(result)) == tag, NULL);
  return g_task_propagate_pointer(G_TASK(result), error);
}

gpointer connection_call_sync(LprojdConnection *self, LprojdCall call, GCancellable *cancellable, GError **error) {
  g_return_val_if_fail(LPROJD_IS_CONNECTION(self), NULL);
  g_autoptr(GMainContext) outer = g_main_context_ref_thread_default();
  SyncWait wait;
  sync_wait_begin(&wait);
  call_async_on(self, call, outer, cancellable, sync_wait_done, &wait, connection_call_sync);
  g_autoptr(GAsyncResult) result = sync_wait_end(&wait);
  return g_task_propagate_pointer(G_TASK(result), error);
}

/* ---- the object ---- */

struct _LprojdConnection {
  GObject parent_instance;
  char *socket_path;
  Link *link; /* set once made */
};

enum { PROP_0, PROP_SOCKET_PATH, PROP_CLOSED, N_PROPERTIES };
static GParamSpec *properties[N_PROPERTIES];

static gboolean emit_closed(gpointer data) {
  g_autoptr(LprojdConnection) owner = g_weak_ref_get(data);
  if (owner != NULL) g_object_notify_by_pspec(G_OBJECT(owner), properties[PROP_CLOSED]);
  return G_SOURCE_REMOVE;
}

static void weak_ref_free(gpointer data) {
  g_weak_ref_clear(data);
  g_free(data);
}

/* notify::closed, on the context the connection was made in, as GDBus's `closed`. */
static void notify_closed(Link *link) {
  if (link->owner_context == NULL) return;
  GWeakRef *owner = g_new0(GWeakRef, 1);
  g_autoptr(GObject) object = g_weak_ref_get(&link->owner);
  g_weak_ref_init(owner, object);
  GSource *source = g_idle_source_new();
  g_source_set_priority(source, G_PRIORITY_DEFAULT);
  g_source_set_callback(source, emit_closed, owner, weak_ref_free);
  g_source_attach(source, link->owner_context);
  g_source_unref(source);
}

static void lprojd_connection_initable_init(GInitableIface *iface);
static void lprojd_connection_async_initable_init(GAsyncInitableIface *iface);

/**
 * LprojdConnection:
 *
 * A connection to lprojd, with a call for each method of its interface
 * (`org.lprojd.Localization`), generated from the interface's definition:
 * [method@Lprojd.Connection.lookup_async] and the rest, each with its
 * `_finish` and a `_sync` twin whose name says it blocks.
 *
 * Calls may be made from any thread, and many at once: they go out in
 * order and their callbacks run on the thread-default context of the
 * thread that made each. The socket is read and written on a thread of the
 * library's own, which also checks and parses each reply, so a large reply
 * never holds an app's main loop. A call lprojd does not answer within 10
 * seconds fails with `LPROJD_ERROR_TIMEOUT`, and the connection closes (its
 * replies come in order: one missing leaves the rest unreadable).
 *
 * A call that continues (`Subscribe`) occupies its connection: its replies
 * after the first come as [signal@Lprojd.Connection::subscribe-reply], and
 * its end as [signal@Lprojd.Connection::stream-ended]. Give it a connection
 * of its own.
 */
G_DEFINE_FINAL_TYPE_WITH_CODE(LprojdConnection, lprojd_connection, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_INITABLE, lprojd_connection_initable_init)
                                  G_IMPLEMENT_INTERFACE(G_TYPE_ASYNC_INITABLE, lprojd_connection_async_initable_init))

static Link *connection_link(LprojdConnection *self) { return self->link; }

static void lprojd_connection_init(LprojdConnection *self) { (void)self; }

static gboolean close_link(gpointer data) {
  link_fail_with(data, LPROJD_ERROR_DISCONNECTED, "the connection to lprojd was closed");
  return G_SOURCE_REMOVE;
}

static void lprojd_connection_finalize(GObject *object) {
  LprojdConnection *self = LPROJD_CONNECTION(object);
  if (self->link != NULL) connection_invoke(close_link, self->link, (GDestroyNotify)link_unref);
  g_free(self->socket_path);
  G_OBJECT_CLASS(lprojd_connection_parent_class)->finalize(object);
}

static void lprojd_connection_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
  LprojdConnection *self = LPROJD_CONNECTION(object);
  switch (id) {
    case PROP_SOCKET_PATH: g_value_set_string(value, self->socket_path); break;
    case PROP_CLOSED: g_value_set_boolean(value, lprojd_connection_get_closed(self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
  }
}

static void lprojd_connection_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
  LprojdConnection *self = LPROJD_CONNECTION(object);
  switch (id) {
    case PROP_SOCKET_PATH: self->socket_path = g_value_dup_string(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
  }
}

static void lprojd_connection_class_init(LprojdConnectionClass *class) {
  GObjectClass *object_class = G_OBJECT_CLASS(class);
  object_class->finalize = lprojd_connection_finalize;
  object_class->get_property = lprojd_connection_get_property;
  object_class->set_property = lprojd_connection_set_property;
  /**
   * LprojdConnection:socket-path: (getter get_socket_path)
   *
   * lprojd's socket. Unset (%NULL): [func@Lprojd.default_socket_path].
   */
  properties[PROP_SOCKET_PATH] = g_param_spec_string("socket-path", NULL, NULL, NULL,
                                                     G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * LprojdConnection:closed: (getter get_closed)
   *
   * Whether the connection is closed: by [method@Lprojd.Connection.close],
   * lprojd, a timeout or a malformed reply. Calls then fail at once.
   * Notified, as it closes, on the thread-default context of the thread
   * that made the connection.
   */
  properties[PROP_CLOSED] =
      g_param_spec_boolean("closed", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties(object_class, N_PROPERTIES, properties);
  /**
   * LprojdConnection::stream-ended:
   * @self: the connection
   * @error: (nullable): why, or %NULL if lprojd ended the call
   *
   * A call that continues ended: lprojd's last reply came, or the
   * connection closed. On the context its call was made in.
   */
  signals[SIGNAL_STREAM_ENDED] = g_signal_new("stream-ended", G_TYPE_FROM_CLASS(class), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                              NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
  for (guint i = 0; i < LPROJD_N_STREAMS; i++)
    stream_signals[i] = g_signal_new(lprojd_streams[i].signal, G_TYPE_FROM_CLASS(class), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                     NULL, G_TYPE_NONE, 1, lprojd_streams[i].reply_type());
}

/* ---- making it ---- */

static void on_connected(GObject *source, GAsyncResult *result, gpointer data) {
  GTask *task = data;
  LprojdConnection *self = g_task_get_source_object(task);
  g_autoptr(GError) error = NULL;
  Link *link = g_task_get_task_data(task);
  GSocketConnection *socket = g_socket_client_connect_finish(G_SOCKET_CLIENT(source), result, &error);
  if (socket == NULL) {
    /* The calls made meanwhile fail as the connection does. */
    g_autoptr(GError) failure =
        g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
            ? g_error_copy(error)
            : g_error_new(LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE, "lprojd is not reachable at %s: %s", self->socket_path,
                          error->message);
    link_fail(link, failure);
    g_task_return_error(task, g_steal_pointer(&failure));
  } else if (link->closed) {
    /* Closed while connecting. */
    g_object_unref(socket);
    g_task_return_error(task, g_error_copy(link->failure));
  } else {
    link->socket = socket;
    write_next(link);
    read_more(link);
    g_task_return_boolean(task, TRUE);
  }
  g_object_unref(task);
}

static gboolean start_connecting(gpointer data) {
  GTask *task = data;
  LprojdConnection *self = g_task_get_source_object(task);
  g_autoptr(GSocketClient) client = g_socket_client_new();
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new(self->socket_path);
  g_socket_client_connect_async(client, G_SOCKET_CONNECTABLE(address), g_task_get_cancellable(task), on_connected,
                                g_object_ref(task));
  return G_SOURCE_REMOVE;
}

static void lprojd_connection_init_async(GAsyncInitable *initable, int priority, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);

/* Connects; `owner_context` (taken) is where notify::closed will run. */
static void connection_start(LprojdConnection *self, GMainContext *owner_context, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data) {
  if (self->link != NULL) {
    /* Once: its calls already wait for the first. */
    g_main_context_unref(owner_context);
    g_task_report_new_error(self, callback, user_data, lprojd_connection_init_async, G_IO_ERROR, G_IO_ERROR_FAILED,
                            "the connection is made once");
    return;
  }
  if (self->socket_path == NULL) self->socket_path = lprojd_default_socket_path();
  GTask *task = g_task_new(self, cancellable, callback, user_data);
  g_task_set_source_tag(task, lprojd_connection_init_async);
  Link *link = g_new0(Link, 1);
  g_atomic_ref_count_init(&link->count);
  link->socket_path = g_strdup(self->socket_path);
  g_weak_ref_init(&link->owner, self);
  link->owner_context = owner_context;
  link->io = g_cancellable_new();
  link->input = g_byte_array_new();
  g_task_set_task_data(task, link_ref(link), (GDestroyNotify)link_unref);
  self->link = link;
  connection_invoke(start_connecting, task, g_object_unref);
}

static void lprojd_connection_init_async(GAsyncInitable *initable, int priority, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data) {
  (void)priority;
  connection_start(LPROJD_CONNECTION(initable), g_main_context_ref_thread_default(), cancellable, callback,
                   user_data);
}

static gboolean lprojd_connection_init_finish(GAsyncInitable *initable, GAsyncResult *result, GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, initable), FALSE);
  return g_task_propagate_boolean(G_TASK(result), error);
}

static gboolean lprojd_connection_init_sync(GInitable *initable, GCancellable *cancellable, GError **error) {
  /* The caller's context, not the one the wait iterates: it outlives the wait. */
  GMainContext *owner_context = g_main_context_ref_thread_default();
  SyncWait wait;
  sync_wait_begin(&wait);
  connection_start(LPROJD_CONNECTION(initable), owner_context, cancellable, sync_wait_done, &wait);
  g_autoptr(GAsyncResult) result = sync_wait_end(&wait);
  return lprojd_connection_init_finish(G_ASYNC_INITABLE(initable), result, error);
}

static void lprojd_connection_initable_init(GInitableIface *iface) { iface->init = lprojd_connection_init_sync; }

static void lprojd_connection_async_initable_init(GAsyncInitableIface *iface) {
  iface->init_async = lprojd_connection_init_async;
  iface->init_finish = lprojd_connection_init_finish;
}

/**
 * lprojd_connection_new_async:
 * @socket_path: (nullable): lprojd's socket, or %NULL for the default
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called once connected, on this thread's thread-default context
 * @user_data: (closure): data for @callback
 *
 * Connects to lprojd without blocking.
 */
void lprojd_connection_new_async(const char *socket_path, GCancellable *cancellable, GAsyncReadyCallback callback,
                                 gpointer user_data) {
  g_async_initable_new_async(LPROJD_TYPE_CONNECTION, G_PRIORITY_DEFAULT, cancellable, callback, user_data, "socket-path",
                             socket_path, NULL);
}

/**
 * lprojd_connection_new_finish:
 * @result: the result the callback was given
 * @error: the error, if there is none
 *
 * Ends [func@Lprojd.Connection.new_async].
 *
 * Returns: (transfer full): the connection, or %NULL with @error set
 *   (`LPROJD_ERROR_UNAVAILABLE` when lprojd does not listen there)
 */
LprojdConnection *lprojd_connection_new_finish(GAsyncResult *result, GError **error) {
  g_autoptr(GObject) source = g_async_result_get_source_object(result);
  GObject *made = g_async_initable_new_finish(G_ASYNC_INITABLE(source), result, error);
  return made != NULL ? LPROJD_CONNECTION(made) : NULL;
}

/**
 * lprojd_connection_new_sync:
 * @socket_path: (nullable): lprojd's socket, or %NULL for the default
 * @cancellable: (nullable): a #GCancellable
 * @error: the error, if there is none
 *
 * Connects to lprojd, waiting in a context of its own.
 *
 * Returns: (transfer full): the connection, or %NULL with @error set
 */
LprojdConnection *lprojd_connection_new_sync(const char *socket_path, GCancellable *cancellable, GError **error) {
  return g_initable_new(LPROJD_TYPE_CONNECTION, cancellable, error, "socket-path", socket_path, NULL);
}

/**
 * lprojd_connection_get_socket_path: (get-property socket-path)
 * @self: a #LprojdConnection
 *
 * The socket it connects to.
 *
 * Returns: (transfer none): the path
 */
const char *lprojd_connection_get_socket_path(LprojdConnection *self) {
  g_return_val_if_fail(LPROJD_IS_CONNECTION(self), NULL);
  return self->socket_path;
}

/**
 * lprojd_connection_get_closed: (get-property closed)
 * @self: a #LprojdConnection
 *
 * Whether the connection is closed.
 *
 * Returns: %TRUE if it is
 */
gboolean lprojd_connection_get_closed(LprojdConnection *self) {
  g_return_val_if_fail(LPROJD_IS_CONNECTION(self), TRUE);
  /* The flag is the I/O thread's; read once, it may be just out of date. */
  return self->link == NULL || g_atomic_int_get(&self->link->closed);
}

/**
 * lprojd_connection_close:
 * @self: a #LprojdConnection
 *
 * Closes the connection: calls waiting fail with
 * `LPROJD_ERROR_DISCONNECTED`, a stream ends, and later calls fail at once.
 */
void lprojd_connection_close(LprojdConnection *self) {
  g_return_if_fail(LPROJD_IS_CONNECTION(self));
  if (self->link != NULL) connection_invoke(close_link, link_ref(self->link), (GDestroyNotify)link_unref);
}

/**
 * lprojd_default_socket_path:
 *
 * lprojd's socket when none is named: `$LPROJD_SOCKET` if set, else the
 * user's instance (`$XDG_RUNTIME_DIR/lprojd/org.lprojd.Localization`) if it
 * exists, else the system's (`/run/lprojd/org.lprojd.Localization`).
 *
 * Returns: (transfer full): the path
 */
char *lprojd_default_socket_path(void) {
  const char *explicit_path = g_getenv("LPROJD_SOCKET");
  if (explicit_path != NULL && *explicit_path != '\0') return g_strdup(explicit_path);
  const char *runtime = g_getenv("XDG_RUNTIME_DIR");
  if (runtime != NULL && *runtime != '\0') {
    g_autofree char *user = g_build_filename(runtime, "lprojd", "org.lprojd.Localization", NULL);
    if (g_file_test(user, G_FILE_TEST_EXISTS)) return g_steal_pointer(&user);
  }
  return g_strdup("/run/lprojd/org.lprojd.Localization");
}
