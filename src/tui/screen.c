#include "screen.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

static volatile sig_atomic_t quit_flag;
static int started;
static TuiOptions opts;

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT end the lab through its main loop,
 * which saves the session and restores the terminal. */
static void on_quit_signal(int sig) { quit_flag = sig; }

/* A crash still leaves a usable terminal behind, and says so in one line
 * once the screen is closed. */
static void on_crash(int sig) {
    if (started) {
        curs_set(1);
        endwin();
    }
    static const char head[] = "padlab: crashed (signal ", tail[] = "); the terminal was restored\n";
    char num[4] = {(char)('0' + sig / 10 % 10), (char)('0' + sig % 10), 0, 0};
    ssize_t w = write(STDERR_FILENO, head, sizeof head - 1);
    w += write(STDERR_FILENO, sig >= 10 ? num : num + 1, sig >= 10 ? 2 : 1);
    w += write(STDERR_FILENO, tail, sizeof tail - 1);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

int tui_screen_should_quit(void) { return quit_flag != 0; }

void tui_screen_check_input(void) {
    /* Called when no key came: a terminal that was closed reads as end of
     * input at once (getch's ERR, every time), so the loop would spin for
     * ever without SIGHUP. poll says so: the lab then ends as on SIGHUP. */
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) && !quit_flag) quit_flag = SIGHUP;
}
int tui_screen_quit_signal(void) { return quit_flag; }

/* Colours by meaning; blue and orange-yellow rather than red and green, so
 * the pad/real distinction survives the common colour-blindnesses. Pads
 * also get their own glyph. */
static const struct {
    short fg, bg;
    int mono_attr;
} palette[TUI_COLOR_COUNT] = {
    [TUI_NORMAL] = {-1, -1, A_NORMAL},
    [TUI_TITLE] = {COLOR_BLACK, COLOR_CYAN, A_REVERSE},
    [TUI_REAL] = {COLOR_BLUE, -1, A_BOLD},
    [TUI_PAD] = {COLOR_YELLOW, -1, A_DIM},
    [TUI_TRUNC] = {COLOR_MAGENTA, -1, A_UNDERLINE},
    [TUI_WARN] = {COLOR_MAGENTA, -1, A_BOLD},
    [TUI_GOOD] = {COLOR_CYAN, -1, A_BOLD},
    [TUI_CHANGED] = {COLOR_BLACK, COLOR_YELLOW, A_REVERSE},
    [TUI_KEY] = {COLOR_BLACK, COLOR_CYAN, A_REVERSE},
    [TUI_DIM] = {-1, -1, A_DIM},
    [TUI_SELECTED] = {COLOR_BLACK, COLOR_WHITE, A_REVERSE},
    [TUI_QR] = {COLOR_BLACK, COLOR_WHITE, A_NORMAL},
    [TUI_QR_LIGHT] = {COLOR_WHITE, COLOR_BLACK, A_NORMAL},
};

static void init_colors(void) {
    if (opts.mono || !has_colors()) {
        opts.mono = 1;
        return;
    }
    start_color();
    use_default_colors();
    for (int i = 1; i < TUI_COLOR_COUNT; i++) init_pair((short)i, palette[i].fg, palette[i].bg);
}

int tui_screen_start(const TuiOptions *o, char *why, int cap) {
    opts = *o;
    if (getenv("NO_COLOR") && *getenv("NO_COLOR")) opts.mono = 1;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(why, (size_t)cap, "no terminal attached");
        return -1;
    }
    setlocale(LC_ALL, "");
    /* Without a UTF-8 locale the block glyphs would come out as garbage. */
    const char *codeset = nl_langinfo(CODESET);
    if (!codeset || (strcmp(codeset, "UTF-8") != 0 && strcmp(codeset, "utf8") != 0)) opts.ascii = 1;
    const char *term = getenv("TERM");
    if (!term || !*term || strcmp(term, "dumb") == 0) {
        snprintf(why, (size_t)cap, "the terminal type (TERM) is not set or is 'dumb'");
        return -1;
    }
    SCREEN *s = newterm(NULL, stdout, stdin);
    if (!s) {
        snprintf(why, (size_t)cap, "curses cannot drive the terminal '%s'", term);
        return -1;
    }
    started = 1;
    signal(SIGINT, on_quit_signal);
    signal(SIGTERM, on_quit_signal);
    signal(SIGHUP, on_quit_signal);
    signal(SIGQUIT, on_quit_signal);
    static const int crashes[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) signal(crashes[i], on_crash);
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    /* Every button event, releases too: ncurses swallows an event the mask
     * leaves out (a click's release) and then waits for the next byte with
     * no timeout, so the loop stopped polling the lab until a key came. */
    mousemask(ALL_MOUSE_EVENTS, NULL);
    mouseinterval(0);
    timeout(50);
    init_colors();
    return 0;
}

