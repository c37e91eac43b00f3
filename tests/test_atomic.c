/* The one writer every file goes through (issues 20 and 22): a symlink is
 * written through and stays a link, a FIFO, a device or a socket is refused and
 * never replaced, a rewritten file keeps its mode, a temporary file is made
 * fresh beside its target and a day-old leftover of a killed writer is
 * swept, and every failure is one line with its reason. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "app/lab/lab.h"
#include "core/atomic.h"
#include "suites.h"

static char *dir;

static void setup(void) { dir = pl_test_tmpdir(); }

static void teardown(void) {
    pl_test_rmtree(dir);
    free(dir);
}

/* dir/name into buf. */
static const char *at(char *buf, size_t cap, const char *name) {
    ck_assert_int_lt(snprintf(buf, cap, "%s/%s", dir, name), (int)cap);
    return buf;
}

static int write_text(FILE *f, void *ctx) { return fputs(ctx, f) < 0 ? -1 : 0; }

static int write_fails(FILE *f, void *ctx) {
    fputs(ctx, f);
    return -1;
}

/* The file's first bytes, NUL-terminated, into buf. */
static const char *contents(const char *path, char *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s cannot be read", path);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* How many names the test folder holds (. and .. aside). */
static int names_in_dir(void) {
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

START_TEST(test_a_new_file_gets_0666_less_the_umask) {
    char p[4200];
    PlErr err;
    mode_t old = umask(027);
    PlStatus st = pl_write_atomic(at(p, sizeof p, "new.txt"), write_text, "hello\n", &err);
    umask(old);
    ck_assert_msg(st == PL_OK, "%s", err.msg);
    struct stat s;
    ck_assert_int_eq(stat(p, &s), 0);
    ck_assert_int_eq(s.st_mode & 07777, 0640);
}
END_TEST

START_TEST(test_a_rewritten_file_keeps_its_mode) {
    char p[4200], buf[64];
    PlErr err;
    at(p, sizeof p, "private.txt");
    pl_test_write_file(p, "old\n", 4);
    ck_assert_int_eq(chmod(p, 0600), 0);
    mode_t old = umask(022);
    PlStatus st = pl_write_atomic(p, write_text, "new\n", &err);
    umask(old);
    ck_assert_msg(st == PL_OK, "%s", err.msg);
    struct stat s;
    ck_assert_int_eq(stat(p, &s), 0);
    ck_assert_int_eq(s.st_mode & 07777, 0600); /* the old writer made it 0644 */
    ck_assert_str_eq(contents(p, buf, sizeof buf), "new\n");
}
END_TEST

START_TEST(test_a_600_session_stays_600_after_a_save) {
    char p[4200], buf[64];
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "builtin:1:200");
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    at(p, sizeof p, "my.session");
    pl_test_write_file(p, "# padlab session\n", 17);
    ck_assert_int_eq(chmod(p, 0600), 0);
    ck_assert_msg(pl_lab_save_session(lab, p, &err) == PL_OK, "%s", err.msg);
    pl_lab_free(lab);
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0600);
    ck_assert_msg(strstr(contents(p, buf, sizeof buf), "corpus = builtin:1:200") != NULL, "%s", buf);
}
END_TEST

