/* SPDX-License-Identifier: BSD-3-Clause */
/* What the Check-based mesh tests (test_mesh, test_gmsh) read of a mesh:
 * its info, blocks, boundary conditions and periodic pairs, each call
 * asserted to succeed, and a check that the last error names something. */
#ifndef FRX_MESHCHECK_H
#define FRX_MESHCHECK_H

#include <frx/frx.h>
#include <frx/mesh.h>

#include <check.h>
#include <string.h>

#define assert_msg(want)                                                   \
    ck_assert_msg(strstr(frx_errmsg(), (want)) != NULL,                    \
                  "message lacks \"%s\":\n%s", (want), frx_errmsg())

static inline frx_mesh_info mc_info(const frx_mesh *m)
{
    frx_mesh_info i = {.size = sizeof i};
    ck_assert_int_eq(frx_mesh_get_info(m, &i), FRX_OK);
    return i;
}

static inline frx_mesh_block mc_block(const frx_mesh *m, size_t b)
{
    frx_mesh_block x = {.size = sizeof x};
    ck_assert_int_eq(frx_mesh_get_block(m, b, &x), FRX_OK);
    return x;
}

static inline frx_mesh_bc mc_bc(const frx_mesh *m, size_t i)
{
    frx_mesh_bc x = {.size = sizeof x};
    ck_assert_int_eq(frx_mesh_get_bc(m, i, &x), FRX_OK);
    return x;
}

static inline frx_mesh_periodic mc_periodic(const frx_mesh *m, size_t i)
{
    frx_mesh_periodic x = {.size = sizeof x};
    ck_assert_int_eq(frx_mesh_get_periodic(m, i, &x), FRX_OK);
    return x;
}

#endif
