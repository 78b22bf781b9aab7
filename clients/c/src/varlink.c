#include "varlink.h"

#include <string.h>

#include "lprojd/lprojd.h"
#include "reply-shape.h"

/* Bytes asked of the socket at a time, as systemd's sd-varlink reads. */
#define READ_CHUNK (64u * 1024u)

struct _VarlinkConnection {
  gatomicrefcount refcount;
  GSocketConnection *socket;
  GByteArray *input; /* read, not yet taken as messages */
  gsize max_message;
  guint8 chunk[READ_CHUNK];
};

VarlinkConnection *varlink_connection_new(const char *path, GCancellable *cancellable, GError **error) {
  g_autoptr(GSocketClient) client = g_socket_client_new();
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new(path);
  g_autoptr(GError) local_error = NULL;
  GSocketConnection *socket =
      g_socket_client_connect(client, G_SOCKET_CONNECTABLE(address), cancellable, &local_error);
  if (socket == NULL) {
    if (g_error_matches(local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
      g_propagate_error(error, g_steal_pointer(&local_error));
    else
      g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_UNAVAILABLE, "lprojd is not reachable at %s: %s", path,
                  local_error->message);
    return NULL;
  }
  /* Blocking calls must not hang on a stuck daemon; the subscription's
   * background reads are not affected (they wait in the main loop). */
  g_socket_set_timeout(g_socket_connection_get_socket(socket), VARLINK_CALL_TIMEOUT);
  VarlinkConnection *connection = g_new0(VarlinkConnection, 1);
  g_atomic_ref_count_init(&connection->refcount);
  connection->socket = socket;
  connection->input = g_byte_array_new();
  connection->max_message = VARLINK_MAX_MESSAGE;
  return connection;
}

void varlink_connection_set_max_message(VarlinkConnection *connection, gsize max_message) {
  connection->max_message = max_message;
}

VarlinkConnection *varlink_connection_ref(VarlinkConnection *connection) {
  g_atomic_ref_count_inc(&connection->refcount);
  return connection;
}

void varlink_connection_unref(VarlinkConnection *connection) {
  if (!g_atomic_ref_count_dec(&connection->refcount)) return;
  g_io_stream_close(G_IO_STREAM(connection->socket), NULL, NULL);
  g_object_unref(connection->socket);
  g_byte_array_unref(connection->input);
  g_free(connection);
}

/* The error for a failed read or write: cancelled stays cancelled, a
 * socket timeout is lprojd not answering, anything else a dropped
 * connection. `cause` (NULL at the end of the stream) is taken. */
static void set_io_error(GError **error, GError *cause) {
  if (g_error_matches(cause, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
    g_propagate_error(error, cause);
    return;
  }
  if (g_error_matches(cause, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_TIMEOUT, "lprojd did not answer within %d s", VARLINK_CALL_TIMEOUT);
  else
    g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_DISCONNECTED, "the connection to lprojd dropped: %s",
                cause != NULL ? cause->message : "end of stream");
  g_clear_error(&cause);
}

gboolean varlink_connection_send(VarlinkConnection *connection, const char *method, JsonObject *parameters,
                                 gboolean more, GCancellable *cancellable, GError **error) {
  g_autoptr(JsonObject) call = json_object_new();
  json_object_set_string_member(call, "method", method);
  json_object_set_object_member(call, "parameters", parameters != NULL ? parameters : json_object_new());
  if (more) json_object_set_boolean_member(call, "more", TRUE);
  g_autoptr(JsonNode) node = json_node_init_object(json_node_alloc(), call);
  g_autofree char *text = json_to_string(node, FALSE);
  gsize length = strlen(text) + 1; /* the NUL ends the frame */
  GError *local_error = NULL;
  GOutputStream *output = g_io_stream_get_output_stream(G_IO_STREAM(connection->socket));
  if (!g_output_stream_write_all(output, text, length, NULL, cancellable, &local_error)) {
    set_io_error(error, local_error);
    return FALSE;
  }
  return TRUE;
}

/* Parses one message; its "parameters" (an empty object if absent) or the
 * GError for its "error". Its nesting is checked first: json-glib has no
 * bound of its own. */
JsonObject *varlink_parse_message(const char *text, gsize length, gboolean *continues, GError **error) {
  if (!reply_shape_ok(text, length, VARLINK_MAX_DEPTH)) {
    g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "a reply nests arrays or objects more than %d deep",
                VARLINK_MAX_DEPTH);
    return NULL;
  }
  g_autoptr(JsonParser) parser = json_parser_new_immutable();
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
  JsonObject *parameter_object = parameters != NULL && JSON_NODE_HOLDS_OBJECT(parameters)
                                     ? json_object_ref(json_node_get_object(parameters))
                                     : json_object_new();
  JsonNode *error_name = json_object_get_member(message, "error");
  if (error_name != NULL && !JSON_NODE_HOLDS_NULL(error_name)) {
    const char *name = JSON_NODE_HOLDS_VALUE(error_name) ? json_node_get_string(error_name) : NULL;
    varlink_set_error(error, name != NULL ? name : "(unnamed)", parameter_object);
    json_object_unref(parameter_object);
    return NULL;
  }
  if (continues != NULL) *continues = json_object_get_boolean_member_with_default(message, "continues", FALSE);
  return parameter_object;
}

/* The length of the next complete message (without its NUL), -1 when more
 * input is needed, -2 past the size limit. */
static gssize next_length(VarlinkConnection *connection, GError **error) {
  GByteArray *input = connection->input;
  const guint8 *end = input->len > 0 ? memchr(input->data, '\0', input->len) : NULL;
  if (end == NULL || (gsize)(end - input->data) > connection->max_message) {
    if (end != NULL || input->len > connection->max_message) {
      g_set_error(error, LPROJD_ERROR, LPROJD_ERROR_MALFORMED_REPLY, "a reply is over %" G_GSIZE_FORMAT " bytes",
                  connection->max_message);
      return -2;
    }
    return -1;
  }
  return end - input->data;
}

/* Drops the first `length` bytes and the NUL after them. */
static void consume(VarlinkConnection *connection, gsize length) {
  g_byte_array_remove_range(connection->input, 0, (guint)length + 1);
  /* A large reply's buffer is not kept for the small messages that follow
   * (a whole table's reply would hold its size twice over, per connection). */
  if (connection->input->len == 0 && length > 64 * 1024) {
    g_byte_array_unref(connection->input);
    connection->input = g_byte_array_new();
  }
}

gboolean varlink_connection_next_frame(VarlinkConnection *connection, GBytes **frame, GError **error) {
  gssize length = next_length(connection, error);
  if (length < 0) return FALSE;
  *frame = g_bytes_new(connection->input->data, (gsize)length);
  consume(connection, (gsize)length);
  return TRUE;
}

gboolean varlink_connection_next_buffered(VarlinkConnection *connection, JsonObject **parameters, gboolean *continues,
                                          GError **error) {
  gssize length = next_length(connection, error);
  if (length < 0) return FALSE;
  *parameters = varlink_parse_message((const char *)connection->input->data, (gsize)length, continues, error);
  consume(connection, (gsize)length);
  return TRUE;
}

JsonObject *varlink_connection_receive(VarlinkConnection *connection, gboolean *continues, GCancellable *cancellable,
                                       GError **error) {
  GInputStream *stream = g_io_stream_get_input_stream(G_IO_STREAM(connection->socket));
  for (;;) {
    JsonObject *parameters = NULL;
    GError *local_error = NULL;
    if (varlink_connection_next_buffered(connection, &parameters, continues, &local_error)) {
      if (local_error != NULL) g_propagate_error(error, local_error);
      return parameters;
    }
    if (local_error != NULL) {
      g_propagate_error(error, local_error);
      return NULL;
    }
    gssize count = g_input_stream_read(stream, connection->chunk, sizeof connection->chunk, cancellable, &local_error);
    if (count <= 0) {
      set_io_error(error, local_error);
      return NULL;
    }
    g_byte_array_append(connection->input, connection->chunk, (guint)count);
  }
}

JsonObject *varlink_connection_call(VarlinkConnection *connection, const char *method, JsonObject *parameters,
                                    GCancellable *cancellable, GError **error) {
  if (!varlink_connection_send(connection, method, parameters, FALSE, cancellable, error)) return NULL;
  return varlink_connection_receive(connection, NULL, cancellable, error);
}

void varlink_connection_read_async(VarlinkConnection *connection, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data) {
  GInputStream *stream = g_io_stream_get_input_stream(G_IO_STREAM(connection->socket));
  g_input_stream_read_async(stream, connection->chunk, sizeof connection->chunk, G_PRIORITY_DEFAULT, cancellable,
                            callback, user_data);
}

gssize varlink_connection_read_finish(VarlinkConnection *connection, GAsyncResult *result, GError **error) {
  GInputStream *stream = g_io_stream_get_input_stream(G_IO_STREAM(connection->socket));
  gssize count = g_input_stream_read_finish(stream, result, error);
  if (count > 0) g_byte_array_append(connection->input, connection->chunk, (guint)count);
  return count;
}

/* The daemon's errors, by their name in the interface. */
static const struct {
  const char *name;
  LprojdError code;
} daemon_errors[] = {
    {"BundleNotFound", LPROJD_ERROR_BUNDLE_NOT_FOUND},       {"InvalidLocale", LPROJD_ERROR_INVALID_LOCALE},
    {"TableNotFound", LPROJD_ERROR_TABLE_NOT_FOUND},         {"InvalidArguments", LPROJD_ERROR_INVALID_ARGUMENTS},
    {"PermissionDenied", LPROJD_ERROR_PERMISSION_DENIED},    {"LimitExceeded", LPROJD_ERROR_LIMIT_EXCEEDED},
    {"InvalidValue", LPROJD_ERROR_INVALID_VALUE},            {"StateUnavailable", LPROJD_ERROR_STATE_UNAVAILABLE},
    {"InternalError", LPROJD_ERROR_INTERNAL_ERROR},
};

void varlink_set_error(GError **error, const char *name, JsonObject *parameters) {
  LprojdError code = LPROJD_ERROR_PROTOCOL;
  if (g_str_has_prefix(name, LPROJD_INTERFACE)) {
    const char *short_name = name + strlen(LPROJD_INTERFACE);
    for (gsize i = 0; i < G_N_ELEMENTS(daemon_errors); i++)
      if (strcmp(short_name, daemon_errors[i].name) == 0) code = daemon_errors[i].code;
  }
  g_autoptr(JsonNode) node = json_node_init_object(json_node_alloc(), parameters);
  g_autofree char *details = json_to_string(node, FALSE);
  g_set_error(error, LPROJD_ERROR, (gint)code, "%s %s", name, details);
}
