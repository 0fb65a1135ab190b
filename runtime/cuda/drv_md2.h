/* MD2 (RFC 1319) and HMAC-MD2 (RFC 2104) for the static runtime's handshake (drv_export.c). */
#ifndef PTXSIM_RUNTIME_CUDA_DRV_MD2_H
#define PTXSIM_RUNTIME_CUDA_DRV_MD2_H

#include <stddef.h>

struct drv_md2 {
    unsigned char x[48];        /* the state; the digest is its first 16 bytes */
    unsigned char checksum[16]; /* the running checksum */
    unsigned char block[16];    /* bytes not yet processed */
    unsigned count;             /* how many of them */
};

void drv_md2_init(struct drv_md2 *m);
void drv_md2_update(struct drv_md2 *m, const void *data, size_t len);
void drv_md2_final(struct drv_md2 *m, unsigned char digest[16]);
/* HMAC-MD2 with a 16-byte key (MD2's block size). */
void drv_hmac_md2(const unsigned char key[16], const void *msg, size_t len, unsigned char out[16]);

#endif
