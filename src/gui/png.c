/* PNG files through libpng: frames written as RGB, heat grids encoded into
 * memory for the SVG writer, and a reader for the tests. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "core/atomic.h"

typedef struct {
    unsigned char *buf;
    size_t len, cap;
    int failed;
} Mem;

static void mem_write(png_structp p, png_bytep data, png_size_t n) {
    Mem *m = png_get_io_ptr(p);
    if (m->failed) return;
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 4096;
        while (cap < m->len + n) cap *= 2;
        unsigned char *b = realloc(m->buf, cap);
        if (!b) {
            m->failed = 1;
            return;
        }
        m->buf = b, m->cap = cap;
    }
    memcpy(m->buf + m->len, data, n);
    m->len += n;
}

static void mem_flush(png_structp p) { (void)p; }

/* libpng's failures come back as -1 from encode, and the writer says why
 * in one line: nothing of libpng's own goes to stderr. */
static void quiet_error(png_structp p, png_const_charp msg) {
    (void)msg;
    png_longjmp(p, 1);
}

static void quiet_warning(png_structp p, png_const_charp msg) { (void)p, (void)msg; }

/* Writes through png's own FILE or through mem; 0 or -1. */
static int encode(FILE *f, Mem *m, const uint32_t *px, int w, int h, int stride) {
    png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, quiet_error, quiet_warning);
    png_infop info = p ? png_create_info_struct(p) : NULL;
    unsigned char *row = malloc((size_t)w * 3);
    if (!p || !info || !row) {
        png_destroy_write_struct(&p, info ? &info : NULL);
        free(row);
        return -1;
    }
    if (setjmp(png_jmpbuf(p))) {
        png_destroy_write_struct(&p, &info);
        free(row);
        return -1;
    }
    if (f) png_init_io(p, f);
    else png_set_write_fn(p, m, mem_write, mem_flush);
    png_set_IHDR(p, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(p, 6);
    png_write_info(p, info);
    for (int y = 0; y < h; y++) {
        const uint32_t *src = (const uint32_t *)((const unsigned char *)px + (size_t)y * stride);
        for (int x = 0; x < w; x++) {
            row[3 * x] = (unsigned char)(src[x] >> 16), row[3 * x + 1] = (unsigned char)(src[x] >> 8),
                    row[3 * x + 2] = (unsigned char)src[x];
        }
        png_write_row(p, row);
    }
    png_write_end(p, info);
    png_destroy_write_struct(&p, &info);
    free(row);
    return m && m->failed ? -1 : 0;
}

int gui_png_write(const char *path, const uint32_t *px, int w, int h, int stride, char *why, int cap) {
    PlAtomic a;
    PlErr err;
    if (pl_atomic_open(&a, path, 0, &err)) return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    if (encode(a.f, NULL, px, w, h, stride) && !ferror(a.f)) {
        pl_atomic_abort(&a); /* libpng ran out of memory; a failed write is the commit's to report */
        return snprintf(why, (size_t)cap, "%s: out of memory for the PNG", path), -1;
    }
    if (pl_atomic_commit(&a, &err)) return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    return 0;
}

int gui_png_encode(const uint32_t *px, int w, int h, int stride, unsigned char **out, size_t *len) {
    Mem m = {0};
    if (encode(NULL, &m, px, w, h, stride)) {
        free(m.buf);
        return -1;
    }
    *out = m.buf, *len = m.len;
    return 0;
}

uint32_t *gui_png_read(const char *path, int *w, int *h) {
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) return NULL;
    img.format = PNG_FORMAT_BGRA; /* little-endian 0xAARRGGBB words */
    uint32_t *px = malloc(PNG_IMAGE_SIZE(img));
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
        free(px);
        png_image_free(&img);
        return NULL;
    }
    *w = (int)img.width, *h = (int)img.height;
    return px;
}
