/*
 * OpenCL image built-ins to PTX texture and surface instructions. clang 14
 * leaves read_image{f,i,ui}, write_image{f,i,ui} and get_image_* as calls to
 * undefined functions (libclc's nvptx build has none) taking
 * %opencl.image*_t pointers, and turns each constant sampler into a call to
 * __translate_sampler_initializer(bits). This pass replaces every such call
 * with inline PTX in independent texturing mode, over 64-bit handles:
 * - an image is its kernel argument's value (the runtime passes the image's
 *   texture-object handle), a sampler its sampler_t bits (the runtime passes
 *   a sampler argument's bits, and a constant sampler becomes its constant);
 * - read_image*: tex.GEOM.v4.{f32,s32,u32}.{f32,s32} d, [img, smp, {c}]
 *   (reads without a sampler pass ISA_CLK_NO_SAMPLER's bits, 0x10);
 * - write_image*: sust.p.GEOM.v4.b32.zero [img, {c}], {v} (x in elements;
 *   out-of-range writes, undefined in OpenCL, are dropped as GPUs drop them);
 * - get_image_*: txq.{width,height,depth,channel_data_type,channel_order,
 *   array_size}.b32.
 * Array layers given as floats are rounded with rint before the tex (the
 * engine clamps them). The engine's side is isa/climage.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/err.h"
#include "frontend/clc_int.h"

enum geom { G1D, G1DB, G1DA, G2D, G2DA, G3D };

static const char *const geom_ptx[] = {"1d", "1d", "a1d", "2d", "a2d", "3d"};

/* The geometry of an image type "opencl.imageXX_{ro,wo,rw}_t"; -1 when not supported. */
static int geom_of(const char *s)
{
    static const struct {
        const char *prefix;
        enum geom g;
    } t[] = {{"opencl.image1d_buffer_", G1DB}, {"opencl.image1d_array_", G1DA},
             {"opencl.image1d_", G1D},         {"opencl.image2d_array_", G2DA},
             {"opencl.image2d_", G2D},         {"opencl.image3d_", G3D}};

    if (strstr(s, "depth") || strstr(s, "msaa"))
        return -1;
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        if (clc_has_prefix(s, t[i].prefix))
            return (int)t[i].g;
    return -1;
}

/* The struct name behind an image pointer argument, or NULL when v is no OpenCL image. */
static const char *image_type(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v), e;
    const char *n;

    if (LLVMGetTypeKind(t) != LLVMPointerTypeKind || !(e = LLVMGetElementType(t)) ||
        LLVMGetTypeKind(e) != LLVMStructTypeKind || !(n = LLVMGetStructName(e)))
        return NULL;
    return clc_has_prefix(n, "opencl.image") ? n : NULL;
}

/* One call being lowered: its builder, and the operands and constraints gathered so far. */
struct lower {
    LLVMContextRef ctx;
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMValueRef args[12];
    unsigned nargs;
    unsigned outs; /* output operands, numbered before the inputs */
    char cons[96];
};

static void add_arg(struct lower *l, LLVMValueRef v, const char *con)
{
    size_t n = strlen(l->cons);

    snprintf(l->cons + n, sizeof(l->cons) - n, "%s%s", n ? "," : "", con);
    l->args[l->nargs++] = v;
}

/* A handle (image pointer or sampler) as an i64. */
static LLVMValueRef as_handle(struct lower *l, LLVMValueRef v)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(l->ctx);
    LLVMTypeRef t = LLVMTypeOf(v);

    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
        return LLVMBuildPtrToInt(l->b, v, i64, "h");
    return LLVMBuildZExtOrBitCast(l->b, v, i64, "h");
}

/* Element k of a coordinate (a scalar when not a vector). */
static LLVMValueRef element(struct lower *l, LLVMValueRef v, unsigned k)
{
    if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
        return v;
    return LLVMBuildExtractElement(l->b, v, LLVMConstInt(LLVMInt32TypeInContext(l->ctx), k, 0),
                                   "c");
}

