// The student page in a real browser (Debian's headless chromium, driven by
// playwright-core), on lesson 01-rectangle (question 1: a count, 1400;
// question 2: a share, 23.3% within 3 points; question 3: a choice, b right).
// Run by tests/browser/class.sh, which starts the class session; the
// teacher's keys go to the session through the FIFO given.
//   node class.js URL CODE KEYS_FIFO SHOTS_DIR
//
// What it checks: joining; the page follows the class in place, never
// reloading, so that an answer typed but not sent survives the teacher's
// keys (a second student's vote, a second round, a reveal and a reopening);
// the field's hint follows the question's unit; after the reveal the page
// says whether the student's own answer counted; every tap target is at
// least 44 px; dark mode; the end of the class with the student's results;
// the same page without script; the page in place says what the server's
// page says; nothing is fetched from elsewhere and the CSP is never broken.
const { chromium } = require('playwright-core');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [url, code, fifo, shots] = process.argv.slice(2);
const base = url.replace(/\/$/, '');
let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) { passed++; console.log(`ok   ${what}`); } else { failed++; console.log(`FAIL ${what}${detail ? `: ${detail}` : ''}`); }
}
const key = (k) => fs.appendFileSync(fifo, k);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const WAIT = { timeout: 20000 };

// Chromium as the project runs it: headless, no network of its own, a fresh
// profile each run (playwright passes it as --user-data-dir).
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
async function launch(profile, extra) {
  return chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 390, height: 844 },
    args: FLAGS, ...extra,
  });
}

// The figures a page is measured by, worked out in the page.
async function sizes(page, selector) {
  return page.$$eval(selector, (els) => els.filter((e) => e.offsetParent !== null).map((e) => {
    const r = e.getBoundingClientRect();
    return { what: e.id || e.className || e.tagName.toLowerCase(), w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10 };
  }));
}
async function tapTargets(page, what) {
  const s = await sizes(page, 'input:not([type=hidden]):not([type=radio]), label.choice, button, a');
  const small = s.filter((t) => t.w < 44 || t.h < 44);
  const least = s.length ? Math.min(...s.map((t) => t.h)) : 0;
  check(s.length > 0 && small.length === 0, `${what}: every tap target is at least 44 px (${s.length} targets, the least ${least} px high)`,
    JSON.stringify(small));
  return s;
}
// Colours as the page paints them, and WCAG's contrast ratio between two.
async function colours(page) {
  return page.evaluate(() => {
    const c = (sel, prop) => { const e = document.querySelector(sel); return e ? getComputedStyle(e)[prop] : null; };
    const mark = (css) => { // the colour of a verdict, shown or not: a probe of its class
      const p = document.createElement('p');
      p.className = css;
      document.querySelector('main').appendChild(p);
      const v = getComputedStyle(p).color;
      p.remove();
      return v;
    };
    return { bg: c('body', 'backgroundColor'), fg: c('body', 'color'), buttonBg: c('button', 'backgroundColor'),
      buttonFg: c('button', 'color'), right: mark('right'), wrong: mark('wrong'),
      field: c('#num', 'backgroundColor'), fieldFg: c('#num', 'color') };
  });
}
function rgb(s) { const m = /rgba?\((\d+), (\d+), (\d+)/.exec(s || ''); return m ? m.slice(1, 4).map(Number) : null; }
function luminance(s) {
  const v = rgb(s).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function contrast(a, b) { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); }
const hex = (s) => '#' + rgb(s).map((x) => x.toString(16).padStart(2, '0')).join('');

// The parts of the vote page as text, blanks collapsed: of the page live,
// or of the page the server sends now (parsed, never run).
const PARTS = ['status', 'countdown', 'legend', 'prompt', 'hint', 'echo', 'reveal-title', 'answer', 'rounds', 'tally', 'band', 'results'];
// Each text node trimmed, joined by one blank: the markup's line breaks
// between rows are not text.
async function partsLive(page) {
  return page.evaluate((ids) => {
    const words = (e) => {
      const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), out = [];
      while (w.nextNode()) { const t = w.currentNode.data.replace(/\s+/g, ' ').trim(); if (t) out.push(t); }
      return out.join(' ');
    };
    return Object.fromEntries(ids.map((id) => {
      const e = document.getElementById(id);
      return [id, e && !e.closest('[hidden]') ? words(e) : ''];
    }));
  }, PARTS);
}
async function partsServed(page) {
  return page.evaluate(async (ids) => {
    const html = await (await fetch('/vote')).text();
    const d = new DOMParser().parseFromString(html, 'text/html');
    const words = (e) => {
      const w = d.createTreeWalker(e, NodeFilter.SHOW_TEXT), out = [];
      while (w.nextNode()) { const t = w.currentNode.data.replace(/\s+/g, ' ').trim(); if (t) out.push(t); }
      return out.join(' ');
    };
    return Object.fromEntries(ids.map((id) => {
      const e = d.getElementById(id);
      return [id, e && !e.closest('[hidden]') ? words(e) : ''];
    }));
  }, PARTS);
}
async function sameAsServed(page, what) {
  const live = await partsLive(page), served = await partsServed(page);
  const diff = PARTS.filter((p) => live[p] !== served[p]).map((p) => `${p}: live "${live[p]}" / served "${served[p]}"`);
  check(diff.length === 0, `${what}: the page updated in place says what the server's page says`, diff.join('; '));
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent.trim());
// Until the element shows the text (a part hidden keeps what it said last).
const waitText = (page, sel, want) => page.waitForFunction(([s, w]) => {
  const e = document.querySelector(s);
  return e && !e.closest('[hidden]') && e.textContent.includes(w);
}, [sel, want], WAIT);

