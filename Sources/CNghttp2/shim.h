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

#endif
