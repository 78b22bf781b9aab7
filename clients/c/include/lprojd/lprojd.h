/* lprojd for GLib and GTK apps.
 *
 * One LprojdLocalizer per bundle and app id mirrors the bundle's tables in
 * the app's language, answers lookups from memory and follows every change
 * lprojd announces. LprojdConnection makes any call of lprojd's interface,
 * with the interface's types (both generated from its definition).
 * Include this header only: <lprojd/lprojd.h>. */
#pragma once

#define LPROJD_INSIDE

#include <lprojd/lprojd-version.h>
#include <lprojd/lprojd-interface.h>
#include <lprojd/lprojd-connection.h>
#include <lprojd/lprojd-connection-calls.h>
#include <lprojd/lprojd-localizer.h>
#include <lprojd/lprojd-enums.h>
#include <lprojd/lprojd-environ.h>

#undef LPROJD_INSIDE