(async () => {
  fs.mkdirSync(shots, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'padlab-chromium-'));
  const plainProfile = fs.mkdtempSync(path.join(os.tmpdir(), 'padlab-chromium-'));
  const browser = await launch(profile);
  let plain = null;
  const figures = {};
  try {
    const page = await browser.newPage();
    const external = [], csp = [], errors = [];
    let navigations = 0;
    page.on('request', (r) => { if (!r.url().startsWith(base)) external.push(r.url()); });
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) csp.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) navigations++; });

    // ---- joining ----
    await page.goto(url);
    check(await page.getByLabel('The code on the projector').count() === 1, 'the join page labels its code field');
    figures.join = await tapTargets(page, 'the join page');
    await page.screenshot({ path: `${shots}/1-join.png` });
    await page.getByLabel('The code on the projector').fill('WRONG');
    await page.getByRole('button', { name: 'Join' }).click();
    check((await page.content()).includes('not this class'), 'a wrong code is refused');
    await page.goto(url);
    await page.getByLabel('The code on the projector').fill(code);
    await page.getByRole('button', { name: 'Join' }).click();
    await page.waitForURL(/\/vote$/);
    check(page.url().endsWith('/vote'), 'the code joins the class');
    check((await text(page, '#status')) === "Waiting for the teacher's next question.", 'before the first question the page says it waits');
    check(await page.$$eval('script', (s) => s.length) === 1 &&
      await page.$$eval('*', (els) => els.flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith('on')).length) === 0,
      'one script, and no event handler in the markup');
    const res = await page.request.get(`${base}/vote`);
    check(res.headers()['content-security-policy'] ===
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'",
      'the page is served with its CSP');
    await page.evaluate(() => { window.padlabMark = 'not reloaded'; });
    const loaded = navigations;
    const notReloaded = async () => navigations === loaded && await page.evaluate(() => window.padlabMark) === 'not reloaded';

    // ---- question 1, a count: the page follows the class in place ----
    key(' '); // the teacher opens the first question
    await waitText(page, '#legend', 'Question 1, round 1');
    check(await notReloaded(), 'the question opens in place, the page not reloaded');
    check(await page.locator('#f > fieldset > legend').count() === 1, 'the question is a fieldset with its legend');
    check(await page.locator('#echo[aria-live=polite]').count() === 1, 'the echo is a live region');
    const countHint = await text(page, '#hint');
    check(countHint === 'Your answer (a whole number: 1330, or 1,330)', `a count's field asks for a whole number (${countHint})`);
    figures.open = await tapTargets(page, 'an open number question');
    const num = page.getByLabel(/Your answer/);
    await num.fill('<b>9</b>');
    await page.getByRole('button', { name: 'Send my answer' }).click();
    await waitText(page, '#echo', 'Not taken');
    await sleep(2200); // two polls
    check((await text(page, '#echo')).includes('expected a whole number'), 'a text that is not a number is refused, and the polls leave the refusal said');
    await num.fill('');
    await num.pressSequentially('1,399'); // typed, not sent

    // A second student, without script: joins with the form, answers with the form.
    plain = await launch(plainProfile, { javaScriptEnabled: false });
    const pp = await plain.newPage();
    await pp.goto(url);
    await pp.getByLabel('The code on the projector').fill(code);
    await pp.getByRole('button', { name: 'Join' }).click();
    await pp.waitForURL(/\/vote$/);
    check((await pp.textContent('#hint')).trim() === countHint, 'without script the page shows the question and its hint');
    await pp.getByLabel(/Your answer/).fill('1400');
    await pp.getByRole('button', { name: 'Send my answer' }).click();
    await pp.waitForURL(/\/vote$/);
    check((await pp.textContent('#echo')).trim() === 'Your answer: 1400', 'without script the form posts and the page comes back with the answer');
    await sleep(1500); // a poll after the second student's vote
    check(await num.inputValue() === '1,399' && await notReloaded(), "a second student's vote leaves the typed answer as it was");

    key('v'); // the teacher: discuss, and vote again (round 2)
    await waitText(page, '#legend', 'Question 1, round 2');
    check(await num.inputValue() === '1,399', `the typed answer survives the teacher's key for round 2 ("${await num.inputValue()}")`);
    check(await notReloaded(), 'round 2 comes in place, the page not reloaded');
    check((await text(page, '#echo')) === 'No answer sent yet in round 2.', 'round 2 says no answer is sent in it yet');
    key('t'); // the teacher: a minute's countdown to discuss
    await waitText(page, '#countdown', 'Discuss: ');
    const left = await text(page, '#countdown');
    check(/^Discuss: (1:00|0:5\d) left\.$/.test(left) && await num.inputValue() === '1,399', `the countdown shows in place (${left})`);
    await page.screenshot({ path: `${shots}/2-typed-round-2.png` });
    key('t'); // and stops it
    await page.waitForFunction(() => document.getElementById('countdown').hidden, null, WAIT);
    await page.getByRole('button', { name: 'Send my answer' }).click();
    await waitText(page, '#echo', 'Your answer: 1,399');
    check((await text(page, '#echo')) === 'Your answer: 1,399', 'an answer with a thousands separator is taken and echoed');
    await sameAsServed(page, 'question 1 open');

    key('r'); // the teacher reveals
    await waitText(page, '#reveal-title', 'Question 1: the answer');
    check(await notReloaded(), 'the reveal comes in place, the page not reloaded');
    check((await text(page, '#answer')) === 'The lab computed 1400.', `the reveal shows the lab's value (${await text(page, '#answer')})`);
    const verdict1 = await text(page, '#echo');
    check(verdict1 === "Your answer 1,399: not counted: the lab's number is 1400." &&
      await page.$eval('#echo', (e) => e.className) === 'wrong', `an answer off the lab's number is said not to count (${verdict1})`);
    check(await page.locator('table caption').count() === 1 && await page.locator('#tally tbody tr').count() === 2,
      'the tally is a table with its caption, a row for 1399 and one for the band');
    check((await text(page, '#rounds')).includes('Round 2: 1 answered, 0 right.'), 'the rounds are counted');
    check(await page.$eval('#f', (f) => f.hidden), 'the question is no longer open to answer');
    await sameAsServed(page, 'question 1 revealed');
    await page.screenshot({ path: `${shots}/3-not-counted.png`, fullPage: true });

    // ---- question 2, a share: the hint follows the unit; counted right ----
    key(' ');
    await waitText(page, '#legend', 'Question 2, round 1');
    const shareHint = await text(page, '#hint');
    check(shareHint === 'Your answer (a share: 19.6%, 19.6 or 0.196)' && shareHint !== countHint,
      `a share's field asks for a share, not a count (${shareHint})`);
    check(await num.inputValue() === '', "another question's field starts empty");
    check(await page.$eval('#num', (e) => e.inputMode) === 'decimal', 'a share gets the decimal keypad');
    check(await page.locator('#sure label.level').count() === 3 && !(await page.locator('#sure input:checked').count()),
      'a new question asks how sure, nothing chosen yet');
    await num.fill('23');
    await page.getByText('3. sure', { exact: true }).click();
    await page.getByRole('button', { name: 'Send my answer' }).click();
    await waitText(page, '#echo', 'Your answer: 23');
    const mineSure = await page.evaluate(() => fetch('/state', { headers: { Accept: 'application/json' } }).then((r) => r.json()));
    check(mineSure.mine_sure === 3, `how sure travels with the answer (mine_sure ${mineSure.mine_sure})`);
    check(await page.locator('#sure input[value="3"]').isChecked(), 'the choice of how sure stays chosen after sending');
    key('r');
    await waitText(page, '#reveal-title', 'Question 2: the answer');
    const verdict2 = await text(page, '#echo');
    check(verdict2 === 'Your answer 23: counted right.' && await page.$eval('#echo', (e) => e.className) === 'right',
      `an answer within the tolerance is said to count (${verdict2})`);
    await sameAsServed(page, 'question 2 revealed');
    await page.screenshot({ path: `${shots}/4-counted-right.png`, fullPage: true });
    figures.light = await colours(page);

    // ---- question 3, a choice: whole-label radio rows, a choice survives ----
    key(' ');
    await waitText(page, '#legend', 'Question 3, round 1');
    const rows = await tapTargets(page, 'an open choice question');
    figures.choice = rows;
    check(await page.locator('label.choice').count() === 3, 'each choice is a row of its own');
    // The class sees the choices in an order of its own: the right one is found by its text.
    const right = page.locator('label.choice', { hasText: 'tokens kept' });
    const wrong = page.locator('label.choice', { hasText: 'Nothing changes' });
    const rightLetter = await right.locator('input').getAttribute('value');
    await wrong.locator('span').click(); // the text, not the radio: the whole row is the target
    check(await wrong.locator('input').isChecked(), 'a tap on a choice\'s text chooses it');
    key('v');
    await waitText(page, '#legend', 'Question 3, round 2');
    check(await wrong.locator('input').isChecked() && await notReloaded(), 'a choice not yet sent survives round 2');
    await right.click();
    await page.getByRole('button', { name: 'Send my answer' }).click();
    await waitText(page, '#echo', `Your answer: ${rightLetter}.`);
    key('r');
    await waitText(page, '#reveal-title', 'Question 3: the answer');
    const verdict3 = await text(page, '#echo');
    check(verdict3 === `Your answer ${rightLetter}. The share of tokens kept: counted right.`, `a right choice is said to count (${verdict3})`);
    check((await text(page, '#tally tbody tr.right th')) === `${rightLetter}. The share of tokens kept (counted right)`,
      'the tally marks the right choice');
    await sameAsServed(page, 'question 3 revealed');

    // ---- dark mode: a darkened classroom ----
    await page.emulateMedia({ colorScheme: 'dark' });
    figures.dark = await colours(page);
    const d = figures.dark, l = figures.light;
    check(luminance(d.bg) < 0.02 && luminance(d.fg) > 0.7, `in dark mode the background is dark and the text light (${hex(d.bg)} on which ${hex(d.fg)})`);
    check(luminance(l.bg) > 0.9, `in light mode the background is light (${hex(l.bg)})`);
    for (const [name, c] of [['light', l], ['dark', d]]) {
      const ratios = { text: contrast(c.fg, c.bg), button: contrast(c.buttonFg, c.buttonBg), right: contrast(c.right, c.bg),
        wrong: contrast(c.wrong, c.bg) };
      figures[`${name}Contrast`] = ratios;
      check(ratios.text >= 7 && Object.values(ratios).every((r) => r >= 4.5),
        `${name}: text, button and marks stand out (${Object.entries(ratios).map(([k, v]) => `${k} ${v.toFixed(1)}:1`).join(', ')})`);
    }
    await page.screenshot({ path: `${shots}/5-dark.png`, fullPage: true });
    key(' '); // question 4 opens: the dark page with a field
    await waitText(page, '#legend', 'Question 4, round 1');
    const dn = await colours(page);
    check(luminance(dn.field) < 0.05 && contrast(dn.fieldFg, dn.field) >= 7, `in dark mode the field is dark too (${hex(dn.field)}, text ${hex(dn.fieldFg)})`);
    await page.screenshot({ path: `${shots}/6-dark-open.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });

    // ---- the end: the page says so, with the student's answers ----
    await num.fill('5'); // typed, never sent
    key('qq'); // q asks once more before it ends the class
    await waitText(page, '#status', 'The class has ended.');
    check(await notReloaded(), 'the end comes in place, the page not reloaded');
    const results = await page.$$eval('#results li', (lis) => lis.map((li) => [...li.querySelectorAll('p')].map((p) => p.textContent.trim())));
    check(results.length === 4, `the end lists the 4 questions asked (${results.length})`);
    const line = (i) => (results[i] || [])[1] || '';
    check(line(0) === 'Your answer 1,399: not counted: the answer is 1400.', `question 1 against the lab's number (${line(0)})`);
    check(line(1) === 'Your answer 23: counted right.', `question 2 counted right (${line(1)})`);
    check(/^Your answer [abc]\. The share of tokens kept: counted right\.$/.test(line(2)), `question 3 counted right (${line(2)})`);
    check(/^No answer sent\.$/.test(line(3)), `question 4 without an answer, never revealed (${line(3)})`);
    check((results[0] || [])[0] === "Question 1. Of this batch's 6400 cells, how many hold the pad token?", 'each result names its question');
    check(await page.$eval('#f', (f) => f.hidden), 'after the end no question is open');
    await sameAsServed(page, 'the end');
    await page.screenshot({ path: `${shots}/7-ended.png`, fullPage: true });
    await sleep(4500); // the server stops 2.5 s after the end
    check(await page.$eval('#conn', (e) => e.hidden) && (await text(page, '#status')) === 'The class has ended.',
      'once the server has gone the page still shows the end, no error');
    check((await pp.reload().then(() => false, () => true)), 'the server has stopped');

    check(external.length === 0, `nothing is fetched from elsewhere (${external.length} requests)`);
    check(csp.length === 0, `the CSP is never broken (${csp.length} reports)`, csp.join(' | '));
    check(errors.length === 0, `the script throws nothing (${errors.length})`, errors.join(' | '));
    const all = [...figures.join, ...figures.open, ...figures.choice];
    console.log(`figures: tap targets ${all.map((t) => `${t.what} ${t.w}x${t.h}`).join(', ')}`);
    console.log(`figures: light ${hex(l.bg)} text ${hex(l.fg)} button ${hex(l.buttonBg)}/${hex(l.buttonFg)} right ${hex(l.right)} wrong ${hex(l.wrong)}; ` +
      `dark ${hex(d.bg)} text ${hex(d.fg)} button ${hex(d.buttonBg)}/${hex(d.buttonFg)} right ${hex(d.right)} wrong ${hex(d.wrong)}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${e.message.split('\n')[0]}`);
  } finally {
    await browser.close();
    if (plain) await plain.close();
    fs.rmSync(profile, { recursive: true, force: true });
    fs.rmSync(plainProfile, { recursive: true, force: true });
  }
  console.log(`tally: ${passed} passed, ${failed} failed, 0 skipped`);
  process.exit(failed ? 1 : 0);
})();
