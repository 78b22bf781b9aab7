/* LprojdConnection: a connection to lprojd, with a call for every method
 * of its interface (lprojd-connection-calls.h, generated from the
 * interface's definition). The documentation of each function is beside
 * its code (src/connection.c) and in the generated reference. */
#pragma once

#if !defined(LPROJD_INSIDE) && !defined(LPROJD_COMPILATION)
#error "Only <lprojd/lprojd.h> can be included directly."
#endif

#include <gio/gio.h>
#include <lprojd/lprojd-version.h>

G_BEGIN_DECLS

#define LPROJD_TYPE_CONNECTION (lprojd_connection_get_type())
LPROJD_PUBLIC G_DECLARE_FINAL_TYPE(LprojdConnection, lprojd_connection, LPROJD, CONNECTION, GObject)

LPROJD_PUBLIC void lprojd_connection_new_async(const char *socket_path, GCancellable *cancellable,
                                               GAsyncReadyCallback callback, gpointer user_data);
LPROJD_PUBLIC LprojdConnection *lprojd_connection_new_finish(GAsyncResult *result, GError **error);
LPROJD_PUBLIC LprojdConnection *lprojd_connection_new_sync(const char *socket_path, GCancellable *cancellable,
                                                           GError **error);

LPROJD_PUBLIC const char *lprojd_connection_get_socket_path(LprojdConnection *self);
LPROJD_PUBLIC gboolean lprojd_connection_get_closed(LprojdConnection *self);
LPROJD_PUBLIC void lprojd_connection_close(LprojdConnection *self);

LPROJD_PUBLIC char *lprojd_default_socket_path(void);

G_END_DECLS
