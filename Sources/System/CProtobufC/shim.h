// Shim over Debian's libprotobuf-c (libprotobuf-c-dev).
#ifndef GLIMPSE_CPROTOBUFC_SHIM_H
#define GLIMPSE_CPROTOBUFC_SHIM_H

// Glimpse reads and writes deprecated fields too (they are still on the wire); keep C's
// deprecation attributes from turning every generated access into a warning.
#ifndef PROTOBUF_C__NO_DEPRECATED
#define PROTOBUF_C__NO_DEPRECATED
#endif
#include <protobuf-c/protobuf-c.h>

#if PROTOBUF_C_VERSION_NUMBER < 1004000
#error "Glimpse needs protobuf-c 1.4 or later (proto3 optional)"
#endif

#endif
