// Locale-aware formatting through the system ICU: numbers, measures, dates,
// case mapping and locale names. Same conventions as lproj_icu.h: no ICU
// types, UTF-8 strings, locales as BCP 47 tags. Every function that fills
// `out` returns the full UTF-8 length of its result (call again with a
// larger buffer when it is >= `capacity`), or a negative value on failure.
#ifndef LPROJ_ICU_FORMATTING_H
#define LPROJ_ICU_FORMATTING_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// NSNumberFormatter's styles, as ICU's UNumberFormat implements them.
typedef enum {
    LPROJ_NUMBER_DECIMAL = 0,
    LPROJ_NUMBER_PERCENT = 1,
    LPROJ_NUMBER_CURRENCY = 2,
    LPROJ_NUMBER_SCIENTIFIC = 3,
    LPROJ_NUMBER_SPELL_OUT = 4,
} lproj_number_style;

/// Adjustments to a style. -1 and NULL mean "the locale's own".
typedef struct {
    int32_t minimum_fraction_digits;
    int32_t maximum_fraction_digits;
    /// Replaces the locale's decimal separator (also the monetary one).
    const char *decimal_separator;
    /// Replaces the locale's grouping separator (also the monetary one).
    const char *grouping_separator;
    /// ISO 4217 code of the currency (LPROJ_NUMBER_CURRENCY); NULL: the
    /// currency of the locale's region.
    const char *currency_code;
    /// Written instead of the currency's own symbol.
    const char *currency_symbol;
} lproj_number_options;

/// A number format for one locale, style and set of options: ICU's
/// UNumberFormat. Not safe to use from two threads at once (keep one per
/// thread, or pool them).
typedef struct lproj_style_format lproj_style_format;

/// Opens a format; NULL when the locale, style or options are unusable. A
/// percent is not multiplied by 100: 25 is "25%" (in the locale's way).
lproj_style_format *lproj_style_format_open(const char *tag, lproj_number_style style, const lproj_number_options *options);

/// Formats `value`.
int32_t lproj_style_format_double(lproj_style_format *format, double value, char *out, int32_t capacity);

void lproj_style_format_close(lproj_style_format *format);

/// A measure format: `value`s (already in the unit) in an ICU measure unit
/// ("length-kilometer", "speed-mile-per-hour") with the unit's short name,
/// exactly `fraction_digits` fraction digits, and the separators replaced
/// when given. Immutable, and safe to use from several threads at once.
typedef struct lproj_measure_format lproj_measure_format;

lproj_measure_format *lproj_measure_format_open(const char *tag, const char *unit, int32_t fraction_digits,
                                                const char *decimal_separator, const char *grouping_separator);

int32_t lproj_measure_format_double(const lproj_measure_format *format, double value, char *out, int32_t capacity);

void lproj_measure_format_close(lproj_measure_format *format);

/// The locale's measurement system: 0 metric, 1 US, 2 UK; -1 on failure.
int32_t lproj_measurement_system(const char *tag);

/// The ISO 4217 code of the locale's currency (of its likely region).
int32_t lproj_locale_currency(const char *tag, char *out, int32_t capacity);

/// 1 when `code` is an ISO 4217 currency ICU knows.
int32_t lproj_currency_is_known(const char *code);

/// The locale's own date pattern for a template of fields ("dd/MM/yyyy" ->
/// "dd.MM.yyyy" in German), as ICU's DateTimePatternGenerator (and so
/// Apple's dateFormatFromTemplate) makes it, for a calendar (NULL: the
/// locale's; the Japanese calendar's patterns carry its era).
int32_t lproj_date_pattern_for_template(const char *tag, const char *calendar, const char *template_text, char *out, int32_t capacity);

/// A date format for a locale, a calendar ("gregorian", "japanese"; NULL:
/// the locale's), a pattern and a time zone ("Europe/Rome", "GMT"). Not
/// safe to use from two threads at once.
typedef struct lproj_date_formatter lproj_date_formatter;

lproj_date_formatter *lproj_date_formatter_open(const char *tag, const char *calendar, const char *pattern, const char *zone);

/// Formats an instant (milliseconds since 1970 UTC).
int32_t lproj_date_formatter_format(lproj_date_formatter *formatter, double milliseconds, char *out, int32_t capacity);

/// Parses `text`, all of it and strictly. Returns 0 and sets
/// `milliseconds`; else the 1-based offset where parsing stopped.
int32_t lproj_date_formatter_parse(lproj_date_formatter *formatter, const char *text, double *milliseconds);

void lproj_date_formatter_close(lproj_date_formatter *formatter);

/// 1 when ICU accepts `pattern` as a date pattern (it formats with it).
int32_t lproj_date_pattern_is_valid(const char *pattern);

/// The canonical ID of a time zone in ICU's (CLDR's) terms ("US/Pacific" ->
/// "America/Los_Angeles", "GMT+2" -> "GMT+02:00"); -1 when ICU does not
/// know it.
int32_t lproj_time_zone_canonical(const char *zone, char *out, int32_t capacity);

/// ICU's name for a calendar, given it or its BCP 47 name ("gregory" ->
/// "gregorian"); -1 when ICU has no such calendar.
int32_t lproj_calendar_canonical(const char *calendar, char *out, int32_t capacity);

/// Upper-cases (`upper` 1) or lower-cases (0) `length` bytes of UTF-8 by the
/// locale's rules (Turkish and Azeri dotted i, Lithuanian, Greek).
int32_t lproj_case_map(const char *tag, int32_t upper, const char *text, int32_t length, char *out, int32_t capacity);

/// The name of the locale `tag` in the language of `display_tag`, written as
/// it would be in a menu ("Deutsch", "Français", "German").
int32_t lproj_locale_display_name(const char *tag, const char *display_tag, char *out, int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
