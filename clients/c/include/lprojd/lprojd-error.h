/* LPROJD_ERROR: every error of the library, lprojd's and the connection's. */
#pragma once

#if !defined(LPROJD_INSIDE) && !defined(LPROJD_COMPILATION)
#error "Only <lprojd/lprojd.h> can be included directly."
#endif

#include <glib.h>
#include <lprojd/lprojd-version.h>

G_BEGIN_DECLS

/**
 * LPROJD_ERROR:
 *
 * The error domain of the library: its codes are [enum@Lprojd.Error].
 */
#define LPROJD_ERROR (lprojd_error_quark())

/**
 * LprojdError:
 * @LPROJD_ERROR_UNAVAILABLE: lprojd cannot be reached (no daemon on the
 *   socket), or the localizer answers from its cached mirror.
 * @LPROJD_ERROR_DISCONNECTED: the connection dropped during a call.
 * @LPROJD_ERROR_MALFORMED_REPLY: a reply that is not what the interface
 *   says, or over 64 MiB.
 * @LPROJD_ERROR_PROTOCOL: another Varlink error (`org.varlink.service.*`,
 *   such as `InvalidParameter` or `MethodNotFound`).
 * @LPROJD_ERROR_BUNDLE_NOT_FOUND: lprojd serves no bundle by this name
 *   (`BundleNotFound`).
 * @LPROJD_ERROR_INVALID_LOCALE: not a locale identifier, or one this system
 *   and the bundle do not know (`InvalidLocale`).
 * @LPROJD_ERROR_TABLE_NOT_FOUND: no folder of the bundle has this table
 *   (`TableNotFound`).
 * @LPROJD_ERROR_INVALID_ARGUMENTS: the format arguments do not fit the
 *   format: which argument, and what it should be (`InvalidArguments`).
 * @LPROJD_ERROR_PERMISSION_DENIED: the caller may not do this
 *   (`PermissionDenied`).
 * @LPROJD_ERROR_LIMIT_EXCEEDED: a limit of lprojd was reached
 *   (`LimitExceeded`).
 * @LPROJD_ERROR_INVALID_VALUE: a value is well formed but unusable: a date
 *   pattern, a time zone (`InvalidValue`).
 * @LPROJD_ERROR_STATE_UNAVAILABLE: selections and preferences cannot be
 *   saved now (`StateUnavailable`).
 * @LPROJD_ERROR_INTERNAL_ERROR: something failed inside lprojd; its log has
 *   the details (`InternalError`).
 * @LPROJD_ERROR_TIMEOUT: lprojd did not answer a call within 10 seconds (a
 *   daemon that hangs, or is stopped).
 *
 * The errors of [error@Lprojd.Error], in the domain `LPROJD_ERROR`. lprojd's
 * own errors map by their name in the Varlink interface, and the message
 * carries that name and the error's parameters. A call that is cancelled
 * through its [class@Gio.Cancellable] fails with `G_IO_ERROR_CANCELLED`
 * instead, as every GIO call does.
 */
typedef enum {
  LPROJD_ERROR_UNAVAILABLE,
  LPROJD_ERROR_DISCONNECTED,
  LPROJD_ERROR_MALFORMED_REPLY,
  LPROJD_ERROR_PROTOCOL,
  LPROJD_ERROR_BUNDLE_NOT_FOUND,
  LPROJD_ERROR_INVALID_LOCALE,
  LPROJD_ERROR_TABLE_NOT_FOUND,
  LPROJD_ERROR_INVALID_ARGUMENTS,
  LPROJD_ERROR_PERMISSION_DENIED,
  LPROJD_ERROR_LIMIT_EXCEEDED,
  LPROJD_ERROR_INVALID_VALUE,
  LPROJD_ERROR_STATE_UNAVAILABLE,
  LPROJD_ERROR_INTERNAL_ERROR,
  LPROJD_ERROR_TIMEOUT,
} LprojdError;

LPROJD_PUBLIC GQuark lprojd_error_quark(void);

G_END_DECLS
