// Implementation of lproj_icu.h. ICU headers are included only here.
#include "lproj_icu.h"
#include "icu_common.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uenum.h>
#include <unicode/uloc.h>
#include <unicode/unumberformatter.h>
#include <unicode/upluralrules.h>
#include <unicode/uregion.h>
#include <unicode/ures.h>
#include <unicode/ustring.h>

int32_t lproj_locale_canonical_tag(const char *tag, char *out, int32_t capacity) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0) return -1;
    char canonical[LPROJ_ID_CAPACITY];
    UErrorCode status = U_ZERO_ERROR;
    ICU(uloc_canonicalize)(id, canonical, sizeof canonical, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    return icu_id_to_tag(canonical, out, capacity);
}

typedef int32_t (*likely_function)(const char *, char *, int32_t, UErrorCode *);

static int32_t transform_likely(const char *tag, char *out, int32_t capacity, likely_function transform) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0) return -1;
    char result[LPROJ_ID_CAPACITY];
    UErrorCode status = U_ZERO_ERROR;
    transform(id, result, sizeof result, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    return icu_id_to_tag(result, out, capacity);
}

int32_t lproj_locale_maximize(const char *tag, char *out, int32_t capacity) {
    return transform_likely(tag, out, capacity, ICU(uloc_addLikelySubtags));
}

// Whether a key of an opened locale bundle is the locale's own (not one
// ures_getByKey found in a parent while falling back).
static int own_resource(UResourceBundle *resource, const char *id) {
    UErrorCode status = U_ZERO_ERROR;
    const char *from = ICU(ures_getLocaleByType)(resource, ULOC_ACTUAL_LOCALE, &status);
    return U_SUCCESS(status) && from != NULL && strcmp(from, id) == 0;
}

int32_t lproj_locale_explicit_parent(const char *tag, char *out, int32_t capacity) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0) return -1;
    UErrorCode status = U_ZERO_ERROR;
    // ures_open, with fallback, and the keys' own locale checked: never
    // ures_openDirect. ICU 72 caches a directly opened language-only bundle
    // with root as its parent, ignoring its %%Parent, and every later ures_open
    // shares that entry: after openDirect("nb"), Norwegian Bokmål number
    // formats came from root ("1,000,000" for "1 000 000").
    UResourceBundle *bundle = ICU(ures_open)(NULL, id, &status);
    if (U_FAILURE(status)) return 0;
    if (!own_resource(bundle, id)) {
        ICU(ures_close)(bundle);
        return 0;
    }
    int32_t result = 0;
    UErrorCode keyStatus = U_ZERO_ERROR;
    UResourceBundle *parent = ICU(ures_getByKey)(bundle, "%%Parent", NULL, &keyStatus);
    int32_t length = 0;
    const UChar *parentName = U_SUCCESS(keyStatus) && own_resource(parent, id) ? ICU(ures_getString)(parent, &length, &keyStatus) : NULL;
    if (parentName != NULL && U_SUCCESS(keyStatus) && length > 0 && length < LPROJ_ID_CAPACITY) {
        char parentID[LPROJ_ID_CAPACITY];
        ICU(u_UCharsToChars)(parentName, parentID, length);
        parentID[length] = '\0';
        if (strcmp(parentID, "root") == 0) {
            result = 2;
        } else {
            result = icu_id_to_tag(parentID, out, capacity) < 0 ? -1 : 1;
        }
    } else {
        UErrorCode rootStatus = U_ZERO_ERROR;
        UResourceBundle *isRoot = ICU(ures_getByKey)(bundle, "%%ParentIsRoot", NULL, &rootStatus);
        if (U_SUCCESS(rootStatus)) {
            if (own_resource(isRoot, id) && ICU(ures_getInt)(isRoot, &rootStatus) != 0 && U_SUCCESS(rootStatus)) result = 2;
        }
        ICU(ures_close)(isRoot);
    }
    ICU(ures_close)(parent);
    ICU(ures_close)(bundle);
    return result;
}

