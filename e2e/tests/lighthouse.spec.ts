import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { expect, test, type TestInfo } from '@playwright/test';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { createVerifiedUser, PASSWORD } from '../support/app.ts';
import { chromiumLaunch } from '../support/browser.ts';
import { ApiSession, topUpByCard } from '../support/money.ts';

/**
 * Lighthouse with its mobile defaults (a mid-range phone's screen, simulated slow 4G and a 4x
 * slower CPU) on the built console, /login and the signed-in /vps of a user with two servers:
 * accessibility 100, and the performance score printed next to issue 14's goal (95). The score
 * is a timing, which this test prints and `npm run bench` (its lighthouse section, this test)
 * reports: on a host whose CPU runs slower or busier than Lighthouse's 4x assumes, the same
 * build scores lower (the same commit scored 0.98 and, on a slower day, 0.84). Lighthouse
 * drives a Chromium of its own (chrome-launcher; Playwright's browser talks over a pipe
 * Lighthouse cannot join), through puppeteer-core, in which the user signs in with the login
 * form first: the audited /vps is the page a returning user opens, with the session the console
 * stored itself. The median run's reports (HTML and JSON) and its trace go next to the test's
 * other output in test-results.
 */

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Issue 14's goals: performance at least 95 and accessibility 100 on both pages. Measured alone on
 * two cores, /login scored 0.96-0.98 and the signed-in /vps 0.98-0.99: its LCP is the home page's
 * lead, which index.html paints before the script runs (1.7-1.8 s), and its total blocking time
 * (30-120 ms) the main thread's work after the first paint, each task counted four times over.
 */
const PERFORMANCE_GOAL = 0.95;
const ACCESSIBILITY = 1;
/**
 * A score varies from load to load on a busy machine: each page is audited this many times and
 * its median run is the one reported, as Lighthouse's own guidance on variability has it.
 */
const RUNS = 3;

// The scores hang on the CPU time of the page: one page at a time in this file (in order, in one
// worker; a failure on one page does not skip the other).
test.describe.configure({ mode: 'default', timeout: 180_000 });

interface NetworkRequest {
  url: string;
  statusCode: number;
}

/** The test's Chromium, closed after each test (also after a time-out). */
let chrome: LaunchedChrome | undefined;
let browser: Browser | undefined;

async function startChrome(): Promise<Page> {
  const { executablePath, env } = chromiumLaunch();
  chrome = await launch({ chromePath: executablePath, envVars: env, chromeFlags: CHROME_FLAGS });
  browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  return browser.newPage();
}

test.afterEach(async () => {
  await browser?.disconnect().catch(() => undefined);
  chrome?.kill();
  browser = undefined;
  chrome = undefined;
});

/**
 * What a CI log needs to tell why a score fell: the audits that cost points (the metrics, or the
 * failed accessibility checks), then the performance diagnostics that did not pass (render-
 * blocking resources, unused JavaScript, the main thread's work…), which say where the time went.
 */
function failingAudits(lhr: Result, category: string): string[] {
  const line = (audit: Result['audits'][string]) =>
    `${audit.id} (${audit.score}): ${audit.title}` +
    (audit.displayValue ? ` — ${audit.displayValue}` : '');
  const refs = lhr.categories[category]!.auditRefs.map((ref) => ({
    weight: ref.weight,
    audit: lhr.audits[ref.id]!,
  }));
  const failed = (audit: Result['audits'][string]) =>
    audit.score !== null &&
    audit.score < 1 &&
    !['informative', 'notApplicable', 'manual'].includes(audit.scoreDisplayMode);
  const scored = refs.filter((ref) => ref.weight > 0 && failed(ref.audit)).map((ref) => ref.audit);
  const diagnostics = refs
    .filter((ref) => ref.weight === 0 && failed(ref.audit))
    .map((ref) => ref.audit);
  return [
    ...scored.map(line),
    ...(diagnostics.length ? ['diagnostics:', ...diagnostics.map((a) => `  ${line(a)}`)] : []),
  ];
}

type Run = NonNullable<Awaited<ReturnType<typeof lighthouse>>>;

/** One Lighthouse run of `url` in the test's Chromium, checked to be a whole audit of that page. */
async function auditOnce(page: Page, url: string): Promise<Run> {
  const run = () =>
    lighthouse(
      url,
      {
        logLevel: 'error',
        output: ['html', 'json'],
        onlyCategories: ['performance', 'accessibility'],
      },
      undefined,
      page,
    );
  let result = await run();
  // a trace recorded without the page's navigationStart is Lighthouse's own failure, not a
  // score: it asks to run again, and so does the test, once
  if (result?.lhr.runtimeError?.code === 'NO_NAVSTART') {
    console.log(`Lighthouse ${url}: ${result.lhr.runtimeError.message} Running it again.`);
    result = await run();
  }
  expect(result, `a Lighthouse report of ${url}`).toBeDefined();
  const { lhr } = result!;
  expect(lhr.runtimeError, 'Lighthouse ran without an error').toBeUndefined();
  // a request the page never ends (a stream Lighthouse takes for a critical one) makes it wait
  // out its time limit and audit a load it calls incomplete
  expect(lhr.runWarnings.filter((warning) => /too slowly/.test(warning))).toEqual([]);
  expect(lhr.finalDisplayedUrl, 'the audited page is the one asked for').toBe(url);
  return result!;
}

