// Opens ICU on first use: see ICU() in icu_common.h.
#include "icu_common.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <unicode/uvernum.h>

// The version the shim was built against: its functions carry the major
// version in their names, and only that library has them.
#define LPROJ_ICU_LIBRARY "libicui18n.so." U_ICU_VERSION_SHORT

static void *icu_library;
static char icu_error[512];
static pthread_once_t icu_opened = PTHREAD_ONCE_INIT;

static void open_icu(void) {
    // Its dependencies (libicuuc, libicudata) come with it, and dlsym on
    // its handle finds their functions too.
    icu_library = dlopen(LPROJ_ICU_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (icu_library == NULL) snprintf(icu_error, sizeof icu_error, "%s", dlerror());
}

void *lproj_icu_symbol(const char *name) {
    pthread_once(&icu_opened, open_icu);
    if (icu_library == NULL) {
        fprintf(stderr, "lprojd: cannot open ICU %s (" LPROJ_ICU_LIBRARY "): %s\n", U_ICU_VERSION, icu_error);
        abort();
    }
    void *function = dlsym(icu_library, name);
    if (function == NULL) {
        fprintf(stderr, "lprojd: ICU %s has no %s\n", U_ICU_VERSION, name);
        abort();
    }
    return function;
}