int32_t lproj_locale_has_data(const char *tag) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) <= 0) return 0;
    UErrorCode status = U_ZERO_ERROR;
    UResourceBundle *bundle = ICU(ures_open)(NULL, id, &status);
    // U_USING_DEFAULT_WARNING means ICU fell back to the root or the process's
    // default locale: it has nothing for this language.
    int32_t known = U_SUCCESS(status) && status != U_USING_DEFAULT_WARNING;
    if (known) {
        UErrorCode actualStatus = U_ZERO_ERROR;
        const char *actual = ICU(ures_getLocaleByType)(bundle, ULOC_ACTUAL_LOCALE, &actualStatus);
        if (U_FAILURE(actualStatus) || actual == NULL || strcmp(actual, "root") == 0 || actual[0] == '\0') known = 0;
    }
    if (bundle) ICU(ures_close)(bundle);
    return known;
}

int32_t lproj_region_is_known(const char *code) {
    UErrorCode status = U_ZERO_ERROR;
    const URegion *region = ICU(uregion_getRegionFromCode)(code, &status);
    if (U_FAILURE(status) || region == NULL) return 0;
    return ICU(uregion_getType)(region) != URGN_UNKNOWN;
}

int32_t lproj_locale_available_count(void) {
    return ICU(uloc_countAvailable)();
}

int32_t lproj_locale_available_tag(int32_t index, char *out, int32_t capacity) {
    if (index < 0 || index >= ICU(uloc_countAvailable)()) return -1;
    const char *id = ICU(uloc_getAvailable)(index);
    if (id == NULL) return -1;
    return icu_id_to_tag(id, out, capacity);
}

// ---------------------------------------------------------------------------
// Plural rules

#define LPROJ_MAX_FRACTION_DIGITS 15

struct lproj_plural_rules {
    UPluralRules *rules;
    char id[LPROJ_ID_CAPACITY];
    // Number formatters with exactly N fraction digits, created on first use.
    // UNumberFormatter is immutable and thread-safe; publication is a CAS.
    _Atomic(UNumberFormatter *) formatters[LPROJ_MAX_FRACTION_DIGITS + 1];
};

int32_t lproj_plural_rules_has_own_entry(const char *tag) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) <= 0) return 0;
    UErrorCode status = U_ZERO_ERROR;
    UResourceBundle *plurals = ICU(ures_openDirect)(NULL, "plurals", &status);
    if (U_FAILURE(status)) return 0;
    UResourceBundle *locales = ICU(ures_getByKey)(plurals, "locales", NULL, &status);
    int32_t found = 0;
    if (U_SUCCESS(status)) {
        int32_t length = 0;
        UErrorCode keyStatus = U_ZERO_ERROR;
        ICU(ures_getStringByKey)(locales, id, &length, &keyStatus);
        found = U_SUCCESS(keyStatus) && length > 0;
        ICU(ures_close)(locales);
    }
    ICU(ures_close)(plurals);
    return found;
}

lproj_plural_rules *lproj_plural_rules_open(const char *tag) {
    lproj_plural_rules *handle = calloc(1, sizeof *handle);
    if (handle == NULL) return NULL;
    if (tag_to_icu_id(tag, handle->id, sizeof handle->id) < 0) {
        free(handle);
        return NULL;
    }
    UErrorCode status = U_ZERO_ERROR;
    handle->rules = ICU(uplrules_open)(handle->id, &status);
    if (U_FAILURE(status) || handle->rules == NULL) {
        free(handle);
        return NULL;
    }
    for (int i = 0; i <= LPROJ_MAX_FRACTION_DIGITS; i++) atomic_init(&handle->formatters[i], NULL);
    return handle;
}

