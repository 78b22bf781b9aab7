#define _GNU_SOURCE
#include "linux_files.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

const int lprojd_o_path = O_PATH;
const uint64_t lprojd_resolve_beneath = RESOLVE_BENEATH;
const uint64_t lprojd_resolve_no_magiclinks = RESOLVE_NO_MAGICLINKS;
const uint64_t lprojd_resolve_no_xdev = RESOLVE_NO_XDEV;

int lprojd_openat2(int directory, const char *path, uint64_t flags, uint64_t mode, uint64_t resolve) {
  struct open_how how = {.flags = flags, .mode = mode, .resolve = resolve};
  long result = syscall(SYS_openat2, directory, path, &how, sizeof how);
  return result < 0 ? -errno : (int)result;
}