void tui_screen_end(void) {
    if (!started) return;
    started = 0;
    curs_set(1);
    endwin();
}

void tui_color(TuiColor c) {
    if (c == TUI_NORMAL) return;
    if (opts.mono) attron(palette[c].mono_attr);
    else attron(COLOR_PAIR(c) | (c == TUI_REAL || c == TUI_WARN || c == TUI_GOOD ? A_BOLD : 0));
}

void tui_color_off(TuiColor c) {
    if (c == TUI_NORMAL) return;
    if (opts.mono) attroff(palette[c].mono_attr);
    else attroff(COLOR_PAIR(c) | A_BOLD);
}

const char *tui_glyph(TuiGlyph g) {
    static const char *const uni[TUI_GLYPH_COUNT] = {"\u2588", "\u00b7", "\u2592", "\u2588", "\u2591",
                                                     "\u25b2", "\u00bb", "\u2502", "\u00d7", "*",
                                                     "o",      "\u2192", "\u2500", "\u2502"};
    static const char *const asc[TUI_GLYPH_COUNT] = {"#", ".", "+", "=", "-",  "^", ">",
                                                     "|", "x", "*", "o", "->", "-", "|"};
    return opts.ascii ? asc[g] : uni[g];
}

const TuiOptions *tui_screen_options(void) { return &opts; }

int tui_width(const char *s) {
    mbstate_t st;
    memset(&st, 0, sizeof st);
    int cols = 0;
    wchar_t wc;
    for (size_t n; *s && (n = mbrtowc(&wc, s, MB_CUR_MAX, &st)) != 0; s += n) {
        if (n == (size_t)-1 || n == (size_t)-2) return cols + (int)strlen(s); /* not text: a column a byte */
        int w = wcwidth(wc);
        cols += w > 0 ? w : 0;
    }
    return cols;
}

/* The ledger text is drawn through (tui_ledger), or NULL. */
static const PlLedger *ledger;

void tui_ledger(const PlLedger *l) { ledger = l; }

int tui_hidden(const char *name) { return pl_ledger_hides_name(ledger, name); }

void tui_drawn(const char *raw, char *out, int cap) { pl_ledger_draw(ledger, raw, out, (size_t)cap); }

const char *tui_cell(const char *raw, int width, char *out, int cap) {
    char drawn[256];
    tui_drawn(raw, drawn, sizeof drawn);
    snprintf(out, (size_t)cap, "%*s", width, drawn);
    return out;
}

/* s (already through the veil) at (y, x), cut to w columns; the columns drawn. */
static int put_plain(int y, int x, int w, const char *buf) {
    if (w <= 0 || y < 0 || y >= LINES || x < 0 || x >= COLS) return 0;
    if (x + w > COLS) w = COLS - x;
    wchar_t wide[2048];
    mbstate_t st;
    memset(&st, 0, sizeof st);
    int n = 0, cols = 0;
    for (const char *s = buf; *s && n < 2047;) {
        wchar_t wc;
        size_t k = mbrtowc(&wc, s, MB_CUR_MAX, &st);
        if (k == (size_t)-1 || k == (size_t)-2) wc = L'?', k = 1, memset(&st, 0, sizeof st);
        int cw = wcwidth(wc);
        if (cw < 0) wc = L'?', cw = 1;
        if (cols + cw > w) break;
        wide[n++] = wc;
        cols += cw;
        s += k;
    }
    wide[n] = L'\0';
    mvaddnwstr(y, x, wide, n);
    return cols;
}

int tui_put_plain(int y, int x, int w, const char *s) { return put_plain(y, x, w, s); }

int tui_put(int y, int x, int w, const char *fmt, ...) {
    if (w <= 0 || y < 0 || y >= LINES || x < 0 || x >= COLS) return 0;
    char raw[2048], buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    pl_ledger_draw(ledger, raw, buf, sizeof buf);
    return put_plain(y, x, w, buf);
}

const char *tui_shade(double v) {
    static const char *const uni[] = {" ",      "\u2581", "\u2582", "\u2583", "\u2584",
                                      "\u2585", "\u2586", "\u2587", "\u2588"};
    static const char *const asc[] = {" ", ".", ".", ":", ":", "=", "=", "#", "#"};
    int k = v <= 0.0 ? 0 : v >= 1.0 ? 8 : 1 + (int)(v * 7.999);
    return opts.ascii ? asc[k] : uni[k];
}

void tui_bar(int y, int x, int width, double v, TuiColor c) {
    int full = (int)(v * width + 0.5);
    move(y, x);
    tui_color(c);
    for (int i = 0; i < width; i++) addstr(i < full ? tui_glyph(TUI_G_BAR) : tui_glyph(TUI_G_EMPTY));
    tui_color_off(c);
}

int tui_rows(void) { return LINES; }
int tui_cols(void) { return COLS; }
