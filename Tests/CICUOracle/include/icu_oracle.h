// ICU's own output, for the formatting tests: each function calls ICU as
// directly as its documentation shows, independently of lprojd's shim (which
// mostly uses other ICU APIs: UNumberFormat where this uses number
// skeletons, UCaseMap where this uses u_strToUpper). Locales are ICU locale
// IDs ("pt_BR", "ja@calendar=japanese"). Results are UTF-8 in `out`; the
// return value is the length, or -1.
#ifndef ICU_ORACLE_H
#define ICU_ORACLE_H

#include <stdint.h>

/// unumf with a skeleton ("percent .##", "currency/EUR .00"); each non-NULL
/// replacement takes the place of the characters ICU marks as that field.
int32_t oracle_format_skeleton(const char *locale, const char *skeleton, double value,
                               const char *decimal, const char *grouping, const char *currency_symbol,
                               char *out, int32_t capacity);

/// The spelled-out number (rule-based number format).
int32_t oracle_spell_out(const char *locale, double value, char *out, int32_t capacity);

/// The currency of a locale's region (ISO 4217).
int32_t oracle_currency(const char *locale, char *out, int32_t capacity);

/// DateTimePatternGenerator's best pattern for a skeleton.
int32_t oracle_best_pattern(const char *locale, const char *skeleton, char *out, int32_t capacity);

/// A date (milliseconds since 1970) with a pattern in a zone.
int32_t oracle_format_date(const char *locale, const char *pattern, const char *zone, double milliseconds, char *out, int32_t capacity);

/// u_strToUpper / u_strToLower.
int32_t oracle_case(const char *locale, int32_t upper, const char *text, char *out, int32_t capacity);

#endif
