#include "heap_stats.h"
#include <malloc.h>

size_t heap_bytes_in_use(void) {
    return mallinfo2().uordblks;
}

void heap_trim(void) {
    malloc_trim(0);
}
