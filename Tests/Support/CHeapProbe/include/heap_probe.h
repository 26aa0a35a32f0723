// Test support: how many bytes the C heap has handed out and not taken back.
#ifndef GLIMPSE_HEAP_PROBE_H
#define GLIMPSE_HEAP_PROBE_H
#include <stddef.h>

/// glibc's mallinfo2().uordblks; 0 where glibc is not the allocator.
size_t glimpse_heap_in_use(void);

#endif
