/* {name} placeholders, filled exactly as lprojd fills them
 * (Sources/LprojFormatStrings/Placeholders/Placeholders.swift). */
#pragma once

#include <glib.h>

/* The longest placeholder name: longer ones stay as written. */
#define PLACEHOLDER_MAX_NAME 64

/* `text` with every {name} that `values` (string -> string) has replaced,
 * in one pass; NULL or empty values copies the text. */
char *placeholders_substitute(const char *text, GHashTable *values);
