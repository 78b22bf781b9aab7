/* What the generated types stand on: their JSON, read and checked.
 *
 * A value of a generated type is a view of a JSON object that one root
 * owns: a reply's whole tree, or a value made with its _new. The root's
 * count is atomic; json-glib's own counts are not, so no JSON object is
 * ever referenced apart from its root: a value taken from another (a
 * struct in a reply) holds the root, and reads the object in place. */
#pragma once

#include <json-glib/json-glib.h>

typedef struct {
  gatomicrefcount count;
  JsonNode *node;     /* json-glib counts a node's references atomically, an object's not */
  JsonObject *object; /* the node's */
} JsonBoxRoot;

/* A root owning `object` (taken, and from then on held only through the root). */
JsonBoxRoot *json_box_root_new(JsonObject *object);
/* A root sharing `node` (an object's node; referenced), which other threads may hold too. */
JsonBoxRoot *json_box_root_new_for_node(JsonNode *node);
JsonBoxRoot *json_box_root_ref(JsonBoxRoot *root);
void json_box_root_unref(JsonBoxRoot *root);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JsonBoxRoot, json_box_root_unref)

/* Members, as a checked object holds them (NULL, 0 or FALSE when absent or null). */
gboolean json_box_has(JsonObject *object, const char *name);
const char *json_box_string(JsonObject *object, const char *name);
gint64 json_box_int(JsonObject *object, const char *name);
gdouble json_box_float(JsonObject *object, const char *name);
gboolean json_box_bool(JsonObject *object, const char *name);
JsonObject *json_box_object(JsonObject *object, const char *name);
JsonArray *json_box_array(JsonObject *object, const char *name);
/* An array of strings as a new NULL-terminated vector; a map of strings as a new table. */
char **json_box_strv(JsonObject *object, const char *name);
GHashTable *json_box_string_map(JsonObject *object, const char *name);

/* Stores `value` in `*slot` unless another thread did first; returns what the slot holds. */
gpointer json_box_cache(gpointer *slot, gpointer value, GDestroyNotify free_value);

/* Values made for a member: a deep copy of an object; an array of strings; an object of strings. */
JsonObject *json_box_object_copy(JsonObject *object);
JsonArray *json_box_strv_array(const char *const *strings);
JsonObject *json_box_string_map_object(GHashTable *strings);

/* Checks of a member's kind; `optional`: it may be absent or null. */
typedef gboolean (*JsonBoxCheck)(JsonObject *object, GError **error);
gboolean json_box_check_bool(JsonObject *object, const char *name, gboolean optional);
gboolean json_box_check_int(JsonObject *object, const char *name, gboolean optional);
gboolean json_box_check_float(JsonObject *object, const char *name, gboolean optional);
gboolean json_box_check_string(JsonObject *object, const char *name, gboolean optional);
gboolean json_box_check_object(JsonObject *object, const char *name, gboolean optional, JsonBoxCheck check);
gboolean json_box_check_string_array(JsonObject *object, const char *name, gboolean optional);
gboolean json_box_check_object_array(JsonObject *object, const char *name, gboolean optional, JsonBoxCheck check);
gboolean json_box_check_string_map(JsonObject *object, const char *name, gboolean optional);
gboolean json_box_check_object_map(JsonObject *object, const char *name, gboolean optional, JsonBoxCheck check);
