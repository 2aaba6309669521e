// Drives a running `errdex up` in headless Chromium the way a person
// would: paste a raw log line into the home search, land on the error
// page, follow a related error, open the JSON, and look at the page on a
// phone. Screenshots go to OUT (under target/, kept as CI artifacts).
//
//   node tests/browser/run.js http://127.0.0.1:PORT target/browser
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const [base, out] = process.argv.slice(2);
if (!base || !out) {
  console.error('usage: node run.js BASE_URL OUT_DIR');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

function check(cond, what) {
  if (!cond) throw new Error(`browser check failed: ${what}`);
  console.log(`ok: ${what}`);
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  try {
    const desktop = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const violations = [];
    desktop.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) violations.push(m.text());
    });
    await desktop.goto(base + '/');
    const maxWidth = await desktop.evaluate(() => getComputedStyle(document.body).maxWidth);
    check(maxWidth === '960px', `the stylesheet applies under the Content-Security-Policy (body max-width ${maxWidth})`);
    const line = 'E1129 12:00:03.123456 1 apply_channel.go:130] serving readiness probe: listen tcp 0.0.0.0:3989: bind: address already in use';
    await desktop.fill('textarea#q', line);
    await Promise.all([desktop.waitForNavigation(), desktop.click('form[role=search] button')]);
    check(desktop.url().includes('/search?q='), 'the search form submits to /search');
    const traced = desktop.locator('ol li a').first();
    check((await traced.textContent()).includes('serving readiness probe'), 'the traced frame names the readiness-probe error');
    await Promise.all([desktop.waitForNavigation(), traced.click()]);
    check(desktop.url().endsWith('/kubernetes/kops/serving-readiness-probe-w/'), 'the frame links to the error page');
    check((await desktop.textContent('pre.msg')).trim() === 'serving readiness probe: %w', 'the page shows the message');
    check(await desktop.isVisible('#site'), 'the snippet marks the site line');
    await desktop.screenshot({ path: path.join(out, 'error-page-desktop.png'), fullPage: true });

    const related = desktop.locator('h2:has-text("Related errors") + ul a').first();
    const relatedHref = await related.getAttribute('href');
    await Promise.all([desktop.waitForNavigation(), related.click()]);
    check(desktop.url().endsWith(relatedHref), `the related link opens ${relatedHref}`);
    check((await desktop.textContent('h1')) === 'Error message', 'the related page is an error page');

    const json = desktop.locator('footer a[href^="/api/errors/"]').first();
    const jsonHref = await json.getAttribute('href');
    const response = await desktop.goto(base + jsonHref);
    const body = await response.json();
    check(body.record && body.record.repo === 'kubernetes/kops' && body.datasetVersion, 'the JSON link returns the record');

    check(violations.length === 0, `no Content-Security-Policy violations (${violations.join('; ')})`);

    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, deviceScaleFactor: 2 });
    await phone.goto(base + '/kubernetes/kops/serving-readiness-probe-w/');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 1, `no sideways scrolling on a phone (overflow ${overflow}px)`);
    await phone.screenshot({ path: path.join(out, 'error-page-phone.png'), fullPage: true });
    await phone.goto(base + '/');
    await phone.screenshot({ path: path.join(out, 'home-phone.png'), fullPage: true });
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
