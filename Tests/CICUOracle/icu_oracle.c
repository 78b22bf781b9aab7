#include "icu_oracle.h"

#include <stdlib.h>
#include <string.h>

#include <unicode/ucurr.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/unum.h>
#include <unicode/uformattedvalue.h>
#include <unicode/unumberformatter.h>
#include <unicode/ustring.h>

static int32_t to_utf8(const UChar *text, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = 0;
    u_strToUTF8(out, capacity, &needed, text, length, &status);
    return U_FAILURE(status) ? -1 : needed;
}

static int32_t from_utf8(const char *text, UChar *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = 0;
    u_strFromUTF8(out, capacity, &length, text, -1, &status);
    return U_FAILURE(status) ? -1 : length;
}

int32_t oracle_format_skeleton(const char *locale, const char *skeleton, double value,
                               const char *decimal, const char *grouping, const char *currency_symbol,
                               char *out, int32_t capacity) {
    UChar uskeleton[256];
    int32_t skeletonLength = from_utf8(skeleton, uskeleton, 256);
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormatter *formatter = unumf_openForSkeletonAndLocale(uskeleton, skeletonLength, locale, &status);
    UFormattedNumber *result = unumf_openResult(&status);
    unumf_formatDouble(formatter, value, result, &status);
    const UFormattedValue *formatted = unumf_resultAsValue(result, &status);
    int32_t length = 0;
    const UChar *text = ufmtval_getString(formatted, &length, &status);
    if (U_FAILURE(status)) return -1;
    UChar rebuilt[1024];
    int32_t written = 0, copied = 0;
    UConstrainedFieldPosition *position = ucfpos_open(&status);
    while (ufmtval_nextPosition(formatted, position, &status) && U_SUCCESS(status)) {
        const char *replacement = NULL;
        switch (ucfpos_getField(position, &status)) {
        case UNUM_DECIMAL_SEPARATOR_FIELD: replacement = decimal; break;
        case UNUM_GROUPING_SEPARATOR_FIELD: replacement = grouping; break;
        case UNUM_CURRENCY_FIELD: replacement = currency_symbol; break;
        default: break;
        }
        if (ucfpos_getCategory(position, &status) != UFIELD_CATEGORY_NUMBER || replacement == NULL) continue;
        int32_t start = 0, limit = 0;
        ucfpos_getIndexes(position, &start, &limit, &status);
        memcpy(rebuilt + written, text + copied, sizeof(UChar) * (size_t)(start - copied));
        written += start - copied;
        written += from_utf8(replacement, rebuilt + written, 1024 - written);
        copied = limit;
    }
    memcpy(rebuilt + written, text + copied, sizeof(UChar) * (size_t)(length - copied));
    written += length - copied;
    int32_t needed = U_SUCCESS(status) ? to_utf8(rebuilt, written, out, capacity) : -1;
    ucfpos_close(position);
    unumf_closeResult(result);
    unumf_close(formatter);
    return needed;
}

int32_t oracle_spell_out(const char *locale, double value, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormat *format = unum_open(UNUM_SPELLOUT, NULL, 0, locale, NULL, &status);
    UChar text[512];
    int32_t length = unum_formatDouble(format, value, text, 512, NULL, &status);
    unum_close(format);
    return U_FAILURE(status) ? -1 : to_utf8(text, length, out, capacity);
}

int32_t oracle_currency(const char *locale, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UChar code[4];
    int32_t length = ucurr_forLocale(locale, code, 4, &status);
    return U_FAILURE(status) ? -1 : to_utf8(code, length, out, capacity);
}

int32_t oracle_best_pattern(const char *locale, const char *skeleton, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UDateTimePatternGenerator *generator = udatpg_open(locale, &status);
    UChar uskeleton[128], pattern[256];
    int32_t skeletonLength = from_utf8(skeleton, uskeleton, 128);
    int32_t length = udatpg_getBestPattern(generator, uskeleton, skeletonLength, pattern, 256, &status);
    udatpg_close(generator);
    return U_FAILURE(status) ? -1 : to_utf8(pattern, length, out, capacity);
}

int32_t oracle_format_date(const char *locale, const char *pattern, const char *zone, double milliseconds, char *out, int32_t capacity) {
    UChar upattern[256], uzone[64], text[512];
    int32_t patternLength = from_utf8(pattern, upattern, 256);
    int32_t zoneLength = from_utf8(zone, uzone, 64);
    UErrorCode status = U_ZERO_ERROR;
    UDateFormat *format = udat_open(UDAT_PATTERN, UDAT_PATTERN, locale, uzone, zoneLength, upattern, patternLength, &status);
    int32_t length = udat_format(format, milliseconds, text, 512, NULL, &status);
    udat_close(format);
    return U_FAILURE(status) ? -1 : to_utf8(text, length, out, capacity);
}

int32_t oracle_case(const char *locale, int32_t upper, const char *text, char *out, int32_t capacity) {
    UChar utext[512], mapped[1024];
    int32_t length = from_utf8(text, utext, 512);
    UErrorCode status = U_ZERO_ERROR;
    int32_t mappedLength = upper ? u_strToUpper(mapped, 1024, utext, length, locale, &status)
                                 : u_strToLower(mapped, 1024, utext, length, locale, &status);
    return U_FAILURE(status) ? -1 : to_utf8(mapped, mappedLength, out, capacity);
}
