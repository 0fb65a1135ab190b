// A small CUDA program that follows none of the workload suite's conventions
// (docs/workloads.md), for tests/sweep/run.sh: its own arguments, its own
// output and its own exit statuses. Three modes:
//   tinyapp scale -n N -f F       prints "sum=<S>" and "RESULT OK" when the device sum is right
//   tinyapp double IN OUT         reads numbers from IN, writes them doubled (one per line) to OUT
//   tinyapp code K                runs a kernel, exits K when its result is right (2 otherwise)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void scale(float *x, int n, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * f;
}

static float *to_device(const float *h, int n)
{
    float *d = nullptr;
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess ||
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "tinyapp: device allocation failed\n");
        exit(2);
    }
    return d;
}

static void run_scale(float *h, int n, float f)
{
    float *d = to_device(h, n);
    scale<<<(n + 127) / 128, 128>>>(d, n, f);
    if (cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "tinyapp: kernel failed\n");
        exit(2);
    }
    cudaFree(d);
}

static int mode_scale(int argc, char **argv)
{
    int n = 256;
    float f = 2.0f;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-n"))
            n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-f"))
            f = (float)atof(argv[i + 1]);
    }
    if (n <= 0 || n > (1 << 20))
        return fprintf(stderr, "tinyapp: bad -n\n"), 2;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 7);
    run_scale(h, n, f);
    double sum = 0, want = 0;
    for (int i = 0; i < n; i++) {
        sum += h[i];
        want += (double)(i % 7) * f;
    }
    free(h);
    printf("sum=%.1f\n", sum);
    if (sum != want)
        return printf("RESULT WRONG\n"), 1;
    printf("RESULT OK\n");
    return 0;
}

static int mode_double(const char *in, const char *out)
{
    float h[1024];
    int n = 0;
    FILE *fi = fopen(in, "r"), *fo;
    if (!fi)
        return fprintf(stderr, "tinyapp: cannot read %s\n", in), 2;
    while (n < 1024 && fscanf(fi, "%f", &h[n]) == 1)
        n++;
    fclose(fi);
    if (!n)
        return fprintf(stderr, "tinyapp: no numbers in %s\n", in), 2;
    run_scale(h, n, 2.0f);
    if (!(fo = fopen(out, "w")))
        return fprintf(stderr, "tinyapp: cannot write %s\n", out), 2;
    for (int i = 0; i < n; i++)
        fprintf(fo, "%g\n", h[i]);
    fclose(fo);
    return 0;
}

static int mode_code(int k)
{
    float h[64];
    for (int i = 0; i < 64; i++)
        h[i] = (float)i;
    run_scale(h, 64, 3.0f);
    for (int i = 0; i < 64; i++)
        if (h[i] != 3.0f * i)
            return 2;
    return k;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "scale"))
        return mode_scale(argc, argv);
    if (argc == 4 && !strcmp(argv[1], "double"))
        return mode_double(argv[2], argv[3]);
    if (argc == 3 && !strcmp(argv[1], "code"))
        return mode_code(atoi(argv[2]));
    fprintf(stderr, "usage: tinyapp scale -n N -f F | double IN OUT | code K\n");
    return 64;
}
