/* The pages a student's device is sent (student.h).
 *
 * The vote page works without script: the server writes every part of it
 * for where the class is, and the form posts. With script it sends the
 * answer in place and asks /state once a second, updating each part from
 * the JSON, never reloading: an answer half typed, or a choice not yet
 * sent, stays as it is while the question is the same (a second round, a
 * reveal and a reopening included). The server's page and the script's
 * updates say the same sentences; tests/browser checks that they do.
 *
 * The vote page's parts, by id (what the script updates):
 *   #status     where the class is (a live region)
 *   #conn       said only when the class stops answering
 *   #countdown  the discussion's seconds left
 *   form#f      the question: #legend, #prompt, #field (the radio rows, or
 *               #hint and #num); data-q is the question it was made for,
 *               hidden unless the question is open
 *   #echo       the student's own answer, and after the reveal whether it
 *               counted (a live region)
 *   #reveal     the answer: #reveal-title, #reveal-prompt, #answer,
 *               #rounds, the table #tally, #band
 *   #ended      the class's end: #results, their answers against the lab's
 *
 * Every text is escaped (here) or set as text (the script: textContent,
 * never markup). The one script is inline, with no event handler in the
 * markup: the server's CSP allows nothing else. */
#include "student.h"

#include <math.h>
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

/* Colours by meaning, light and dark (a darkened classroom): text on the
 * background at 15:1 or more, the button's and the marks' at 4.5:1 or more.
 * Every tap target (a field, a radio row as a whole label, a button) is at
 * least 3rem (48 px) high: 44 px is the least a finger hits reliably. */
static const char style[] =
    "<style>\n"
    ":root{color-scheme:light dark;--bg:#fff;--fg:#1a1a1a;--muted:#4a4a4a;--line:#767676;--field:#fff;"
    "--accent:#0b57d0;--on-accent:#fff;--right:#146c2e;--wrong:#b3261e;--mark:#e7f2ea}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#121212;--fg:#ececec;--muted:#c4c4c4;--line:#8f8f8f;"
    "--field:#1e1e1e;--accent:#8ab4f8;--on-accent:#0b1a33;--right:#7dd38f;--wrong:#ffab9f;--mark:#1c3324}}\n"
    "[hidden]{display:none!important}\n"
    "html{background:var(--bg);color:var(--fg)}\n"
    "body{font:1.125rem/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;max-width:40rem;"
    "margin:0 auto;padding:.5rem 1rem 2rem;background:var(--bg);color:var(--fg)}\n"
    "h1{font-size:1.375rem;margin:.5rem 0}h2{font-size:1.25rem;margin:1.25rem 0 .5rem}\n"
    "fieldset{border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem 1rem;margin:0}\n"
    "legend{font-weight:bold;padding:0 .25rem}\n"
    "label{display:block;margin:.5rem 0 .25rem}\n"
    ".choice,.level{display:flex;align-items:center;gap:.75rem;box-sizing:border-box;min-height:3rem;margin:.5rem 0;"
    "padding:.5rem .75rem;border:1px solid var(--line);border-radius:.5rem;cursor:pointer}\n"
    ".choice input,.level input{flex:none;width:1.5rem;height:1.5rem;margin:0;accent-color:var(--accent)}\n"
    ".choice:has(input:checked),.level:has(input:checked){border-color:var(--accent);box-shadow:0 0 0 2px var(--accent)}\n"
    "#sure{border:0;padding:0;margin:.75rem 0 0}#sure legend{padding:0;font-weight:normal}\n"
    "#levels{display:flex;flex-wrap:wrap;gap:0 .5rem}#levels .level{margin:.25rem 0}\n"
    "input[type=text]{box-sizing:border-box;font:inherit;font-size:1.25rem;min-height:3rem;width:100%;"
    "max-width:16rem;padding:.375rem .625rem;border:1px solid var(--line);border-radius:.375rem;"
    "background:var(--field);color:var(--fg)}\n"
    "button{display:block;font:inherit;font-weight:bold;min-height:3rem;min-width:3rem;margin-top:1rem;"
    "padding:.5rem 1.25rem;border:0;border-radius:.5rem;background:var(--accent);color:var(--on-accent);"
    "cursor:pointer}\n"
    "a{color:var(--accent)}a.join{display:inline-flex;align-items:center;min-height:3rem;padding:0 .25rem}\n"
    ":focus-visible{outline:3px solid var(--accent);outline-offset:2px}\n"
    "table{border-collapse:collapse;margin:.5rem 0}caption{text-align:left;font-weight:bold;padding:.25rem 0}\n"
    "td,th{border:1px solid var(--line);padding:.25rem .625rem;text-align:left}td{text-align:right}\n"
    "tr.right th{color:var(--right);font-weight:bold}tr.right{background:var(--mark)}\n"
    ".right{color:var(--right);font-weight:bold}.wrong{color:var(--wrong);font-weight:bold}\n"
    ".note{color:var(--muted)}#countdown{font-weight:bold;font-size:1.25rem}\n"
    "#results{list-style:none;padding:0}#results li{margin:.75rem 0}#results p{margin:.125rem 0}\n"
    "</style>\n";

