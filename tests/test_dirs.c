/* padlab's folders (app/dirs.h) and the one mkdir -p (core/folder.h):
 * XDG_*_HOME is used only when it is an absolute path, HOME is the
 * fallback, PADLAB_CACHE and PADLAB_SIMD reach the core through main's one
 * call. Each test runs in its own process: its environment is its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/dirs.h"
#include "app/teach/doc.h"
#include "app/teach/progress.h"
#include "app/teach/renamed.h"
#include "core/corpus_cache.h"
#include "core/folder.h"
#include "core/kernels.h"
#include "suites.h"

/* padlab's folder of kind, asserted found. */
static const char *found(PlDirKind kind) {
    static char buf[4096];
    PlErr err = {{0}};
    ck_assert_msg(pl_dir_find(kind, buf, sizeof buf, &err) == PL_OK, "%s", err.msg);
    return buf;
}

START_TEST(test_an_absolute_xdg_home_is_used) {
    setenv("HOME", "/home/ada", 1);
    setenv("XDG_DATA_HOME", "/srv/data", 1);
    setenv("XDG_STATE_HOME", "/srv/state", 1);
    setenv("XDG_CACHE_HOME", "/srv/cache", 1);
    ck_assert_str_eq(found(PL_DIR_DATA), "/srv/data/padlab");
    ck_assert_str_eq(found(PL_DIR_STATE), "/srv/state/padlab");
    ck_assert_str_eq(found(PL_DIR_CACHE), "/srv/cache/padlab");
}
END_TEST

START_TEST(test_unset_xdg_homes_fall_back_to_home) {
    setenv("HOME", "/home/ada", 1);
    unsetenv("XDG_DATA_HOME"), unsetenv("XDG_STATE_HOME"), unsetenv("XDG_CACHE_HOME");
    ck_assert_str_eq(found(PL_DIR_DATA), "/home/ada/.local/share/padlab");
    ck_assert_str_eq(found(PL_DIR_STATE), "/home/ada/.local/state/padlab");
    ck_assert_str_eq(found(PL_DIR_CACHE), "/home/ada/.cache/padlab");
}
END_TEST

/* The spec: a relative path in these variables is invalid and is ignored. */
START_TEST(test_a_relative_xdg_home_is_ignored) {
    setenv("HOME", "/home/ada", 1);
    setenv("XDG_DATA_HOME", "data", 1);
    setenv("XDG_STATE_HOME", "./state", 1);
    setenv("XDG_CACHE_HOME", "cache/", 1);
    ck_assert_str_eq(found(PL_DIR_DATA), "/home/ada/.local/share/padlab");
    ck_assert_str_eq(found(PL_DIR_STATE), "/home/ada/.local/state/padlab");
    ck_assert_str_eq(found(PL_DIR_CACHE), "/home/ada/.cache/padlab");
}
END_TEST

START_TEST(test_an_empty_xdg_home_is_ignored) {
    setenv("HOME", "/home/ada", 1);
    setenv("XDG_DATA_HOME", "", 1);
    setenv("XDG_STATE_HOME", "", 1);
    setenv("XDG_CACHE_HOME", "", 1);
    ck_assert_str_eq(found(PL_DIR_DATA), "/home/ada/.local/share/padlab");
    ck_assert_str_eq(found(PL_DIR_STATE), "/home/ada/.local/state/padlab");
    ck_assert_str_eq(found(PL_DIR_CACHE), "/home/ada/.cache/padlab");
}
END_TEST

START_TEST(test_no_home_and_no_usable_xdg_home_names_both) {
    unsetenv("HOME");
    setenv("XDG_STATE_HOME", "state", 1);
    unsetenv("XDG_DATA_HOME");
    char buf[4096];
    PlErr err = {{0}};
    ck_assert_int_eq(pl_dir_find(PL_DIR_STATE, buf, sizeof buf, &err), PL_EIO);
    ck_assert_str_eq(err.msg, "no state folder: neither XDG_STATE_HOME (an absolute path) nor HOME is set");
    ck_assert_int_eq(pl_dir_state(buf, sizeof buf, &err), PL_EIO);
    ck_assert_str_eq(err.msg, "no state folder: neither XDG_STATE_HOME (an absolute path) nor HOME is set");
    setenv("HOME", "", 1);
    ck_assert_int_eq(pl_dir_find(PL_DIR_DATA, buf, sizeof buf, &err), PL_EIO);
    ck_assert_str_eq(err.msg, "no data folder: neither XDG_DATA_HOME (an absolute path) nor HOME is set");
}
END_TEST

