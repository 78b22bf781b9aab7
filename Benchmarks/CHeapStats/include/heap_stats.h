// glibc's heap statistics, which Swift's Glibc module does not export.
#ifndef HEAP_STATS_H
#define HEAP_STATS_H
#include <stddef.h>

/// Bytes the allocator has handed out and not yet had back (mallinfo2's uordblks).
size_t heap_bytes_in_use(void);

/// Returns free memory at the top of the heap to the system, so a
/// measurement starts from a settled heap.
void heap_trim(void);

#endif
