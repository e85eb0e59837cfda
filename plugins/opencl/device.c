/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl device choice: backend.opencl.platform, .device and .device-type,
 * with errors that list what there is. */
#include "opencl.h"

#include <CL/cl_ext.h>
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_LEN 256

static const char *const type_names = "all|cpu|gpu|accelerator";
static const cl_device_type type_masks[] = {
    CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
    CL_DEVICE_TYPE_ACCELERATOR};

static const char *const no_platform =
    "no OpenCL platform found (install an ICD such as pocl-opencl-icd)";

static void platform_str(cl_platform_id p, cl_platform_info what, char *buf,
                         size_t n)
{
    if (clGetPlatformInfo(p, what, n, buf, NULL) != CL_SUCCESS)
        snprintf(buf, n, "?");
    buf[n - 1] = '\0';
}

static void device_str(cl_device_id d, cl_device_info what, char *buf,
                       size_t n)
{
    if (clGetDeviceInfo(d, what, n, buf, NULL) != CL_SUCCESS)
        snprintf(buf, n, "?");
    buf[n - 1] = '\0';
}

static const char *type_of(cl_device_id d)
{
    cl_device_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    return t & CL_DEVICE_TYPE_GPU           ? "gpu"
           : t & CL_DEVICE_TYPE_CPU         ? "cpu"
           : t & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator"
                                            : "other";
}

/* Every platform, malloc'd. FRX_EUNAVAIL when there is none. */
static int get_platforms(cl_platform_id **out, cl_uint *n)
{
    *out = NULL;
    *n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, n);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && *n == 0))
        return frx_error(FRX_EUNAVAIL, "%s", no_platform);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clGetPlatformIDs", "listing platforms");
    *out = calloc(*n, sizeof **out);
    if (!*out)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    err = clGetPlatformIDs(*n, *out, NULL);
    if (err != CL_SUCCESS) {
        free(*out);
        *out = NULL;
        return frx_opencl_fail(err, "clGetPlatformIDs", "listing platforms");
    }
    return FRX_OK;
}

/* The devices of type on p, malloc'd; none is *n == 0 and FRX_OK. */
static int get_devices(cl_platform_id p, cl_device_type type,
                       cl_device_id **out, cl_uint *n)
{
    *out = NULL;
    *n = 0;
    cl_int err = clGetDeviceIDs(p, type, 0, NULL, n);
    if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && *n == 0)) {
        *n = 0;
        return FRX_OK;
    }
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clGetDeviceIDs", "listing devices");
    *out = calloc(*n, sizeof **out);
    if (!*out)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    err = clGetDeviceIDs(p, type, *n, *out, NULL);
    if (err != CL_SUCCESS) {
        free(*out);
        *out = NULL;
        return frx_opencl_fail(err, "clGetDeviceIDs", "listing devices");
    }
    return FRX_OK;
}

static int is_index(const char *s, unsigned long *idx)
{
    if (!*s)
        return 0;
    for (const char *c = s; *c; c++)
        if (!isdigit((unsigned char)*c))
            return 0;
    *idx = strtoul(s, NULL, 10);
    return 1;
}

/* "1: 0 = name" or "2: 0 = a, 1 = b": what a message offers instead. */
static void list_platforms(const cl_platform_id *p, cl_uint n, char *buf,
                           size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "%u:", (unsigned)n);
    for (cl_uint i = 0; i < n && k < len; i++) {
        char name[NAME_LEN];
        platform_str(p[i], CL_PLATFORM_NAME, name, sizeof name);
        k += (size_t)snprintf(buf + k, len - k, "%s %u = %s", i ? "," : "",
                              (unsigned)i, name);
    }
}

static void list_devices(const cl_device_id *d, cl_uint n, char *buf,
                         size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "%u:", (unsigned)n);
    for (cl_uint i = 0; i < n && k < len; i++) {
        char name[NAME_LEN];
        device_str(d[i], CL_DEVICE_NAME, name, sizeof name);
        k += (size_t)snprintf(buf + k, len - k, "%s %u = %s (%s)",
                              i ? "," : "", (unsigned)i, name, type_of(d[i]));
    }
}

