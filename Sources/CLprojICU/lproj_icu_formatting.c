// Implementation of lproj_icu_formatting.h.
#include "lproj_icu_formatting.h"
#include "icu_common.h"

#include <stdio.h>

#include <unicode/ucal.h>
#include <unicode/ucasemap.h>
#include <unicode/ucurr.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/uformattedvalue.h>
#include <unicode/uldnames.h>
#include <unicode/ulocdata.h>
#include <unicode/unum.h>
#include <unicode/unumberformatter.h>

// The ICU locale ID of a tag, with a calendar keyword when one is given.
static int32_t locale_id(const char *tag, const char *calendar, char *id, int32_t capacity) {
    int32_t length = tag_to_icu_id(tag, id, capacity);
    if (length < 0) return -1;
    if (calendar != NULL && calendar[0] != '\0') {
        UErrorCode status = U_ZERO_ERROR;
        length = ICU(uloc_setKeywordValue)("calendar", calendar, id, capacity, &status);
        if (U_FAILURE(status)) return -1;
    }
    return length;
}

// Runs an ICU call that writes UTF-16 into a buffer (a stack buffer first,
// then one of the size it asked for) and converts its result to UTF-8.
typedef int32_t (*utf16_writer)(void *context, UChar *buffer, int32_t capacity, UErrorCode *status);

static int32_t write_utf8(utf16_writer write, void *context, char *out, int32_t capacity) {
    UChar stack[256];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = write(context, stack, 256, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) {
        UChar *heap = malloc(sizeof(UChar) * (size_t)(length + 1));
        if (heap == NULL) return -1;
        status = U_ZERO_ERROR;
        write(context, heap, length + 1, &status);
        int32_t result = U_SUCCESS(status) ? lproj_utf16_to_utf8(heap, length, out, capacity) : -1;
        free(heap);
        return result;
    }
    return U_SUCCESS(status) ? lproj_utf16_to_utf8(stack, length, out, capacity) : -1;
}

// ---------------------------------------------------------------------------
// Numbers

static int32_t set_symbol(UNumberFormat *format, UNumberFormatSymbol symbol, const char *value) {
    lproj_ustring text;
    if (!lproj_ustring_init(&text, value, -1)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    ICU(unum_setSymbol)(format, symbol, text.chars, text.length, &status);
    lproj_ustring_free(&text);
    return U_FAILURE(status) ? -1 : 0;
}

int32_t lproj_locale_currency(const char *tag, char *out, int32_t capacity) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0) return -1;
    // A language alone ("de") has no currency; its likely region does.
    char likely[LPROJ_ID_CAPACITY];
    UErrorCode status = U_ZERO_ERROR;
    ICU(uloc_addLikelySubtags)(id, likely, sizeof likely, &status);
    if (U_FAILURE(status)) return -1;
    UChar code[4];
    status = U_ZERO_ERROR;
    int32_t length = ICU(ucurr_forLocale)(likely, code, 4, &status);
    if (U_FAILURE(status) || length != 3) return -1;
    return lproj_utf16_to_utf8(code, 3, out, capacity);
}

int32_t lproj_currency_is_known(const char *code) {
    if (code == NULL || strlen(code) != 3) return 0;
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration *all = ICU(ucurr_openISOCurrencies)(UCURR_ALL, &status);
    if (U_FAILURE(status)) return 0;
    int32_t found = 0;
    const char *each;
    while (!found && (each = ICU(uenum_next)(all, NULL, &status)) != NULL && U_SUCCESS(status)) {
        found = strcmp(each, code) == 0;
    }
    ICU(uenum_close)(all);
    return found;
}

struct lproj_style_format {
    UNumberFormat *format;
};