START_TEST(test_a_symlink_is_written_through_and_stays_a_link) {
    char link[4200], link2[4200], sub[4200], target[4200], buf[64];
    PlErr err;
    ck_assert_int_eq(mkdir(at(sub, sizeof sub, "sub"), 0755), 0);
    at(target, sizeof target, "sub/real.txt");
    pl_test_write_file(target, "old\n", 4);
    /* a chain: out.txt -> hop.txt -> sub/real.txt, the links relative */
    ck_assert_int_eq(symlink("sub/real.txt", at(link2, sizeof link2, "hop.txt")), 0);
    ck_assert_int_eq(symlink("hop.txt", at(link, sizeof link, "out.txt")), 0);
    ck_assert_msg(pl_write_atomic(link, write_text, "new\n", &err) == PL_OK, "%s", err.msg);
    struct stat s;
    ck_assert_int_eq(lstat(link, &s), 0);
    ck_assert_msg(S_ISLNK(s.st_mode), "out.txt is no longer a link");
    ck_assert_int_eq(lstat(link2, &s), 0);
    ck_assert(S_ISLNK(s.st_mode));
    ck_assert_int_eq(lstat(target, &s), 0);
    ck_assert(S_ISREG(s.st_mode));
    ck_assert_str_eq(contents(target, buf, sizeof buf), "new\n");
    ck_assert_int_eq(names_in_dir(), 3); /* out.txt, hop.txt, sub: no temporary file left */
}
END_TEST

START_TEST(test_a_dangling_symlink_makes_its_target) {
    char link[4200], target[4200], buf[64];
    PlErr err;
    ck_assert_int_eq(symlink("made.txt", at(link, sizeof link, "out.txt")), 0);
    ck_assert_msg(pl_write_atomic(link, write_text, "made\n", &err) == PL_OK, "%s", err.msg);
    struct stat s;
    ck_assert_int_eq(lstat(link, &s), 0);
    ck_assert(S_ISLNK(s.st_mode));
    ck_assert_str_eq(contents(at(target, sizeof target, "made.txt"), buf, sizeof buf), "made\n");
}
END_TEST

/* Refused, PL_EINPUT, one line naming path and what it is; what is there stays. */
static void assert_refused(const char *p, const char *what, mode_t type) {
    PlErr err;
    ck_assert_int_eq(pl_write_atomic(p, write_text, "never\n", &err), PL_EINPUT);
    ck_assert_msg(strstr(err.msg, p) && strstr(err.msg, what), "%s", err.msg);
    ck_assert(!strchr(err.msg, '\n'));
    struct stat s;
    ck_assert_int_eq(lstat(p, &s), 0);
    ck_assert_msg((s.st_mode & S_IFMT) == type, "%s was replaced", p);
}

START_TEST(test_a_fifo_is_refused_without_blocking_and_stays_a_fifo) {
    char p[4200];
    ck_assert_int_eq(mkfifo(at(p, sizeof p, "out.fifo"), 0644), 0);
    assert_refused(p, "is a FIFO", S_IFIFO); /* no reader: an open for writing would wait for ever */
    ck_assert_int_eq(names_in_dir(), 1);
}
END_TEST

START_TEST(test_dev_null_and_a_link_to_it_are_refused_as_devices) {
    char link[4200];
    assert_refused("/dev/null", "/dev/null: is a device", S_IFCHR);
    ck_assert_int_eq(symlink("/dev/null", at(link, sizeof link, "null.csv")), 0);
    PlErr err;
    ck_assert_int_eq(pl_write_atomic(link, write_text, "never\n", &err), PL_EINPUT);
    ck_assert_msg(strstr(err.msg, "is a device"), "%s", err.msg);
    ck_assert_int_eq(names_in_dir(), 1);
}
END_TEST

START_TEST(test_a_socket_is_refused_by_name) {
    char p[4200];
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    at(p, sizeof p, "out.sock");
    if (strlen(p) >= sizeof sa.sun_path) {
        printf("skip: the test folder's name is too long for a socket\n");
        return;
    }
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", p);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_refused(p, "is a socket", S_IFSOCK);
    close(fd);
}
END_TEST

START_TEST(test_a_folder_is_refused_in_one_line) {
    char p[4200];
    PlErr err;
    ck_assert_int_eq(mkdir(at(p, sizeof p, "taken"), 0755), 0);
    ck_assert_int_eq(pl_write_atomic(p, write_text, "x\n", &err), PL_EINPUT);
    ck_assert_msg(strstr(err.msg, p) && strstr(err.msg, "a folder"), "%s", err.msg);
    ck_assert_int_eq(names_in_dir(), 1);
}
END_TEST

