/* Calls to the test's lprojd made directly over Varlink, as another process
 * would make them: what the tests hold the localizer's answers against, and
 * how they change lprojd's state behind the localizer's back. */
#pragma once

#include <json-glib/json-glib.h>

/* Calls `method` of org.lprojd.Localization with `parameters` (taken);
 * fails the test on an error. */
JsonObject *daemon_call(const char *socket_path, const char *method, JsonObject *parameters);

/* Selects `locale` for `client` of `bundle`, as the client's other process would. */
void daemon_select(const char *socket_path, const char *client, const char *bundle, const char *locale);