/* "case.yaml:4:13: " where the option is written, else "". */
static void where(const frx_cfgnode *opts, const char *key, char *buf,
                  size_t n)
{
    const frx_cfgnode *v = opts ? frx_cfg_get(opts, key) : NULL;
    const frx_config *cfg = v ? frx_cfg_owner(v) : NULL;
    buf[0] = '\0';
    if (v && cfg && frx_config_file(cfg))
        snprintf(buf, n, "%s:%d:%d: ", frx_config_file(cfg), frx_cfg_line(v),
                 frx_cfg_col(v));
}

static int pick_platform(const frx_cfgnode *opts, const char *spec,
                         const cl_platform_id *p, cl_uint n, cl_uint *pick)
{
    char name[NAME_LEN], at[512], list[2048];
    unsigned long idx;
    if (is_index(spec, &idx) && idx < n) {
        *pick = (cl_uint)idx;
        return FRX_OK;
    }
    for (cl_uint i = 0; !is_index(spec, &idx) && i < n; i++) {
        platform_str(p[i], CL_PLATFORM_NAME, name, sizeof name);
        if (strcasestr(name, spec)) {
            *pick = i;
            return FRX_OK;
        }
    }
    where(opts, "platform", at, sizeof at);
    list_platforms(p, n, list, sizeof list);
    if (is_index(spec, &idx))
        return frx_error(FRX_EINVAL, "%sbackend.opencl.platform: no platform "
                         "%lu (found %s)", at, idx, list);
    return frx_error(FRX_EINVAL, "%sbackend.opencl.platform: no platform "
                     "matching '%s' (found %s)", at, spec, list);
}

/* spec is from backend.opencl.device, or from a backend.rules entry
 * when key is not "device". */
static int pick_device(const frx_cfgnode *opts, const char *key,
                       const char *spec, int local_rank, const char *platform,
                       const cl_device_id *d, cl_uint n, cl_uint *pick)
{
    char name[NAME_LEN], at[512], list[2048];
    unsigned long idx;
    if (strcmp(spec, "local-rank") == 0) {
        *pick = (cl_uint)((local_rank < 0 ? 0 : local_rank) % (int)n);
        return FRX_OK;
    }
    if (is_index(spec, &idx) && idx < n) {
        *pick = (cl_uint)idx;
        return FRX_OK;
    }
    for (cl_uint i = 0; !is_index(spec, &idx) && i < n; i++) {
        device_str(d[i], CL_DEVICE_NAME, name, sizeof name);
        if (strcasestr(name, spec)) {
            *pick = i;
            return FRX_OK;
        }
    }
    int option = strcmp(key, "device") == 0;
    const char *label = option ? "backend.opencl.device" : key;
    at[0] = '\0';
    if (option)
        where(opts, "device", at, sizeof at);
    list_devices(d, n, list, sizeof list);
    if (is_index(spec, &idx))
        return frx_error(FRX_EINVAL, "%s%s: no device %lu on platform '%s' "
                         "(it has %s)", at, label, idx, platform, list);
    return frx_error(FRX_EINVAL, "%s%s: no device matching '%s' on platform "
                     "'%s' (it has %s); give an index, part of a name, or "
                     "local-rank", at, label, spec, platform, list);
}

/* device-type matched nothing: say what the platform has. */
static int no_device_of_type(const frx_cfgnode *opts, cl_platform_id p,
                             const char *platform, int type)
{
    char at[512], list[2048] = "0 devices";
    cl_device_id *all;
    cl_uint n;
    where(opts, "device-type", at, sizeof at);
    if (get_devices(p, CL_DEVICE_TYPE_ALL, &all, &n) == FRX_OK && n)
        list_devices(all, n, list, sizeof list);
    free(all);
    if (type == 0)
        return frx_error(FRX_EUNAVAIL, "backend.opencl: platform '%s' has no "
                         "device; choose another backend.opencl.platform",
                         platform);
    return frx_error(FRX_EUNAVAIL, "%sbackend.opencl.device-type: platform "
                     "'%s' has no %s device (it has %s); use device-type: "
                     "all, or another platform", at, platform,
                     type == 1 ? "cpu" : type == 2 ? "gpu" : "accelerator",
                     list);
}

