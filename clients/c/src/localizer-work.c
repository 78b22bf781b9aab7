/* The work queue: everything that waits for lprojd, one item at a time and
 * in order, on a thread of a pool shared by every localizer, so that the
 * app's main context never waits.
 *
 * An item is the app's call (a GTask, whose callback runs on the context of
 * the thread that made it, and which keeps the localizer alive, as a GIO
 * call does) or the localizer's own work (an event, a reconnection), which
 * holds no reference: when the app drops its last one, dispose stops the
 * queue, cancels the socket call in progress, and waits (briefly) until the
 * queue's thread has left the localizer. That thread never drops the last
 * reference itself: it hands its reference to each task back to the task's
 * context. */
#include "localizer-private.h"

struct _Work {
  WorkFunc run;
  gpointer data;
  GDestroyNotify free_data;
  GTask *task;              /* the app's call, or NULL for the localizer's own work */
  gint returned;            /* atomic: the task was finished (by the work, or by a cancellation) */
  gulong cancelled_handler; /* on the task's cancellable, disconnected once the item left the queue */
};

static void work_free(Work *work) {
  if (work->free_data != NULL && work->data != NULL) work->free_data(work->data);
  g_free(work);
}

static Work *task_work(GTask *task) { return g_task_get_task_data(task); }

static gboolean claim(GTask *task) { return g_atomic_int_compare_and_exchange(&task_work(task)->returned, 0, 1); }

/* On the task's context: a task still queued (or waiting for lprojd) ends
 * now, with G_IO_ERROR_CANCELLED. */
static gboolean return_cancelled(gpointer data) {
  GTask *task = data;
  if (claim(task)) g_task_return_error_if_cancelled(task);
  return G_SOURCE_REMOVE;
}

/* In the thread that cancels: interrupting the work itself is the
 * cancellable's own doing (the socket calls are given it). */
static void on_cancelled(GCancellable *cancellable, gpointer data) {
  (void)cancellable;
  GTask *task = data;
  g_autoptr(GSource) idle = g_idle_source_new();
  g_source_set_priority(idle, g_task_get_priority(task));
  g_source_set_callback(idle, return_cancelled, g_object_ref(task), g_object_unref);
  g_source_attach(idle, g_task_get_context(task));
}

GTask *work_task_new(LprojdLocalizer *self, WorkFunc run, gpointer data, GDestroyNotify free_data,
                     GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data, gpointer tag) {
  GTask *task = g_task_new(self, cancellable, callback, user_data);
  g_task_set_source_tag(task, tag);
  Work *work = g_new0(Work, 1);
  work->run = run;
  work->data = data;
  work->free_data = free_data;
  work->task = task; /* not a reference: the task owns the work */
  g_task_set_task_data(task, work, (GDestroyNotify)work_free);
  if (cancellable != NULL)
    work->cancelled_handler =
        g_cancellable_connect(cancellable, G_CALLBACK(on_cancelled), g_object_ref(task), g_object_unref);
  return task;
}

void work_return_pointer(GTask *task, gpointer result, GDestroyNotify free_result) {
  if (task != NULL && claim(task))
    g_task_return_pointer(task, result, free_result);
  else if (result != NULL && free_result != NULL)
    free_result(result);
}

void work_return_boolean(GTask *task, gboolean result) {
  if (task != NULL && claim(task)) g_task_return_boolean(task, result);
}

void work_return_error(GTask *task, GError *error) {
  if (task != NULL && claim(task))
    g_task_return_error(task, error);
  else
    g_error_free(error);
}

/* The queue's reference to a task is dropped on the task's context: the
 * last reference to the localizer (which a task holds) must not be
 * dropped on the queue's thread, where dispose would wait for itself. */
static gboolean drop_task(gpointer data) {
  (void)data;
  return G_SOURCE_REMOVE;
}

static void release_task(GTask *task) {
  g_autoptr(GSource) idle = g_idle_source_new();
  g_source_set_callback(idle, drop_task, task, g_object_unref);
  g_source_attach(idle, g_task_get_context(task));
}

/* Runs an item, then lets it go. */
static void run_work(LprojdLocalizer *self, Work *work) {
  GTask *task = work->task;
  GCancellable *cancellable = task != NULL ? g_task_get_cancellable(task) : self->stop;
  /* A task cancelled while it waited is over: its work is not done. */
  if (task == NULL || !g_atomic_int_get(&work->returned)) {
    g_rec_mutex_lock(&self->io_lock);
    work->run(self, task, work->data, cancellable);
    g_rec_mutex_unlock(&self->io_lock);
  }
  if (task == NULL) {
    work_free(work);
    return;
  }
  /* Not from the handler's own thread, so this cannot wait for itself. */
  if (work->cancelled_handler != 0) g_cancellable_disconnect(g_task_get_cancellable(task), work->cancelled_handler);
  work->cancelled_handler = 0;
  release_task(task);
}

/* On a thread of the pool. The localizer is alive while `working` is set:
 * dispose waits for it to clear. */
static void drain(gpointer data, gpointer unused) {
  (void)unused;
  LprojdLocalizer *self = data;
  for (;;) {
    g_mutex_lock(&self->state_lock);
    Work *work = self->stopping ? NULL : g_queue_pop_head(&self->work);
    if (work == NULL) {
      self->working = FALSE;
      g_cond_broadcast(&self->idle);
    }
    g_mutex_unlock(&self->state_lock);
    if (work == NULL) return; /* not a byte of the localizer after this */
    run_work(self, work);
  }
}

/* Shared by every localizer, with no limit on threads: a localizer whose
 * lprojd does not answer holds one thread, never another's turn. Threads
 * left idle are GLib's to keep or end. */
static GThreadPool *work_pool(void) {
  static GThreadPool *pool = NULL;
  if (g_once_init_enter(&pool)) g_once_init_leave(&pool, g_thread_pool_new(drain, NULL, -1, FALSE, NULL));
  return pool;
}

static void queue(LprojdLocalizer *self, Work *work) {
  g_mutex_lock(&self->state_lock);
  if (self->stopping) {
    /* Only the localizer's own work can come now: the app's calls hold it. */
    g_mutex_unlock(&self->state_lock);
    work_free(work);
    return;
  }
  g_queue_push_tail(&self->work, work);
  gboolean start = !self->working;
  self->working = TRUE;
  g_mutex_unlock(&self->state_lock);
  if (start) g_thread_pool_push(work_pool(), self, NULL);
}

void work_queue(LprojdLocalizer *self, GTask *task) { queue(self, task_work(task)); }

void work_queue_own(LprojdLocalizer *self, WorkFunc run, gpointer data, GDestroyNotify free_data) {
  Work *work = g_new0(Work, 1);
  work->run = run;
  work->data = data;
  work->free_data = free_data;
  queue(self, work);
}

void work_stop(LprojdLocalizer *self) {
  g_mutex_lock(&self->state_lock);
  self->stopping = TRUE;
  g_cancellable_cancel(self->stop);
  while (self->working) g_cond_wait(&self->idle, &self->state_lock);
  /* What is left is the localizer's own work (the app's calls hold it). */
  Work *work;
  while ((work = g_queue_pop_head(&self->work)) != NULL) work_free(work);
  g_mutex_unlock(&self->state_lock);
}
