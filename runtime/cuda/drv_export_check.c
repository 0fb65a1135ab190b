/*
 * The start-up handshake of CUDA's static runtime (private table d4082055,
 * slot 1) and the trace of the private tables' slot calls.
 *
 * The runtime calls slot 1 with its own version number and the time in
 * seconds, and checks the 16 bytes the driver writes back; when they are
 * wrong it refuses to run (cudaErrorSoftwareValidityNotEstablished). Public
 * notes on NVIDIA's driver (the ZLUDA project's description of this
 * interface) give the answer as facts: an HMAC (RFC 2104) over MD2 (RFC
 * 1319) with a fixed 16-byte key, of the driver version, the runtime's
 * version, the process and thread, the addresses of the two tables and of
 * the slot function, the time, and per device its UUID and PCI domain, bus
 * and device numbers; versions ending in 0 or 1 get fixed answers. MD2 and
 * HMAC are implemented from their RFCs in drv_md2.c. The table is here, so
 * that its address and its slot's are this file's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/cuda/drv_export.h"
#include "runtime/cuda/drv_md2.h"

/* The key of the handshake's HMAC (a constant of NVIDIA's driver). */
static const unsigned char k_key[16] = {0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
                                        0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};

/* Appends n bytes of v at *at. */
static void put(unsigned char **at, const void *v, size_t n)
{
    memcpy(*at, v, n);
    *at += n;
}

/* The hashed description of device dev: UUID, PCI domain, bus, device (28 bytes). */
static CUresult put_device(unsigned char **at, CUdevice dev)
{
    static const CUdevice_attribute pci[3] = {CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID,
                                              CU_DEVICE_ATTRIBUTE_PCI_BUS_ID,
                                              CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID};
    CUuuid uuid;
    CUresult r = cuDeviceGetUuid_v2(&uuid, dev);

    if (r)
        return r;
    put(at, uuid.bytes, 16);
    for (int i = 0; i < 3; i++) {
        int v = 0;

        if ((r = cuDeviceGetAttribute(&v, pci[i], dev)))
            return r;
        put(at, &v, sizeof(v));
    }
    return CUDA_SUCCESS;
}

CUresult drv_integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2])
{
    unsigned char msg[48 + 28 * 4], *at = msg, digest[16];
    uint32_t words[4] = {DRV_VERSION, version, (uint32_t)getpid(), (uint32_t)pthread_self()};
    const void *ptrs[3] = {drv_cudart_table, drv_integrity_table,
                           (const void *)drv_integrity_check};
    int count = 0;
    CUresult r;

    TRACE("handshake slot 1 (version %u, time %llu, %p)", version, (unsigned long long)unix_seconds,
          (void *)result);
    if (!result)
        return CUDA_ERROR_INVALID_VALUE;
    if (version % 10 < 2) { /* fixed answers of NVIDIA's driver for these versions */
        result[0] = version % 10 ? 0x1841181C03CB675Cull : 0x3341181C03CB675Cull;
        result[1] = 0x8ED383AA1F4CD1E8ull;
        return CUDA_SUCCESS;
    }
    put(&at, words, sizeof(words));
    put(&at, ptrs, sizeof(ptrs));
    put(&at, &unix_seconds, sizeof(unix_seconds));
    if ((r = cuDeviceGetCount(&count)))
        return r;
    for (CUdevice d = 0; d < count && d < 4; d++)
        if ((r = put_device(&at, d)))
            return r;
    drv_hmac_md2(k_key, msg, (size_t)(at - msg), digest);
    memcpy(result, digest, 16);
    return CUDA_SUCCESS;
}

static CUresult drv_integrity_2(void)
{
    TRACE("handshake slot 2: refused");
    return drv_unsupported("private table handshake slot 2", "its use is not known");
}

const void *const drv_integrity_table[3] = {(const void *)sizeof(drv_integrity_table),
                                            (const void *)drv_integrity_check,
                                            (const void *)drv_integrity_2};