START_TEST(test_a_name_too_long_for_the_buffer_is_an_error) {
    setenv("XDG_CACHE_HOME", "/a/rather/long/folder", 1);
    char buf[16];
    PlErr err = {{0}};
    ck_assert_int_eq(pl_dir_find(PL_DIR_CACHE, buf, sizeof buf, &err), PL_EIO);
    ck_assert_str_eq(err.msg, "no cache folder: its name is too long");
}
END_TEST

/* ---- the corpus cache and the kernel level, handed to the core ---- */

START_TEST(test_padlab_cache_says_what_goes_through_the_cache) {
    setenv("XDG_CACHE_HOME", "/srv/cache", 1);
    char dir[4096];
    unsetenv("PADLAB_CACHE");
    ck_assert_int_eq(pl_dirs_cache(dir, sizeof dir), PL_CACHE_LARGE);
    ck_assert_str_eq(dir, "/srv/cache/padlab/corpus");
    setenv("PADLAB_CACHE", "all", 1);
    ck_assert_int_eq(pl_dirs_cache(dir, sizeof dir), PL_CACHE_ALL);
    setenv("PADLAB_CACHE", "on", 1);
    ck_assert_int_eq(pl_dirs_cache(dir, sizeof dir), PL_CACHE_LARGE);
    setenv("PADLAB_CACHE", "0", 1);
    ck_assert_int_eq(pl_dirs_cache(dir, sizeof dir), PL_CACHE_OFF);
    /* off wins over a cache folder that is there; the folder is still named
     * for a load whose own options ask for the cache */
    setenv("PADLAB_CACHE", "off", 1);
    ck_assert_int_eq(pl_dirs_cache(dir, sizeof dir), PL_CACHE_OFF);
    ck_assert_str_eq(dir, "/srv/cache/padlab/corpus");
    pl_dirs_setup_core();
    ck_assert_int_eq(pl_cache_wanted(1u << 30, PL_CACHE_DEFAULT), 0);
    ck_assert_int_eq(pl_cache_wanted(10, PL_CACHE_ALL), 1);
    PlCacheKey key = {0x1234, 99, 100, 7};
    ck_assert(pl_cache_path(&key, dir, sizeof dir));
    ck_assert_str_eq(dir, "/srv/cache/padlab/corpus/0000000000001234-99-w100.corpus");
}
END_TEST

START_TEST(test_no_cache_folder_means_no_cache) {
    unsetenv("HOME");
    setenv("XDG_CACHE_HOME", "relative", 1);
    setenv("PADLAB_CACHE", "all", 1);
    char dir[4096];
    ck_assert_int_eq(pl_dirs_cache(dir, sizeof dir), PL_CACHE_ALL);
    ck_assert_str_eq(dir, "");
    pl_dirs_setup_core();
    PlCacheKey key = {1, 2, 3, 4};
    ck_assert(!pl_cache_path(&key, dir, sizeof dir));
}
END_TEST

START_TEST(test_padlab_simd_reaches_the_core) {
    setenv("PADLAB_SIMD", "baseline", 1);
    pl_dirs_setup_core();
    int forced;
    ck_assert_int_eq(pl_simd_level(&forced), PL_SIMD_BASELINE);
    ck_assert_int_eq(forced, 1);
    ck_assert_ptr_eq(pl_kernels(), &pl_kernels_baseline);
}
END_TEST

/* ---- mkdir -p ---- */

static int mode_of(const char *path) {
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    return (int)(st.st_mode & 0777);
}

START_TEST(test_making_a_folder_makes_the_ones_above_it_0700) {
    umask(022);
    char *tmp = pl_test_tmpdir(), path[4200], mid[4200];
    snprintf(path, sizeof path, "%s/a/b//c", tmp);
    snprintf(mid, sizeof mid, "%s/a", tmp);
    PlErr err = {{0}};
    ck_assert_msg(pl_folder_make(path, &err) == PL_OK, "%s", err.msg);
    ck_assert_int_eq(mode_of(path), 0700);
    ck_assert_int_eq(mode_of(mid), 0700);
    ck_assert_msg(pl_folder_make(path, &err) == PL_OK, "%s", err.msg); /* already there */
    ck_assert_msg(pl_folder_make(mid, &err) == PL_OK, "%s", err.msg);
    pl_test_rmtree(tmp);
    free(tmp);
}
END_TEST