START_TEST(test_a_read_only_folder_names_the_folder_and_the_reason) {
    char ro[4200], p[4200];
    PlErr err;
    ck_assert_int_eq(mkdir(at(ro, sizeof ro, "ro"), 0555), 0);
    ck_assert_int_eq(chmod(dir, 0755), 0);
    at(p, sizeof p, "ro/out.svg");
    /* root writes anywhere: drop to nobody (this test runs in its own process) */
    int dropped = geteuid() == 0 && seteuid(65534) == 0;
    if (geteuid() == 0) {
        printf("skip: a read-only folder: running as root and cannot drop privileges\n");
        return;
    }
    PlStatus st = pl_write_atomic(p, write_text, "x\n", &err);
    if (dropped) ck_assert_int_eq(seteuid(0), 0);
    ck_assert_int_eq(st, PL_EIO);
    ck_assert_msg(strstr(err.msg, p) && strstr(err.msg, "in its folder") && strstr(err.msg, strerror(EACCES)), "%s",
                  err.msg);
    ck_assert(!strchr(err.msg, '\n'));
    ck_assert_int_eq(access(p, F_OK), -1);
}
END_TEST

START_TEST(test_the_temporary_file_is_fresh_beside_its_target) {
    char p[4200];
    PlErr err;
    PlAtomic a, b;
    at(p, sizeof p, "out.txt");
    ck_assert_msg(pl_atomic_open(&a, p, 0, &err) == PL_OK, "%s", err.msg);
    ck_assert_msg(pl_atomic_open(&b, p, 0, &err) == PL_OK, "%s", err.msg);
    size_t n = strlen(p);
    ck_assert_msg(strncmp(a.tmp, p, n) == 0 && strncmp(a.tmp + n, ".tmp.", 5) == 0 && strlen(a.tmp + n + 5) == 6, "%s",
                  a.tmp);
    ck_assert_str_ne(a.tmp, b.tmp); /* two writers of one name never share a temporary file */
    struct stat s;
    ck_assert_int_eq(lstat(a.tmp, &s), 0);
    ck_assert(S_ISREG(s.st_mode) && s.st_nlink == 1 && s.st_size == 0);
    fputs("first\n", a.f);
    fputs("second\n", b.f);
    ck_assert_msg(pl_atomic_commit(&b, &err) == PL_OK, "%s", err.msg);
    pl_atomic_abort(&a);
    char buf[64];
    ck_assert_str_eq(contents(p, buf, sizeof buf), "second\n");
    ck_assert_int_eq(names_in_dir(), 1);
    pl_atomic_abort(&a); /* harmless twice */
}
END_TEST

START_TEST(test_a_failed_write_leaves_the_target_and_no_temporary_file) {
    char p[4200], buf[64];
    PlErr err;
    at(p, sizeof p, "keep.txt");
    pl_test_write_file(p, "kept\n", 5);
    ck_assert_int_eq(pl_write_atomic(p, write_fails, "half", &err), PL_EIO);
    ck_assert_msg(strstr(err.msg, p) && strstr(err.msg, "cannot write"), "%s", err.msg);
    ck_assert_str_eq(contents(p, buf, sizeof buf), "kept\n");
    ck_assert_int_eq(names_in_dir(), 1);
}
END_TEST

START_TEST(test_a_new_file_never_replaces_one_that_exists) {
    char p[4200], buf[64];
    PlErr err;
    PlAtomic a;
    at(p, sizeof p, "once.txt");
    ck_assert_msg(pl_atomic_open(&a, p, PL_ATOMIC_NEW, &err) == PL_OK, "%s", err.msg);
    fputs("late\n", a.f);
    pl_test_write_file(p, "first\n", 6); /* another process wins the name meanwhile */
    ck_assert_int_eq(pl_atomic_commit(&a, &err), PL_EIO);
    ck_assert_int_eq(a.taken, 1);
    ck_assert_str_eq(contents(p, buf, sizeof buf), "first\n");
    ck_assert_int_eq(names_in_dir(), 1);
}
END_TEST