/**
 * Audits `url` RUNS times: every run must score 100 for accessibility; the median run (by
 * performance) is printed against the performance goal, and its reports go to the test's output.
 */
async function audit(page: Page, url: string, name: string, testInfo: TestInfo): Promise<Result> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await auditOnce(page, url));
  const score = (run: Run) => run.lhr.categories.performance!.score ?? 0;
  const { lhr, report, artifacts } = [...runs].sort((a, b) => score(a) - score(b))[
    Math.floor(RUNS / 2)
  ]!;
  const [html, json] = report as string[];
  writeFileSync(testInfo.outputPath(`${name}.report.html`), html!);
  writeFileSync(testInfo.outputPath(`${name}.report.json`), json!);
  // the unthrottled trace Lighthouse simulated its timings from: its long tasks tell what to cut
  writeFileSync(testInfo.outputPath(`${name}.trace.json`), JSON.stringify(artifacts.Trace));
  const performance = lhr.categories.performance!.score ?? 0;
  const accessibility = lhr.categories.accessibility!.score;
  const goal = performance >= PERFORMANCE_GOAL ? 'met' : 'missed';
  console.log(
    `Lighthouse ${new URL(url).pathname}: performance ${performance} (the median of ${runs.map(score).join(', ')};` +
      ` goal ${PERFORMANCE_GOAL}: ${goal}), accessibility ${accessibility}` +
      ` (LCP ${lhr.audits['largest-contentful-paint']!.displayValue},` +
      ` TBT ${lhr.audits['total-blocking-time']!.displayValue}, CPU benchmark ${lhr.environment.benchmarkIndex});` +
      ` ${testInfo.outputPath(name)}.report.html`,
  );
  if (goal === 'missed') console.log(failingAudits(lhr, 'performance').join('\n'));
  for (const run of runs) {
    expect
      .soft(
        run.lhr.categories.accessibility!.score ?? 0,
        `accessibility of ${url}:\n${failingAudits(run.lhr, 'accessibility').join('\n')}`,
      )
      .toBe(ACCESSIBILITY);
  }
  return lhr;
}

test('Lighthouse (mobile) audits /login: accessibility 100, performance against its goal', async ({
  baseURL,
}, testInfo) => {
  const page = await startChrome();
  const lhr = await audit(page, `${baseURL}/login`, 'login', testInfo);
  expect(lhr.configSettings.formFactor).toBe('mobile');
});

test('Lighthouse (mobile) audits the signed-in /vps of a user with two servers: accessibility 100, performance against its goal', async ({
  baseURL,
  request,
}, testInfo) => {
  const user = await createVerifiedUser(request, { name: 'Lena Lighthouse' });
  await topUpByCard(request, user.email, '200');
  const api = new ApiSession(request, user.email);
  const { rates } = await api.json<{ rates: { id: number }[] }>('GET', '/api/user/vps/rates', 200);
  const ids: number[] = [];
  for (const months of [1, 3]) {
    const { server } = await api.json<{ server: { id: number } }>(
      'POST',
      '/api/user/vps/order',
      201,
      { data: { rate_id: rates[0]!.id, months, source: 'forum' }, idempotencyKey: randomUUID() },
    );
    ids.push(server.id);
  }
  // the list as a returning user finds it: both servers made, nothing changing under the audit
  await expect
    .poll(
      async () =>
        (
          await api.json<{ data: { id: number; status: string }[] }>(
            'GET',
            '/api/user/vps/servers',
            200,
          )
        ).data
          .filter((server) => ids.includes(server.id))
          .map((server) => server.status),
      { message: 'both servers are created', timeout: 45_000 },
    )
    .toEqual(['active', 'active']);

  const page = await startChrome();
  // signed in the way a user signs in: the console stores its session (the refresh cookie,
  // the persisted token) in this browser, and Lighthouse keeps both (it clears caches only)
  await page.goto(`${baseURL}/login`);
  await page.locator('input[name="email"]').fill(user.email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await page.waitForFunction(() => location.pathname === '/vps');
  for (const id of ids) await page.locator(`::-p-text(#${id})`).wait();

  const lhr = await audit(page, `${baseURL}/vps`, 'vps', testInfo);
  // the audited load was signed in: it fetched the user's servers, and stayed on /vps
  const { items: requests } = lhr.audits['network-requests']!.details as unknown as {
    items: NetworkRequest[];
  };
  expect(
    requests.filter((r) => new URL(r.url).pathname === '/api/user/vps/servers'),
    'the audited load fetched the servers list',
  ).toContainEqual(expect.objectContaining({ statusCode: 200 }));
});
