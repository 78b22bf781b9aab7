/* with-lprojd COMMAND [ARGUMENT...]: runs a command against the real lprojd
 * serving a temporary copy of the demo bundle, as the C tests do, and exits
 * with the command's status. The command finds lprojd's socket in
 * $LPROJD_SOCKET, the bundle's copy in $LPROJD_TEST_BUNDLE_DIR, and caches
 * its mirrors in a temporary $XDG_CACHE_HOME; it runs in the C locale, so
 * that a new app's language is the bundle's development locale (en). This
 * is how the tests through the typelib (GJS, Python) and the Vala program
 * meet a daemon. */
#include <signal.h>
#include <sys/wait.h>

#include "daemon-fixture.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    g_printerr("usage: with-lprojd COMMAND [ARGUMENT...]\n");
    return 2;
  }
  const char *bundle = daemon_fixture_demo_bundle();
  DaemonFixture *daemon = daemon_fixture_new(bundle, "demo", "en");
  daemon_fixture_start(daemon);
  g_autofree char *cache = g_build_filename(daemon->directory, "cache", NULL);
  char **environment = g_get_environ();
  environment = g_environ_setenv(environment, "LPROJD_SOCKET", daemon->socket_path, TRUE);
  environment = g_environ_setenv(environment, "LPROJD_TEST_BUNDLE_DIR", daemon->bundle_dir, TRUE);
  environment = g_environ_setenv(environment, "XDG_CACHE_HOME", cache, TRUE);
  environment = g_environ_setenv(environment, "LC_ALL", "C.UTF-8", TRUE);
  environment = g_environ_setenv(environment, "LANGUAGE", "", TRUE);
  int status = 0;
  g_autoptr(GError) error = NULL;
  g_spawn_sync(NULL, argv + 1, environment, G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL,
               &status, &error);
  g_strfreev(environment);
  daemon_fixture_free(daemon);
  if (error != NULL) {
    g_printerr("with-lprojd: %s\n", error->message);
    return 1;
  }
  if (WIFSIGNALED(status)) {
    g_printerr("with-lprojd: %s died of signal %d\n", argv[1], WTERMSIG(status));
    return 1;
  }
  return WEXITSTATUS(status);
}
