#include "heap_probe.h"
#if defined(__GLIBC__)
#include <malloc.h>
size_t glimpse_heap_in_use(void) { return mallinfo2().uordblks; }
#else
size_t glimpse_heap_in_use(void) { return 0; }
#endif
