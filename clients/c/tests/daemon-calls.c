#include "daemon-calls.h"

#include "varlink.h"

JsonObject *daemon_call(const char *socket_path, const char *method, JsonObject *parameters) {
  g_autoptr(GError) error = NULL;
  g_autoptr(VarlinkConnection) connection = varlink_connection_new(socket_path, NULL, &error);
  g_assert_no_error(error);
  g_autofree char *name = g_strconcat(LPROJD_INTERFACE, method, NULL);
  JsonObject *reply = varlink_connection_call(connection, name, parameters, NULL, &error);
  g_assert_no_error(error);
  return reply;
}

void daemon_select(const char *socket_path, const char *client, const char *bundle, const char *locale) {
  JsonObject *parameters = json_object_new();
  json_object_set_string_member(parameters, "client", client);
  json_object_set_string_member(parameters, "bundle", bundle);
  json_object_set_string_member(parameters, "locale", locale);
  g_autoptr(JsonObject) reply = daemon_call(socket_path, "SelectLocale", parameters);
}
