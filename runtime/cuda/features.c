/*
 * The feature each refused entry point belongs to, so that the message a
 * program gets names what it tried to use ("CUDA graphs", "inter-process
 * communication (IPC)") and not only the function. The table is matched in
 * order; the first rule whose text occurs in the name (or that the name
 * starts with, for the `^` rules) wins.
 */
#include <string.h>

#include "runtime/cuda/stubs.h"

struct feature_rule {
    const char *pattern; /* '^' first: a prefix; else a substring */
    const char *feature;
};

static const struct feature_rule rules[] = {
    {"Capture", "stream capture (CUDA graphs)"},
    {"^cudaGraphics", "graphics interoperability (OpenGL, EGL, VDPAU)"},
    {"^cudaGraph", "CUDA graphs"},
    {"GraphMem", "CUDA graphs"},
    {"^cudaUserObject", "CUDA graphs (user objects)"},
    {"^cudaIpc", "inter-process communication (IPC)"},
    {"Cooperative", "cooperative launch (grid-wide synchronisation)"},
    {"Cluster", "thread-block clusters"},
    {"MemPool", "memory pools (stream-ordered allocation from pools)"},
    {"FromPool", "memory pools (stream-ordered allocation from pools)"},
    {"External", "external memory and semaphores"},
    {"^cudaGL", "graphics interoperability (OpenGL, EGL, VDPAU)"},
    {"EGL", "graphics interoperability (OpenGL, EGL, VDPAU)"},
    {"VDPAU", "graphics interoperability (OpenGL, EGL, VDPAU)"},
    {"Peer", "peer access between devices (ptxsim has one device)"},
    {"P2P", "peer access between devices (ptxsim has one device)"},
    {"Mipmapped", "mipmapped CUDA arrays"},
    {"Array", "CUDA arrays"},
    {"Texture", "texture objects"},
    {"Surface", "surface objects"},
    {"ChannelDesc", "CUDA arrays"},
    {"3D", "3D allocations and copies"},
    {"^cudaLibrary", "CUDA libraries (cudaLibrary*, loading device code at run time)"},
    {"^cudaLogs", "driver logs"},
    {"DriverEntryPoint", "driver entry points (the driver API)"},
    {"ExportTable", "driver export tables"},
    {"GetProcAddress", "driver entry points (the driver API)"},
    {"Batch", "batched copies and prefetches"},
    {"MemRange", "managed-memory range attributes"},
    {"StreamGetAttribute", "stream attributes (access policy windows)"},
    {"StreamSetAttribute", "stream attributes (access policy windows)"},
    {"StreamCopyAttributes", "stream attributes (access policy windows)"},
    {"PersistingL2", "persisting L2 cache lines"},
    {"AsyncNotification", "asynchronous device notifications"},
    {"NvSciSync", "NvSciSync interoperability"},
    {"GPUDirectRDMA", "GPUDirect RDMA"},
    {"AtomicCapabilities", "host and peer atomic capabilities"},
    {"RegisterHostVar", "host variables in device code (__cudaRegisterHostVar)"},
    {"RegisterUnifiedTable", "unified function tables (__cudaRegisterUnifiedTable)"},
    {"ParamInfo", "kernel parameter queries"},
    {"KernelSetAttributeForDevice", "per-device kernel attributes"},
};

const char *rt_feature_of(const char *name)
{
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
        const char *p = rules[i].pattern;

        if (p[0] == '^' ? !strncmp(name, p + 1, strlen(p + 1)) : strstr(name, p) != NULL)
            return rules[i].feature;
    }
    return NULL;
}
