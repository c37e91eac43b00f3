/* The join address as a QR code in half blocks (class_qr.h). */
#include <qrencode.h>

#include "class_qr.h"

#define QUIET 2

/* Whether module (x, y) is dark; the quiet zone around the code is light. */
static int dark(const QRcode *q, int x, int y) {
    x -= QUIET, y -= QUIET;
    return x >= 0 && y >= 0 && x < q->width && y < q->width && (q->data[y * q->width + x] & 1);
}

int cli_class_qr(FILE *f, const char *text, int indent) {
    QRcode *q = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1);
    if (!q) return -1;
    int w = q->width + 2 * QUIET;
    for (int y = 0; y < w; y += 2) {
        fprintf(f, "%*s\033[30;47m", indent, "");
        for (int x = 0; x < w; x++) {
            int top = dark(q, x, y), bottom = dark(q, x, y + 1);
            fputs(top && bottom ? "\u2588" : top ? "\u2580" : bottom ? "\u2584" : " ", f);
        }
        fputs("\033[0m\n", f);
    }
    QRcode_free(q);
    return 0;
}
