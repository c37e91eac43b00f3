/* The class session under load, on loopback: 300 simulated students (a
 * child process, a thread each) join, then answer every question of a
 * lesson three times over (each answer replacing the last); the teacher's
 * side (this process: the server, and a projector thread that redraws the
 * real screen, src/cli/class_screen.c, whenever the session changes, checking
 * every 25 ms as padlab lesson --class does) reveals each question.
 *
 * It reports: answers lost or counted twice (the count and the tally against
 * what the students were told was taken), how long after an answer's reply
 * the projector drew a count that holds it (the worst), how long a reveal
 * takes from the key to the frame drawn, the lab's key latency (maxlen one
 * step, to the batch and attention views' results computed) alone and
 * while the class votes, and the CPU of each side.
 *
 *   make bench/class_load && bench/class_load [LESSON] [STUDENTS] [PASSES]
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/class/lesson.h"
#include "app/class/server.h"
#include "cli/class_screen.h"

#define MAX_STUDENTS 512
#define MAX_ACKS (MAX_STUDENTS * PL_CLASS_MAX_QUESTIONS * 8)

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One HTTP/1.0 request on loopback; returns the status, the reply in out. */
static int http(int port, const char *method, const char *path, const char *cookie, const char *body, char *out,
                int cap) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa)) return fd >= 0 ? close(fd), -1 : -1;
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "%s %s HTTP/1.0\r\nHost: x\r\nAccept: application/json\r\n%s%s%sContent-Type: "
                     "application/x-www-form-urlencoded\r\nContent-Length: %zu\r\n\r\n%s",
                     method, path, cookie ? "Cookie: padlab_class=" : "", cookie ? cookie : "", cookie ? "\r\n" : "",
                     body ? strlen(body) : 0, body ? body : "");
    if (write(fd, req, (size_t)n) != n) return close(fd), -1;
    int got = 0;
    for (ssize_t r; got < cap - 1 && (r = read(fd, out + got, (size_t)(cap - 1 - got))) > 0;) got += (int)r;
    out[got] = 0;
    close(fd);
    int status = -1;
    sscanf(out, "HTTP/1.%*d %d", &status);
    return status;
}

typedef struct {
    int port, id, q, passes, nq;
    char token[40];
} Student;

static double *acks; /* shared with the parent: the time each answer's reply came, 0 for none */
static int *taken;   /* [q][student]: the last answer the server took, + 1 */
static int failures;

/* Student s's answer to question q on pass p: a spread of numbers or letters. */
static void answer_of(int s, int q, int p, int choose, char *out) {
    if (choose) sprintf(out, "%c", 'a' + (s + p) % 3);
    else sprintf(out, "%d", (s * 7 + p * 13 + q) % 50);
}

