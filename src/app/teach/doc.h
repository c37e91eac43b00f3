/* The files a teacher writes (lessons, decks): where padlab looks for them,
 * how one is read, and the one parser skeleton both formats fill in. One
 * place, so that every kind is found the same way, a FIFO, a folder or a huge
 * file named as one gets the same one line, and every problem is reported
 * the same way ("PATH:LINE: message").
 *
 * A document is lines (doc/lesson-format.md, doc/deck-format.md):
 *
 *   ; a note for the teacher            anywhere: kept by a format with a note handler
 *   # Title                             the first line that is not blank
 *   name: value                         header fields, up to the first ##
 *   ## A section's title                a step, an item
 *   name: value                         the section's fields (a row each)
 *   free lines                          the format's own (narration, choices)
 *
 * A format is a PlDocFormat: its header and section field tables, and what
 * a section's title, a free line and the end of the file do. Its parser
 * holds a PlDoc as its first member, and its handlers report a problem with
 * pl_doc_fail: the parse stops there, or goes on to find every one (--check). */
#ifndef PL_APP_DOC_H
#define PL_APP_DOC_H

#include <stddef.h>

#include "app/settings.h"
#include "core/err.h"

/* The largest lesson or deck file read. */
#define PL_DOC_MAX_BYTES (1 << 20)
/* The longest line a lesson or deck may have, its newline not counted. */
#define PL_DOC_LINE_MAX 2047

/* Every problem a check found in a file, so that a teacher fixes them all in
 * one pass: each one line "PATH:LINE: message", kept in line order. Past
 * PL_PROBLEMS_MAX only counted (more). The caller owns it; zeroed is empty. */
#define PL_PROBLEMS_MAX 64
typedef struct {
    int n, more;
    struct {
        int line;
        char msg[512];
    } at[PL_PROBLEMS_MAX];
} PlProblems;

/* Adds msg, found at line, in its place by line (after others of its line). */
void pl_problems_add(PlProblems *p, int line, const char *msg);

typedef struct PlDoc PlDoc;
typedef struct PlDocField PlDocField;

/* A field's handler: value is the text after "name: ". */
typedef PlStatus (*PlDocHandler)(PlDoc *d, const PlDocField *f, const char *value);

/* One row of a format's field table. arg, kinds, required, offset and count
 * are the format's to use (a directive's action, the decks a field belongs
 * to, where its member is). */
struct PlDocField {
    const char *name;
    PlDocHandler handle;
    int arg;
    unsigned kinds, required;
    size_t offset, count;
};

typedef struct {
    const char *what;    /* "a lesson": names the kind in messages */
    const char *suffix;  /* ".lesson" */
    const char *section; /* "step": what a ## line begins */
    /* where files of the kind are (pl_doc_dirs) */
    const char *env, *sub, *installed, *source;
    const PlDocField *header; /* the fields before the first ## */
    int nheader;
    const PlDocField *fields; /* the fields of a section */
    int nfields;
    /* Called before a section's field's handler (NULL: none); a problem
     * there skips the handler. */
    PlStatus (*enter)(PlDoc *d, const PlDocField *f);
    PlStatus (*begin)(PlDoc *d, char *title);     /* a ## line: title after "## " (the format may trim it) */
    PlStatus (*text)(PlDoc *d, const char *line); /* a section's line that is no field */
    PlStatus (*finish)(PlDoc *d);                 /* after the last line, the title read */
    PlStatus (*note)(PlDoc *d, const char *text); /* a ; line after the title: text after "; " (NULL: skipped) */
    /* The format's whole parse (pl_doc_load calls it): the document, or
     * NULL with err (and every problem in probs when not NULL). */
    void *(*parse)(const char *path, const char *text, size_t n, PlProblems *probs, PlErr *err);
    /* The name an old name of the kind now has, or NULL (NULL: names never
     * change): pl_doc_find looks for it when no file has the old name. */
    const char *(*renamed)(const char *old);
} PlDocFormat;

/* The state of one parse: a format's parser holds it as its first member. */
struct PlDoc {
    const PlDocFormat *format;
    const char *path;
    int line;     /* the line being read, from 1; a handler may move it to blame another */
    void *out;    /* the document being built: header fields' offsets are in it */
    char **title; /* where the title goes (the format's member) */
    int sections; /* ## lines read */
    PlErr last;   /* the last problem found, at last_line */
    int last_line;
    PlProblems *probs; /* every problem is wanted (--check): the parse goes on past one; NULL: it stops */
    int fatal;         /* the last problem leaves nothing sensible to read on from */
};

