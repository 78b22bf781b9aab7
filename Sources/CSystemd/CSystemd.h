// libsystemd (Debian's libsystemd-dev) for lprojd: sd_notify, socket
// activation, the watchdog and the journal.
//
// Swift cannot call C variadic functions (sd_notifyf, sd_journal_send,
// sd_journal_print). lprojd does not need them: it formats notify messages in
// Swift for sd_notify, and sends journal entries field by field through
// sd_journal_sendv. The one helper below keeps iovec building out of Swift.
#ifndef LPROJD_CSYSTEMD_H
#define LPROJD_CSYSTEMD_H

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <systemd/sd-daemon.h>
// Without this, sd-journal.h turns sd_journal_sendv into a macro that adds
// this header's own CODE_FILE/CODE_LINE/CODE_FUNC to every entry, beside
// the Swift caller's real ones.
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-journal.h>

/// Sends one journal entry made of `count` fields, each `NAME=value` of
/// `lengths[i]` bytes (values may hold newlines and any bytes). Returns 0 or
/// a negative errno, as sd_journal_sendv does.
static inline int lprojd_journal_send_fields(const char *const *fields, const size_t *lengths, int count) {
    if (count <= 0 || count > 256) return -EINVAL;
    struct iovec vectors[256];
    for (int i = 0; i < count; i++) {
        vectors[i].iov_base = (void *)fields[i];
        vectors[i].iov_len = lengths[i];
    }
    return sd_journal_sendv(vectors, count);
}

/// The descriptors passed by the service manager, with their names (from
/// `FileDescriptorName=`); unsets the LISTEN_* variables so that children do
/// not inherit them. Returns the count (descriptors start at
/// SD_LISTEN_FDS_START) or a negative errno; free the names with
/// lprojd_free_names.
static inline int lprojd_listen_fds_with_names(char ***names) {
    return sd_listen_fds_with_names(1, names);
}

static inline void lprojd_free_names(char **names, int count) {
    if (names == NULL) return;
    for (int i = 0; i < count; i++) free(names[i]);
    free(names);
}

#endif
