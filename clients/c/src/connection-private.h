/* The connection's core, which the generated calls (and the localizer) use. */
#pragma once

#include <json-glib/json-glib.h>

#include "lprojd/lprojd.h"

/* The most a reply may hold, and the most each reply after a streaming
 * call's first (an event) may: lprojd's own stay far below. */
#define CONNECTION_MAX_REPLY (64u * 1024u * 1024u)
#define CONNECTION_MAX_STREAMED (1024u * 1024u)

/* The most replies of a stream read and not yet delivered as signals: past
 * it, the connection stops reading until half are. */
#define CONNECTION_MAX_UNDELIVERED 64

/* How long a call waits for its (first) reply, in seconds: lprojd answers
 * in milliseconds, so this only catches a daemon that hangs or is stopped. */
#define CONNECTION_CALL_TIMEOUT 10

/* One call: its method, its parameters (not taken; NULL: none), whether it
 * continues, how its replies are read, and for a streaming call 1 + the
 * index of its signal. */
typedef struct {
  const char *method;
  JsonObject *parameters;
  gboolean more;
  gpointer (*decode)(JsonObject *parameters, GError **error);
  GDestroyNotify free_reply;
  guint stream;
} LprojdCall;

/* Runs `function` on the library's I/O thread, in its turn: the thread
 * every connection reads and writes on, and where the calls made there
 * complete. */
void connection_invoke(GSourceFunc function, gpointer data, GDestroyNotify destroy);

/* The parameters of one message read (NULL with the error it carries, or
 * MALFORMED_REPLY): `continues` says whether more follow. */
JsonObject *connection_parse_message(const char *text, gsize length, gboolean *continues, GError **error);

/* A call; `callback` runs on the thread-default context of this call, with
 * the first reply (or the error). Replies after a streaming call's first
 * come as its signal on that context. */
void connection_call_async(LprojdConnection *self, LprojdCall call, GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data, gpointer tag);
gpointer connection_call_finish(LprojdConnection *self, GAsyncResult *result, gpointer tag, GError **error);

/* The same, waiting in a context of its own; a streaming call's later
 * replies come on the caller's thread-default context. */
gpointer connection_call_sync(LprojdConnection *self, LprojdCall call, GCancellable *cancellable, GError **error);
