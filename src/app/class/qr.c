/* The join address as QR modules (qr.h), by libqrencode. */
#include <qrencode.h>

#include "qr.h"

int pl_class_qr(const char *text, unsigned char *dark, int cap, int *width) {
    QRcode *q = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1);
    if (!q) return -1;
    int w = q->width, ok = w * w <= cap;
    for (int i = 0; ok && i < w * w; i++) dark[i] = q->data[i] & 1;
    QRcode_free(q);
    *width = w;
    return ok ? 0 : -1;
}
