/*
 * Execution state of the functional engine: launches, CTAs, warps, call
 * frames and the SIMT reconvergence stack, and the one-instruction step
 * that both the functional launcher and the timing model drive.
 *
 * Registers live per warp as value[slot][lane] (uint64_t, zero-extended to
 * the register's width); an instruction runs over the lanes of its active
 * mask. Divergent branches push reconvergence entries whose rpc is the
 * branch's immediate post-dominator (isa/cfg.h); `ret` and `exit` branch to
 * the function end, which post-dominates everything.
 */
#ifndef PTXSIM_ISA_WARP_H
#define PTXSIM_ISA_WARP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "isa/cfg.h"
#include "isa/engine.h"
#include "isa/module.h"

#define ISA_WARP_SIZE 32
#define ISA_NUM_BARRIERS 16
#define ISA_LANES_ALL 0xffffffffu

enum isa_builtin { ISA_BUILTIN_NONE, ISA_BUILTIN_VPRINTF, ISA_BUILTIN_MALLOC, ISA_BUILTIN_FREE,
                   ISA_BUILTIN_ASSERTFAIL, ISA_BUILTIN_MISSING };

/* Executable form of one function. */
struct isa_fimage {
    const struct isa_func *f;
    struct isa_cfg cfg;
    uint32_t *local_off;  /* per local variable: frame offset (.local/.param) or shared offset */
    uint32_t *param_off;  /* .entry: offset in the parameter buffer; .func: frame offset */
    uint32_t *ret_off;    /* .func: frame offset of each return value */
    uint32_t frame_bytes; /* per-thread local memory of one activation */
    uint32_t param_bytes; /* .entry: parameter buffer size */
    uint8_t builtin;      /* enum isa_builtin for extern functions without a body */
    uint8_t *cls;         /* per instruction: enum isa_xclass (isa/opcodes.def), at load */
};

/* Per-kernel layout of shared memory and stack. */
struct isa_kimage {
    uint32_t *shared_off;   /* per module variable: offset in shared memory, or UINT32_MAX */
    uint32_t static_shared; /* bytes of static shared memory */
    uint32_t dyn_off;       /* where .extern .shared arrays start */
    uint32_t stack_bytes;   /* per-thread local memory the kernel needs */
    uint32_t regs_est;      /* isa_reg_pressure of the kernel, 0 until first asked */
    uint32_t regs_hw;       /* registers per thread ptxas gave it (from a cubin), 0 = unknown */
    uint32_t regs_hw_sm;    /* the cubin's architecture, e.g. 75 */
    bool ready;
};

struct isa_texobj;

struct isa_device {
    struct isa_device_config cfg;
    struct isa_devmem *mem;
    struct isa_texobj *tex; /* texture and surface objects; handle = index + 1 (texture.c) */
    uint32_t ntex, captex;
    uint64_t heap_used;
    bool heap_touched; /* a kernel called malloc: the heap's size is fixed from then on */
    uint64_t launches;
    /* Set from any thread by isa_device_abandon: the running launch stops (PS_EABANDONED). */
    volatile int abandon;
};

struct isa_program {
    struct isa_device *dev;
    struct isa_module *m;
    struct isa_fimage *fi;
    struct isa_kimage *ki;
    uint64_t *var_addr; /* per module variable: device address of .global/.const, else 0 */
};

struct isa_simt {
    uint32_t pc;
    uint32_t rpc;
    uint32_t mask;
};

struct isa_frame {
    uint32_t fidx;
    uint32_t call_pc;    /* caller's call instruction (ISA_NONE for the kernel) */
    uint32_t stack_base; /* SIMT stack depth below this frame's entries */
    uint32_t local_base; /* per-thread local offset of the activation */
    size_t reg_base;     /* index of the frame's registers in the warp's pool */
};

enum isa_warp_state { ISA_WARP_READY, ISA_WARP_BARRIER, ISA_WARP_DONE };

struct isa_warp {
    struct isa_cta *cta;
    uint32_t id;
    uint32_t exists; /* lanes that are threads of the CTA */
    uint32_t live;   /* lanes that have not exited */
    struct isa_simt *st;
    uint32_t sp, st_cap;
    struct isa_frame *fr;
    uint32_t nfr, fr_cap;
    uint64_t *regs; /* register pool: frames' files, value[slot][lane] */
    size_t regs_used, regs_cap;
    uint8_t *local; /* ISA_WARP_SIZE * stack_bytes, lane-major */
    uint8_t cc[ISA_WARP_SIZE];
    uint8_t state;
    uint8_t bar_id;
    uint8_t bar_red;        /* enum isa_boolop of a pending bar.red, 0 for none */
    uint32_t bar_dst;       /* bar.red destination register slot */
    size_t bar_dst_base;    /* register-pool base of the frame that waits */
    bool bar_dst_pred;      /* destination is a predicate (.and/.or) */
    uint64_t insts;
};

