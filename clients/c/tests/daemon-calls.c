#include "daemon-calls.h"

#include "connection-private.h"

/* The reply's parameters as they are, unchecked: the tests check them. */
static gpointer keep_parameters(JsonObject *parameters, GError **error) {
  (void)error;
  return json_object_ref(parameters);
}

JsonObject *daemon_call(const char *socket_path, const char *method, JsonObject *parameters) {
  g_autoptr(GError) error = NULL;
  g_autoptr(LprojdConnection) connection = lprojd_connection_new_sync(socket_path, NULL, &error);
  g_assert_no_error(error);
  g_autofree char *name = g_strconcat("org.lprojd.Localization.", method, NULL);
  LprojdCall call = {name, parameters, FALSE, keep_parameters, (GDestroyNotify)json_object_unref, 0};
  JsonObject *reply = connection_call_sync(connection, call, NULL, &error);
  g_assert_no_error(error);
  if (parameters != NULL) json_object_unref(parameters);
  return reply;
}

void daemon_select(const char *socket_path, const char *client, const char *bundle, const char *locale) {
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "client", client);
  json_object_set_string_member(parameters, "bundle", bundle);
  json_object_set_string_member(parameters, "locale", locale);
  g_autoptr(JsonObject) reply = daemon_call(socket_path, "SelectLocale", parameters);
}
