/* Making a folder and the folders above it (mkdir -p), for the files padlab
 * keeps: the corpus cache here in the core, the state folder in the app
 * (src/app/dirs.c). One function, so that every folder padlab makes gets
 * the same mode and the same one line when it cannot be made. */
#ifndef PL_FOLDER_H
#define PL_FOLDER_H

#include "err.h"

/* Makes path and every missing folder above it, each 0700 (before the
 * umask); a folder that already exists is fine. Returns PL_OK, or PL_EIO
 * with err naming the folder that could not be made and why (a file in the
 * way, no permission, a name too long). */
PlStatus pl_folder_make(const char *path, PlErr *err);

#endif