struct isa_bar {
    uint32_t arrived_threads;
    uint32_t waiting_warps;
    uint32_t expected; /* threads to wait for (0 = every live thread) */
    uint32_t red_count;
    uint32_t red_and, red_or;
};

struct isa_cta {
    struct isa_launch *L;
    uint32_t ctaid[3];
    uint64_t linear;
    uint32_t nthreads, nwarps, live_warps;
    uint8_t *shared;
    uint32_t shared_bytes;
    struct isa_warp *warps;
    struct isa_bar bar[ISA_NUM_BARRIERS];
    /* Set by whoever runs the CTA: the SM it is on, and (timing model) that SM's cycle counter. */
    uint32_t smid;
    const uint64_t *clock; /* NULL: %clock counts the warp's instructions */
};

struct isa_launch {
    struct isa_program *p;
    struct isa_device *dev;
    uint32_t kernel;
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;
    uint8_t *params;
    uint32_t param_bytes;
    uint64_t warp_insts, thread_insts;
    uint64_t gridid;
    struct ps_err *err;
};

/* What one step did, for the timing model (functional callers pass NULL). */
struct isa_step_info {
    uint32_t fidx, pc;
    uint32_t active; /* lanes that executed */
    const struct isa_instr *in;
    uint8_t space;   /* memory space of a memory instruction, else 0 */
    uint8_t size;    /* bytes per lane accessed */
    bool is_store;
    uint32_t sp0;         /* the warp's SIMT stack depth before the step */
    struct isa_simt top0; /* and its top entry (isa_warp_reload's fault names this pc) */
    /*
     * Each lane's state space with generic addresses decoded (a generic
     * address in the shared, local or parameter window is that space), and
     * addr[] the lane's address within it; addr stays last (isa_warp_step
     * clears the fields before it).
     */
    uint8_t lane_space[ISA_WARP_SIZE];
    uint64_t addr[ISA_WARP_SIZE];
};

/* Prepares a launch: copies parameters, lays out the kernel. */
int isa_launch_init(struct isa_launch *L, struct isa_program *p, const struct isa_launch_desc *ld,
                    struct ps_err *err);
void isa_launch_fini(struct isa_launch *L);

/* Creates the warps of CTA linear index `linear` (shared memory zeroed). */
int isa_cta_init(struct isa_cta *c, struct isa_launch *L, uint64_t linear);
void isa_cta_fini(struct isa_cta *c);
/*
 * Runs CTAs [first, end) of L functionally with up to `resident` of them at
 * once, as a GPU holds a wave of CTAs: the warps of all of them take turns
 * of a few instructions, and a finished CTA's place goes to the next in
 * linear order (the timing model's sampled simulation runs the CTAs it does
 * not time this way). One CTA after another (isa_launch_run) would let each
 * see every update of the CTAs before it, so a program whose work depends
 * on what concurrent CTAs see (relaxations racing through atomics, work
 * lists) would do other work than on the machine: sssp `paper` does 13%
 * fewer instructions in some rounds that way. budget: warp instructions of
 * the launch before a runaway fault (0 = none); thread_cap: the launch's
 * thread instructions before PS_ERUNAWAY (0 = no cap).
 */
int isa_ctas_run(struct isa_launch *L, uint64_t first, uint64_t end, uint32_t resident,
                 uint64_t budget, uint64_t thread_cap);

/*
 * Executes the next instruction of w. Returns 0 (the warp may now be
 * waiting at a barrier or done: see w->state) or a fault code with L->err
 * filled. The caller releases barriers (isa_cta_release_barriers).
 */
int isa_warp_step(struct isa_warp *w, struct isa_step_info *info);

/*
 * isa_warp_step for a load from the global state space that only reads
 * device memory: every lane aligned and inside an allocation. Anything else
 * (another instruction, a lane that would fault or read outside the
 * allocations, which counts and may back memory) returns ISA_STEP_NOT_PLAIN
 * with nothing changed. Such a step touches nothing outside its warp but
 * reads of memory that no other thread writes meanwhile, which lets the
 * timing model's parallel part run it (timing/sm_issue.c).
 */
#define ISA_STEP_NOT_PLAIN 1
int isa_warp_step_plain(struct isa_warp *w, struct isa_step_info *info);

/*
 * Reads again what the plain load `info` describes (its step's info) into
 * its destination registers: for when memory it read was written after it
 * ran but before it, in the order the program must see (a store of an
 * earlier SM in the same cycle). Returns 0, or a fault code where an
 * allocation it read has gone since (as the sequential order faults).
 */
int isa_warp_reload(struct isa_warp *w, const struct isa_step_info *info);

/* Releases barriers whose participants have all arrived; returns how many warps woke. */
uint32_t isa_cta_release_barriers(struct isa_cta *c);

/* Fills L->err with a fault at warp w's current instruction and lane; returns code. */
int isa_fault(struct isa_warp *w, uint32_t lane, int code, uint64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
