// Helpers shared by the shim's C files. ICU headers are included only by
// the shim's own sources, never by its public headers.
#ifndef LPROJ_ICU_COMMON_H
#define LPROJ_ICU_COMMON_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uloc.h>
#include <unicode/ustring.h>

#define LPROJ_ID_CAPACITY 160

// ICU is opened on its first use (icu_loader.c), not linked: a process that
// never names a locale or formats a number, such as lprojctl's one-shot
// lookup, does not pay for loading it (about 0.7 ms and 80 page faults).
// Every call into ICU goes through ICU(name), which finds the function once
// (by its versioned name, uloc_canonicalize_72) and keeps it.
void *lproj_icu_symbol(const char *name);

#define LPROJ_ICU_NAME(name) LPROJ_ICU_NAME_(name)
#define LPROJ_ICU_NAME_(name) #name
#define ICU(name)                                                                         \
    (*__extension__({                                                                     \
        static __typeof__(&name) lproj_icu_kept;                                          \
        __typeof__(&name) lproj_icu_found = __atomic_load_n(&lproj_icu_kept, __ATOMIC_ACQUIRE); \
        if (lproj_icu_found == NULL) {                                                    \
            lproj_icu_found = (__typeof__(&name))lproj_icu_symbol(LPROJ_ICU_NAME(name));  \
            __atomic_store_n(&lproj_icu_kept, lproj_icu_found, __ATOMIC_RELEASE);         \
        }                                                                                 \
        lproj_icu_found;                                                                  \
    }))

// Copies a NUL-terminated string into `out`; -1 if it does not fit.
static inline int32_t copy_out(const char *value, char *out, int32_t capacity) {
    size_t length = strlen(value);
    if (capacity <= 0 || length >= (size_t)capacity) return -1;
    memcpy(out, value, length + 1);
    return (int32_t)length;
}

// BCP 47 tag -> ICU locale ID ("zh-Hant-TW" -> "zh_Hant_TW"). The whole tag
// must parse: a partial parse means ICU ignored part of what the caller wrote.
static inline int32_t tag_to_icu_id(const char *tag, char *id, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t parsed = 0;
    int32_t length = ICU(uloc_forLanguageTag)(tag, id, capacity, &parsed, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    if ((size_t)parsed != strlen(tag)) return -1;
    return length;
}

// ICU locale ID -> BCP 47 tag.
static inline int32_t icu_id_to_tag(const char *id, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = ICU(uloc_toLanguageTag)(id, out, capacity, false, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    return length;
}

// A UTF-16 copy of a UTF-8 string: on the stack when short, else on the heap.
typedef struct {
    UChar *chars;
    int32_t length;
    UChar stack[256];
} lproj_ustring;

// Converts `length` bytes of UTF-8 (-1: up to the NUL); false on invalid UTF-8.
static inline bool lproj_ustring_init(lproj_ustring *string, const char *utf8, int32_t length) {
    string->chars = string->stack;
    string->length = 0;
    if (utf8 == NULL) return false;
    if (length < 0) length = (int32_t)strlen(utf8);
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = 0;
    ICU(u_strFromUTF8)(string->stack, 256, &needed, utf8, length, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR || needed >= 256) {
        string->chars = malloc(sizeof(UChar) * (size_t)(needed + 1));
        if (string->chars == NULL) return false;
        status = U_ZERO_ERROR;
        ICU(u_strFromUTF8)(string->chars, needed + 1, &needed, utf8, length, &status);
    }
    if (U_FAILURE(status)) {
        if (string->chars != string->stack) free(string->chars);
        string->chars = string->stack;
        return false;
    }
    string->length = needed;
    return true;
}

static inline void lproj_ustring_free(lproj_ustring *string) {
    if (string->chars != string->stack) free(string->chars);
    string->chars = string->stack;
}

// UTF-16 -> UTF-8 into `out`; returns the full UTF-8 length (which may not
// have fit), or -1.
static inline int32_t lproj_utf16_to_utf8(const UChar *chars, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = 0;
    ICU(u_strToUTF8)(out, capacity, &needed, chars, length, &status);
    if (U_FAILURE(status) && status != U_BUFFER_OVERFLOW_ERROR) return -1;
    return needed;
}

#endif
