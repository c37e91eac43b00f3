/* The pages a student's device is sent (student.h). The vote page works
 * without script (the form posts, the server sends it back); with script it
 * sends the answer in place, echoes it in a live region and reloads itself
 * when the teacher opens, reopens or reveals a question. */
#include "student.h"

#include <string.h>

#include "app/report/out.h"

void pl_class_html_escape(FILE *f, const char *text) {
    for (const char *s = text; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

static const char *const phase_names[] = {"wait", "open", "shown", "ended"};

static void head(FILE *f, const char *title, const char *key) {
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n"
            "<style>body{font-family:sans-serif;max-width:40em;margin:1em auto;padding:0 1em;font-size:1.15em;"
            "line-height:1.4}fieldset{border:1px solid #888;padding:1em}label{display:block;margin:.4em 0}"
            "input[type=text]{font-size:1.2em;width:8em}button{font-size:1.1em;margin-top:.8em;padding:.3em 1em}"
            "table{border-collapse:collapse}td,th{border:1px solid #888;padding:.2em .5em;text-align:left}"
            ".right{font-weight:bold}</style></head>\n<body data-key=\"%s\">\n",
            title, key);
}

void pl_class_page_join(FILE *f, PlClass *c, int student, const char *note) {
    (void)c, (void)student;
    head(f, "padlab: join the class", "join");
    fputs(
        "<main><h1>Join the class</h1>\n<form method=\"post\" action=\"/join\">\n"
        "<label for=\"code\">The code on the projector</label>\n"
        "<input type=\"text\" id=\"code\" name=\"code\" maxlength=\"8\" autocomplete=\"off\" autocapitalize=\"characters\" "
        "required>\n<button type=\"submit\">Join</button>\n</form>\n",
        f);
    if (note) fputs("<p role=\"alert\">", f), pl_class_html_escape(f, note), fputs("</p>\n", f);
    fputs("</main></body></html>\n", f);
}

static void key_of(const PlClassNow *n, char *key, int cap) {
    snprintf(key, cap, "%d-%d-%s", n->q, n->round, phase_names[n->phase]);
}

static void vote_form(FILE *f, const PlClassNow *n, const char *mine) {
    fprintf(f, "<form id=\"f\" method=\"post\" action=\"/answer\">\n<input type=\"hidden\" name=\"q\" value=\"%d\">\n",
            n->q);
    fprintf(f, "<fieldset><legend>Question %d, round %d</legend>\n<p id=\"prompt\">", n->q + 1, n->round);
    pl_class_html_escape(f, n->prompt);
    fputs("</p>\n", f);
    if (n->kind == PL_CLASS_CHOICE)
        for (int i = 0; i < n->nchoices; i++) {
            fprintf(f, "<label><input type=\"radio\" name=\"a\" value=\"%c\"%s> %c. ", 'a' + i,
                    mine[0] == 'a' + i && mine[1] == '.' ? " checked" : "", 'a' + i);
            pl_class_html_escape(f, n->choices[i]);
            fputs("</label>\n", f);
        }
    else
        fputs("<label for=\"num\">Your answer (a number; a share as 19.6 or 19.6%)</label>\n"
              "<input type=\"text\" id=\"num\" name=\"a\" inputmode=\"decimal\" maxlength=\"31\" autocomplete=\"off\" "
              "required>\n",
              f);
    fputs("<button type=\"submit\">Send my answer</button>\n</fieldset>\n</form>\n", f);
}

static void tally_table(FILE *f, const PlClassNow *n, const PlClassTally *t) {
    fputs("<table><caption>How the class answered</caption>\n<tr><th scope=\"col\">answer</th>", f);
    for (int r = 0; r < t->rounds; r++) fprintf(f, "<th scope=\"col\">round %d</th>", r + 1);
    fputs("</tr>\n", f);
    int most, rows = pl_class_tally_rows(t, &most);
    for (int i = 0; i < rows; i++) {
        char label[64];
        int right = pl_class_tally_label(t, i, label, sizeof label);
        fprintf(f, "<tr%s><th scope=\"row\">%s", right ? " class=\"right\"" : "", label);
        if (t->kind == PL_CLASS_CHOICE) fputs(" ", f), pl_class_html_escape(f, n->choices[i]);
        fputs(right ? " (counted right)" : "", f);
        fputs("</th>", f);
        for (int r = 0; r < t->rounds; r++) fprintf(f, "<td>%d</td>", pl_class_tally_count(t, r, i));
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    if (t->kind == PL_CLASS_NUMBER) /* a bin holds more than the band: the band itself, as the projector says it */
        fprintf(f, "<p>Counted right: %.4g%s to %.4g%s.</p>\n", t->band_lo * t->unit, t->unit > 1 ? "%" : "",
                t->band_hi * t->unit, t->unit > 1 ? "%" : "");
}

static void revealed(FILE *f, PlClass *c, const PlClassNow *n) {
    PlClassTally t;
    if (pl_class_tally(c, n->q, &t)) return;
    fprintf(f, "<h2>Question %d: the answer</h2>\n<p>", n->q + 1);
    pl_class_html_escape(f, n->prompt);
    fputs("</p>\n<p id=\"answer\">", f);
    if (t.kind == PL_CLASS_CHOICE)
        fprintf(f, "The right answer: %c. ", 'a' + t.right_choice), pl_class_html_escape(f, n->choices[t.right_choice]);
    else fputs("The lab computed ", f), pl_class_html_escape(f, t.value_text);
    fputs(".</p>\n", f);
    for (int r = 0; r < t.rounds; r++)
        fprintf(f, "<p>Round %d: %d answered, %d right.</p>\n", r + 1, t.answered[r], t.right[r]);
    tally_table(f, n, &t);
}

static const char script[] =
    "<script>(function(){var k=document.body.getAttribute('data-key');var f=document.getElementById('f');\n"
    "var e=document.getElementById('echo');\n"
    "if(f)f.addEventListener('submit',function(ev){ev.preventDefault();\n"
    "var b=new URLSearchParams(new FormData(f)).toString();\n"
    "fetch('/answer',{method:'POST',headers:{'Accept':'application/json',"
    "'Content-Type':'application/x-www-form-urlencoded'},body:b}).then(function(r){return r.text().then(function(t){\n"
    "if(r.ok){var j=JSON.parse(t);e.textContent='Your answer: '+j.mine;}else e.textContent='Not taken: '+t;});})\n"
    ".catch(function(){e.textContent='Not sent: the connection failed. Try again.';});});\n"
    "function poll(){fetch('/state',{headers:{'Accept':'application/json'}}).then(function(r){return r.json();})\n"
    ".then(function(j){if(j.key!==k)location.reload();}).catch(function(){}).then(function(){setTimeout(poll,1000);});}\n"
    "setTimeout(poll,1000);})();</script>\n";

void pl_class_page_vote(FILE *f, PlClass *c, int student, const char *note) {
    PlClassNow n;
    char key[64], mine[600];
    (void)note;
    pl_class_now(c, &n);
    pl_class_mine(c, student, mine, sizeof mine);
    key_of(&n, key, sizeof key);
    head(f, "padlab: the class votes", key);
    fputs("<main><h1>padlab class</h1>\n", f);
    if (n.phase == PL_CLASS_ENDED) fputs("<p id=\"ended\">The class has ended. Thank you.</p>\n", f);
    else if (n.phase == PL_CLASS_WAIT || n.q < 0) fputs("<p>Waiting for the teacher's next question.</p>\n", f);
    else if (n.phase == PL_CLASS_OPEN) vote_form(f, &n, mine);
    else revealed(f, c, &n);
    fputs("<p id=\"echo\" aria-live=\"polite\">", f);
    if (mine[0]) fputs("Your answer: ", f), pl_class_html_escape(f, mine);
    fputs("</p>\n</main>\n", f);
    fputs(script, f);
    fputs("</body></html>\n", f);
}

static void state_tally(JsonW *w, PlClass *c, int q) {
    PlClassTally t;
    if (pl_class_tally(c, q, &t)) return;
    json_obj(w, "tally");
    if (t.kind == PL_CLASS_CHOICE) json_int(w, "right_choice", t.right_choice);
    else json_str(w, "value", t.value_text), json_num(w, "band_lo", t.band_lo), json_num(w, "band_hi", t.band_hi);
    json_arr(w, "rounds");
    for (int r = 0; r < t.rounds; r++) {
        json_obj(w, NULL);
        json_int(w, "answered", t.answered[r]);
        json_int(w, "right", t.right[r]);
        json_arr(w, "counts");
        int most, rows = pl_class_tally_rows(&t, &most);
        for (int i = 0; i < rows; i++) json_int(w, NULL, pl_class_tally_count(&t, r, i));
        json_close(w, ']');
        json_close(w, '}');
    }
    json_close(w, ']');
    json_close(w, '}');
}

void pl_class_page_state(FILE *f, PlClass *c, int student, const char *note) {
    PlClassNow n;
    char key[64], mine[600];
    JsonW w;
    (void)note;
    pl_class_now(c, &n);
    pl_class_mine(c, student, mine, sizeof mine);
    key_of(&n, key, sizeof key);
    json_begin(&w, f);
    json_str(&w, "key", key);
    json_int(&w, "q", n.q);
    json_int(&w, "round", n.round);
    json_str(&w, "phase", phase_names[n.phase]);
    if (n.q >= 0) {
        json_str(&w, "kind", n.kind == PL_CLASS_CHOICE ? "choose" : "ask");
        json_str(&w, "prompt", n.prompt);
        json_arr(&w, "choices");
        for (int i = 0; i < n.nchoices; i++) json_str(&w, NULL, n.choices[i]);
        json_close(&w, ']');
    }
    json_str(&w, "mine", mine);
    if (n.phase == PL_CLASS_SHOWN) state_tally(&w, c, n.q);
    json_end(&w);
}
