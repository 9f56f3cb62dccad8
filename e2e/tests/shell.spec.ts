import { expect, test, type Page, type Response } from '@playwright/test';
import { createVerifiedUser, signIn, PASSWORD, uniqueEmail } from '../support/app.ts';
import { seriousViolations } from '../support/axe.ts';
import { makeOperator } from '../support/money.ts';

type Box = { x: number; y: number; width: number; height: number };

/** The console's entry script. */
const ENTRY = /\/assets\/index-[\w-]+\.js$/;

/**
 * Holds back the page's requests for `url` until `release()`, which lets them go on, waits until
 * they have, and holds no more.
 */
async function holdBack(page: Page, url: RegExp) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let sent = () => {};
  const continued = new Promise<void>((resolve) => (sent = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
    sent();
  });
  return {
    release: async () => {
      release();
      await continued;
      await page.unroute(url);
    },
  };
}

test('the theme and the language are kept across reloads', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  const darkTheme = page.getByRole('button', { name: 'Dark theme' });
  await expect(darkTheme).toHaveAttribute('aria-pressed', 'false');
  await darkTheme.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'RU' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/вход/i);

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/вход/i);
  await expect(page.getByRole('button', { name: 'Тёмная тема' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});

test('the theme follows the system preference until the user picks one', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

async function expectMenu(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  const menuButton = page.getByRole('button', { name: /open the menu|menu/i });
  if (width >= 1280) {
    await expect(menuButton).toBeHidden();
    await expect(
      page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'FAQ' }),
    ).toBeVisible();
    return;
  }
  await expect(menuButton).toBeVisible();
  await menuButton.click();
  const menu = page.getByRole('dialog');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('link', { name: 'FAQ' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Log out' })).toBeVisible();
  const toggles = menu.getByRole('button', { name: 'Dark theme' });
  if (width < 768) await expect(toggles).toBeVisible();
  else await expect(toggles).toHaveCount(0);
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
  await menu.getByRole('button', { name: /close/i }).click();
  await expect(menu).toBeHidden();
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');

  await menuButton.click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(menuButton).toBeFocused();
}

test('the navigation menu at 375, 1024 and 1440 px', async ({ page, request }) => {
  const user = await createVerifiedUser(request);
  await signIn(page, user.email);
  for (const width of [375, 1024, 1440]) await expectMenu(page, width);
});

test('unknown paths redirect to the root of the current route set', async ({ page, request }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/login$/);
  const user = await createVerifiedUser(request);
  await signIn(page, user.email);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/vps$/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/vps$/);
});

test('a referral link counts a click, fills the partner code, and sign-up accepts it', async ({
  page,
  request,
}) => {
  const partner = await createVerifiedUser(request, { name: 'Paula Partner' });
  const login = await request.post('/api/user/auth/login', {
    data: { email: partner.email, password: PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  const me = await request.get('/api/user/auth', { headers: { authorization: `Bearer ${token}` } });
  const { referral_code } = (await me.json()) as { referral_code: string };

  const click = page.waitForResponse((res) => res.url().endsWith('/api/clicks/create'));
  await page.goto(`/login?ref=${referral_code}`);
  expect((await click).status()).toBe(201);
  await expect(page).not.toHaveURL(/ref=/);
  await page.goto('/signup');
  await expect(page.getByLabel(/partner code/i)).toHaveValue(referral_code);

  const email = uniqueEmail('referred');
  await page.getByLabel('Name').fill('Rita Referred');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: /confirm your e-mail/i })).toBeVisible();
});

test('the console’s script arrives as brotli, made at build time, cached for a year', async ({
  page,
}) => {
  const responses = new Map<string, Response>();
  page.on('response', (response) => responses.set(new URL(response.url()).pathname, response));
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const main = await page.locator('script[type="module"]').getAttribute('src');
  const script = responses.get(main!);
  expect(script, `no response for ${main}`).toBeDefined();
  expect(await script!.headerValue('content-encoding')).toBe('br');
  expect(await script!.headerValue('vary')).toBe('Accept-Encoding');
  expect(await script!.headerValue('cache-control')).toBe('public, max-age=31536000, immutable');
});