lproj_style_format *lproj_style_format_open(const char *tag, lproj_number_style style, const lproj_number_options *options) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0) return NULL;
    UNumberFormatStyle icuStyle;
    switch (style) {
    case LPROJ_NUMBER_DECIMAL: icuStyle = UNUM_DECIMAL; break;
    case LPROJ_NUMBER_PERCENT: icuStyle = UNUM_PERCENT; break;
    case LPROJ_NUMBER_CURRENCY: icuStyle = UNUM_CURRENCY; break;
    case LPROJ_NUMBER_SCIENTIFIC: icuStyle = UNUM_SCIENTIFIC; break;
    case LPROJ_NUMBER_SPELL_OUT: icuStyle = UNUM_SPELLOUT; break;
    default: return NULL;
    }
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormat *format = ICU(unum_open)(icuStyle, NULL, 0, id, NULL, &status);
    if (U_FAILURE(status) || format == NULL) return NULL;

    if (style == LPROJ_NUMBER_PERCENT) {
        // The value already is a percentage (SDLocalizationManager's
        // multiplier of 1): 25 is 25 %, not 2,500 %.
        ICU(unum_setAttribute)(format, UNUM_MULTIPLIER, 1);
    }
    if (style == LPROJ_NUMBER_CURRENCY) {
        char code[8];
        const char *currency = options != NULL ? options->currency_code : NULL;
        if (currency == NULL) {
            if (lproj_locale_currency(tag, code, sizeof code) != 3) goto fail;
            currency = code;
        }
        if (strlen(currency) != 3) goto fail;
        UChar ucode[4];
        ICU(u_uastrncpy)(ucode, currency, 3);
        ucode[3] = 0;
        ICU(unum_setTextAttribute)(format, UNUM_CURRENCY_CODE, ucode, 3, &status);
        if (U_FAILURE(status)) goto fail;
        // After the code, which would otherwise bring its own symbol back.
        if (options != NULL && options->currency_symbol != NULL
            && set_symbol(format, UNUM_CURRENCY_SYMBOL, options->currency_symbol) < 0) goto fail;
    }
    if (options != NULL && style != LPROJ_NUMBER_SPELL_OUT) {
        if (options->decimal_separator != NULL
            && (set_symbol(format, UNUM_DECIMAL_SEPARATOR_SYMBOL, options->decimal_separator) < 0
                || set_symbol(format, UNUM_MONETARY_SEPARATOR_SYMBOL, options->decimal_separator) < 0)) goto fail;
        if (options->grouping_separator != NULL
            && (set_symbol(format, UNUM_GROUPING_SEPARATOR_SYMBOL, options->grouping_separator) < 0
                || set_symbol(format, UNUM_MONETARY_GROUPING_SEPARATOR_SYMBOL, options->grouping_separator) < 0)) goto fail;
    }
    if (options != NULL && options->maximum_fraction_digits >= 0) {
        ICU(unum_setAttribute)(format, UNUM_MAX_FRACTION_DIGITS, options->maximum_fraction_digits);
    }
    if (options != NULL && options->minimum_fraction_digits >= 0) {
        ICU(unum_setAttribute)(format, UNUM_MIN_FRACTION_DIGITS, options->minimum_fraction_digits);
    }
    lproj_style_format *handle = malloc(sizeof *handle);
    if (handle == NULL) goto fail;
    handle->format = format;
    return handle;
fail:
    ICU(unum_close)(format);
    return NULL;
}

typedef struct {
    UNumberFormat *format;
    double value;
} number_call;

static int32_t write_number(void *context, UChar *buffer, int32_t capacity, UErrorCode *status) {
    number_call *call = context;
    return ICU(unum_formatDouble)(call->format, call->value, buffer, capacity, NULL, status);
}

int32_t lproj_style_format_double(lproj_style_format *handle, double value, char *out, int32_t capacity) {
    if (handle == NULL) return -1;
    number_call call = {handle->format, value};
    return write_utf8(write_number, &call, out, capacity);
}

void lproj_style_format_close(lproj_style_format *handle) {
    if (handle == NULL) return;
    ICU(unum_close)(handle->format);
    free(handle);
}

// ---------------------------------------------------------------------------
// Measures

struct lproj_measure_format {
    UNumberFormatter *formatter;
    lproj_ustring decimal;
    lproj_ustring grouping;
    bool hasDecimal;
    bool hasGrouping;
};

