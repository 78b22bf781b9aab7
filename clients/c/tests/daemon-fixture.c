#include "daemon-fixture.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixsocketaddress.h>
#include <glib/gstdio.h>

#define READY_TIMEOUT_US (60 * G_USEC_PER_SEC)

const char *daemon_fixture_demo_bundle(void) {
  const char *path = g_getenv("DEMO_BUNDLE");
  return path != NULL ? path : "../../Examples/DemoApp";
}

DaemonFixture *daemon_fixture_new(const char *bundle_source, const char *name, const char *development_locale) {
  DaemonFixture *fixture = g_new0(DaemonFixture, 1);
  g_autoptr(GError) error = NULL;
  fixture->directory = g_dir_make_tmp("lprojd-client-XXXXXX", &error);
  g_assert_no_error(error);
  fixture->bundle_dir = g_build_filename(fixture->directory, "bundle", NULL);
  fixture->socket_path = g_build_filename(fixture->directory, "sock", NULL);
  fixture->bundle_spec = g_strdup_printf("%s=%s@%s", name, fixture->bundle_dir, development_locale);
  const char *copy[] = {"cp", "-R", bundle_source, fixture->bundle_dir, NULL};
  int status = 0;
  g_spawn_sync(NULL, (char **)copy, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error(error);
  g_assert_cmpint(status, ==, 0);
  return fixture;
}

static const char *daemon_binary(void) {
  const char *binary = g_getenv("LPROJD_BINARY");
  return binary != NULL ? binary : "../../.build/release/lprojd";
}

/* A datagram socket for sd_notify, bound in the fixture's directory. */
static GSocket *notify_socket(const char *path) {
  g_autoptr(GError) error = NULL;
  g_unlink(path);
  GSocket *socket = g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_DEFAULT, &error);
  g_assert_no_error(error);
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new(path);
  g_socket_bind(socket, address, TRUE, &error);
  g_assert_no_error(error);
  return socket;
}

/* Reads notifications until one says READY=1. */
static void wait_ready(GSocket *socket) {
  gint64 deadline = g_get_monotonic_time() + READY_TIMEOUT_US;
  for (;;) {
    gint64 left = deadline - g_get_monotonic_time();
    if (left <= 0) g_error("lprojd did not send READY=1 within 60 s");
    g_autoptr(GError) error = NULL;
    if (!g_socket_condition_timed_wait(socket, G_IO_IN, left, NULL, &error)) continue;
    char message[4096];
    gssize count = g_socket_receive(socket, message, sizeof message - 1, NULL, &error);
    g_assert_no_error(error);
    message[count] = '\0';
    g_auto(GStrv) lines = g_strsplit(message, "\n", -1);
    if (g_strv_contains((const char *const *)lines, "READY=1")) return;
  }
}

/* A test that aborts must not leave its daemon behind. */
static void die_with_parent(gpointer data) {
  (void)data;
  prctl(PR_SET_PDEATHSIG, SIGTERM);
}

void daemon_fixture_start(DaemonFixture *fixture) {
  g_assert_cmpint(fixture->pid, ==, 0);
  g_autofree char *notify_path = g_build_filename(fixture->directory, "notify", NULL);
  g_autofree char *state = g_build_filename(fixture->directory, "state", NULL);
  g_autofree char *log_path = g_build_filename(fixture->directory, "lprojd.log", NULL);
  g_autoptr(GSocket) notify = notify_socket(notify_path);
  const char *argv[] = {daemon_binary(), "--socket", fixture->socket_path, "--state-directory", state,
                        "--bundle", fixture->bundle_spec, "--log-level", "debug", NULL};
  g_auto(GStrv) environment = g_environ_setenv(g_get_environ(), "NOTIFY_SOCKET", notify_path, TRUE);
  /* Snapshots (GetSnapshot) go to a runtime directory of the test's own. */
  g_autofree char *runtime = g_build_filename(fixture->directory, "runtime", NULL);
  g_assert_cmpint(g_mkdir_with_parents(runtime, 0700), ==, 0);
  environment = g_environ_setenv(environment, "XDG_RUNTIME_DIR", runtime, TRUE);
  environment = g_environ_unsetenv(environment, "RUNTIME_DIRECTORY");
  int log = g_open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  g_assert_cmpint(log, >=, 0);
  g_autoptr(GError) error = NULL;
  g_spawn_async_with_fds(NULL, (char **)argv, environment, G_SPAWN_DO_NOT_REAP_CHILD, die_with_parent, NULL, &fixture->pid, -1,
                         log, log, &error);
  close(log);
  g_assert_no_error(error);
  wait_ready(notify);
}

void daemon_fixture_signal(DaemonFixture *fixture, int signal) {
  g_assert_cmpint(fixture->pid, !=, 0);
  g_assert_cmpint(kill(fixture->pid, signal), ==, 0);
  /* kill() returns before every thread of lprojd has stopped (or runs
   * again): wait until the kernel reports it, leaving it waitable. */
  int state = signal == SIGSTOP ? WSTOPPED : signal == SIGCONT ? WCONTINUED : 0;
  if (state == 0) return;
  siginfo_t info = {0};
  g_assert_cmpint(waitid(P_PID, (id_t)fixture->pid, &info, state | WNOWAIT), ==, 0);
}

void daemon_fixture_stop(DaemonFixture *fixture, int signal) {
  if (fixture->pid == 0) return;
  /* A stopped daemon must run again to handle SIGTERM. */
  kill(fixture->pid, SIGCONT);
  kill(fixture->pid, signal);
  int status = 0;
  waitpid(fixture->pid, &status, 0);
  fixture->pid = 0;
}

void daemon_fixture_free(DaemonFixture *fixture) {
  daemon_fixture_stop(fixture, SIGTERM);
  const char *remove[] = {"rm", "-rf", fixture->directory, NULL};
  g_spawn_sync(NULL, (char **)remove, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  g_free(fixture->directory);
  g_free(fixture->bundle_dir);
  g_free(fixture->socket_path);
  g_free(fixture->bundle_spec);
  g_free(fixture);
}