static void head(FILE *f, const char *title) {
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"color-scheme\" content=\"light dark\">\n<title>%s</title>\n",
            title);
    fputs(style, f);
    fputs("</head>\n<body>\n", f);
}

void pl_class_page_join(FILE *f, PlClass *c, int student, const char *note) {
    (void)c, (void)student;
    head(f, "padlab: join the class");
    fputs(
        "<main><h1>Join the class</h1>\n<form method=\"post\" action=\"/join\">\n"
        "<label for=\"code\">The code on the projector</label>\n"
        "<input type=\"text\" id=\"code\" name=\"code\" maxlength=\"8\" autocomplete=\"off\" autocapitalize=\"characters\" "
        "spellcheck=\"false\" required>\n<button type=\"submit\">Join</button>\n</form>\n",
        f);
    if (note) fputs("<p role=\"alert\">", f), pl_class_html_escape(f, note), fputs("</p>\n", f);
    fputs("</main></body></html>\n", f);
}

static void key_of(const PlClassNow *n, char *key, int cap) {
    snprintf(key, cap, "%d-%d-%s", n->q, n->round, phase_names[n->phase]);
}

/* ---- what both the page and the JSON say ---- */

/* The keyboard a phone shows for a number's field (the hint says which
 * kind of number it is, as pl_class_answer_hint words it): the decimal pad
 * for a share or a count, the full keyboard for any other number, which may
 * need the minus, the e of 2.5e-3 or a % sign the pad does not have. */
static const char *input_mode(const char *hint) {
    return !strncmp(hint, "a share", 7) || !strncmp(hint, "a whole number", 14) ? "decimal" : "text";
}

/* The answer a question was revealed with, as the reveal's verdict names
 * it: "the lab's number is 1400" or "the right answer is b. text". */
static void right_answer(const PlClassNow *n, const PlClassTally *t, char *out, int cap) {
    if (t->kind == PL_CLASS_CHOICE)
        snprintf(out, (size_t)cap, "the right answer is %c. %s", 'a' + t->right_choice,
                 t->right_choice >= 0 && t->right_choice < n->nchoices ? n->choices[t->right_choice] : "");
    else snprintf(out, (size_t)cap, "the lab's number is %s", t->value_text);
}

/* What the echo says (the same words as the script's echoText): the
 * student's answer while the question is open; once revealed, whether it
 * counted. css is "right", "wrong" or "". */
static void echo_text(PlClass *c, int student, const PlClassNow *n, const char *mine, char *out, int cap,
                      const char **css) {
    PlClassTally t;
    *css = "";
    out[0] = '\0';
    if (n->q < 0) return;
    if (n->phase == PL_CLASS_OPEN) {
        if (mine[0]) snprintf(out, (size_t)cap, "Your answer: %s", mine);
        else if (n->round > 1) snprintf(out, (size_t)cap, "No answer sent yet in round %d.", n->round);
        return;
    }
    if (n->phase != PL_CLASS_SHOWN || pl_class_tally(c, n->q, &t)) return;
    int right = mine[0] ? pl_class_vote_right(c, student, n->q, n->round) : -1;
    char answer[500];
    right_answer(n, &t, answer, sizeof answer);
    if (!mine[0])
        snprintf(out, (size_t)cap, n->round > 1 ? "You sent no answer in round %d." : "You sent no answer.", n->round);
    else if (right < 0) snprintf(out, (size_t)cap, "Your answer: %s", mine);
    else if (right) snprintf(out, (size_t)cap, "Your answer %s: counted right.", mine), *css = "right";
    else snprintf(out, (size_t)cap, "Your answer %s: not counted: %s.", mine, answer), *css = "wrong";
}

