/* The join address as a QR code in half blocks (class_qr.h). */
#include "class_qr.h"

#include "app/class/qr.h"

#define QUIET 4 /* the quiet zone round the code, in modules: the standard's; with less, readers miss it */

/* Whether module (x, y) is dark; the quiet zone around the code is light. */
static int dark(const unsigned char *m, int n, int x, int y) {
    x -= QUIET, y -= QUIET;
    return x >= 0 && y >= 0 && x < n && y < n && m[y * n + x];
}

int cli_class_qr(FILE *f, const char *text, int indent) {
    static unsigned char m[PL_QR_MAX * PL_QR_MAX];
    int n;
    if (pl_class_qr(text, m, (int)sizeof m, &n)) return -1;
    int w = n + 2 * QUIET;
    for (int y = 0; y < w; y += 2) {
        fprintf(f, "%*s\033[30;47m", indent, "");
        for (int x = 0; x < w; x++) {
            int top = dark(m, n, x, y), bottom = dark(m, n, x, y + 1);
            fputs(top && bottom ? "\u2588" : top ? "\u2580" : bottom ? "\u2584" : " ", f);
        }
        fputs("\033[0m\n", f);
    }
    return 0;
}