void lproj_plural_rules_close(lproj_plural_rules *handle) {
    if (handle == NULL) return;
    for (int i = 0; i <= LPROJ_MAX_FRACTION_DIGITS; i++) {
        UNumberFormatter *formatter = atomic_load(&handle->formatters[i]);
        if (formatter) ICU(unumf_close)(formatter);
    }
    ICU(uplrules_close)(handle->rules);
    free(handle);
}

static int32_t keyword_out(const UChar *keyword, int32_t length, char *out, int32_t capacity) {
    if (length <= 0 || length >= capacity) return -1;
    ICU(u_UCharsToChars)(keyword, out, length);
    out[length] = '\0';
    return length;
}

int32_t lproj_plural_select_integer(const lproj_plural_rules *handle, int64_t value, char *out, int32_t capacity) {
    if (handle == NULL) return -1;
    UChar keyword[16];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = ICU(uplrules_select)(handle->rules, (double)value, keyword, 16, &status);
    if (U_FAILURE(status)) return -1;
    return keyword_out(keyword, length, out, capacity);
}

static UNumberFormatter *formatter_for_digits(lproj_plural_rules *handle, int32_t digits) {
    UNumberFormatter *existing = atomic_load(&handle->formatters[digits]);
    if (existing) return existing;
    // Skeleton "precision-integer" or ".000": exactly `digits` fraction digits,
    // no grouping, so the formatted value carries CLDR's operands v and f.
    UChar skeleton[64];
    int32_t length = 0;
    if (digits == 0) {
        ICU(u_uastrcpy)(skeleton, "precision-integer group-off");
        length = ICU(u_strlen)(skeleton);
    } else {
        skeleton[length++] = '.';
        for (int32_t i = 0; i < digits; i++) skeleton[length++] = '0';
        const char *rest = " group-off";
        for (const char *c = rest; *c; c++) skeleton[length++] = (UChar)*c;
        skeleton[length] = 0;
    }
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormatter *created = ICU(unumf_openForSkeletonAndLocale)(skeleton, length, handle->id, &status);
    if (U_FAILURE(status) || created == NULL) return NULL;
    UNumberFormatter *expected = NULL;
    if (!atomic_compare_exchange_strong(&handle->formatters[digits], &expected, created)) {
        ICU(unumf_close)(created);
        return expected;
    }
    return created;
}

int32_t lproj_plural_select_decimal(const lproj_plural_rules *constHandle, double value, int32_t fraction_digits, char *out, int32_t capacity) {
    if (constHandle == NULL) return -1;
    lproj_plural_rules *handle = (lproj_plural_rules *)constHandle;
    if (fraction_digits < 0) fraction_digits = 0;
    if (fraction_digits > LPROJ_MAX_FRACTION_DIGITS) fraction_digits = LPROJ_MAX_FRACTION_DIGITS;
    UNumberFormatter *formatter = formatter_for_digits(handle, fraction_digits);
    if (formatter == NULL) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UFormattedNumber *formatted = ICU(unumf_openResult)(&status);
    if (U_FAILURE(status)) return -1;
    ICU(unumf_formatDouble)(formatter, value, formatted, &status);
    UChar keyword[16];
    int32_t length = 0;
    if (U_SUCCESS(status)) length = ICU(uplrules_selectFormatted)(handle->rules, formatted, keyword, 16, &status);
    ICU(unumf_closeResult)(formatted);
    if (U_FAILURE(status)) return -1;
    return keyword_out(keyword, length, out, capacity);
}