/* Where the class is, as #status says it (the script's statusText). */
static void status_text(const PlClassNow *n, char *out, int cap) {
    if (n->phase == PL_CLASS_ENDED) snprintf(out, (size_t)cap, "The class has ended.");
    else if (n->phase == PL_CLASS_WAIT || n->q < 0)
        snprintf(out, (size_t)cap, "Waiting for the teacher's next question.");
    else if (n->phase == PL_CLASS_OPEN)
        snprintf(out, (size_t)cap, "Question %d, round %d: send your answer.", n->q + 1, n->round);
    else snprintf(out, (size_t)cap, "Question %d: the answer is shown.", n->q + 1);
}

/* A number's band counted right, as the projector says it ("1400 to 1400"):
 * a row of the tally may hold more than the band. */
static void band_text(const PlClassTally *t, char *out, int cap) {
    const char *pc = t->unit > 1 ? "%" : "";
    snprintf(out, (size_t)cap, "%.4g%s to %.4g%s", t->band_lo * t->unit, pc, t->band_hi * t->unit, pc);
}

/* A row of the tally as its table heads it: "b. the choice (counted
 * right)", or a number's row as the tally labels it ("1399", "far off:
 * 1e+03", "1400 (counted right)"); returns whether it counts right. */
static int row_label(const PlClassNow *n, const PlClassTally *t, int i, char *out, int cap) {
    char label[200];
    int right = pl_class_tally_label(t, i, label, sizeof label);
    if (t->kind == PL_CLASS_CHOICE && i < n->nchoices)
        snprintf(out, (size_t)cap, "%s %s%s", label, n->choices[i], right ? " (counted right)" : "");
    else snprintf(out, (size_t)cap, "%s", label);
    return right;
}

/* One question of a class's results: the student's last vote on it (round
 * 2's, else round 1's), the answer once revealed, and whether it counted
 * (-1: no vote, or not revealed). Returns whether the question was asked. */
typedef struct {
    char prompt[1200], answer[600], mine[600];
    int right;
} Result;

static int result_of(PlClass *c, int student, int qi, Result *r) {
    if (!pl_class_question_info(c, qi, r->prompt, sizeof r->prompt, r->answer, sizeof r->answer)) return 0;
    int round = 2;
    pl_class_vote_text(c, student, qi, round, r->mine, sizeof r->mine);
    if (!r->mine[0]) pl_class_vote_text(c, student, qi, round = 1, r->mine, sizeof r->mine);
    r->right = r->mine[0] ? pl_class_vote_right(c, student, qi, round) : -1;
    return 1;
}

/* A result's line (the script's resultText); css as echo_text's. */
static void result_text(const Result *r, char *out, int cap, const char **css) {
    *css = r->right == 1 ? "right" : r->right == 0 ? "wrong" : "";
    if (!r->mine[0]) snprintf(out, (size_t)cap, "No answer sent%s%s.", r->answer[0] ? "; the answer: " : "", r->answer);
    else if (r->right == 1) snprintf(out, (size_t)cap, "Your answer %s: counted right.", r->mine);
    else if (r->right == 0)
        snprintf(out, (size_t)cap, "Your answer %s: not counted: the answer is %s.", r->mine, r->answer);
    else snprintf(out, (size_t)cap, "Your answer %s (its answer was not revealed).", r->mine);
}

/* ---- the vote page ---- */

static void text_el(FILE *f, const char *open, const char *text, const char *close) {
    fputs(open, f), pl_class_html_escape(f, text), fputs(close, f);
}

