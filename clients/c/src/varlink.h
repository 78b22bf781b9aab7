/* A minimal Varlink client: NUL-framed JSON over a Unix stream socket,
 * blocking calls and non-blocking reading of a `more` call's replies. */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

/* The most a single reply may hold: lprojd's own replies stay far below. */
#define VARLINK_MAX_MESSAGE (64u * 1024u * 1024u)

/* The most one event of a subscription may hold: lprojd's are a few KiB. */
#define VARLINK_MAX_EVENT (1024u * 1024u)

/* How long a blocking call waits for its reply, in seconds. */
#define VARLINK_CALL_TIMEOUT 10

#define LPROJD_INTERFACE "org.lprojd.Localization."

typedef struct _VarlinkConnection VarlinkConnection;

/* Connects to a Unix socket; the error is LPROJD_ERROR_UNAVAILABLE. */
VarlinkConnection *varlink_connection_new(const char *path, GCancellable *cancellable, GError **error);
VarlinkConnection *varlink_connection_ref(VarlinkConnection *connection);
void varlink_connection_unref(VarlinkConnection *connection);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(VarlinkConnection, varlink_connection_unref)

/* Sends a call; parameters (an object, or NULL) is taken. */
gboolean varlink_connection_send(VarlinkConnection *connection, const char *method, JsonObject *parameters,
                                 gboolean more, GCancellable *cancellable, GError **error);

/* Blocks for the next reply and returns its parameters (a Varlink error
 * becomes a GError). *continues, if given, is set from the reply. */
JsonObject *varlink_connection_receive(VarlinkConnection *connection, gboolean *continues, GCancellable *cancellable,
                                       GError **error);

/* A call and its single reply's parameters. */
JsonObject *varlink_connection_call(VarlinkConnection *connection, const char *method, JsonObject *parameters,
                                    GCancellable *cancellable, GError **error);

/* The most one message on this connection may hold (VARLINK_MAX_MESSAGE
 * unless set): past it, the stream is refused as malformed. */
void varlink_connection_set_max_message(VarlinkConnection *connection, gsize max_message);

/* Takes the next complete message already read, unparsed, if any, without
 * blocking: TRUE with *frame set (its bytes, without the NUL), FALSE with
 * *error set past the size limit, FALSE with *error NULL when more input
 * is needed. */
gboolean varlink_connection_next_frame(VarlinkConnection *connection, GBytes **frame, GError **error);

/* Reads one message (a reply's parameters, or the GError of its error);
 * its nesting is checked before it is parsed. */
JsonObject *varlink_parse_message(const char *text, gsize length, gboolean *continues, GError **error);

/* Takes the next complete reply already read, if any, without blocking:
 * TRUE with *parameters set (or FALSE with *error set) when there was one,
 * FALSE with *error NULL when more input is needed. */
gboolean varlink_connection_next_buffered(VarlinkConnection *connection, JsonObject **parameters, gboolean *continues,
                                          GError **error);

/* Reads more input in the background on the thread-default main context;
 * finish gives the bytes read (0 at end of stream, -1 on error). */
void varlink_connection_read_async(VarlinkConnection *connection, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data);
gssize varlink_connection_read_finish(VarlinkConnection *connection, GAsyncResult *result, GError **error);

/* The GError for a Varlink error name and its parameters. */
void varlink_set_error(GError **error, const char *name, JsonObject *parameters);
