/* Running a candidate's program (run.h). */
#include "run.h"

#include "core/stops.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The signal that stopped a run (INT, TERM, HUP, QUIT while it ran), or 0. */
static volatile sig_atomic_t stopped_by;
static void on_signal(int sig) { stopped_by = sig; }
int pl_krun_stopped(void) { return stopped_by; }

/* Every process padlab is parent of now: the program's own children that
 * outlived it (a new session, a double fork) come back to padlab, its
 * subreaper, when their parent ends. Killed and reaped; how many. */
static int kill_strays(void) {
    DIR *d = opendir("/proc");
    int n = 0;
    pid_t me = getpid();
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[64], buf[512];
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f) fclose(f);
        buf[got] = '\0';
        char *close_paren = strrchr(buf, ')');
        int ppid = 0;
        if (!close_paren || sscanf(close_paren + 1, " %*c %d", &ppid) != 1 || ppid != me) continue;
        pid_t pid = (pid_t)atoi(e->d_name);
        kill(pid, SIGKILL), waitpid(pid, NULL, 0), n++;
    }
    if (d) closedir(d);
    return n;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* In the child: its own group, the case on stdin, stdout into the pipe,
 * the signals as they were. */
static void child(const char *command, const char *case_path, int out_fd) {
    setpgid(0, 0);
    pl_stops_default();
    int in = open(case_path, O_RDONLY);
    if (in < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0) _exit(127);
    close(in), close(out_fd);
    signal(SIGPIPE, SIG_DFL);
    setenv("PADLAB_KATA_CASE", case_path, 1);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
}

/* Reads the child's output until it closes it, the time is up or it is too
 * long. */
static PlStatus collect(int fd, double deadline, PlKRun *r, PlErr *err) {
    size_t cap = 1 << 16;
    if (!(r->out = malloc(cap + 1))) return pl_err_set(err, PL_ENOMEM, "out of memory");
    for (;;) {
        double left = deadline - now();
        if (left <= 0) return r->timed_out = 1, PL_OK;
        struct pollfd p = {fd, POLLIN, 0};
        int k = poll(&p, 1, (int)(left * 1000) + 1);
        if (k < 0 && errno == EINTR && stopped_by) return r->timed_out = 1, PL_OK;
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) continue;
        if (r->n == cap) {
            if (cap >= PL_KRUN_MAX_OUT) return r->too_long = 1, PL_OK;
            char *o = realloc(r->out, cap * 2 + 1);
            if (!o) return pl_err_set(err, PL_ENOMEM, "out of memory");
            r->out = o, cap *= 2;
        }
        ssize_t got = read(fd, r->out + r->n, cap - r->n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return PL_OK;
        r->n += (size_t)got;
    }
}

/* Waits for pid until the deadline; 1 when it was reaped. */
static int reap(pid_t pid, double deadline, int *wstatus) {
    for (;;) {
        pid_t w = waitpid(pid, wstatus, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR)) return w == pid;
        if (now() >= deadline || stopped_by) return 0;
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

PlStatus pl_krun(const char *command, const char *case_path, int seconds, PlKRun *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    int fds[2];
    if (stopped_by) return pl_err_set(err, PL_EIO, "stopped by signal %d", (int)stopped_by);
    if (pipe(fds) < 0) return pl_err_set(err, PL_EIO, "cannot make a pipe: %s", strerror(errno));
#ifdef PR_SET_CHILD_SUBREAPER
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* what the program leaves running comes back to padlab */
#endif
    struct sigaction old[PL_STOP_SIGNALS];
    pl_stops_catch(on_signal, old);
    pid_t pid = fork();
    if (pid < 0) {
        pl_stops_release(old);
        close(fds[0]), close(fds[1]);
        return pl_err_set(err, PL_EIO, "cannot start the program: %s", strerror(errno));
    }
    if (pid == 0) child(command, case_path, fds[1]);
    setpgid(pid, pid); /* the child does it too: whichever runs first */
    close(fds[1]);
    double deadline = now() + seconds;
    PlStatus st = collect(fds[0], deadline, r, err);
    close(fds[0]);
    int ws = 0, done = !st && !r->timed_out && !r->too_long && reap(pid, deadline, &ws);
    if (!done) {
        if (!st && !r->too_long) r->timed_out = 1;
        kill(-pid, SIGKILL);
        waitpid(pid, &ws, 0);
    }
    kill(-pid, SIGKILL); /* what it started in its group and left behind */
    kill_strays();       /* and what left the group (setsid, a double fork) */
    pl_stops_release(old);
    if (r->out) r->out[r->n] = '\0';
    r->exited = WIFEXITED(ws), r->status = r->exited ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
    if (st) free(r->out), r->out = NULL;
    return st;
}
