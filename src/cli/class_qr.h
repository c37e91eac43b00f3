/* A QR code of the join address, drawn with half blocks (two modules a
 * character cell, dark on light with its quiet zone), for the projector. */
#ifndef PL_CLI_CLASS_QR_H
#define PL_CLI_CLASS_QR_H

#include <stdio.h>

/* Writes the code of text to f, each line after indent spaces. Returns 0, or
 * -1 when padlab was built without libqrencode or the text does not fit. */
int cli_class_qr(FILE *f, const char *text, int indent);

#endif
