// Shim over Debian's libprotobuf-c (libprotobuf-c-dev).
#ifndef GLIMPSE_CPROTOBUFC_SHIM_H
#define GLIMPSE_CPROTOBUFC_SHIM_H

#include <protobuf-c/protobuf-c.h>

#if PROTOBUF_C_VERSION_NUMBER < 1004000
#error "Glimpse needs protobuf-c 1.4 or later (proto3 optional)"
#endif

#endif