static void *student_run(void *arg) {
    Student *st = arg;
    char reply[4096], body[64], a[16];
    for (int p = 0; p < st->passes; p++) {
        if (http(st->port, "GET", "/state", st->token, NULL, reply, sizeof reply) != 200) continue;
        int is_choose = strstr(reply, "\"kind\": \"choose\"") != NULL;
        answer_of(st->id, st->q, p, is_choose, a);
        snprintf(body, sizeof body, "q=%d&a=%s", st->q, a);
        int rc = http(st->port, "POST", "/answer", st->token, body, reply, sizeof reply);
        if (rc == 200) {
            acks[(st->q * MAX_STUDENTS + st->id) * 8 + p] = now_ms();
            taken[st->q * MAX_STUDENTS + st->id] = p + 1;
        } else __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

/* The students' side, in the child: join, then each question on the
 * parent's word (a byte on go), answering passes times, then a byte on done. */
static int students(int port, int n, int nq, int passes, int go, int done) {
    static Student st[MAX_STUDENTS];
    static pthread_t th[MAX_STUDENTS];
    char reply[4096];
    for (int i = 0; i < n; i++) {
        st[i] = (Student){.port = port, .id = i, .passes = passes, .nq = nq};
        if (http(port, "POST", "/join", NULL, "code=BENCH", reply, sizeof reply) != 200) return 1;
        char *t = strstr(reply, "\"token\": \"");
        if (!t) return 1;
        memcpy(st[i].token, t + 10, 32);
    }
    char b;
    for (int q = 0; q < nq && read(go, &b, 1) == 1; q++) {
        for (int i = 0; i < n; i++) st[i].q = q, pthread_create(&th[i], NULL, student_run, &st[i]);
        for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
        if (write(done, "d", 1) != 1) return 1;
    }
    return failures ? 2 : 0;
}

/* ---- the teacher's side ---- */

typedef struct {
    PlClass *c;
    volatile int stop;
    double frames[200000];
    int counts[200000];
    int nframes;
    double draw_worst;
    FILE *sink;
    int qi;
} Projector;

static void *projector_run(void *arg) {
    Projector *p = arg;
    unsigned shown = ~0u;
    while (!p->stop) {
        PlClassNow n;
        pl_class_now(p->c, &n);
        if (n.version != shown && p->nframes < 200000) {
            double t0 = now_ms();
            ClassScreen s = {.title = "bench", .nsteps = 1, .url = "http://127.0.0.1/", .code = "BENCH", .qi = p->qi};
            cli_class_screen(p->sink, p->c, &s);
            double t1 = now_ms();
            if (t1 - t0 > p->draw_worst) p->draw_worst = t1 - t0;
            p->counts[p->nframes] = n.q >= 0 ? pl_class_count(p->c, n.q, 1) : 0;
            p->frames[p->nframes++] = t1;
            shown = n.version;
        }
        usleep(25000);
    }
    return NULL;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- the lab's keys, as a front end would press them ---- */

#define MAX_KEYS 256
typedef struct {
    PlLab *lab;
    volatile int stop;
    int n;
    double ms[MAX_KEYS];
} LabKeys;

/* maxlen one step up or down, until the two views a class projector shows are computed again. */
static double lab_key(PlLab *lab, int dir) {
    double t0 = now_ms();
    pl_lab_step(lab, PL_S_MAXLEN, dir);
    pl_lab_wait(lab, pl_view_results(PL_VIEW_BATCH) | pl_view_results(PL_VIEW_ATTENTION), 60);
    return now_ms() - t0;
}

static void *lab_keys_run(void *arg) {
    LabKeys *k = arg;
    for (int i = 0; !k->stop && k->n < MAX_KEYS; i++) {
        k->ms[k->n++] = lab_key(k->lab, i % 2 ? -1 : 1);
        usleep(20000);
    }
    return NULL;
}

/* The median and the worst of the keys timed, sorted in place. */
static void key_figures(LabKeys *k, double *median, double *worst) {
    qsort(k->ms, (size_t)k->n, sizeof *k->ms, by_value);
    *median = k->n ? k->ms[k->n / 2] : 0, *worst = k->n ? k->ms[k->n - 1] : 0;
}

static double cpu_ms(int who) {
    struct rusage ru;
    getrusage(who, &ru);
    return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "01-rectangle";
    int n = argc > 2 ? atoi(argv[2]) : 300, passes = argc > 3 ? atoi(argv[3]) : 3;
    char path[1024], why[300];
    PlErr err;
    if (n < 1 || n > MAX_STUDENTS || passes < 1 || passes > 8)
        return fprintf(stderr, "students 1..512, passes 1..8\n"), 2;
    if (pl_lesson_find(name, path, sizeof path)) return fprintf(stderr, "no lesson %s\n", name), 2;
    PlLesson *l = pl_lesson_load(path, &err);
    if (!l) return fprintf(stderr, "%s\n", err.msg), 2;
    PlClass *c = pl_class_new("BENCH");
    int *step_q = calloc((size_t)l->nsteps, sizeof *step_q);
    int nq = pl_class_add_lesson(c, l, 1, step_q);
    PlClassServer *sv = pl_class_server_start(c, "127.0.0.1", 0, why, sizeof why);
    if (!sv) return fprintf(stderr, "%s\n", why), 1;
    pl_class_server_set_seats_per_address(sv, 0); /* every student from 127.0.0.1 */
    acks = mmap(NULL, MAX_ACKS * sizeof *acks, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    taken = mmap(NULL, PL_CLASS_MAX_QUESTIONS * MAX_STUDENTS * sizeof *taken, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int go[2], done[2];
    if (pipe(go) || pipe(done)) return 1;
    PlLabSettings ls = pl_settings_default();
    LabKeys *idle = calloc(1, sizeof *idle), *busy = calloc(1, sizeof *busy);
    idle->lab = busy->lab = pl_lab_new(&ls, &err);
    if (!idle->lab) return fprintf(stderr, "%s\n", err.msg), 1;
    lab_key(idle->lab, 1); /* the corpus loaded and the first results computed */
    for (int i = 0; i < 24; i++) idle->ms[idle->n++] = lab_key(idle->lab, i % 2 ? -1 : 1);
    double t_start = now_ms();
    pid_t kid = fork();
    if (kid == 0) _exit(students(pl_class_server_port(sv), n, nq, passes, go[0], done[1]));
    pthread_t
        kt; /* the teacher keeps working the lab while the class votes (after the fork: the child has one thread) */
    pthread_create(&kt, NULL, lab_keys_run, busy);
    Projector *pj = calloc(1, sizeof *pj);
    pj->c = c, pj->sink = fopen("/dev/null", "w");
    pthread_t pt;
    pthread_create(&pt, NULL, projector_run, pj);
    int lost = 0, twice = 0;
    double reveal_worst = 0;
    for (int q = 0; q < nq; q++) {
        char b;
        pj->qi = q;
        pl_class_open(c, q);
        if (write(go[1], "g", 1) != 1 || read(done[0], &b, 1) != 1) return fprintf(stderr, "the students stopped\n"), 1;
        int told = 0;
        for (int i = 0; i < n; i++) told += taken[q * MAX_STUDENTS + i] > 0;
        PlClassTally t;
        double k0 = now_ms(); /* the teacher's key: reveal, and the frame drawn */
        pl_class_reveal(c, 20);
        pl_class_tally(c, q, &t);
        ClassScreen s = {.title = "bench", .nsteps = 1, .url = "http://127.0.0.1/", .code = "BENCH", .qi = q};
        cli_class_screen(pj->sink, c, &s);
        double k1 = now_ms();
        if (k1 - k0 > reveal_worst) reveal_worst = k1 - k0;
        int count = pl_class_count(c, q, 1);
        lost += told > count ? told - count : 0, twice += count > told ? count - told : 0;
        if (t.answered[0] != count) twice += 1;
    }
    int status;
    busy->stop = 1;
    pthread_join(kt, NULL);
    waitpid(kid, &status, 0);
    usleep(120000);
    pj->stop = 1;
    pthread_join(pt, NULL);
    double wall = now_ms() - t_start;
    /* Each answer's reply against the first frame drawn after it. */
    double worst = 0;
    int answers = 0;
    static double lat[MAX_ACKS];
    for (int q = 0; q < nq; q++)
        for (int i = 0; i < n; i++)
            for (int p = 0; p < passes; p++) {
                double a = acks[(q * MAX_STUDENTS + i) * 8 + p];
                if (!a) continue;
                answers++;
                int f = 0;
                while (f < pj->nframes && pj->frames[f] < a) f++;
                if (f < pj->nframes) lat[answers - 1] = pj->frames[f] - a;
                if (f < pj->nframes && pj->frames[f] - a > worst) worst = pj->frames[f] - a;
            }
    qsort(lat, (size_t)answers, sizeof *lat, by_value);
    int within = 0;
    for (int i = 0; i < answers; i++) within += lat[i] <= 100.0;
    printf("class load: lesson %s, %d questions, %d students, %d passes: %d answers taken in %.0f ms\n", name, nq, n,
           passes, answers, wall);
    printf("  lost: %d, counted twice: %d, refused: %s\n", lost, twice, WEXITSTATUS(status) ? "some" : "none");
    printf("  the projector's count drawn at worst %.1f ms after an answer's reply (it checks every 25 ms; a frame "
           "takes at worst %.2f ms)\n",
           worst, pj->draw_worst);
    printf("  the count current within 100 ms for %d of %d answers (%.2f%%); median %.1f ms, 99th percentile %.1f ms\n",
           within, answers, answers ? 100.0 * within / answers : 0.0, answers ? lat[answers / 2] : 0.0,
           answers ? lat[(int)(answers * 0.99)] : 0.0);
    printf("  a reveal drawn at worst %.2f ms after the key\n", reveal_worst);
    double im, iw, bm, bw;
    key_figures(idle, &im, &iw), key_figures(busy, &bm, &bw);
    printf(
        "  the lab's key (maxlen one step, to its batch and attention views computed): median %.1f ms, worst %.1f ms "
        "alone (%d keys); median %.1f ms, worst %.1f ms while the class voted (%d keys): %.2fx the median\n",
        im, iw, idle->n, bm, bw, busy->n, im > 0 ? bm / im : 0.0);
    printf("  CPU: the teacher's side (server and projector) %.0f ms, the %d students %.0f ms, over %.0f ms\n",
           cpu_ms(RUSAGE_SELF), n, cpu_ms(RUSAGE_CHILDREN), wall);
    pl_class_server_stop(sv);
    pl_class_free(c);
    pl_lesson_free(l);
    free(step_q);
    fclose(pj->sink);
    free(pj);
    pl_lab_free(idle->lab);
    free(idle), free(busy);
    return lost || twice || WEXITSTATUS(status) ? 1 : 0;
}