/* An array layer as an integer: rint(f) for float coordinates. */
static LLVMValueRef layer_of(struct lower *l, LLVMValueRef c)
{
    LLVMTypeRef f32 = LLVMFloatTypeInContext(l->ctx), i32 = LLVMInt32TypeInContext(l->ctx);
    LLVMTypeRef fty = LLVMFunctionType(f32, &f32, 1, 0);
    LLVMValueRef rint;

    if (LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMFloatTypeKind)
        return c;
    if (!(rint = LLVMGetNamedFunction(l->m, "llvm.rint.f32")))
        rint = LLVMAddFunction(l->m, "llvm.rint.f32", fty);
    return LLVMBuildFPToSI(l->b, LLVMBuildCall2(l->b, fty, rint, &c, 1, "r"), i32, "layer");
}

/*
 * Adds the PTX coordinate vector of geometry g from OpenCL coordinate c and writes its
 * placeholders ("$6, $7") into ph: layers first for arrays, four elements for 3d and a2d.
 */
static void add_coords(struct lower *l, enum geom g, LLVMValueRef c, char *ph, size_t size)
{
    bool fl = LLVMGetTypeKind(LLVMGetTypeKind(LLVMTypeOf(c)) == LLVMVectorTypeKind
                                  ? LLVMGetElementType(LLVMTypeOf(c))
                                  : LLVMTypeOf(c)) == LLVMFloatTypeKind;
    const char *con = fl ? "f" : "r";
    unsigned first = l->nargs;

    switch (g) {
    case G1D:
    case G1DB:
        add_arg(l, element(l, c, 0), con);
        break;
    case G1DA:
        add_arg(l, layer_of(l, element(l, c, 1)), "r");
        add_arg(l, element(l, c, 0), con);
        break;
    case G2D:
        add_arg(l, element(l, c, 0), con);
        add_arg(l, element(l, c, 1), con);
        break;
    case G2DA:
        add_arg(l, layer_of(l, element(l, c, 2)), "r");
        add_arg(l, element(l, c, 0), con);
        add_arg(l, element(l, c, 1), con);
        add_arg(l, element(l, c, 1), con); /* the ignored fourth element */
        break;
    case G3D:
        for (unsigned k = 0; k < 4; k++)
            add_arg(l, element(l, c, k), con);
        break;
    }
    ph[0] = 0;
    for (unsigned i = first; i < l->nargs; i++)
        snprintf(ph + strlen(ph), size - strlen(ph), "%s$%u", i > first ? ", " : "", i + l->outs);
}

static LLVMValueRef call_asm(struct lower *l, LLVMTypeRef ret, const char *text, bool effects)
{
    LLVMTypeRef tys[12];
    LLVMTypeRef fty;
    LLVMValueRef a;

    for (unsigned i = 0; i < l->nargs; i++)
        tys[i] = LLVMTypeOf(l->args[i]);
    fty = LLVMFunctionType(ret, tys, l->nargs, 0);
    a = LLVMGetInlineAsm(fty, (char *)text, strlen(text), l->cons, strlen(l->cons), effects, 0,
                         LLVMInlineAsmDialectATT, 0);
    return LLVMBuildCall2(l->b, fty, a, l->args, l->nargs, "");
}

static bool float_elements(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    return LLVMGetTypeKind(t) == LLVMFloatTypeKind;
}

/* read_image{f,i,ui}(img, [smp,] coord) -> tex; rt is the call's <4 x T> type. */
static LLVMValueRef lower_read(struct lower *l, LLVMValueRef call, enum geom g, bool smp,
                               bool unsig)
{
    LLVMTypeRef rt = LLVMTypeOf(call), et = LLVMGetElementType(rt);
    LLVMTypeRef four[4] = {et, et, et, et};
    LLVMValueRef c = LLVMGetOperand(call, smp ? 2 : 1), r, v = LLVMGetUndef(rt);
    bool f = float_elements(rt);
    char ph[64], text[192];

    snprintf(l->cons, sizeof(l->cons), "%s", f ? "=f,=f,=f,=f" : "=r,=r,=r,=r");
    l->outs = 4;
    add_arg(l, as_handle(l, LLVMGetOperand(call, 0)), "l");
    add_arg(l,
            smp ? as_handle(l, LLVMGetOperand(call, 1))
                : LLVMConstInt(LLVMInt64TypeInContext(l->ctx), 0x10, 0), /* no sampler */
            "l");
    add_coords(l, g, c, ph, sizeof(ph));
    snprintf(text, sizeof(text), "tex.%s.v4.%s.%s {$0, $1, $2, $3}, [$4, $5, {%s}];", geom_ptx[g],
             f       ? "f32"
             : unsig ? "u32"
                     : "s32",
             float_elements(LLVMTypeOf(c)) ? "f32" : "s32", ph);
    r = call_asm(l, LLVMStructTypeInContext(l->ctx, four, 4, 0), text, false);
    for (unsigned k = 0; k < 4; k++)
        v = LLVMBuildInsertElement(l->b, v, LLVMBuildExtractValue(l->b, r, k, "t"),
                                   LLVMConstInt(LLVMInt32TypeInContext(l->ctx), k, 0), "v");
    return v;
}

