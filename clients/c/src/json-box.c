#include "json-box.h"

JsonBoxRoot *json_box_root_new(JsonObject *object) {
  JsonNode *node = json_node_init_object(json_node_alloc(), object);
  json_object_unref(object);
  JsonBoxRoot *root = json_box_root_new_for_node(node);
  json_node_unref(node);
  return root;
}

JsonBoxRoot *json_box_root_new_for_node(JsonNode *node) {
  JsonBoxRoot *root = g_new0(JsonBoxRoot, 1);
  g_atomic_ref_count_init(&root->count);
  root->node = json_node_ref(node);
  root->object = json_node_get_object(node);
  return root;
}

JsonBoxRoot *json_box_root_ref(JsonBoxRoot *root) {
  g_atomic_ref_count_inc(&root->count);
  return root;
}

void json_box_root_unref(JsonBoxRoot *root) {
  if (!g_atomic_ref_count_dec(&root->count)) return;
  json_node_unref(root->node);
  g_free(root);
}

/* The member, unless absent or null. */
static JsonNode *member(JsonObject *object, const char *name) {
  JsonNode *node = json_object_get_member(object, name);
  return node != NULL && !JSON_NODE_HOLDS_NULL(node) ? node : NULL;
}

gboolean json_box_has(JsonObject *object, const char *name) { return member(object, name) != NULL; }

const char *json_box_string(JsonObject *object, const char *name) {
  JsonNode *node = member(object, name);
  return node != NULL ? json_node_get_string(node) : NULL;
}

gint64 json_box_int(JsonObject *object, const char *name) {
  JsonNode *node = member(object, name);
  return node != NULL ? json_node_get_int(node) : 0;
}

gdouble json_box_float(JsonObject *object, const char *name) {
  JsonNode *node = member(object, name);
  if (node == NULL) return 0;
  return json_node_get_value_type(node) == G_TYPE_INT64 ? (gdouble)json_node_get_int(node) : json_node_get_double(node);
}

gboolean json_box_bool(JsonObject *object, const char *name) {
  JsonNode *node = member(object, name);
  return node != NULL && json_node_get_boolean(node);
}

JsonObject *json_box_object(JsonObject *object, const char *name) {
  JsonNode *node = member(object, name);
  return node != NULL ? json_node_get_object(node) : NULL;
}

JsonArray *json_box_array(JsonObject *object, const char *name) {
  JsonNode *node = member(object, name);
  return node != NULL ? json_node_get_array(node) : NULL;
}

char **json_box_strv(JsonObject *object, const char *name) {
  JsonArray *array = json_box_array(object, name);
  if (array == NULL) return NULL;
  guint length = json_array_get_length(array);
  char **strings = g_new0(char *, length + 1);
  for (guint i = 0; i < length; i++) strings[i] = g_strdup(json_array_get_string_element(array, i));
  return strings;
}

GHashTable *json_box_string_map(JsonObject *object, const char *name) {
  JsonObject *map = json_box_object(object, name);
  if (map == NULL) return NULL;
  GHashTable *table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  JsonObjectIter iter;
  const char *key;
  JsonNode *node;
  json_object_iter_init(&iter, map);
  while (json_object_iter_next(&iter, &key, &node)) g_hash_table_replace(table, g_strdup(key), g_strdup(json_node_get_string(node)));
  return table;
}

gpointer json_box_cache(gpointer *slot, gpointer value, GDestroyNotify free_value) {
  if (g_atomic_pointer_compare_and_exchange(slot, NULL, value)) return value;
  free_value(value);
  return g_atomic_pointer_get(slot);
}

JsonObject *json_box_object_copy(JsonObject *object) {
  g_autoptr(JsonNode) node = json_node_init_object(json_node_alloc(), object);
  g_autoptr(JsonNode) copy = json_node_copy(node);
  return json_object_ref(json_node_get_object(copy));
}

JsonArray *json_box_strv_array(const char *const *strings) {
  JsonArray *array = json_array_new();
  for (const char *const *string = strings; *string != NULL; string++) json_array_add_string_element(array, *string);
  return array;
}

JsonObject *json_box_string_map_object(GHashTable *strings) {
  JsonObject *object = json_object_new();
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init(&iter, strings);
  while (g_hash_table_iter_next(&iter, &key, &value)) json_object_set_string_member(object, key, value);
  return object;
}

