/* SPDX-License-Identifier: BSD-3-Clause */
/* A kernel body shipped as a file, as a solver plugin would. */
for (int k = 0; k < 2; k++)
    out[k] = 2*in[k];