test('a signed-in reload loads the signed-in layout and home page beside the entry, each file once', async ({
  page,
  request,
}) => {
  const requested: string[] = [];
  page.on('request', (req) => requested.push(new URL(req.url()).pathname));
  // head.js's worker (public/intl-warm.js), which the CSP must let run, and which ends itself
  const workers: { path: string; closed: Promise<unknown> }[] = [];
  page.on('worker', (worker) =>
    workers.push({ path: new URL(worker.url()).pathname, closed: worker.waitForEvent('close') }),
  );
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(workers, 'no worker for a signed-out reader').toEqual([]);
  // signed out: index.html lists the layout's files (and the home page's), and the layout is
  // not fetched
  const lists = JSON.parse((await page.locator('#signed-in-preload').textContent()) ?? '{}') as {
    layout: string[];
    home: { paths: string[]; files: string[]; en: string[] };
  };
  expect(lists.home.paths).toContain('/vps');
  const layout = lists.layout.find((file) => /\/assets\/signed-in-layout-[\w-]+\.js$/.test(file));
  expect(layout, 'the list holds the layout').toBeDefined();
  await expect(page.locator(`link[href="${layout}"]`)).toHaveCount(0);
  expect(requested).not.toContain(layout);

  const user = await createVerifiedUser(request);
  await signIn(page, user.email);
  requested.length = 0;
  // the entry's script held back: what loads meanwhile, head.js asked for
  const entry = await holdBack(page, ENTRY);
  await page.reload({ waitUntil: 'commit' });
  // at /vps, in English: once the first frame has painted, head.js added a preload link for each
  // of the layout's and the home page's files, and they load before the entry has run
  const listed = [...lists.layout, ...lists.home.files, ...lists.home.en];
  expect(lists.home.files.some((file) => /\/assets\/vps-page-[\w-]+\.js$/.test(file))).toBe(true);
  await expect
    .poll(() => listed.filter((file) => !requested.includes(file)), {
      message: 'every listed file is asked for while the entry is held',
    })
    .toEqual([]);
  for (const file of listed) {
    const rel = file.endsWith('.css') ? 'preload' : 'modulepreload';
    await expect(page.locator(`head link[rel="${rel}"][href="${file}"]`)).toHaveCount(1);
  }
  // the browser's date data loads in a worker meanwhile, which closes itself
  await expect.poll(() => workers.map((worker) => worker.path)).toEqual(['/intl-warm.js']);
  await workers[0]!.closed;
  await entry.release();
  await expect(page.getByRole('heading', { level: 1, name: 'VPS servers' })).toBeVisible();
  expect(violations).toEqual([]);
  // the page's loader took the preloaded files rather than fetching them again: one request each
  for (const file of listed) {
    expect(
      requested.filter((path) => path === file),
      file,
    ).toHaveLength(1);
  }
});

