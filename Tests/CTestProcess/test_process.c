/* The test process's own set-up, done before any test runs.
 *
 * SIGPIPE is ignored: tests write to daemons and child processes that may
 * close first (a daemon closing an oversized message's connection, as it
 * must), and a write there must be an error for that test, not a signal
 * that ends every test at once. NIO ignores it too, but only once it has
 * made its first socket, which may come after such a write. */
#include <signal.h>
#include <stddef.h>

#include "test_process.h"

__attribute__((constructor)) static void ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

int lproj_test_process_ignores_sigpipe(void) {
  struct sigaction current;
  return sigaction(SIGPIPE, NULL, &current) == 0 && current.sa_handler == SIG_IGN;
}
