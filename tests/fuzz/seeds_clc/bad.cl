-I
__kernel void bad(__global int *o) { o[0] = undefined_name; }