test('a signed-in reload at /vps paints the page’s heading and lead before the script runs, where the page puts them', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request);
  await signIn(page, user.email);
  await expect(page.getByRole('heading', { level: 1, name: 'VPS servers' })).toBeVisible();
  // whether a load ever put the full-screen spinner on the page (it would hide the frame)
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="full-screen-spinner"]')) {
        sessionStorage.setItem('spinner-shown', 'yes');
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const spinnerShown = () => page.evaluate(() => sessionStorage.getItem('spinner-shown'));

  /** Reloads with the console's script held back, and gives the frame index.html painted. */
  const reloadHeld = async () => {
    const entry = await holdBack(page, ENTRY);
    await page.reload({ waitUntil: 'commit' });
    return entry;
  };
  const box = async (selector: string) => {
    const found = await page.locator(selector).boundingBox();
    expect(found, selector).not.toBeNull();
    return found!;
  };

  const near = (a: number, b: number) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThan(1);
  const expectSameBox = (frame: Box, real: Box) => {
    near(frame.x, real.x);
    near(frame.y, real.y);
    near(frame.width, real.width);
    near(frame.height, real.height);
  };
  const logo = page.getByRole('link', { name: 'TradeHost, home' });
  const menu = page.getByRole('button', { name: 'Menu' });

  for (const width of [1440, 1024, 375]) {
    await page.setViewportSize({ width, height: 800 });
    const { release } = await reloadHeld();
    // English: the English block shows under the bar, the Russian one does not
    const english = page.locator('.boot-home-page[lang="en"]');
    await expect(english.locator('.boot-home-title')).toHaveText('VPS servers');
    await expect(english).toBeVisible();
    await expect(page.locator('.boot-home-page[lang="ru"]')).toBeHidden();
    const title = await box('.boot-home-page[lang="en"] .boot-home-title');
    const lead = await box('.boot-home-page[lang="en"] .boot-home-lead');
    // the bar: the logo, and below 1280 px the menu button, where the header puts them
    const bootLogo = await box('.boot-logo');
    const bootMenu = width < 1280 ? await box('.boot-menu') : null;
    if (width >= 1280) await expect(page.locator('.boot-menu')).toBeHidden();
    await release();

    // the page replaces the frame: its heading and lead sit where the frame's did
    const heading = page.getByRole('heading', { level: 1, name: 'VPS servers' });
    await expect(heading).toBeVisible();
    await expect(page.locator('.boot-home')).toHaveCount(0);
    // from the frame to the page, with no spinner in between
    expect(await spinnerShown()).toBeNull();
    expectSameBox(title, (await heading.boundingBox())!);
    expectSameBox(lead, await box('h1 + p'));
    expectSameBox(bootLogo, (await logo.boundingBox())!);
    if (bootMenu) expectSameBox(bootMenu, (await menu.boundingBox())!);
  }

  // The console starts beside the frame and leaves its nodes as the browser painted them: the
  // browser counts the lead's first paint as the page's largest only while that node stays. With
  // the page's chunk held back, the console runs (its first calls go out) and the lead is still
  // the node index.html painted, not a copy.
  const pageChunk = await holdBack(page, /\/assets\/vps-page-[\w-]+\.js$/);
  const painted = await reloadHeld();
  const lead = page.locator('.boot-home-page[lang="en"] .boot-home-lead');
  await expect(lead).toBeVisible();
  await lead.evaluate((node) => Object.assign(node, { paintedByIndexHtml: true }));
  const started = page.waitForResponse((response) => response.url().endsWith('/api/user/auth'));
  await painted.release();
  await started;
  await expect(page.locator('.boot-home')).toHaveCount(1);
  expect(await lead.evaluate((node) => 'paintedByIndexHtml' in node)).toBe(true);
  await pageChunk.release();
  await expect(page.getByRole('heading', { level: 1, name: 'VPS servers' })).toBeVisible();
  await expect(page.locator('.boot-home')).toHaveCount(0);

  // a Russian reader gets the Russian block; the other pages' addresses get none
  await page.evaluate(() => localStorage.setItem('tradehost:language', 'ru'));
  const { release } = await reloadHeld();
  await expect(page.locator('.boot-home-page[lang="ru"] .boot-home-title')).toHaveText(
    'VPS-серверы',
  );
  await expect(page.locator('.boot-home-page[lang="en"]')).toBeHidden();
  await release();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/support');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.locator('html').getAttribute('data-boot')).toBeNull();

  // signed out, the header has the menu button below 768 px only: the bar follows it
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  for (const width of [1024, 375]) {
    await page.setViewportSize({ width, height: 800 });
    const { release } = await reloadHeld();
    await expect(page.locator('.boot-logo')).toBeVisible();
    const bootLogo = await box('.boot-logo');
    const bootMenu = width < 768 ? await box('.boot-menu') : null;
    if (width >= 768) await expect(page.locator('.boot-menu')).toBeHidden();
    await release();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expectSameBox(bootLogo, (await logo.boundingBox())!);
    if (bootMenu) expectSameBox(bootMenu, (await menu.boundingBox())!);
  }
});

