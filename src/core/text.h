/* Text clean-up and the tokenizer.
 *
 * padlab reproduces Keras's text_to_word_sequence with its defaults, plus the
 * usual IMDB clean-up:
 *   1. every "<br />" becomes a space;
 *   2. letters are lowercased (ASCII and the Latin-1 letters U+00C0..U+00DE);
 *   3. each of !"#$%&()*+,-./:;<=>?@[\]^_`{|}~ tab and newline becomes a space;
 *   4. the text is split on spaces and empty pieces are dropped.
 * Bytes that are not valid UTF-8 are replaced by U+FFFD before any of this, so
 * every token handed downstream is valid UTF-8. */
#ifndef PL_TEXT_H
#define PL_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Length in bytes of the valid UTF-8 sequence starting at p (at most n bytes
 * available), or 0 if the bytes there are not valid UTF-8. */
size_t pl_utf8_seq_len(const unsigned char *p, size_t n);

/* Writes the cleaned form of in[0..n) (steps 1-3 above, after UTF-8 repair)
 * into out, which must hold at least pl_text_clean_cap(n) bytes, and returns
 * the number of bytes written (out is also NUL-terminated). Can't fail. */
size_t pl_text_clean(const char *in, size_t n, char *out);
size_t pl_text_clean_cap(size_t n);

/* Calls fn(word, len, ctx) for each token of a cleaned text, in order.
 * Returns the number of tokens. */
typedef void (*PlTokenFn)(const char *word, size_t len, void *ctx);
size_t pl_text_split(const char *clean, size_t n, PlTokenFn fn, void *ctx);

/* s with what a terminal would act on instead of show written out: C0
 * controls, DEL and invalid bytes as \xNN, C1 controls (U+0080..U+009F, CSI
 * among them) as \u00NN. Every text from outside that padlab prints (table
 * cells, titles and cards of lessons and decks, file names in messages) goes
 * through it, so a file cannot drive the terminal. A new string (freed by the
 * caller), or NULL on no memory. */
char *pl_text_printable(const char *s);
/* Writes s to f as pl_text_printable shows it, allocating nothing. Returns 0,
 * or -1 when f refused a write. */
int pl_text_put_printable(FILE *f, const char *s);
/* The shown form of the character at s (as above) into out, NUL-terminated;
 * returns how many bytes of s it stands for (0 at the end of s). */
int pl_text_shown_char(const char *s, char out[7]);

/* s to f as pl_text_put_printable writes it, but its newlines kept as line
 * ends: text from a file, shown line by line. 0, or -1 on a write error. */
int pl_text_put_printable_lines(FILE *f, const char *s);
/* The same for a formatted text (at most 20000 bytes): printf for text
 * from a file, its control bytes shown, not sent. */
int pl_text_vprintf_lines(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
int pl_text_printf_lines(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A %XX escape at s (s[0] is '%', left bytes from s on, the '%' counted):
 * the byte the two hex digits give, or -1 when there are not two hex
 * digits or they give 0. One reading of %XX for the learner's books, the
 * state line and a student's form. */
int pl_text_percent_byte(const char *s, size_t left);

#endif