lproj_measure_format *lproj_measure_format_open(const char *tag, const char *unit, int32_t fraction_digits,
                                                const char *decimal_separator, const char *grouping_separator) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0) return NULL;
    if (unit == NULL || strlen(unit) > 64 || fraction_digits < 0 || fraction_digits > 15) return NULL;
    for (const char *c = unit; *c; c++) {
        if (!((*c >= 'a' && *c <= 'z') || *c == '-')) return NULL;
    }
    char precision[20];
    if (fraction_digits == 0) {
        snprintf(precision, sizeof precision, "precision-integer");
    } else {
        precision[0] = '.';
        for (int32_t i = 0; i < fraction_digits; i++) precision[i + 1] = '0';
        precision[fraction_digits + 1] = '\0';
    }
    char skeleton[160];
    snprintf(skeleton, sizeof skeleton, "measure-unit/%s unit-width-short %s", unit, precision);
    lproj_ustring uskeleton;
    if (!lproj_ustring_init(&uskeleton, skeleton, -1)) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormatter *formatter = ICU(unumf_openForSkeletonAndLocale)(uskeleton.chars, uskeleton.length, id, &status);
    lproj_ustring_free(&uskeleton);
    if (U_FAILURE(status) || formatter == NULL) return NULL;
    lproj_measure_format *handle = calloc(1, sizeof *handle);
    if (handle == NULL) {
        ICU(unumf_close)(formatter);
        return NULL;
    }
    handle->formatter = formatter;
    handle->decimal.chars = handle->decimal.stack;
    handle->grouping.chars = handle->grouping.stack;
    handle->hasDecimal = decimal_separator != NULL && lproj_ustring_init(&handle->decimal, decimal_separator, -1);
    handle->hasGrouping = grouping_separator != NULL && lproj_ustring_init(&handle->grouping, grouping_separator, -1);
    return handle;
}

int32_t lproj_measure_format_double(const lproj_measure_format *handle, double value, char *out, int32_t capacity) {
    if (handle == NULL) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UFormattedNumber *formatted = ICU(unumf_openResult)(&status);
    if (U_FAILURE(status)) return -1;
    int32_t result = -1;
    UChar *rebuilt = NULL;
    UConstrainedFieldPosition *position = NULL;
    ICU(unumf_formatDouble)(handle->formatter, value, formatted, &status);
    const UFormattedValue *formattedValue = ICU(unumf_resultAsValue)(formatted, &status);
    if (U_FAILURE(status)) goto done;
    int32_t length = 0;
    const UChar *text = ICU(ufmtval_getString)(formattedValue, &length, &status);
    if (U_FAILURE(status)) goto done;
    if (!handle->hasDecimal && !handle->hasGrouping) {
        result = lproj_utf16_to_utf8(text, length, out, capacity);
        goto done;
    }
    // Replace exactly the characters ICU marks as separators: a unit name
    // may contain a '.' or a space that is not one.
    int32_t longest = handle->decimal.length > handle->grouping.length ? handle->decimal.length : handle->grouping.length;
    rebuilt = malloc(sizeof(UChar) * (size_t)(length * (longest + 1) + 1));
    position = ICU(ucfpos_open)(&status);
    if (rebuilt == NULL || U_FAILURE(status)) goto done;
    ICU(ucfpos_constrainCategory)(position, UFIELD_CATEGORY_NUMBER, &status);
    int32_t written = 0, copied = 0;
    while (ICU(ufmtval_nextPosition)(formattedValue, position, &status) && U_SUCCESS(status)) {
        int32_t field = ICU(ucfpos_getField)(position, &status);
        int32_t start = 0, limit = 0;
        ICU(ucfpos_getIndexes)(position, &start, &limit, &status);
        const lproj_ustring *replacement = NULL;
        if (field == UNUM_DECIMAL_SEPARATOR_FIELD && handle->hasDecimal) replacement = &handle->decimal;
        if (field == UNUM_GROUPING_SEPARATOR_FIELD && handle->hasGrouping) replacement = &handle->grouping;
        if (replacement == NULL || start < copied) continue;
        memcpy(rebuilt + written, text + copied, sizeof(UChar) * (size_t)(start - copied));
        written += start - copied;
        memcpy(rebuilt + written, replacement->chars, sizeof(UChar) * (size_t)replacement->length);
        written += replacement->length;
        copied = limit;
    }
    if (U_FAILURE(status)) goto done;
    memcpy(rebuilt + written, text + copied, sizeof(UChar) * (size_t)(length - copied));
    written += length - copied;
    result = lproj_utf16_to_utf8(rebuilt, written, out, capacity);
done:
    if (position != NULL) ICU(ucfpos_close)(position);
    free(rebuilt);
    ICU(unumf_closeResult)(formatted);
    return result;
}