static int check_precision(const struct ocl_state *s)
{
    if (s->precision != FRX_DOUBLE)
        return FRX_OK;
    size_t n = 0;
    cl_ulong fp = 0;
    if (clGetDeviceInfo(s->device, CL_DEVICE_EXTENSIONS, 0, NULL, &n) !=
        CL_SUCCESS)
        n = 0;
    char *ext = calloc(n + 1, 1);
    if (!ext)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    if (n && clGetDeviceInfo(s->device, CL_DEVICE_EXTENSIONS, n, ext, NULL) !=
                 CL_SUCCESS)
        ext[0] = '\0';
    if (clGetDeviceInfo(s->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp,
                        NULL) != CL_SUCCESS)
        fp = 0; /* an OpenCL 1.0 device: the extension decides */
    int rc = frx_opencl_check_fp64(s->device_name, ext, fp);
    free(ext);
    return rc;
}

int frx_opencl_choose(const frx_backend_init *init, struct ocl_state *s)
{
    const frx_cfgnode *opts = init->options;
    const char *pspec, *dspec;
    int type;
    int rc = frx_cfg_string(opts, "platform", "0", &pspec);
    if (rc == FRX_OK)
        rc = frx_cfg_string(opts, "device", "local-rank", &dspec);
    if (rc == FRX_OK)
        rc = frx_cfg_enum(opts, "device-type", type_names, 0, &type);
    if (rc == FRX_OK)
        rc = frx_cfg_string(opts, "build-options", "", &s->build_options);
    if (rc)
        return rc;

    cl_platform_id *plats = NULL;
    cl_device_id *devs = NULL;
    cl_uint np = 0, nd = 0, pi = 0, di = 0;
    rc = get_platforms(&plats, &np);
    if (rc == FRX_OK)
        rc = pick_platform(opts, pspec, plats, np, &pi);
    if (rc == FRX_OK) {
        s->platform = plats[pi];
        platform_str(s->platform, CL_PLATFORM_NAME, s->platform_name,
                     sizeof s->platform_name);
        platform_str(s->platform, CL_PLATFORM_VERSION, s->platform_version,
                     sizeof s->platform_version);
        rc = get_devices(s->platform, type_masks[type], &devs, &nd);
    }
    if (rc == FRX_OK && nd == 0)
        rc = no_device_of_type(opts, s->platform, s->platform_name, type);
    const char *key = "device";
    if (init->size >= offsetof(frx_backend_init, device) +
                           sizeof init->device && init->device) {
        key = "the device of the matching backend.rules entry";
        dspec = init->device; /* a rule's choice overrides the option */
    }
    if (rc == FRX_OK)
        rc = pick_device(opts, key, dspec, init->local_rank,
                         s->platform_name, devs, nd, &di);
    if (rc == FRX_OK) {
        s->device = devs[di];
        device_str(s->device, CL_DEVICE_NAME, s->device_name,
                   sizeof s->device_name);
        device_str(s->device, CL_DRIVER_VERSION, s->driver_version,
                   sizeof s->driver_version);
        rc = check_precision(s);
    }
    free(plats);
    free(devs);
    return rc;
}

int frx_opencl_probe(char *why, size_t n)
{
    cl_platform_id *plats;
    cl_uint np, total = 0;
    int rc = get_platforms(&plats, &np);
    if (rc) {
        snprintf(why, n, "%s", rc == FRX_EUNAVAIL ? no_platform
                                                  : frx_errmsg());
        return FRX_EUNAVAIL;
    }
    char first[2 * NAME_LEN + 2] = "";
    for (cl_uint i = 0; i < np; i++) {
        cl_device_id *devs;
        cl_uint nd;
        if (get_devices(plats[i], CL_DEVICE_TYPE_ALL, &devs, &nd) != FRX_OK)
            continue;
        if (nd && !first[0]) {
            char pname[NAME_LEN], dname[NAME_LEN];
            platform_str(plats[i], CL_PLATFORM_NAME, pname, sizeof pname);
            device_str(devs[0], CL_DEVICE_NAME, dname, sizeof dname);
            snprintf(first, sizeof first, "%s: %s", pname, dname);
        }
        total += nd;
        free(devs);
    }
    free(plats);
    if (total == 0) {
        snprintf(why, n, "%u OpenCL platform%s but no device", (unsigned)np,
                 np == 1 ? "" : "s");
        return FRX_EUNAVAIL;
    }
    if (total == 1)
        snprintf(why, n, "%s", first);
    else
        snprintf(why, n, "%s, and %u more device%s", first,
                 (unsigned)total - 1, total == 2 ? "" : "s");
    return FRX_OK;
}
