/* padlab's folders, and the rest the environment decides for a run: the one
 * place padlab reads XDG_DATA_HOME, XDG_STATE_HOME, XDG_CACHE_HOME, HOME,
 * PADLAB_CACHE and PADLAB_SIMD.
 *
 * Folders follow the XDG Base Directory spec: $XDG_DATA_HOME/padlab (and
 * state, cache) when the variable holds an absolute path; unset, empty or
 * relative, it is ignored and the default under $HOME is used
 * (~/.local/share/padlab, ~/.local/state/padlab, ~/.cache/padlab).
 *
 * The core reads no environment: main hands it the corpus cache and the
 * kernel level once, at start-up (pl_dirs_setup_core). */
#ifndef PL_APP_DIRS_H
#define PL_APP_DIRS_H

#include <stddef.h>

#include "core/corpus.h"
#include "core/err.h"

typedef enum { PL_DIR_DATA, PL_DIR_STATE, PL_DIR_CACHE } PlDirKind;

/* padlab's folder of kind in buf (not created). PL_OK, or PL_EIO with err
 * naming what is missing (neither an absolute XDG_*_HOME nor HOME) or that
 * the name does not fit in cap. */
PlStatus pl_dir_find(PlDirKind kind, char *buf, size_t cap, PlErr *err);

/* The state folder (progress, drill book) in buf, created when missing
 * (0700, folder.h). PL_OK, or PL_EIO with err. */
PlStatus pl_dir_state(char *buf, size_t cap, PlErr *err);

/* The corpus cache the environment asks for: its folder in dir (padlab's
 * cache folder + /corpus; "" when there is none), and what goes through it
 * by default, from PADLAB_CACHE: off or 0 none, all every file, anything
 * else files of 1 MiB or more. The folder is named even when the answer is
 * off, so that a load whose own options ask for the cache (bench's timing)
 * still has one, as before. */
PlCacheUse pl_dirs_cache(char *dir, size_t cap);

/* Hands the core the corpus cache (pl_cache_configure) and the kernel level
 * PADLAB_SIMD names (pl_kernels_choose). main calls it once, before any
 * work and any thread; the test programs too. */
void pl_dirs_setup_core(void);

#endif
