// The student page in a real browser (Debian's headless chromium, driven by
// playwright-core): join with the code, answer, answer again, see the reveal.
// Run by tests/browser/class.sh, which starts the class session; the keys of
// the teacher go to the session through the FIFO given.
//   node class.js URL CODE KEYS_FIFO SHOTS_DIR
const { chromium } = require('playwright-core');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [url, code, fifo, shots] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) { passed++; console.log(`ok   ${what}`); } else { failed++; console.log(`FAIL ${what}`); }
}
const key = (k) => fs.appendFileSync(fifo, k);

(async () => {
  fs.mkdirSync(shots, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'padlab-chromium-'));
  // A fresh profile each run (playwright passes it as --user-data-dir).
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 420, height: 820 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const external = [];
    page.on('request', (r) => { if (!r.url().startsWith(url)) external.push(r.url()); });
    await page.goto(url);
    check(await page.getByLabel('The code on the projector').count() === 1, 'the join page labels its code field');
    await page.screenshot({ path: `${shots}/1-join.png` });
    await page.getByLabel('The code on the projector').fill('WRONG');
    await page.getByRole('button', { name: 'Join' }).click();
    check((await page.content()).includes('not this class'), 'a wrong code is refused');
    await page.goto(url);
    await page.getByLabel('The code on the projector').fill(code);
    await page.getByRole('button', { name: 'Join' }).click();
    await page.waitForURL(/\/vote$/);
    check(page.url().endsWith('/vote'), 'the code joins the class');
    key(' '); // the teacher opens the first question
    await page.waitForSelector('legend', { timeout: 15000 });
    check(await page.locator('fieldset legend').count() === 1, 'the question is a fieldset with its legend');
    check(await page.locator('#echo[aria-live=polite]').count() === 1, 'the echo is a live region');
    const num = page.getByLabel(/Your answer/);
    await num.fill('40');
    await page.getByRole('button', { name: 'Send my answer' }).click();
    await page.waitForFunction(() => document.getElementById('echo').textContent.includes('40'));
    check((await page.textContent('#echo')).trim() === 'Your answer: 40', 'the answer is echoed back');
    await page.screenshot({ path: `${shots}/2-answered.png` });
    await num.fill('<b>9</b>');
    await page.getByRole('button', { name: 'Send my answer' }).click();
    await page.waitForFunction(() => document.getElementById('echo').textContent.includes('Not taken'));
    check((await page.textContent('#echo')).includes('expected a number'), 'a text that is not a number is refused, said plainly');
    await num.fill('25');
    await page.getByRole('button', { name: 'Send my answer' }).click();
    await page.waitForFunction(() => document.getElementById('echo').textContent.includes('25'));
    check((await page.textContent('#echo')).trim() === 'Your answer: 25', 'a second answer replaces the first');
    await page.screenshot({ path: `${shots}/3-reanswered.png` });
    await page.reload();
    check((await page.textContent('#echo')).trim() === 'Your answer: 25', 'the answer is still there after a reload');
    key('r'); // the teacher reveals
    await page.waitForSelector('#answer', { timeout: 15000 });
    const answer = await page.textContent('#answer');
    check(/The lab computed \d+/.test(answer), `the reveal shows the lab's value (${answer.trim()})`);
    check(await page.locator('table caption').count() === 1, 'the tally is a table with its caption');
    await page.screenshot({ path: `${shots}/4-revealed.png`, fullPage: true });
    check(external.length === 0, `nothing is fetched from elsewhere (${external.length} requests)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${e.message.split('\n')[0]}`);
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log(`tally: ${passed} passed, ${failed} failed, 0 skipped`);
  process.exit(failed ? 1 : 0);
})();
