/* A QR code of the join address, as modules: the one encoding the
 * terminal's projector and the window both draw (libqrencode; a padlab
 * built without it has none). */
#ifndef PL_APP_CLASS_QR_H
#define PL_APP_CLASS_QR_H

#define PL_QR_MAX 177 /* the widest code, version 40 */

/* The code of text: *width modules a side, dark[y * *width + x] 1 for a
 * dark module (no quiet zone). 0, or -1 when padlab was built without
 * libqrencode or the text does not fit. */
int pl_class_qr(const char *text, unsigned char *dark, int cap, int *width);

#endif
