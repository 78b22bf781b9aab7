#include "json-members.h"

const char *member_string(JsonObject *object, const char *member) {
  JsonNode *node = object != NULL ? json_object_get_member(object, member) : NULL;
  return node != NULL && json_node_get_value_type(node) == G_TYPE_STRING ? json_node_get_string(node) : NULL;
}

JsonObject *member_object(JsonObject *object, const char *member) {
  JsonNode *node = object != NULL ? json_object_get_member(object, member) : NULL;
  return node != NULL && JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
}

char **member_strv(JsonObject *object, const char *member) {
  JsonNode *node = object != NULL ? json_object_get_member(object, member) : NULL;
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY(node)) return NULL;
  JsonArray *array = json_node_get_array(node);
  GPtrArray *strings = g_ptr_array_new();
  for (guint i = 0; i < json_array_get_length(array); i++) {
    JsonNode *element = json_array_get_element(array, i);
    if (json_node_get_value_type(element) == G_TYPE_STRING) g_ptr_array_add(strings, g_strdup(json_node_get_string(element)));
  }
  g_ptr_array_add(strings, NULL);
  return (char **)g_ptr_array_free(strings, FALSE);
}
