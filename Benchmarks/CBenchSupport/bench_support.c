#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench_support.h"
#include <malloc.h>
#include <sched.h>

/* Bytes malloc has handed out: from the heap, and in chunks of their own
 * (large allocations are mmapped, and uordblks alone does not count them;
 * whether one is depends on glibc's moving threshold). */
size_t heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

void heap_trim(void) {
    malloc_trim(0);
}

void pin_current_thread(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpu >= 0) {
        CPU_SET(cpu, &set);
    } else {
        for (int index = 0; index < CPU_SETSIZE; index++) CPU_SET(index, &set);
    }
    sched_setaffinity(0, sizeof set, &set);
}
