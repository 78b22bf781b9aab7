#define _GNU_SOURCE
#include "bench_support.h"
#include <malloc.h>
#include <sched.h>

size_t heap_bytes_in_use(void) {
    return mallinfo2().uordblks;
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
