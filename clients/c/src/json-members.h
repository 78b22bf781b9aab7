/* Reading members of the daemon's JSON replies, where a member of the
 * wrong type counts as missing: one place for the checks every part of
 * the client makes. */
#pragma once

#include <json-glib/json-glib.h>

/* The member's string, or NULL (also for a NULL object). Borrowed. */
const char *member_string(JsonObject *object, const char *member);

/* The member's object, or NULL. Borrowed. */
JsonObject *member_object(JsonObject *object, const char *member);

/* The strings of an array member (other elements skipped), NULL-terminated;
 * NULL when there is no such array. g_strfreev it. */
char **member_strv(JsonObject *object, const char *member);
