/* SPDX-License-Identifier: BSD-3-Clause */
/* write-mixed-mesh PATH N KIND [periodic-z]: mixed_mesh.h's mesh of
 * N^3 cubes for the tests that run `frx run` (tests/euler/vortex.sh).
 * KIND: hex-prism, tet-prism, hex-pyramid or all. */
#include "mixed_mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    static const char *const kinds[] = {"hex-prism", "tet-prism",
                                        "hex-pyramid", "all"};
    int n = argc >= 4 ? atoi(argv[2]) : 0, kind = -1;
    for (int k = 0; argc >= 4 && k < 4; k++)
        if (strcmp(argv[3], kinds[k]) == 0)
            kind = k;
    int periodic_z = argc == 5 && strcmp(argv[4], "periodic-z") == 0;
    if (n < 1 || kind < 0 || (argc == 5 && !periodic_z) || argc > 5) {
        fprintf(stderr, "usage: write-mixed-mesh PATH N "
                "hex-prism|tet-prism|hex-pyramid|all [periodic-z]\n");
        return 2;
    }
    if (mixed_mesh_write(argv[1], n, (enum mixed_kind)kind, periodic_z)) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
