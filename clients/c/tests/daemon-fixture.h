/* A real lprojd for tests and the benchmark: a temporary directory with a
 * copy of a bundle, the daemon started on a socket there, and readiness
 * awaited through sd_notify (READY=1), never by sleeping. */
#pragma once

#include <glib.h>

typedef struct {
  char *directory;   /* everything lives here; removed by daemon_fixture_free */
  char *bundle_dir;  /* the bundle's copy, which tests may edit */
  char *socket_path;
  char *bundle_spec; /* NAME=DIR@LOCALE */
  GPid pid;          /* 0 when not running */
} DaemonFixture;

/* The demo bundle the tests serve: $DEMO_BUNDLE (meson sets it), else the
 * repository's Examples/DemoApp seen from the build directory. */
const char *daemon_fixture_demo_bundle(void);
/* Copies `bundle_source` to a temporary directory; serves it as `name`. */
DaemonFixture *daemon_fixture_new(const char *bundle_source, const char *name, const char *development_locale);
/* Starts lprojd ($LPROJD_BINARY) and waits for READY=1 (failing after 60 s). */
void daemon_fixture_start(DaemonFixture *fixture);
/* Sends `signal` to lprojd, which keeps running; SIGSTOP and SIGCONT return
 * once lprojd is stopped, or runs again. */
void daemon_fixture_signal(DaemonFixture *fixture, int signal);
/* Stops lprojd with `signal` and reaps it. */
void daemon_fixture_stop(DaemonFixture *fixture, int signal);
void daemon_fixture_free(DaemonFixture *fixture);