/* Makes dir/name, a regular file (or a symlink when link) dated days back
 * from the file system's "now" (the mtime of a file just made). */
static void plant(const char *name, double days, int link) {
    char p[4200], now_p[4200];
    at(p, sizeof p, name);
    if (link) ck_assert_int_eq(symlink("nowhere", p), 0);
    else pl_test_write_file(p, "left\n", 5);
    pl_test_write_file(at(now_p, sizeof now_p, "clock"), "", 0);
    struct stat now;
    ck_assert_int_eq(stat(now_p, &now), 0);
    unlink(now_p);
    struct timespec t[2] = {{now.st_mtime - (time_t)(days * 86400), 0}, {now.st_mtime - (time_t)(days * 86400), 0}};
    ck_assert_int_eq(utimensat(AT_FDCWD, p, t, AT_SYMLINK_NOFOLLOW), 0);
}

static int exists(const char *name) {
    char p[4200];
    struct stat s;
    return lstat(at(p, sizeof p, name), &s) == 0;
}

START_TEST(test_day_old_temporaries_of_the_target_are_swept) {
    char p[4200];
    PlErr err;
    plant("out.svg.tmp.Ab3xYz", 2, 0);   /* a killed writer's, two days old: swept */
    plant("out.svg.tmp.fresh1", 0, 0);   /* another writer's, at work now: kept */
    plant("out.svg.tmp.Lnk123", 2, 1);   /* a symlink: not ours to judge, kept */
    plant("other.svg.tmp.Ab3xYz", 2, 0); /* another target's: kept */
    plant("out.svg.tmp.Ab3xYz7", 2, 0);  /* not the temporary pattern: kept */
    plant("out.svg.tmp", 2, 0);          /* the old fixed name: not ours any more, kept */
    ck_assert_msg(pl_write_atomic(at(p, sizeof p, "out.svg"), write_text, "<svg/>\n", &err) == PL_OK, "%s", err.msg);
    ck_assert(!exists("out.svg.tmp.Ab3xYz"));
    ck_assert(exists("out.svg.tmp.fresh1"));
    ck_assert(exists("out.svg.tmp.Lnk123"));
    ck_assert(exists("other.svg.tmp.Ab3xYz"));
    ck_assert(exists("out.svg.tmp.Ab3xYz7"));
    ck_assert(exists("out.svg.tmp"));
    ck_assert_int_eq(names_in_dir(), 6);
}
END_TEST

Suite *atomic_suite(void) {
    Suite *s = suite_create("atomic");
    TCase *tc = tcase_create("writing");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_a_new_file_gets_0666_less_the_umask);
    tcase_add_test(tc, test_a_rewritten_file_keeps_its_mode);
    tcase_add_test(tc, test_a_600_session_stays_600_after_a_save);
    tcase_add_test(tc, test_a_symlink_is_written_through_and_stays_a_link);
    tcase_add_test(tc, test_a_dangling_symlink_makes_its_target);
    tcase_add_test(tc, test_a_fifo_is_refused_without_blocking_and_stays_a_fifo);
    tcase_add_test(tc, test_dev_null_and_a_link_to_it_are_refused_as_devices);
    tcase_add_test(tc, test_a_socket_is_refused_by_name);
    tcase_add_test(tc, test_a_folder_is_refused_in_one_line);
    tcase_add_test(tc, test_a_read_only_folder_names_the_folder_and_the_reason);
    tcase_add_test(tc, test_the_temporary_file_is_fresh_beside_its_target);
    tcase_add_test(tc, test_a_failed_write_leaves_the_target_and_no_temporary_file);
    tcase_add_test(tc, test_a_new_file_never_replaces_one_that_exists);
    tcase_add_test(tc, test_day_old_temporaries_of_the_target_are_swept);
    suite_add_tcase(s, tc);
    return s;
}