START_TEST(test_a_file_in_the_way_is_named) {
    char *tmp = pl_test_tmpdir(), file[4200], path[4300], want[4400];
    snprintf(file, sizeof file, "%s/f", tmp);
    pl_test_write_file(file, "x", 1);
    PlErr err = {{0}};
    snprintf(want, sizeof want, "%s: cannot make the folder: a file is in the way", file);
    ck_assert_int_eq(pl_folder_make(file, &err), PL_EIO);
    ck_assert_str_eq(err.msg, want);
    snprintf(path, sizeof path, "%s/inside", file); /* the file above is named, not the folder asked for */
    ck_assert_int_eq(pl_folder_make(path, &err), PL_EIO);
    ck_assert_str_eq(err.msg, want);
    setenv("XDG_STATE_HOME", file, 1); /* the state folder's parent is that file */
    ck_assert_int_eq(pl_dir_state(path, sizeof path, &err), PL_EIO);
    ck_assert_str_eq(err.msg, want);
    pl_test_rmtree(tmp);
    free(tmp);
}
END_TEST

START_TEST(test_the_state_folder_is_made_when_missing) {
    char *tmp = pl_test_tmpdir(), buf[4096], want[4200];
    setenv("XDG_STATE_HOME", tmp, 1);
    PlErr err = {{0}};
    ck_assert_msg(pl_dir_state(buf, sizeof buf, &err) == PL_OK, "%s", err.msg);
    snprintf(want, sizeof want, "%s/padlab", tmp);
    ck_assert_str_eq(buf, want);
    ck_assert_int_eq(mode_of(buf), 0700);
    pl_test_rmtree(tmp);
    free(tmp);
}
END_TEST

/* ---- the callers: a relative XDG_*_HOME was once taken as given ---- */

START_TEST(test_lessons_are_not_looked_for_under_a_relative_xdg_data_home) {
    char *tmp = pl_test_tmpdir(), rel[4200], home[4200], user[4300];
    snprintf(rel, sizeof rel, "%s/data/padlab/lessons", tmp);
    snprintf(home, sizeof home, "%s/home", tmp);
    snprintf(user, sizeof user, "%s/.local/share/padlab/lessons", home);
    ck_assert_int_eq(pl_folder_make(rel, NULL), PL_OK);
    ck_assert_int_eq(pl_folder_make(user, NULL), PL_OK);
    ck_assert_int_eq(chdir(tmp), 0);
    setenv("XDG_DATA_HOME", "data", 1); /* data/padlab/lessons exists from here, and is ignored */
    setenv("HOME", home, 1);
    unsetenv("PADLAB_TEST_LESSONS");
    char dirs[4][1024];
    PlDocFormat f = {.env = "PADLAB_TEST_LESSONS", .sub = "lessons", .installed = "/nonexistent/a", .source = "/nonexistent/b"};
    int n = pl_doc_dirs(&f, dirs, 4);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(dirs[0], user);
    unsetenv("HOME"); /* no data folder: the others are still looked in */
    f.installed = user;
    ck_assert_int_eq(pl_doc_dirs(&f, dirs, 4), 1);
    ck_assert_str_eq(dirs[0], user);
    pl_test_rmtree(tmp);
    free(tmp);
}
END_TEST

/* An install over an older padlab leaves its lessons of old names in the
 * installed folder: they are not listed, and their old name finds the
 * lesson it became; the same name in the user's own folder is theirs. */