void lproj_measure_format_close(lproj_measure_format *handle) {
    if (handle == NULL) return;
    if (handle->hasDecimal) lproj_ustring_free(&handle->decimal);
    if (handle->hasGrouping) lproj_ustring_free(&handle->grouping);
    ICU(unumf_close)(handle->formatter);
    free(handle);
}

int32_t lproj_measurement_system(const char *tag) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0) return -1;
    char likely[LPROJ_ID_CAPACITY];
    UErrorCode status = U_ZERO_ERROR;
    ICU(uloc_addLikelySubtags)(id, likely, sizeof likely, &status);
    if (U_FAILURE(status)) return -1;
    UMeasurementSystem system = ICU(ulocdata_getMeasurementSystem)(likely, &status);
    if (U_FAILURE(status)) return -1;
    switch (system) {
    case UMS_US: return 1;
    case UMS_UK: return 2;
    default: return 0;
    }
}

// ---------------------------------------------------------------------------
// Dates

int32_t lproj_date_pattern_for_template(const char *tag, const char *calendar, const char *template_text, char *out, int32_t capacity) {
    char id[LPROJ_ID_CAPACITY];
    if (locale_id(tag, calendar, id, sizeof id) < 0) return -1;
    lproj_ustring skeleton;
    if (!lproj_ustring_init(&skeleton, template_text, -1)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UDateTimePatternGenerator *generator = ICU(udatpg_open)(id, &status);
    int32_t result = -1;
    if (U_SUCCESS(status)) {
        UChar pattern[256];
        int32_t length = ICU(udatpg_getBestPattern)(generator, skeleton.chars, skeleton.length, pattern, 256, &status);
        if (U_SUCCESS(status) && length < 256) result = lproj_utf16_to_utf8(pattern, length, out, capacity);
        ICU(udatpg_close)(generator);
    }
    lproj_ustring_free(&skeleton);
    return result;
}

// A date formatter for a pattern, zone and calendar; NULL if unusable.
static UDateFormat *open_date_format(const char *tag, const char *calendar, const char *pattern, const char *zone) {
    char id[LPROJ_ID_CAPACITY];
    if (locale_id(tag, calendar, id, sizeof id) < 0) return NULL;
    lproj_ustring upattern, uzone;
    if (!lproj_ustring_init(&upattern, pattern, -1)) return NULL;
    if (!lproj_ustring_init(&uzone, zone, -1)) {
        lproj_ustring_free(&upattern);
        return NULL;
    }
    UErrorCode status = U_ZERO_ERROR;
    UDateFormat *format = ICU(udat_open)(UDAT_PATTERN, UDAT_PATTERN, id, uzone.chars, uzone.length, upattern.chars, upattern.length, &status);
    lproj_ustring_free(&upattern);
    lproj_ustring_free(&uzone);
    if (U_FAILURE(status)) {
        if (format != NULL) ICU(udat_close)(format);
        return NULL;
    }
    return format;
}

struct lproj_date_formatter {
    UDateFormat *format;
};

lproj_date_formatter *lproj_date_formatter_open(const char *tag, const char *calendar, const char *pattern, const char *zone) {
    UDateFormat *format = open_date_format(tag, calendar, pattern, zone);
    if (format == NULL) return NULL;
    // Parsing is strict: all of the text, in the pattern's own form.
    ICU(udat_setLenient)(format, false);
    lproj_date_formatter *handle = malloc(sizeof *handle);
    if (handle == NULL) {
        ICU(udat_close)(format);
        return NULL;
    }
    handle->format = format;
    return handle;
}

typedef struct {
    UDateFormat *format;
    double milliseconds;
} date_call;

static int32_t write_date(void *context, UChar *buffer, int32_t capacity, UErrorCode *status) {
    date_call *call = context;
    return ICU(udat_format)(call->format, call->milliseconds, buffer, capacity, NULL, status);
}

int32_t lproj_date_formatter_format(lproj_date_formatter *handle, double milliseconds, char *out, int32_t capacity) {
    if (handle == NULL) return -1;
    date_call call = {handle->format, milliseconds};
    return write_utf8(write_date, &call, out, capacity);
}

int32_t lproj_date_formatter_parse(lproj_date_formatter *handle, const char *text, double *milliseconds) {
    if (handle == NULL) return -1;
    lproj_ustring utext;
    if (!lproj_ustring_init(&utext, text, -1)) return 1;
    UErrorCode status = U_ZERO_ERROR;
    int32_t position = 0;
    UDate date = ICU(udat_parse)(handle->format, utext.chars, utext.length, &position, &status);
    int32_t result;
    if (U_FAILURE(status) || position != utext.length) {
        result = position + 1;
    } else {
        *milliseconds = date;
        result = 0;
    }
    lproj_ustring_free(&utext);
    return result;
}

void lproj_date_formatter_close(lproj_date_formatter *handle) {
    if (handle == NULL) return;
    ICU(udat_close)(handle->format);
    free(handle);
}

int32_t lproj_date_pattern_is_valid(const char *pattern) {
    UDateFormat *format = open_date_format("en-US-u-va-posix", NULL, pattern, "GMT");
    if (format == NULL) return 0;
    UChar buffer[512];
    UErrorCode status = U_ZERO_ERROR;
    ICU(udat_format)(format, 0, buffer, 512, NULL, &status);
    ICU(udat_close)(format);
    return U_SUCCESS(status) ? 1 : 0;
}

int32_t lproj_time_zone_canonical(const char *zone, char *out, int32_t capacity) {
    lproj_ustring uzone;
    if (!lproj_ustring_init(&uzone, zone, -1)) return -1;
    UChar canonical[128];
    UBool isSystem = false;
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = ICU(ucal_getCanonicalTimeZoneID)(uzone.chars, uzone.length, canonical, 128, &isSystem, &status);
    lproj_ustring_free(&uzone);
    // Unknown IDs come back as "Etc/Unknown" or fail.
    if (U_FAILURE(status) || length >= 128) return -1;
    static const UChar unknown[] = u"Etc/Unknown";
    if (length == 11 && memcmp(canonical, unknown, sizeof(UChar) * 11) == 0) return -1;
    return lproj_utf16_to_utf8(canonical, length, out, capacity);
}

int32_t lproj_calendar_canonical(const char *calendar, char *out, int32_t capacity) {
    if (calendar == NULL || calendar[0] == '\0' || strlen(calendar) > 40) return -1;
    // BCP 47 names ("gregory", "islamic-civil") become ICU's ("gregorian").
    const char *legacy = ICU(uloc_toLegacyType)("calendar", calendar);
    if (legacy == NULL) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration *known = ICU(ucal_getKeywordValuesForLocale)("calendar", "und", false, &status);
    if (U_FAILURE(status)) return -1;
    int32_t result = -1;
    const char *each;
    while ((each = ICU(uenum_next)(known, NULL, &status)) != NULL && U_SUCCESS(status)) {
        if (strcmp(each, legacy) == 0) {
            result = copy_out(each, out, capacity);
            break;
        }
    }
    ICU(uenum_close)(known);
    return result;
}

// ---------------------------------------------------------------------------
// Case and names

int32_t lproj_case_map(const char *tag, int32_t upper, const char *text, int32_t length, char *out, int32_t capacity) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UCaseMap *map = ICU(ucasemap_open)(id, 0, &status);
    if (U_FAILURE(status)) return -1;
    int32_t needed = upper
        ? ICU(ucasemap_utf8ToUpper)(map, out, capacity, text, length, &status)
        : ICU(ucasemap_utf8ToLower)(map, out, capacity, text, length, &status);
    ICU(ucasemap_close)(map);
    if (U_FAILURE(status) && status != U_BUFFER_OVERFLOW_ERROR) return -1;
    return needed;
}

int32_t lproj_locale_display_name(const char *tag, const char *display_tag, char *out, int32_t capacity) {
    char id[LPROJ_ID_CAPACITY], displayID[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0 || tag_to_icu_id(display_tag, displayID, sizeof displayID) < 0) return -1;
    UDisplayContext contexts[] = {UDISPCTX_STANDARD_NAMES, UDISPCTX_CAPITALIZATION_FOR_UI_LIST_OR_MENU};
    UErrorCode status = U_ZERO_ERROR;
    ULocaleDisplayNames *names = ICU(uldn_openForContext)(displayID, contexts, 2, &status);
    if (U_FAILURE(status)) return -1;
    UChar name[256];
    int32_t length = ICU(uldn_localeDisplayName)(names, id, name, 256, &status);
    ICU(uldn_close)(names);
    if (U_FAILURE(status) || length >= 256) return -1;
    return lproj_utf16_to_utf8(name, length, out, capacity);
}