/* ---- checks ---- */

static gboolean holds(JsonNode *node, GType type) {
  return JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == type;
}

/* The member, if it must be checked: NULL when absent and allowed to be; *ok FALSE when absent and required. */
static JsonNode *to_check(JsonObject *object, const char *name, gboolean optional, gboolean *ok) {
  JsonNode *node = member(object, name);
  *ok = node != NULL || optional;
  return node;
}

gboolean json_box_check_bool(JsonObject *object, const char *name, gboolean optional) {
  gboolean ok;
  JsonNode *node = to_check(object, name, optional, &ok);
  return node == NULL ? ok : holds(node, G_TYPE_BOOLEAN);
}

gboolean json_box_check_int(JsonObject *object, const char *name, gboolean optional) {
  gboolean ok;
  JsonNode *node = to_check(object, name, optional, &ok);
  return node == NULL ? ok : holds(node, G_TYPE_INT64);
}

gboolean json_box_check_float(JsonObject *object, const char *name, gboolean optional) {
  gboolean ok;
  JsonNode *node = to_check(object, name, optional, &ok);
  return node == NULL ? ok : holds(node, G_TYPE_INT64) || holds(node, G_TYPE_DOUBLE);
}

gboolean json_box_check_string(JsonObject *object, const char *name, gboolean optional) {
  gboolean ok;
  JsonNode *node = to_check(object, name, optional, &ok);
  return node == NULL ? ok : holds(node, G_TYPE_STRING);
}

gboolean json_box_check_object(JsonObject *object, const char *name, gboolean optional, JsonBoxCheck check) {
  gboolean ok;
  JsonNode *node = to_check(object, name, optional, &ok);
  return node == NULL ? ok : JSON_NODE_HOLDS_OBJECT(node) && check(json_node_get_object(node), NULL);
}

gboolean json_box_check_string_array(JsonObject *object, const char *name, gboolean optional) {
  gboolean ok;
  JsonNode *node = to_check(object, name, optional, &ok);
  if (node == NULL) return ok;
  if (!JSON_NODE_HOLDS_ARRAY(node)) return FALSE;
  JsonArray *array = json_node_get_array(node);
  for (guint i = 0; i < json_array_get_length(array); i++)
    if (!holds(json_array_get_element(array, i), G_TYPE_STRING)) return FALSE;
  return TRUE;
}

gboolean json_box_check_object_array(JsonObject *object, const char *name, gboolean optional, JsonBoxCheck check) {
  gboolean ok;
  JsonNode *node = to_check(object, name, optional, &ok);
  if (node == NULL) return ok;
  if (!JSON_NODE_HOLDS_ARRAY(node)) return FALSE;
  JsonArray *array = json_node_get_array(node);
  for (guint i = 0; i < json_array_get_length(array); i++) {
    JsonNode *element = json_array_get_element(array, i);
    if (!JSON_NODE_HOLDS_OBJECT(element) || !check(json_node_get_object(element), NULL)) return FALSE;
  }
  return TRUE;
}

gboolean json_box_check_string_map(JsonObject *object, const char *name, gboolean optional) {
  gboolean ok;
  JsonNode *node = to_check(object, name, optional, &ok);
  if (node == NULL) return ok;
  if (!JSON_NODE_HOLDS_OBJECT(node)) return FALSE;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;
  json_object_iter_init(&iter, json_node_get_object(node));
  while (json_object_iter_next(&iter, &key, &value))
    if (!holds(value, G_TYPE_STRING)) return FALSE;
  return TRUE;
}

gboolean json_box_check_object_map(JsonObject *object, const char *name, gboolean optional, JsonBoxCheck check) {
  gboolean ok;
  JsonNode *node = to_check(object, name, optional, &ok);
  if (node == NULL) return ok;
  if (!JSON_NODE_HOLDS_OBJECT(node)) return FALSE;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;
  json_object_iter_init(&iter, json_node_get_object(node));
  while (json_object_iter_next(&iter, &key, &value))
    if (!JSON_NODE_HOLDS_OBJECT(value) || !check(json_node_get_object(value), NULL)) return FALSE;
  return TRUE;
}
