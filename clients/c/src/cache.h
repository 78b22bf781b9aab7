/* The cached mirror: one JSON file per bundle and client, shared with the
 * Python client, read when lprojd cannot be reached. */
#pragma once

#include "mirror.h"

/* $XDG_CACHE_HOME/lprojd/mirrors/<bundle>@<client>.json (else ~/.cache/...),
 * each byte of either name outside A-Z a-z 0-9 _ - . (and a leading .)
 * written %XX. */
char *cache_path(const char *bundle, const char *client);

/* The cached mirror, or NULL when there is none that parses. */
Mirror *cache_load(const char *bundle, const char *client);

/* Replaces the cached mirror atomically; FALSE (with error) when it cannot. */
gboolean cache_save(const Mirror *mirror, const char *bundle, const char *client, GError **error);
