// A narrow C interface to the system ICU (libicu-dev, ICU 72 / CLDR 42).
//
// Why a C target: Foundation on Linux carries its own private copy of ICU, and a
// Swift module that imports both Foundation and the system ICU headers fails to
// compile ("'UErrorCode' has different definitions in different modules").
// This header therefore exposes no ICU type at all: identifiers go in and out as
// NUL-terminated UTF-8, and plural rules are an opaque handle.
//
// All functions that fill `out` return the length written (excluding the NUL),
// or a negative value on failure. They never write more than `capacity` bytes.
#ifndef LPROJ_ICU_H
#define LPROJ_ICU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The canonical BCP 47 tag for a tag written with '-' ("EN-gb" -> "en-GB",
/// "iw" -> "he"). Returns -1 if ICU cannot parse the whole input as a tag.
int32_t lproj_locale_canonical_tag(const char *tag, char *out, int32_t capacity);

/// The tag with likely subtags added ("zh-TW" -> "zh-Hant-TW").
int32_t lproj_locale_maximize(const char *tag, char *out, int32_t capacity);

/// The tag with likely subtags removed ("zh-Hant-TW" -> "zh-TW").

/// CLDR's explicit parent of a locale, as stored in ICU's locale data
/// (`%%Parent`: "en-AU" -> "en-001", "es-MX" -> "es-419").
/// Returns 1 and fills `out` with a BCP 47 tag when the locale names a parent,
/// 2 when its parent is the root locale (`zh-Hant`, `sr-Latn`),
/// 0 when ICU has no explicit parent (the parent is found by truncation),
/// and -1 on failure.
int32_t lproj_locale_explicit_parent(const char *tag, char *out, int32_t capacity);

/// 1 when ICU has locale data for the tag's language (possibly through a
/// parent, as "en-JP" has through "en"), 0 when only the root locale would
/// serve it.
int32_t lproj_locale_has_data(const char *tag);

/// 1 when `code` is a region ICU knows (ISO 3166 or UN M.49, e.g. "GB", "419").
int32_t lproj_region_is_known(const char *code);

/// The number of locales ICU lists as available.
int32_t lproj_locale_available_count(void);

/// The BCP 47 tag of the available locale at `index`.
int32_t lproj_locale_available_tag(int32_t index, char *out, int32_t capacity);

/// Opaque CLDR plural rules for one locale. Immutable once opened and safe to
/// use from several threads at once.
typedef struct lproj_plural_rules lproj_plural_rules;

/// 1 when ICU's plural data has an entry of its own for exactly this locale
/// ("pt-PT" has one, "pt-AO" does not), 0 otherwise. ICU's own lookup falls
/// back by truncation ("pt-AO" -> "pt"); callers that follow CLDR's parent
/// locales ("pt-AO" -> "pt-PT") use this to find the right rules.
int32_t lproj_plural_rules_has_own_entry(const char *tag);

/// Opens the cardinal plural rules of a locale; NULL on failure.
lproj_plural_rules *lproj_plural_rules_open(const char *tag);

/// Releases rules opened with lproj_plural_rules_open.
void lproj_plural_rules_close(lproj_plural_rules *rules);

/// The category ("zero", "one", "two", "few", "many", "other") of an integer.
int32_t lproj_plural_select_integer(const lproj_plural_rules *rules, int64_t value, char *out, int32_t capacity);

/// The category of a decimal shown with exactly `fraction_digits` visible
/// fraction digits (CLDR operands v and f): in English 1 is "one" but 1.0 is
/// "other". `fraction_digits` is clamped to 0...15.
int32_t lproj_plural_select_decimal(const lproj_plural_rules *rules, double value, int32_t fraction_digits, char *out, int32_t capacity);

/// The categories the locale uses, separated by single spaces, in CLDR order
/// (zero one two few many other).
int32_t lproj_plural_categories(const lproj_plural_rules *rules, char *out, int32_t capacity);

/// Opaque ICU number formatter for one locale and one number skeleton
/// ("precision-integer", ".00", "scientific/*ee/sign-always @@@").
/// Immutable once opened and safe to use from several threads at once.
typedef struct lproj_number_formatter lproj_number_formatter;

/// Opens a formatter; NULL if the locale or skeleton is invalid.
lproj_number_formatter *lproj_number_formatter_open(const char *tag, const char *skeleton);

/// Releases a formatter opened with lproj_number_formatter_open.
void lproj_number_formatter_close(lproj_number_formatter *formatter);

/// Formats an integer as UTF-8. Returns the full length of the result even
/// when it did not fit (then nothing useful is in `out`), or -1 on failure.
int32_t lproj_number_format_int64(const lproj_number_formatter *formatter, int64_t value, char *out, int32_t capacity);

/// Formats a double as UTF-8, with the same contract as lproj_number_format_int64.
int32_t lproj_number_format_double(const lproj_number_formatter *formatter, double value, char *out, int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
