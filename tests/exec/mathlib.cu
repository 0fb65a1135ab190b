// ptxsim exec test: the CUDA math library in single and double precision.
extern "C" __global__ void mathlib(const float *x, float *s, float *e, const double *y,
                                   double *q, double *t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) {
        s[i] = sinf(x[i]);
        e[i] = expf(x[i] * 0.125f);
        q[i] = sqrt(y[i]);
        t[i] = sin(y[i]) + exp(-y[i] * 0.01) + log(y[i] + 1.0);
    }
}
