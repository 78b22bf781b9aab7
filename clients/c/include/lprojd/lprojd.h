/* lprojd: the localizer for GLib and GTK apps.
 *
 * One LprojdLocalizer per bundle and app id mirrors the bundle's tables in
 * the app's language, answers lookups from memory and follows every change
 * lprojd announces. Include this header only: <lprojd/lprojd.h>. */
#pragma once

#define LPROJD_INSIDE

#include <lprojd/lprojd-version.h>
#include <lprojd/lprojd-error.h>
#include <lprojd/lprojd-locale-name.h>
#include <lprojd/lprojd-localizer.h>
#include <lprojd/lprojd-enums.h>
#include <lprojd/lprojd-environ.h>

#undef LPROJD_INSIDE
