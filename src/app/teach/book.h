/* A learner's book: one record per lesson or drill item, keyed by a name
 * made from a lesson's or deck's file name, and the learner's salt. The
 * lesson progress (progress.h) and the drill boxes (drill_book.h) are two
 * kinds of record in one file format, each in its own file of padlab's
 * state folder (app/dirs.h):
 *
 *   # padlab: what the book holds, in a sentence
 *   format = 2
 *   learner = 9c1f04d2a7e35b60
 *   WORD = NAME field=N field=N ...       WORD is "lesson" or "item"
 *
 * NAME is any bytes: a space, '%', '=' and every control byte are written
 * %XX (hex), so a name with a space or a newline keeps its one line. A file
 * without the "format = 2" line is of the first format, whose names were
 * written as they are: it is read as such and written back in this one.
 *
 * Two instances on one book (a lesson in two windows, two drills) lose
 * nothing of each other's: a save takes a lock (flock on BOOK.lock beside
 * it), reads the book again, merges what this instance changed since it
 * last read or wrote it (kept in `base`) into what is there now, and
 * writes the result atomically (core/atomic.h). A damaged book is set aside
 * as BOOK.damaged-N, said in `notice`, and the book starts afresh. */
#ifndef PL_APP_BOOK_H
#define PL_APP_BOOK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

#define PL_BOOK_NAME_CAP 512 /* a record's name, with its NUL: a deck's file name, '/', an item's id */
#define PL_BOOK_MAX_RECORDS 100000
#define PL_BOOK_RENAMED_MAX 4 /* the records one record of an old name may become */

/* A kind of record: a struct of `size` bytes that starts with its name,
 * char[PL_BOOK_NAME_CAP], and holds ints after it. */
typedef struct {
    const char *word;    /* the line's key: "lesson", "item" */
    const char *comment; /* the file's first line, after "# " */
    const char *expect;  /* what a record line looks like, for messages */
    size_t size;
    /* Sets the field key of rec from value; 0, or -1 when it is not one or out of range. */
    int (*field)(void *rec, const char *key, const char *value);
    /* Checks a record read whole and completes it (a drill record of an
     * older version is brought up to date); 0, or -1. NULL: every record is good. */
    int (*check)(void *rec);
    /* Writes rec's fields as " key=value ..." (no newline). */
    void (*write)(FILE *f, const void *rec);
    /* Folds what this instance changed (mine, against base: zeroes when it
     * was new here) into now, the record on disk. */
    void (*merge)(void *now, const void *base, const void *mine);
    /* Brings a record kept under an old name up to date (NULL: names never
     * change): writes what rec is now into out, up to max records each
     * under its current name, and returns how many; 0 when rec's name is
     * current. A book is read so (the file stays as it is), and so the
     * next save writes the new names. */
    int (*renamed)(const void *rec, void *out, int max);
} PlBookKind;

typedef struct {
    const PlBookKind *kind;
    char path[1024];
    uint64_t salt;      /* the learner's; 0: none */
    unsigned char *rec; /* n records of kind->size bytes */
    int n, cap;
    unsigned char *base; /* the records as last read or written: what a save merges against */
    int nbase;
    uint64_t base_salt; /* the salt as last read or written */
    char notice[600];   /* damage read or set aside: what was wrong, where, what became of it; "" */
    int skipped;        /* damaged record lines left out of rec (a save sets the file aside first) */
    char skipped_first[300]; /* the first of them: "FILE:LINE: expected ..." */
} PlBook;

/* Reads the book at path into b (no file yet: an empty book); reading never
 * changes the file. A damaged record line is left out (skipped, named in
 * skipped_first and notice); a damaged header leaves b empty, with notice
 * naming the line. Either way the file stays as it is until pl_book_save,
 * which would lose what it cannot read: the save sets the file aside as
 * PATH.damaged-N first and says so in notice. Returns PL_EIO / PL_ENOMEM
 * with err naming the file when it cannot be read at all, and b is empty.
 * b must be released with pl_book_done whatever is returned. */
PlStatus pl_book_load(PlBook *b, const PlBookKind *kind, const char *path, PlErr *err);
/* Reads a book from len bytes of text (shown names it in messages); the
 * parser of pl_book_load. Records of an old name are read under their new
 * ones (kind->renamed); one already kept under the new name is the newer
 * and wins. A damaged record line is skipped (b->skipped,
 * b->skipped_first naming SHOWN:LINE); a damaged header (format, learner, a
 * NUL byte, too many records): PL_EINPUT with err naming SHOWN:LINE, and b
 * empty. Release b with pl_book_done. */
PlStatus pl_book_parse(PlBook *b, const PlBookKind *kind, const char *text, size_t len, const char *shown, PlErr *err);
/* Writes b in the current format; 0, or -1 after a failed write. */
int pl_book_write(const PlBook *b, FILE *f);
/* Merges b into the book at b->path under its lock and writes it
 * atomically; b then holds the merged book (another instance's records
 * too). PL_OK, or PL_EIO with err naming the file and the reason. */
PlStatus pl_book_save(PlBook *b, PlErr *err);
/* Frees the records; b stays usable (empty). Harmless on a zeroed book. */
void pl_book_done(PlBook *b);

/* Record i (0 <= i < n). */
void *pl_book_at(const PlBook *b, int i);
/* The record named name, or NULL. */
void *pl_book_find(const PlBook *b, const char *name);
/* The record, made (zeroed, named) when missing; NULL: no memory, the book
 * is full, or a name that is empty or does not fit. */
void *pl_book_of(PlBook *b, const char *name);
/* Forgets the record named name, or with prefix every record whose name
 * starts with it; returns how many. */
int pl_book_forget(PlBook *b, const char *name, int prefix);

#endif
