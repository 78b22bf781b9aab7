/* A _sync call, as GIO's are made: the _async one in a main context of its
 * own, pushed as the thread's default so that its result comes there, and
 * iterated until it does. Other sources of the caller's contexts do not
 * run meanwhile. */
#pragma once

#include <gio/gio.h>

typedef struct {
  GMainContext *context;
  GAsyncResult *result;
} SyncWait;

static inline void sync_wait_begin(SyncWait *wait) {
  wait->context = g_main_context_new();
  wait->result = NULL;
  g_main_context_push_thread_default(wait->context);
}

/* The callback of the _async call: its user data is the SyncWait. */
static inline void sync_wait_done(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  ((SyncWait *)data)->result = g_object_ref(result);
}

/* Waits for the result (the caller's reference: g_object_unref it). */
static inline GAsyncResult *sync_wait_end(SyncWait *wait) {
  while (wait->result == NULL) g_main_context_iteration(wait->context, TRUE);
  g_main_context_pop_thread_default(wait->context);
  g_main_context_unref(wait->context);
  return wait->result;
}