/* A problem at d->line: returns PL_EINPUT with it kept in d->last. */
PlStatus pl_doc_fail(PlDoc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A problem after which every later line would be one too (no title, no
 * kind): the parse stops there even when every problem is wanted. */
PlStatus pl_doc_fatal(PlDoc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The status of a check that may have found a problem: kept, and PL_OK so
 * that the parse goes on, when every problem is wanted; else st, to stop it.
 * Out of memory always stops it. */
PlStatus pl_doc_found(PlDoc *d, PlStatus st);

/* Parses text[0..n) with d's format (d->format, d->path, d->title and
 * d->probs set by the caller, the rest zeroed). PL_OK, or the status with
 * err "PATH:LINE: message" (the first problem by line when probs gather
 * them; probs get the problems, or "PATH: out of memory" alone). */
PlStatus pl_doc_parse(PlDoc *d, const char *text, size_t n, PlErr *err);

/* Reads the file at path (at most PL_DOC_MAX_BYTES) into a new buffer of *n
 * bytes, freed by the caller. NULL with err (and in probs when not NULL):
 * cannot open, not a regular file (never waiting on a FIFO), too large, out
 * of memory. */
char *pl_doc_read(const PlDocFormat *f, const char *path, size_t *n, PlProblems *probs, PlErr *err);

/* Reads the file at path and parses it with f->parse: the document, or
 * NULL with err (and in probs when not NULL). */
void *pl_doc_load(const PlDocFormat *f, const char *path, PlProblems *probs, PlErr *err);

/* Out of memory before a parse could begin: said in err and in probs (when
 * not NULL). Returns NULL. */
void *pl_doc_no_memory(const char *path, PlProblems *probs, PlErr *err);

/* The file's name without the folder and the format's suffix, into name. */
void pl_doc_name(const PlDocFormat *f, const char *path, char *name, size_t cap);

/* A copy of s ("" for NULL), or NULL when out of memory. */
char *pl_doc_dupe(const char *s);
/* s without spaces at either end (moved in place at its end). */
char *pl_doc_trim(char *s);
/* Appends a line of text to *text: lines of one paragraph join with a space
 * (a front end wraps them to its width), a blank line ends the paragraph
 * with a newline, and a "- " line is a bullet of its own. PL_OK or
 * PL_ENOMEM (*text unchanged). */
PlStatus pl_doc_append(char **text, const char *line);

/* A header field's handler: the value, copied, into the char * member of
 * d->out at f->offset. */
PlStatus pl_doc_header_text(PlDoc *d, const PlDocField *f, const char *value);

/* Checks that every {placeholder} of text names a quantity and every
 * {? conditional} is well formed (fill.h). */
PlStatus pl_doc_placeholders(PlDoc *d, const char *text);
/* Parses "name=value ..." into a new patch in *out (freed by the caller,
 * NULL before), a problem naming the setting and the value when one is
 * wrong. */
PlStatus pl_doc_settings(PlDoc *d, const char *text, PlSettingsPatch **out);

/* The folders looked in for the format's files, in order, each once and
 * only when it exists: those in the environment variable f->env
 * (':'-separated), then padlab's data folder's SUB (app/dirs.h: by
 * default ~/.local/share/padlab/SUB), then the installed folder and the
 * source tree's. Returns how many (at most max), or -1 when memory ran out. */
int pl_doc_dirs(const PlDocFormat *f, char dirs[][1024], int max);
/* Every file of the format in those folders, by file name, each name once
 * (the first folder wins), sorted: fills paths (up to max), returns how many,
 * or -1 when memory ran out (a folder could not be read for want of it). */
int pl_doc_list(const PlDocFormat *f, char paths[][1024], int max);
/* Finds a file by path, by name ("01-rectangle", with or without the
 * suffix), by an old name (f->renamed: "03-attention" finds 06-attention
 * when no file is called 03-attention) or by name without its number
 * ("rectangle"). 0 with path filled,
 * -1 when there is no such file, or -2 when memory ran out looking. */
int pl_doc_find(const PlDocFormat *f, const char *name, char *path, int cap);

#endif
