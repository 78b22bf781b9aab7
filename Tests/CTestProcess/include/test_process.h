#ifndef LPROJ_TEST_PROCESS_H
#define LPROJ_TEST_PROCESS_H

/* Whether the test process ignores SIGPIPE (set before any test runs). */
int lproj_test_process_ignores_sigpipe(void);

#endif
