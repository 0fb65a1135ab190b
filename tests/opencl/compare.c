/*
 * compare A B: checks two outputs of a test program (harness.h format) line
 * by line: I lines must be equal, F lines within the larger of the two ULP
 * bounds (NaNs must match NaNs). Prints the first difference; exit 0 or 1.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t ordered(uint32_t bits)
{
    return (bits & 0x80000000u) ? -(int64_t)(bits & 0x7fffffffu) : (int64_t)bits;
}

static int cmp_float(const char *a, const char *b)
{
    char ta[128], tb[128];
    int ua, ub;
    unsigned int ba, bb;
    float fa, fb;
    int64_t d;

    if (sscanf(a, "F %127s %d %x", ta, &ua, &ba) != 3 || sscanf(b, "F %127s %d %x", tb, &ub, &bb) != 3)
        return 1;
    memcpy(&fa, &ba, 4);
    memcpy(&fb, &bb, 4);
    if (strcmp(ta, tb))
        return 1;
    if (isnan(fa) || isnan(fb))
        return !(isnan(fa) && isnan(fb));
    d = ordered(ba) - ordered(bb);
    return llabs(d) > (ua > ub ? ua : ub);
}

int main(int argc, char **argv)
{
    char la[512], lb[512];
    FILE *fa, *fb;
    int line = 0;

    if (argc != 3 || !(fa = fopen(argv[1], "r")) || !(fb = fopen(argv[2], "r"))) {
        fprintf(stderr, "usage: compare A B\n");
        return 2;
    }
    for (;;) {
        char *ra = fgets(la, sizeof(la), fa), *rb = fgets(lb, sizeof(lb), fb);

        line++;
        if (!ra && !rb)
            return 0;
        if (!ra || !rb || (la[0] == 'F' ? cmp_float(la, lb) : strcmp(la, lb))) {
            printf("line %d differs:\n  %s  %s", line, ra ? la : "(end)\n", rb ? lb : "(end)\n");
            return 1;
        }
    }
}
