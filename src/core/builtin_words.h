/* The word lists behind the generated corpus: ordinary words in rough order of
 * how often reviews use them, and words that carry sentiment. */
#ifndef PL_BUILTIN_WORDS_H
#define PL_BUILTIN_WORDS_H

extern const char *const pl_builtin_neutral[];
extern const int pl_builtin_n_neutral;
extern const char *const pl_builtin_positive[];
extern const int pl_builtin_n_positive;
extern const char *const pl_builtin_negative[];
extern const int pl_builtin_n_negative;

#endif