static void number_field(FILE *f, const char *hint) {
    text_el(f, "<label for=\"num\" id=\"hint\">Your answer (", hint, ")</label>\n");
    fprintf(f,
            "<input type=\"text\" id=\"num\" name=\"a\" inputmode=\"%s\" maxlength=\"31\" autocomplete=\"off\" "
            "spellcheck=\"false\" required>\n",
            input_mode(hint));
}

/* How sure the student is, sent with the answer (optional): the teacher's
 * report sets it beside whether the answer counted, which is what tells a
 * guess from a misconception held with confidence. */
static const char *const sure_names[] = {"a guess", "fairly sure", "sure"};

static void sure_field(FILE *f, int sure) {
    fputs("<fieldset id=\"sure\"><legend>How sure are you? (optional)</legend>\n<div id=\"levels\">\n", f);
    for (int i = 1; i <= 3; i++)
        fprintf(f,
                "<label class=\"level\"><input type=\"radio\" name=\"s\" value=\"%d\"%s><span>%d. %s</span></label>\n",
                i, i == sure ? " checked" : "", i, sure_names[i - 1]);
    fputs("</div>\n</fieldset>\n", f);
}

/* The question's form: rendered whenever there is a question (hidden
 * unless it is open), so that the script keeps what was typed in it. */
static void vote_form(FILE *f, PlClass *c, int student, const PlClassNow *n, const char *mine) {
    fprintf(f, "<form id=\"f\" method=\"post\" action=\"/answer\" data-q=\"%d\"%s>\n", n->q,
            n->phase == PL_CLASS_OPEN ? "" : " hidden");
    fprintf(f, "<input type=\"hidden\" name=\"q\" value=\"%d\">\n<fieldset><legend id=\"legend\">", n->q);
    if (n->q >= 0) fprintf(f, "Question %d, round %d", n->q + 1, n->round);
    text_el(f, "</legend>\n<p id=\"prompt\">", n->q >= 0 ? n->prompt : "", "</p>\n<div id=\"field\">\n");
    if (n->q >= 0 && n->kind == PL_CLASS_CHOICE)
        for (int i = 0; i < n->nchoices; i++) {
            fprintf(f, "<label class=\"choice\"><input type=\"radio\" name=\"a\" value=\"%c\"%s required><span>%c. ",
                    'a' + i, mine[0] == 'a' + i && mine[1] == '.' ? " checked" : "", 'a' + i);
            pl_class_html_escape(f, n->choices[i]);
            fputs("</span></label>\n", f);
        }
    else if (n->q >= 0) {
        char hint[80];
        number_field(f, pl_class_answer_hint(c, n->q, hint, sizeof hint));
    }
    fputs("</div>\n", f);
    sure_field(f, n->q >= 0 && mine[0] ? pl_class_vote_sure(c, student, n->q, n->round) : 0);
    fputs("<button type=\"submit\">Send my answer</button>\n</fieldset>\n</form>\n", f);
}