test('the footer keeps out of sight while the page loads its content, which does not push it down the screen', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request);
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, user.email);
  await expect(page.getByRole('heading', { level: 1, name: 'VPS servers' })).toBeVisible();
  // every layout shift of the next load, by what moved
  await page.addInitScript(() => {
    const moved: string[] = [];
    Object.assign(window, { moved });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        sources?: { node?: Node | null }[];
      })[]) {
        for (const source of entry.sources ?? []) moved.push(source.node?.nodeName ?? '');
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const servers = await holdBack(page, /\/api\/user\/vps\/servers\?/);
  await page.reload();
  const footer = page.getByRole('contentinfo');
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeVisible();
  await expect(footer).toBeHidden();
  await servers.release();
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
  await expect(footer).toBeVisible();
  // the page has its content (the rates, for a user with no server yet) and the footer under it
  await expect(page.getByRole('tab', { name: 'Order a server', selected: true })).toBeVisible();
  const moved = await page.evaluate(() => (window as unknown as { moved: string[] }).moved);
  expect(moved).not.toContain('FOOTER');
});

test('a section’s tabs on a phone stay one row that scrolls sideways, with the current one in view', async ({
  page,
  request,
}) => {
  const operator = await createVerifiedUser(request, { name: 'Olga Operator' });
  await makeOperator(operator.email);
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, operator.email);
  const row = page.getByRole('navigation', { name: 'Operator sections' }).getByRole('list');
  /** The row's box, how far it scrolls, and the current tab's box. */
  const measure = () =>
    row.evaluate((list) => {
      const box = (element: Element) => {
        const { x, y, width, height } = element.getBoundingClientRect();
        return { x, y, width, height };
      };
      return {
        row: box(list),
        scrolls: list.scrollWidth > list.clientWidth,
        current: box(list.querySelector('[aria-current="page"]')!),
      };
    });
  const oneTab = async () => (await row.getByRole('link').first().boundingBox())!.height;

  // the last section, arrived at by its address: one row, scrolled so its tab shows in full
  await page.goto('/operator/audit');
  await expect(page.getByRole('link', { name: 'Audit log' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  let seen = await measure();
  expect(seen.scrolls).toBe(true);
  expect(seen.row.height).toBeLessThanOrEqual((await oneTab()) + 1);
  expect(seen.current.x).toBeGreaterThanOrEqual(seen.row.x - 0.5);
  expect(seen.current.x + seen.current.width).toBeLessThanOrEqual(
    seen.row.x + seen.row.width + 0.5,
  );

  // a row that scrolls is still reached and read by assistive technology
  expect(await seriousViolations(page)).toEqual([]);

  // back to a section at the start of the row (the row scrolled to its end): the row follows
  await page.goto('/operator/users');
  await row.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/operator\/audit$/);
  await page.goBack();
  await expect(page.getByRole('link', { name: 'Users', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  // (the row follows once it has laid out the tabs again: in the frames after the tab is current)
  await expect
    .poll(async () => {
      const { current, row: frame } = await measure();
      return current.x >= frame.x - 0.5 && current.x + current.width <= frame.x + frame.width + 0.5;
    })
    .toBe(true);

  // a wide screen: the tabs wrap into rows, and nothing scrolls
  await page.setViewportSize({ width: 1024, height: 800 });
  seen = await measure();
  expect(seen.scrolls).toBe(false);
  expect(seen.row.height).toBeGreaterThan((await oneTab()) * 1.5);
});
