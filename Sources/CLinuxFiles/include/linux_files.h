#ifndef LPROJD_LINUX_FILES_H
#define LPROJD_LINUX_FILES_H

#include <stdint.h>

/// openat2(2): opens `path` relative to `directory` as `flags` say, resolved
/// as `resolve` says (RESOLVE_* bits). Returns the descriptor, or -errno.
/// glibc 2.36 has no wrapper, and Swift cannot call the variadic syscall().
int lprojd_openat2(int directory, const char *path, uint64_t flags, uint64_t mode, uint64_t resolve);

/// Linux's O_PATH, which glibc shows only under _GNU_SOURCE.
extern const int lprojd_o_path;
/// RESOLVE_BENEATH: every step of the resolution, links included, stays
/// inside `directory` ("..": at most back to it).
extern const uint64_t lprojd_resolve_beneath;
/// RESOLVE_NO_MAGICLINKS: no /proc/PID/fd-style links.
extern const uint64_t lprojd_resolve_no_magiclinks;
/// RESOLVE_NO_XDEV: no crossing into another mount.
extern const uint64_t lprojd_resolve_no_xdev;

#endif
