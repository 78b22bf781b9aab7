// libsystemd (Debian's libsystemd-dev) for lprojd: sd_notify, socket
// activation, the watchdog, the journal, and sd-bus for the desktop's
// languages (accountsservice, on the system bus).
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
#include <systemd/sd-bus.h>
#include <string.h>
#include <poll.h>
#include <sys/eventfd.h>

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

// accountsservice: a user's object and languages. sd-bus builds calls
// with variadic functions (sd_bus_call_method), which Swift cannot call;
// these use the plain ones.

#define LPROJD_ACCOUNTS_SERVICE "org.freedesktop.Accounts"
#define LPROJD_ACCOUNTS_USER_INTERFACE "org.freedesktop.Accounts.User"

/// The object path of a uid's user in accountsservice (FindUserById), to be
/// freed; 0, or a negative errno with `error` set. Waits at most
/// `timeout_usec`.
static inline int lprojd_accounts_find_user(sd_bus *bus, uint64_t uid, uint64_t timeout_usec, sd_bus_error *error, char **path) {
    sd_bus_message *call = NULL, *reply = NULL;
    int r = sd_bus_message_new_method_call(bus, &call, LPROJD_ACCOUNTS_SERVICE, "/org/freedesktop/Accounts",
                                           "org.freedesktop.Accounts", "FindUserById");
    if (r < 0) return r;
    int64_t id = (int64_t)uid;
    r = sd_bus_message_append_basic(call, 'x', &id);
    if (r >= 0) r = sd_bus_call(bus, call, timeout_usec, error, &reply);
    sd_bus_message_unref(call);
    if (r < 0) return r;
    const char *object = NULL;
    r = sd_bus_message_read_basic(reply, 'o', &object);
    if (r > 0) {
        *path = strdup(object);
        r = *path == NULL ? -ENOMEM : 0;
    } else if (r == 0) {
        r = -EBADMSG;
    }
    sd_bus_message_unref(reply);
    return r;
}

/// A user's languages: its `Languages` (newer accountsservice), else its
/// `Language` as one entry (none when empty). Returns how many (the list is
/// freed with lprojd_free_names), or a negative errno with `error` set.
static inline int lprojd_accounts_languages(sd_bus *bus, const char *path, sd_bus_error *error, char ***languages) {
    char **list = NULL;
    *languages = NULL;
    int r = sd_bus_get_property_strv(bus, LPROJD_ACCOUNTS_SERVICE, path, LPROJD_ACCOUNTS_USER_INTERFACE, "Languages", error, &list);
    if (r >= 0) {
        int count = 0;
        while (list != NULL && list[count] != NULL) count++;
        *languages = list;
        return count;
    }
    // No such property (accountsservice 22.08 has only Language): whatever
    // the error's name, Language says.
    sd_bus_error_free(error);
    char *one = NULL;
    r = sd_bus_get_property_string(bus, LPROJD_ACCOUNTS_SERVICE, path, LPROJD_ACCOUNTS_USER_INTERFACE, "Language", error, &one);
    if (r < 0) return r;
    if (one == NULL || one[0] == '\0') {
        free(one);
        return 0;
    }
    list = calloc(2, sizeof(char *));
    if (list == NULL) {
        free(one);
        return -ENOMEM;
    }
    list[0] = one;
    *languages = list;
    return 1;
}

/// Whether a NameOwnerChanged signal gives its name a new owner (the
/// service started), rather than taking it away.
static inline int lprojd_bus_name_gained_owner(sd_bus_message *message) {
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (sd_bus_message_read_basic(message, 's', &name) <= 0) return 0;
    if (sd_bus_message_read_basic(message, 's', &old_owner) <= 0) return 0;
    if (sd_bus_message_read_basic(message, 's', &new_owner) <= 0) return 0;
    return new_owner != NULL && new_owner[0] != '\0';
}

#endif