/* write_image{f,i,ui}(img, coord, value) -> sust.p. */
static void lower_write(struct lower *l, LLVMValueRef call, enum geom g)
{
    LLVMValueRef val = LLVMGetOperand(call, 2);
    const char *con = float_elements(LLVMTypeOf(val)) ? "f" : "r";
    char ph[64], text[192];
    unsigned first;

    l->outs = 0;
    add_arg(l, as_handle(l, LLVMGetOperand(call, 0)), "l");
    add_coords(l, g, LLVMGetOperand(call, 1), ph, sizeof(ph));
    first = l->nargs;
    for (unsigned k = 0; k < 4; k++)
        add_arg(l, element(l, val, k), con);
    snprintf(text, sizeof(text), "sust.p.%s.v4.b32.zero [$0, {%s}], {$%u, $%u, $%u, $%u};",
             geom_ptx[g], ph, first, first + 1, first + 2, first + 3);
    call_asm(l, LLVMVoidTypeInContext(l->ctx), text, true);
}

/* One txq of the image operand 0 of call. */
static LLVMValueRef txq(struct lower *l, LLVMValueRef call, const char *what)
{
    char text[64];

    l->nargs = 0;
    l->outs = 1;
    snprintf(l->cons, sizeof(l->cons), "=r");
    add_arg(l, as_handle(l, LLVMGetOperand(call, 0)), "l");
    snprintf(text, sizeof(text), "txq.%s.b32 $0, [$1];", what);
    return call_asm(l, LLVMInt32TypeInContext(l->ctx), text, false);
}

/* get_image_<what>(img) -> txq; get_image_dim gives (w, h) or (w, h, d, 0). */
static LLVMValueRef lower_query(struct lower *l, LLVMValueRef call, const char *what)
{
    LLVMTypeRef rt = LLVMTypeOf(call), i32 = LLVMInt32TypeInContext(l->ctx);
    static const char *const dim[] = {"width", "height", "depth"};
    LLVMValueRef v;

    if (!strcmp(what, "dim")) {
        unsigned n = LLVMGetVectorSize(rt);

        v = LLVMConstNull(rt);
        for (unsigned k = 0; k < n && k < 3; k++)
            v = LLVMBuildInsertElement(l->b, v, txq(l, call, dim[k]), LLVMConstInt(i32, k, 0), "d");
        return v;
    }
    v = txq(l, call, what);
    return LLVMTypeOf(v) == rt ? v : LLVMBuildZExt(l->b, v, rt, "q");
}

/* The built-in's name in a mangled name "_Z<len><name>..." into out; false when not one. */
static bool builtin_name(const char *mangled, char *out, size_t size)
{
    char *end;
    unsigned long n;

    if (!clc_has_prefix(mangled, "_Z"))
        return false;
    n = strtoul(mangled + 2, &end, 10);
    if (!n || n >= size || strlen(end) < n)
        return false;
    memcpy(out, end, n);
    out[n] = 0;
    return true;
}