static void touch_lesson(const char *dir, const char *name) {
    char path[4400];
    snprintf(path, sizeof path, "%s/%s.lesson", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# a lesson\n", f);
    fclose(f);
}

START_TEST(test_lessons_an_older_install_left_under_old_names_are_not_listed) {
    char *tmp = pl_test_tmpdir(), inst[4200], user[4200], path[1024];
    snprintf(inst, sizeof inst, "%s/share/padlab/lessons", tmp);
    snprintf(user, sizeof user, "%s/mine", tmp);
    ck_assert_int_eq(pl_folder_make(inst, NULL), PL_OK);
    ck_assert_int_eq(pl_folder_make(user, NULL), PL_OK);
    touch_lesson(inst, "03-mask"), touch_lesson(inst, "06-attention");
    touch_lesson(inst, "02-mask"), touch_lesson(inst, "03-attention"); /* an older padlab's */
    setenv("PADLAB_TEST_LESSONS", "/nonexistent", 1);
    unsetenv("XDG_DATA_HOME"), unsetenv("HOME");
    PlDocFormat f = {.env = "PADLAB_TEST_LESSONS",
                     .sub = "lessons",
                     .installed = inst,
                     .source = "/nonexistent/b",
                     .suffix = ".lesson",
                     .renamed = pl_lesson_renamed};
    char paths[8][1024];
    ck_assert_int_eq(pl_doc_list(&f, paths, 8), 2);
    ck_assert_str_eq(strrchr(paths[0], '/'), "/03-mask.lesson");
    ck_assert_str_eq(strrchr(paths[1], '/'), "/06-attention.lesson");
    ck_assert_int_eq(pl_doc_find(&f, "03-attention", path, sizeof path), 0);
    ck_assert_str_eq(strrchr(path, '/'), "/06-attention.lesson");
    touch_lesson(user, "02-mask"); /* a teacher's own, in their folder: listed and found as it is */
    setenv("PADLAB_TEST_LESSONS", user, 1);
    ck_assert_int_eq(pl_doc_list(&f, paths, 8), 3);
    ck_assert_int_eq(pl_doc_find(&f, "02-mask", path, sizeof path), 0);
    ck_assert_str_eq(path, strcat(user, "/02-mask.lesson"));
    unsetenv("PADLAB_TEST_LESSONS");
    pl_test_rmtree(tmp);
    free(tmp);
}
END_TEST

START_TEST(test_progress_is_not_kept_under_a_relative_xdg_state_home) {
    char *tmp = pl_test_tmpdir(), want[4200];
    ck_assert_int_eq(chdir(tmp), 0);
    setenv("XDG_STATE_HOME", "state", 1);
    setenv("HOME", tmp, 1);
    PlProgressBook *b = malloc(sizeof *b);
    PlErr err = {{0}};
    ck_assert_msg(pl_progress_load(b, &err) == PL_OK, "%s", err.msg);
    snprintf(want, sizeof want, "%s/.local/state/padlab/progress", tmp);
    ck_assert_str_eq(b->path, want);
    struct stat st;
    ck_assert_int_ne(stat("state", &st), 0); /* nothing made under the relative name */
    pl_progress_done(b);
    free(b);
    pl_test_rmtree(tmp);
    free(tmp);
}
END_TEST

Suite *dirs_suite(void) {
    Suite *s = suite_create("dirs");
    TCase *tc = tcase_create("finding");
    tcase_add_test(tc, test_an_absolute_xdg_home_is_used);
    tcase_add_test(tc, test_unset_xdg_homes_fall_back_to_home);
    tcase_add_test(tc, test_a_relative_xdg_home_is_ignored);
    tcase_add_test(tc, test_an_empty_xdg_home_is_ignored);
    tcase_add_test(tc, test_no_home_and_no_usable_xdg_home_names_both);
    tcase_add_test(tc, test_a_name_too_long_for_the_buffer_is_an_error);
    suite_add_tcase(s, tc);
    tc = tcase_create("core");
    tcase_add_test(tc, test_padlab_cache_says_what_goes_through_the_cache);
    tcase_add_test(tc, test_no_cache_folder_means_no_cache);
    tcase_add_test(tc, test_padlab_simd_reaches_the_core);
    suite_add_tcase(s, tc);
    tc = tcase_create("making");
    tcase_add_test(tc, test_making_a_folder_makes_the_ones_above_it_0700);
    tcase_add_test(tc, test_a_file_in_the_way_is_named);
    tcase_add_test(tc, test_the_state_folder_is_made_when_missing);
    suite_add_tcase(s, tc);
    tc = tcase_create("callers");
    tcase_add_test(tc, test_lessons_are_not_looked_for_under_a_relative_xdg_data_home);
    tcase_add_test(tc, test_progress_is_not_kept_under_a_relative_xdg_state_home);
    tcase_add_test(tc, test_lessons_an_older_install_left_under_old_names_are_not_listed);
    suite_add_tcase(s, tc);
    return s;
}
