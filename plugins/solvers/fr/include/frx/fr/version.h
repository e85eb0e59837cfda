/* SPDX-License-Identifier: BSD-3-Clause */
/* The FR SDK's version (libfrx-fr, headers <frx/fr/...>), apart from
 * libfrx's ABI (frx/frx.h): a physics plugin is compiled against these
 * numbers, and fr_system_create passes them to the library, which
 * refuses a plugin of another major version, or of a newer minor
 * version than its own, naming both. Minor versions only add: fields at
 * the end of structs (fr_physics carries its size) and functions. */
#ifndef FRX_FR_VERSION_H
#define FRX_FR_VERSION_H

#include <frx/frx.h>

#define FR_API_MAJOR 1
#define FR_API_MINOR 6

/* What libfrx-fr exports (its build defines FRX_BUILDING_LIBFRX_FR). */
#if defined(FRX_BUILDING_LIBFRX_FR)
#define FR_EXTERN __attribute__((visibility("default")))
#else
#define FR_EXTERN
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the libfrx-fr loaded (not of the headers compiled). */
FR_EXTERN void fr_api_version(int *major, int *minor);

#ifdef __cplusplus
}
#endif
#endif
