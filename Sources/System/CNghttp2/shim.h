// Shim over Debian's libnghttp2 (libnghttp2-dev). Holds the include and the few
// helpers Swift cannot express: version differences live here, not in Swift.
#ifndef GLIMPSE_CNGHTTP2_SHIM_H
#define GLIMPSE_CNGHTTP2_SHIM_H

#include <nghttp2/nghttp2.h>

#if NGHTTP2_VERSION_NUM < 0x013400
#error "Glimpse needs nghttp2 1.52 or later"
#endif

/// Feeds received bytes to the session. 1.60 introduced nghttp2_session_mem_recv2
/// (nghttp2_ssize) and deprecated the ssize_t form; Swift sees one signature.
static inline long glimpse_nghttp2_session_mem_recv(nghttp2_session *session,
                                                    const uint8_t *in, size_t inlen) {
#if NGHTTP2_VERSION_NUM >= 0x013c00
    return (long)nghttp2_session_mem_recv2(session, in, inlen);
#else
    return (long)nghttp2_session_mem_recv(session, in, inlen);
#endif
}


#include <stdlib.h>
#include <string.h>

/// A per-session allocator for nghttp2: small blocks (up to 512 bytes, in 32-byte size
/// classes) are kept on free lists and handed out again, so the dozen short-lived objects
/// nghttp2 makes for each stream (its stream, header copies, outbound items) cost a
/// pointer swap instead of a trip through malloc. The session is used from one thread
/// (its event loop), so the lists need no lock. At most GLIMPSE_POOL_CAP blocks are kept
/// per class (worst case about 1 MiB per connection); the rest go back to malloc.
/// Every block carries a 16-byte header with its class, or its size when it is large.
#define GLIMPSE_POOL_CLASSES 16
#define GLIMPSE_POOL_CAP 128
#define GLIMPSE_POOL_LARGE ((size_t)-1)

typedef struct glimpse_pool {
    nghttp2_mem mem;
    void *lists[GLIMPSE_POOL_CLASSES];
    unsigned counts[GLIMPSE_POOL_CLASSES];
} glimpse_pool;

typedef struct glimpse_pool_header {
    size_t size_class;
    size_t size;
} glimpse_pool_header;

static inline void *glimpse_pool_malloc(size_t size, void *user_data) {
    glimpse_pool *pool = (glimpse_pool *)user_data;
    glimpse_pool_header *header;
    if (size <= 32 * GLIMPSE_POOL_CLASSES) {
        size_t size_class = size == 0 ? 0 : (size - 1) / 32;
        void *head = pool->lists[size_class];
        if (head) {
            pool->lists[size_class] = *(void **)head;
            pool->counts[size_class]--;
            return head;
        }
        header = (glimpse_pool_header *)malloc(sizeof(glimpse_pool_header) + (size_class + 1) * 32);
        if (!header) return NULL;
        header->size_class = size_class;
        header->size = (size_class + 1) * 32;
    } else {
        header = (glimpse_pool_header *)malloc(sizeof(glimpse_pool_header) + size);
        if (!header) return NULL;
        header->size_class = GLIMPSE_POOL_LARGE;
        header->size = size;
    }
    return header + 1;
}

static inline void glimpse_pool_free(void *ptr, void *user_data) {
    if (!ptr) return;
    glimpse_pool *pool = (glimpse_pool *)user_data;
    glimpse_pool_header *header = (glimpse_pool_header *)ptr - 1;
    size_t size_class = header->size_class;
    if (size_class != GLIMPSE_POOL_LARGE && pool->counts[size_class] < GLIMPSE_POOL_CAP) {
        *(void **)ptr = pool->lists[size_class];
        pool->lists[size_class] = ptr;
        pool->counts[size_class]++;
        return;
    }
    free(header);
}

static inline void *glimpse_pool_calloc(size_t count, size_t size, void *user_data) {
    if (size != 0 && count > (size_t)-1 / size) return NULL;
    void *ptr = glimpse_pool_malloc(count * size, user_data);
    if (ptr) memset(ptr, 0, count * size);
    return ptr;
}

static inline void *glimpse_pool_realloc(void *ptr, size_t size, void *user_data) {
    if (!ptr) return glimpse_pool_malloc(size, user_data);
    glimpse_pool_header *header = (glimpse_pool_header *)ptr - 1;
    if (size <= header->size) return ptr;
    void *grown = glimpse_pool_malloc(size, user_data);
    if (!grown) return NULL;
    memcpy(grown, ptr, header->size);
    glimpse_pool_free(ptr, user_data);
    return grown;
}

/// A new pool; pass `&pool->mem` to nghttp2_session_*_new3, and release the pool with
/// glimpse_pool_release after nghttp2_session_del.
static inline glimpse_pool *glimpse_pool_create(void) {
    glimpse_pool *pool = (glimpse_pool *)calloc(1, sizeof(glimpse_pool));
    if (!pool) return NULL;
    pool->mem.mem_user_data = pool;
    pool->mem.malloc = glimpse_pool_malloc;
    pool->mem.free = glimpse_pool_free;
    pool->mem.calloc = glimpse_pool_calloc;
    pool->mem.realloc = glimpse_pool_realloc;
    return pool;
}

static inline void glimpse_pool_release(glimpse_pool *pool) {
    if (!pool) return;
    for (int i = 0; i < GLIMPSE_POOL_CLASSES; i++) {
        void *block = pool->lists[i];
        while (block) {
            void *next = *(void **)block;
            free((glimpse_pool_header *)block - 1);
            block = next;
        }
    }
    free(pool);
}

#endif