static void tally_table(FILE *f, const PlClassNow *n, const PlClassTally *t) {
    fputs("<table id=\"tally\"><caption>How the class answered</caption>\n<thead><tr><th scope=\"col\">answer</th>", f);
    for (int r = 0; r < t->rounds; r++) fprintf(f, "<th scope=\"col\">round %d</th>", r + 1);
    fputs("</tr></thead>\n<tbody>\n", f);
    int most, rows = pl_class_tally_rows(t, &most);
    for (int i = 0; i < rows; i++) {
        char label[600];
        int right = row_label(n, t, i, label, sizeof label);
        fprintf(f, "<tr%s><th scope=\"row\">", right ? " class=\"right\"" : "");
        pl_class_html_escape(f, label);
        fputs("</th>", f);
        for (int r = 0; r < t->rounds; r++) fprintf(f, "<td>%d</td>", pl_class_tally_count(t, r, i));
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

/* The reveal: the answer, the rounds, the tally. Rendered (hidden) even
 * before, so that the script has its parts to fill. */
static void reveal(FILE *f, PlClass *c, const PlClassNow *n) {
    PlClassTally t;
    int shown = n->phase == PL_CLASS_SHOWN && !pl_class_tally(c, n->q, &t);
    fputs(shown ? "<section id=\"reveal\">\n" : "<section id=\"reveal\" hidden>\n", f);
    fputs("<h2 id=\"reveal-title\">", f);
    if (shown) fprintf(f, "Question %d: the answer", n->q + 1);
    text_el(f, "</h2>\n<p id=\"reveal-prompt\">", shown ? n->prompt : "", "</p>\n<p id=\"answer\">");
    if (shown && t.kind == PL_CLASS_CHOICE)
        fprintf(f, "The right answer: %c. ", 'a' + t.right_choice), pl_class_html_escape(f, n->choices[t.right_choice]),
            fputs(".", f);
    else if (shown) text_el(f, "The lab computed ", t.value_text, ".");
    fputs("</p>\n<div id=\"rounds\">", f);
    for (int r = 0; shown && r < t.rounds; r++)
        fprintf(f, "<p>Round %d: %d answered, %d right.</p>", r + 1, t.answered[r], t.right[r]);
    fputs("</div>\n", f);
    if (shown) tally_table(f, n, &t);
    else
        fputs("<table id=\"tally\"><caption>How the class answered</caption><thead></thead><tbody></tbody></table>\n",
              f);
    fputs("<div id=\"band\">", f);
    if (shown && t.kind == PL_CLASS_NUMBER) {
        char band[120];
        band_text(&t, band, sizeof band);
        fprintf(f, "<p>Counted right: %s.</p>", band);
    }
    fputs("</div>\n</section>\n", f);
}

/* The end: the student's answers, question by question, against the lab's. */
static void ended(FILE *f, PlClass *c, int student, const PlClassNow *n) {
    int any = 0;
    fputs(n->phase == PL_CLASS_ENDED ? "<section id=\"ended\">\n" : "<section id=\"ended\" hidden>\n", f);
    fputs("<h2>Your answers</h2>\n<ol id=\"results\">\n", f);
    for (int qi = 0; n->phase == PL_CLASS_ENDED && qi < pl_class_questions(c); qi++) {
        Result r;
        char line[1400];
        const char *css;
        if (!result_of(c, student, qi, &r)) continue;
        result_text(&r, line, sizeof line, &css);
        fprintf(f, "<li><p><strong>Question %d.</strong> ", qi + 1);
        pl_class_html_escape(f, r.prompt);
        fprintf(f, "</p><p class=\"%s\">", css);
        pl_class_html_escape(f, line);
        fputs("</p></li>\n", f);
        any = 1;
    }
    fprintf(f, "</ol>\n<p id=\"results-none\"%s>The class asked no question.</p>\n</section>\n", any ? " hidden" : "");
}

/* What the page does with script: sends the answer in place and follows
 * /state. Its sentences are the C's above, word for word. */
static const char script[] =
    "<script>\n"
    "(function(){'use strict';\n"
    "var $=function(id){return document.getElementById(id);};\n"
    "var f=$('f'),echo=$('echo'),conn=$('conn'),seen={},stopped=false;\n"
    "function put(e,t){if(e.textContent!==t)e.textContent=t;}\n"
    "function el(tag,text,css){var e=document.createElement(tag);if(text!=null)e.textContent=text;"
    "if(css)e.className=css;return e;}\n"
    "function letter(i){return String.fromCharCode(97+i);}\n"
    "function statusText(j){if(j.phase==='ended')return 'The class has ended.';\n"
    " if(j.phase==='wait'||j.q<0)return 'Waiting for the teacher\\'s next question.';\n"
    " if(j.phase==='open')return 'Question '+(j.q+1)+', round '+j.round+': send your answer.';\n"
    " return 'Question '+(j.q+1)+': the answer is shown.';}\n"
    "function rightAnswer(j){var t=j.tally;return j.kind==='choose'?'the right answer is '+letter(t.right_choice)+'. '"
    "+(j.choices[t.right_choice]||''):'the lab\\'s number is '+t.value;}\n"
    "function echoText(j){if(j.q<0)return['',''];\n"
    " if(j.phase==='open')return[j.mine?'Your answer: '+j.mine:j.round>1?'No answer sent yet in round '+j.round+'.':'',''];\n"
    " if(j.phase!=='shown'||!j.tally)return['',''];\n"
    " if(!j.mine)return[j.round>1?'You sent no answer in round '+j.round+'.':'You sent no answer.',''];\n"
    " if(j.mine_right===true)return['Your answer '+j.mine+': counted right.','right'];\n"
    " if(j.mine_right===false)return['Your answer '+j.mine+': not counted: '+rightAnswer(j)+'.','wrong'];\n"
    " return['Your answer: '+j.mine,''];}\n"
    "function resultText(r){if(!r.mine)return['No answer sent'+(r.answer?'; the answer: '+r.answer:'')+'.',''];\n"
    " if(r.right===true)return['Your answer '+r.mine+': counted right.','right'];\n"
    " if(r.right===false)return['Your answer '+r.mine+': not counted: the answer is '+r.answer+'.','wrong'];\n"
    " return['Your answer '+r.mine+' (its answer was not revealed).',''];}\n"
    "function say(text,css){put(echo,text);if(echo.className!==css)echo.className=css;}\n"
    /* The field is made anew only for another question: the same one keeps what was typed or chosen. */
    "function field(j){var box=$('field'),same=String(j.q)===f.getAttribute('data-q'),kind=j.kind==='choose';\n"
    " var radios=box.querySelectorAll('input[type=radio]'),num=$('num');\n"
    " if(same&&(kind?radios.length===j.choices.length:!!num)){\n"
    "  if(kind)j.choices.forEach(function(c,i){put(radios[i].nextElementSibling,letter(i)+'. '+c);});\n"
    "  else put($('hint'),'Your answer ('+j.hint+')');return;}\n"
    " f.setAttribute('data-q',j.q);f.elements.q.value=j.q;box.textContent='';\n"
    " Array.prototype.forEach.call(f.querySelectorAll('input[name=s]'),function(r){r.checked=false;});\n"
    " if(kind)j.choices.forEach(function(c,i){var l=el('label',null,'choice'),r=el('input');r.type='radio';r.name='a';\n"
    "  r.value=letter(i);r.required=true;r.checked=j.mine.slice(0,2)===letter(i)+'.';l.appendChild(r);\n"
    "  l.appendChild(el('span',letter(i)+'. '+c));box.appendChild(l);});\n"
    " else{var h=el('label','Your answer ('+j.hint+')');h.htmlFor='num';h.id='hint';var n=el('input');n.type='text';\n"
    "  n.id='num';n.name='a';n.maxLength=31;n.required=true;n.autocomplete='off';n.spellcheck=false;\n"
    "  n.inputMode=/^a (share|whole number)/.test(j.hint)?'decimal':'text';box.appendChild(h);box.appendChild(n);}}\n"
    "function reveal(j){var t=j.tally,sig=JSON.stringify([j.q,j.prompt,j.choices,t]);if(seen.reveal===sig)return;\n"
    " seen.reveal=sig;put($('reveal-title'),'Question '+(j.q+1)+': the answer');put($('reveal-prompt'),j.prompt);\n"
    " put($('answer'),j.kind==='choose'?'The right answer: '+letter(t.right_choice)+'. '+j.choices[t.right_choice]+'.'"
    ":'The lab computed '+t.value+'.');\n"
    " var rs=$('rounds');rs.textContent='';t.rounds.forEach(function(r,i){rs.appendChild(el('p','Round '+(i+1)+': '"
    "+r.answered+' answered, '+r.right+' right.'));});\n"
    " var tb=$('tally'),hd=tb.tHead||tb.createTHead(),bd=tb.tBodies[0]||tb.createTBody(),tr=el('tr');\n"
    " hd.textContent='';bd.textContent='';var th=el('th','answer');th.scope='col';tr.appendChild(th);\n"
    " t.rounds.forEach(function(r,i){var h=el('th','round '+(i+1));h.scope='col';tr.appendChild(h);});hd.appendChild(tr);\n"
    " t.rows.forEach(function(row,i){var tr=el('tr',null,row.right?'right':''),h=el('th',row.label);\n"
    "  h.scope='row';tr.appendChild(h);t.rounds.forEach(function(r){tr.appendChild(el('td',String(r.counts[i])));});\n"
    "  bd.appendChild(tr);});\n"
    " var b=$('band');b.textContent='';if(t.band)b.appendChild(el('p','Counted right: '+t.band+'.'));}\n"
    "function results(j){var sig=JSON.stringify(j.results);if(seen.results===sig)return;seen.results=sig;\n"
    " var ol=$('results');ol.textContent='';(j.results||[]).forEach(function(r){var li=el('li'),p=el('p'),s=resultText(r);\n"
    "  p.appendChild(el('strong','Question '+r.question+'.'));p.appendChild(document.createTextNode(' '+r.prompt));\n"
    "  li.appendChild(p);li.appendChild(el('p',s[0],s[1]));ol.appendChild(li);});\n"
    " $('results-none').hidden=ol.children.length>0;}\n"
    "function render(j,sent){var open=j.phase==='open';put($('status'),statusText(j));\n"
    " var cd=$('countdown'),left=j.countdown>0&&(open||j.phase==='shown');cd.hidden=!left;\n"
    " if(left)put(cd,'Discuss: '+Math.floor(j.countdown/60)+':'+('0'+j.countdown%60).slice(-2)+' left.');\n"
    " if(j.q>=0&&j.kind){field(j);put($('legend'),'Question '+(j.q+1)+', round '+j.round);put($('prompt'),j.prompt);}\n"
    " f.hidden=!open;\n"
    /* The echo changes with the state (or a sent answer), never under a message the poll knows nothing of. */
    " var e=echoText(j),ek=JSON.stringify(e);if(sent||seen.echo!==ek){seen.echo=ek;say(e[0],e[1]);}\n"
    " var sh=j.phase==='shown'&&!!j.tally;$('reveal').hidden=!sh;if(sh)reveal(j);\n"
    " $('ended').hidden=j.phase!=='ended';if(j.phase==='ended')results(j);}\n"
    "f.addEventListener('submit',function(ev){ev.preventDefault();\n"
    " var b=new URLSearchParams(new FormData(f)).toString();\n"
    " fetch('/answer',{method:'POST',headers:{'Accept':'application/json',"
    "'Content-Type':'application/x-www-form-urlencoded'},body:b})\n"
    " .then(function(r){return r.text().then(function(t){if(r.ok)render(JSON.parse(t),true);\n"
    "  else say('Not taken: '+t.trim(),'wrong');});})\n"
    " .catch(function(){say('Not sent: the connection failed. Try again.','wrong');});});\n"
    "function lost(text,join){if(!conn.hidden&&seen.conn===text)return;seen.conn=text;conn.textContent=text;if(join){var a=el('a','join again','join');a.href='/';"
    "conn.appendChild(document.createTextNode(' '));conn.appendChild(a);}conn.hidden=false;}\n"
    "function poll(){fetch('/state',{headers:{'Accept':'application/json'},cache:'no-store'})\n"
    " .then(function(r){if(r.status===401){stopped=true;lost('This class does not know this device any more:',true);"
    "return null;}\n"
    "  if(!r.ok)throw new Error(r.status);return r.json();})\n"
    " .then(function(j){if(!j)return;conn.hidden=true;seen.conn='';render(j,false);if(j.phase==='ended')stopped=true;})\n"
    " .catch(function(){lost('The class is not answering: it may have ended. Trying again\\u2026',false);})\n"
    " .then(function(){if(!stopped)setTimeout(poll,1000);});}\n"
    "setTimeout(poll,1000);})();\n"
    "</script>\n";

void pl_class_page_vote(FILE *f, PlClass *c, int student, const char *note) {
    PlClassNow n;
    char mine[600], line[1400];
    const char *css;
    (void)note;
    pl_class_now(c, &n);
    pl_class_mine(c, student, mine, sizeof mine);
    head(f, "padlab: the class votes");
    status_text(&n, line, sizeof line);
    text_el(f, "<main><h1>padlab class</h1>\n<p id=\"status\" role=\"status\">", line, "</p>\n");
    fputs("<p id=\"conn\" class=\"note\" role=\"alert\" hidden></p>\n", f);
    int left = n.countdown > 0 && (n.phase == PL_CLASS_OPEN || n.phase == PL_CLASS_SHOWN);
    fprintf(f, "<p id=\"countdown\"%s>", left ? "" : " hidden");
    if (left) fprintf(f, "Discuss: %d:%02d left.", n.countdown / 60, n.countdown % 60);
    fputs("</p>\n", f);
    vote_form(f, c, student, &n, mine);
    echo_text(c, student, &n, mine, line, sizeof line, &css);
    fprintf(f, "<p id=\"echo\" class=\"%s\" aria-live=\"polite\">", css);
    pl_class_html_escape(f, line);
    fputs("</p>\n", f);
    reveal(f, c, &n);
    ended(f, c, student, &n);
    fputs("</main>\n", f);
    fputs(script, f);
    fputs("</body></html>\n", f);
}

/* ---- /state ---- */

static void state_tally(JsonW *w, PlClass *c, const PlClassNow *n) {
    PlClassTally t;
    if (pl_class_tally(c, n->q, &t)) return;
    int most, rows = pl_class_tally_rows(&t, &most);
    json_obj(w, "tally");
    if (t.kind == PL_CLASS_CHOICE) json_int(w, "right_choice", t.right_choice);
    else {
        char band[120];
        band_text(&t, band, sizeof band);
        json_str(w, "value", t.value_text), json_num(w, "band_lo", t.band_lo), json_num(w, "band_hi", t.band_hi);
        json_str(w, "band", band);
    }
    json_arr(w, "rounds");
    for (int r = 0; r < t.rounds; r++) {
        json_obj(w, NULL);
        json_int(w, "answered", t.answered[r]);
        json_int(w, "right", t.right[r]);
        json_arr(w, "counts");
        for (int i = 0; i < rows; i++) json_int(w, NULL, pl_class_tally_count(&t, r, i));
        json_close(w, ']');
        json_close(w, '}');
    }
    json_close(w, ']');
    json_arr(w, "rows"); /* each row's label, as the page's table heads it */
    for (int i = 0; i < rows; i++) {
        char label[600];
        int right = row_label(n, &t, i, label, sizeof label);
        json_obj(w, NULL);
        json_str(w, "label", label);
        json_bool(w, "right", right);
        json_close(w, '}');
    }
    json_close(w, ']');
    json_close(w, '}');
}

/* The student's own answers, question by question, against the lab's
 * numbers: what the end of a class (an exam's above all) shows them. */
static void state_results(JsonW *w, PlClass *c, int student) {
    json_arr(w, "results");
    for (int qi = 0; qi < pl_class_questions(c); qi++) {
        Result r;
        if (!result_of(c, student, qi, &r)) continue;
        json_obj(w, NULL);
        json_int(w, "question", qi + 1);
        json_str(w, "prompt", r.prompt);
        json_str(w, "mine", r.mine);
        json_str(w, "answer", r.answer);
        if (r.right < 0) json_num(w, "right", NAN);
        else json_bool(w, "right", r.right);
        json_close(w, '}');
    }
    json_close(w, ']');
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
    if (n.q >= 0 && mine[0]) json_int(&w, "mine_sure", pl_class_vote_sure(c, student, n.q, n.round));
    if (n.countdown >= 0) json_int(&w, "countdown", n.countdown); /* seconds left to discuss */
    if (n.q >= 0 && n.kind == PL_CLASS_NUMBER) {
        char hint[80];
        json_str(&w, "hint", pl_class_answer_hint(c, n.q, hint, sizeof hint));
    }
    if (n.phase == PL_CLASS_SHOWN && mine[0]) { /* whether their own answer counted: said to them, not guessed */
        int right = pl_class_vote_right(c, student, n.q, n.round);
        if (right >= 0) json_bool(&w, "mine_right", right);
    }
    if (n.phase == PL_CLASS_SHOWN) state_tally(&w, c, &n);
    if (n.phase == PL_CLASS_ENDED) json_bool(&w, "ended", 1), state_results(&w, c, student);
    json_end(&w);
}