int32_t lproj_plural_categories(const lproj_plural_rules *handle, char *out, int32_t capacity) {
    if (handle == NULL || capacity <= 0) return -1;
    static const char *const order[] = {"zero", "one", "two", "few", "many", "other"};
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration *keywords = ICU(uplrules_getKeywords)(handle->rules, &status);
    if (U_FAILURE(status)) return -1;
    int present[6] = {0};
    const char *keyword;
    while ((keyword = ICU(uenum_next)(keywords, NULL, &status)) != NULL && U_SUCCESS(status)) {
        for (int i = 0; i < 6; i++) if (strcmp(keyword, order[i]) == 0) present[i] = 1;
    }
    ICU(uenum_close)(keywords);
    if (U_FAILURE(status)) return -1;
    int32_t length = 0;
    out[0] = '\0';
    for (int i = 0; i < 6; i++) {
        if (!present[i]) continue;
        size_t wordLength = strlen(order[i]);
        if (length + (int32_t)wordLength + 2 > capacity) return -1;
        if (length > 0) out[length++] = ' ';
        memcpy(out + length, order[i], wordLength);
        length += (int32_t)wordLength;
        out[length] = '\0';
    }
    return length;
}

// ---------------------------------------------------------------------------
// Number formatting

struct lproj_number_formatter {
    UNumberFormatter *formatter;
};

lproj_number_formatter *lproj_number_formatter_open(const char *tag, const char *skeleton) {
    char id[LPROJ_ID_CAPACITY];
    if (tag_to_icu_id(tag, id, sizeof id) < 0) return NULL;
    size_t length = strlen(skeleton);
    if (length > 512) return NULL;
    UChar uskeleton[520];
    ICU(u_uastrncpy)(uskeleton, skeleton, (int32_t)length);
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormatter *formatter = ICU(unumf_openForSkeletonAndLocale)(uskeleton, (int32_t)length, id, &status);
    if (U_FAILURE(status) || formatter == NULL) return NULL;
    lproj_number_formatter *handle = malloc(sizeof *handle);
    if (handle == NULL) {
        ICU(unumf_close)(formatter);
        return NULL;
    }
    handle->formatter = formatter;
    return handle;
}

void lproj_number_formatter_close(lproj_number_formatter *handle) {
    if (handle == NULL) return;
    ICU(unumf_close)(handle->formatter);
    free(handle);
}

// Converts a formatted result to UTF-8; returns the needed length.
static int32_t result_to_utf8(UFormattedNumber *result, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = ICU(unumf_resultToString)(result, NULL, 0, &status);
    if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) return -1;
    UChar stackBuffer[256];
    UChar *buffer = length < 256 ? stackBuffer : malloc(sizeof(UChar) * (size_t)(length + 1));
    if (buffer == NULL) return -1;
    status = U_ZERO_ERROR;
    ICU(unumf_resultToString)(result, buffer, length + 1, &status);
    int32_t needed = -1;
    if (U_SUCCESS(status)) {
        UErrorCode convertStatus = U_ZERO_ERROR;
        ICU(u_strToUTF8)(out, capacity, &needed, buffer, length, &convertStatus);
        if (U_FAILURE(convertStatus) && convertStatus != U_BUFFER_OVERFLOW_ERROR) needed = -1;
    }
    if (buffer != stackBuffer) free(buffer);
    return needed;
}

int32_t lproj_number_format_int64(const lproj_number_formatter *handle, int64_t value, char *out, int32_t capacity) {
    if (handle == NULL) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UFormattedNumber *result = ICU(unumf_openResult)(&status);
    if (U_FAILURE(status)) return -1;
    ICU(unumf_formatInt)(handle->formatter, value, result, &status);
    int32_t length = U_SUCCESS(status) ? result_to_utf8(result, out, capacity) : -1;
    ICU(unumf_closeResult)(result);
    return length;
}

int32_t lproj_number_format_double(const lproj_number_formatter *handle, double value, char *out, int32_t capacity) {
    if (handle == NULL) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UFormattedNumber *result = ICU(unumf_openResult)(&status);
    if (U_FAILURE(status)) return -1;
    ICU(unumf_formatDouble)(handle->formatter, value, result, &status);
    int32_t length = U_SUCCESS(status) ? result_to_utf8(result, out, capacity) : -1;
    ICU(unumf_closeResult)(result);
    return length;
}
