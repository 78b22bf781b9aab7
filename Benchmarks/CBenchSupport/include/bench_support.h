// What the benchmarks need from glibc that Swift's Glibc module does not
// export (it is built without _GNU_SOURCE).
#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H
#include <stddef.h>

/// Bytes the allocator has handed out and not yet had back (mallinfo2's
/// uordblks, and hblkhd for the chunks it mmapped). The C client's benchmark
/// uses it too.
size_t heap_bytes_in_use(void);

/// Returns free memory at the top of the heap to the system, so a
/// measurement starts from a settled heap.
void heap_trim(void);

/// Pins the calling thread to one CPU (cpu >= 0), or lets it run on all (cpu < 0).
void pin_current_thread(int cpu);

#endif