/* Lowers one call of an image built-in (name, mangled) taking image type it. */
static int lower_call(struct lower *l, LLVMValueRef call, const char *name, const char *mangled,
                      const char *it, struct ps_err *err)
{
    int g = geom_of(it);
    LLVMValueRef v = NULL;

    if (g < 0)
        return ps_err_set(err, PS_ENOTSUP,
                          "OpenCL image type '%s' is not supported (depth and "
                          "multisample images)",
                          it);
    LLVMPositionBuilderBefore(l->b, call);
    l->nargs = 0;
    l->cons[0] = 0;
    if (!strcmp(name, "read_imagef") || !strcmp(name, "read_imagei") ||
        !strcmp(name, "read_imageui"))
        v = lower_read(l, call, (enum geom)g, strstr(mangled, "ocl_sampler") != NULL,
                       !strcmp(name, "read_imageui"));
    else if (!strcmp(name, "write_imagef") || !strcmp(name, "write_imagei") ||
             !strcmp(name, "write_imageui"))
        lower_write(l, call, (enum geom)g);
    else if (clc_has_prefix(name, "get_image_") &&
             (!strcmp(name + 10, "width") || !strcmp(name + 10, "height") ||
              !strcmp(name + 10, "depth") || !strcmp(name + 10, "dim") ||
              !strcmp(name + 10, "channel_data_type") || !strcmp(name + 10, "channel_order") ||
              !strcmp(name + 10, "array_size")))
        v = lower_query(l, call, name + 10);
    else
        return ps_err_set(err, PS_ENOTSUP, "OpenCL image built-in '%s' is not supported", name);
    if (v)
        LLVMReplaceAllUsesWith(call, v);
    LLVMInstructionEraseFromParent(call);
    return 0;
}

/* Every call of f, lowered; f itself is deleted once unused. */
static int lower_function(struct lower *l, LLVMValueRef f, const char *mangled, struct ps_err *err)
{
    char name[64];
    LLVMUseRef u;
    int rc;

    if (!builtin_name(mangled, name, sizeof(name)))
        return 0;
    while ((u = LLVMGetFirstUse(f))) {
        LLVMValueRef call = LLVMGetUser(u);
        const char *it;

        if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f ||
            !LLVMGetNumArgOperands(call) || !(it = image_type(LLVMGetOperand(call, 0))))
            return 0; /* not an image built-in: left for check_resolved */
        if ((rc = lower_call(l, call, name, mangled, it, err)))
            return rc;
    }
    LLVMDeleteFunction(f);
    return 0;
}

/* __translate_sampler_initializer(bits) -> the bits, as the sampler pointer. */
static void lower_samplers(struct lower *l)
{
    LLVMValueRef f = LLVMGetNamedFunction(l->m, "__translate_sampler_initializer");
    LLVMUseRef u;

    if (!f)
        return;
    while ((u = LLVMGetFirstUse(f))) {
        LLVMValueRef call = LLVMGetUser(u), bits, v;
        LLVMTypeRef rt;

        if (!LLVMIsACallInst(call))
            return;
        rt = LLVMTypeOf(call);
        LLVMPositionBuilderBefore(l->b, call);
        bits = LLVMBuildZExtOrBitCast(l->b, LLVMGetOperand(call, 0), LLVMInt64TypeInContext(l->ctx),
                                      "smp");
        v = LLVMGetTypeKind(rt) == LLVMPointerTypeKind
                ? LLVMBuildIntToPtr(l->b, bits, rt, "smp")
                : LLVMBuildTruncOrBitCast(l->b, bits, rt, "smp");
        LLVMReplaceAllUsesWith(call, v);
        LLVMInstructionEraseFromParent(call);
    }
    LLVMDeleteFunction(f);
}

int clc_lower_images(LLVMContextRef ctx, LLVMModuleRef m, struct ps_err *err)
{
    struct lower l = {.ctx = ctx, .m = m, .b = LLVMCreateBuilderInContext(ctx)};
    LLVMValueRef f, next;
    size_t len;
    int rc = 0;

    lower_samplers(&l);
    for (f = LLVMGetFirstFunction(m); f && !rc; f = next) {
        next = LLVMGetNextFunction(f);
        if (LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f))
            rc = lower_function(&l, f, LLVMGetValueName2(f, &len), err);
    }
    LLVMDisposeBuilder(l.b);
    return rc;
}
