/*
 * PTX tokenizer. Works in place on the caller's text (no copies); a NUL byte
 * ends the input, as in the NUL-terminated PTX of CUDA fatbins. Positions are
 * 1-based line and byte column.
 */
#ifndef PTXSIM_FRONTEND_PTX_LEX_H
#define PTXSIM_FRONTEND_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

enum ptx_tok {
    PTX_TOK_EOF,
    PTX_TOK_ERROR,  /* text: the message */
    PTX_TOK_IDENT,  /* foo, %r1, $L1, _ */
    PTX_TOK_DOT,    /* .foo, .L2::cache_hint, .1d (text excludes the dot) */
    PTX_TOK_INT,    /* value in u */
    PTX_TOK_F32,    /* 0fXXXXXXXX: bits in u */
    PTX_TOK_F64,    /* 0dXXXXXXXXXXXXXXXX: bits in u */
    PTX_TOK_FDEC,   /* decimal float: f; text kept for .version */
    PTX_TOK_STRING, /* text excludes the quotes */
    PTX_TOK_PUNCT,  /* one of { } [ ] ( ) , ; : + - ! | < > = @ in c */
};

struct ptx_token {
    enum ptx_tok kind;
    char c; /* PUNCT */
    const char *text;
    uint32_t len;
    uint32_t line, col;
    uint64_t u;
    double f;
};

struct ptx_lexer {
    const char *p, *end;
    const char *line_start;
    uint32_t line;
};

/* Starts lexing text[0..len) (or up to the first NUL). */
void ptx_lex_init(struct ptx_lexer *lx, const char *text, size_t len);

/* Reads the next token. An ERROR token leaves the lexer at its position. */
void ptx_lex_next(struct ptx_lexer *lx, struct ptx_token *t);

#endif
