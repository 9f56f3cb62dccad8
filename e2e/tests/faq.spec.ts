import { expect, test, type Locator, type Page } from '@playwright/test';
import { FAQ_GROUP_DEPARTMENT, type FaqGroup } from '../../packages/contracts/src/faq.ts';
import { createVerifiedUser, signIn } from '../support/app.ts';
import { seriousViolations } from '../support/axe.ts';

/**
 * The FAQ in the browser against the real server and its seeded questions: search in English
 * and in Russian with other word forms and a typo, the matches highlighted, a question's link,
 * and "Write to support" opening a new ticket in the department of the best answer. The search
 * code is a chunk of its own that loads only once the reader turns to the search box.
 */

const SEARCH_CHUNK = /\/assets\/faq-search-[\w-]+\.js$/;

const GROUP_NAMES: Record<string, Record<FaqGroup, string>> = {
  en: {
    partners: 'Partner programme',
    support: 'Servers, payments and support',
    monitoring: 'Online monitoring',
    monitoring_guide: 'Monitoring guide',
  },
  ru: {
    partners: 'Партнёрская программа',
    support: 'Серверы, оплата и поддержка',
    monitoring: 'Онлайн-мониторинг',
    monitoring_guide: 'Руководство по мониторингу',
  },
};

const results = (page: Page) =>
  page.getByRole('region', { name: /^(Search results|Результаты поиска)$/ });
const resultItems = (page: Page) => results(page).getByRole('listitem');
const marks = (scope: Locator) => scope.locator('mark').allTextContents();

/** Types a query as a reader would (the search waits for the typing to pause). */
async function search(page: Page, query: string) {
  const box = page.getByRole('searchbox');
  await box.fill('');
  await box.pressSequentially(query, { delay: 20 });
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(query);
}

/** The department of the best answer: the group named over the first result. */
async function bestDepartment(page: Page, language: 'en' | 'ru'): Promise<string> {
  const label = (await resultItems(page).first().locator('p').first().textContent())?.trim();
  const group = (Object.entries(GROUP_NAMES[language]!) as [FaqGroup, string][]).find(
    ([, name]) => name === label,
  )?.[0];
  if (!group) throw new Error(`no group is named "${label}"`);
  return FAQ_GROUP_DEPARTMENT[group];
}

test('a trader searches the FAQ in English and Russian, follows a question’s link and writes to support in the right department', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const requested: string[] = [];
  page.on('request', (req) => requested.push(new URL(req.url()).pathname));
  const trader = await createVerifiedUser(request, { name: 'Fiona Faq' });
  await signIn(page, trader.email);

  await page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Frequently asked questions' }),
  ).toBeVisible();
  for (const name of Object.values(GROUP_NAMES.en!))
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  expect(requested.filter((path) => SEARCH_CHUNK.test(path))).toEqual([]);

  // English: another form of the word; every result has it highlighted
  await search(page, 'withdrawals');
  await expect(
    page.getByRole('status').filter({ hasText: /answers? for “withdrawals”/ }),
  ).toBeVisible();
  expect(requested.filter((path) => SEARCH_CHUNK.test(path))).toHaveLength(1);
  const questionText = 'How do I withdraw my partner earnings, and what are the minimums?';
  const question = resultItems(page).filter({
    has: page.getByRole('button', { name: questionText }),
  });
  const questionButton = question.getByRole('button', { name: questionText });
  await expect(question).toHaveCount(1);
  expect(await marks(questionButton)).toEqual(['withdraw']);
  for (const item of await resultItems(page).all())
    expect((await marks(item)).length, await item.innerText()).toBeGreaterThan(0);
  // the groups give way to the results
  await expect(page.getByRole('heading', { level: 2, name: 'Monitoring guide' })).toBeHidden();

  // a typo finds it too; its answer opens with the matches marked
  await search(page, 'withdrawl');
  await questionButton.click();
  await expect(questionButton).toHaveAttribute('aria-expanded', 'true');
  await expect(question.getByText(/USDT on the TRC-20 network from \$20/)).toBeVisible();
  expect((await marks(question)).length).toBeGreaterThan(1);

  // the question's link: the page without the search, the question open where it is
  await question.getByRole('link', { name: 'Link to this question' }).click();
  await expect(page).toHaveURL(/\/faq#partner-withdrawal-methods-minimums$/);
  await expect(page.getByRole('searchbox')).toHaveValue('');
  const inGroup = page.getByRole('region', { name: 'Partner programme' }).getByRole('button', {
    name: 'How do I withdraw my partner earnings, and what are the minimums?',
  });
  await expect(inGroup).toHaveAttribute('aria-expanded', 'true');
  await expect(inGroup).toBeInViewport();
  await expect(inGroup).toBeFocused();

  // a shared link, opened in a new tab: scrolled to, open, focused
  const tab = await page.context().newPage();
  await tab.goto('/faq#guide-allow-webrequest');
  const shared = tab.locator('#guide-allow-webrequest').getByRole('button', {
    name: /WebRequest/,
  });
  await expect(shared).toHaveAttribute('aria-expanded', 'true');
  await expect(shared).toBeInViewport();
  await expect(shared).toBeFocused();
  await tab.close();

  // Russian: the language switched in the header; word forms and a typo
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'RU' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Вопросы и ответы' })).toBeVisible();
  await search(page, 'выводить');
  await expect(page.getByRole('status').filter({ hasText: /по запросу «выводить»/ })).toBeVisible();
  const withdrawalTime = resultItems(page).filter({
    hasText: 'Сколько времени занимает вывод средств?',
  });
  expect(
    await marks(
      withdrawalTime.getByRole('button', { name: /Сколько времени занимает вывод средств/ }),
    ),
  ).toEqual(['вывод']);
  expect(await marks(withdrawalTime)).toEqual(expect.arrayContaining(['вывод']));

  await search(page, 'пополнение');
  const topUp = resultItems(page).filter({
    has: page.getByRole('button', { name: 'Как пополнить баланс?' }),
  });
  expect(await marks(topUp.getByRole('button', { name: 'Как пополнить баланс?' }))).toEqual([
    'пополнить',
  ]);
  expect(await marks(topUp)).toContain('Пополнение');

  await search(page, 'перезагрузть');
  await expect(
    resultItems(page).filter({ hasText: 'Как запустить, выключить или перезагрузить сервер' }),
  ).toHaveCount(1);

  // nothing found: said, and support offered
  await search(page, 'квантовая запутанность');
  await expect(
    page.getByRole('heading', { name: 'По запросу «квантовая запутанность» ничего не найдено' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Написать в поддержку' })).toHaveAttribute(
    'href',
    '/support?new=technical',
  );

  // "Write to support" under the results: a new ticket in the best answer's department
  await search(page, 'публикатор');
  await expect(resultItems(page).first()).toBeVisible();
  const department = await bestDepartment(page, 'ru');
  expect(department).toBe('monitoring');
  await page.getByRole('link', { name: 'Написать в поддержку' }).click();
  await expect(page).toHaveURL(new RegExp(`/support\\?new=${department}$`));
  const form = page.getByRole('dialog');
  await expect(form).toBeVisible();
  await expect(form.getByRole('combobox', { name: /Отдел/ }).locator('option:checked')).toHaveText(
    'Мониторинг',
  );
});

test('the FAQ fits a phone screen and finds by the beginning of a word', async ({
  page,
  request,
}) => {
  const trader = await createVerifiedUser(request, { name: 'Phil Phone' });
  await signIn(page, trader.email);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/faq?q=activ');
  await expect(resultItems(page).first()).toBeVisible();
  expect(await marks(resultItems(page).first())).toEqual(
    expect.arrayContaining([expect.stringMatching(/^activ/i)]),
  );
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

/** The search box's placeholder: its width in the box's font, and the room the box gives it. */
const placeholderRoom = (page: Page) =>
  page.getByRole('searchbox').evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: input.placeholder, width: context.measureText(input.placeholder).width, room };
  });

test('the search box’s example fits it on a phone, in English and Russian', async ({
  page,
  request,
}) => {
  const trader = await createVerifiedUser(request, { name: 'Pia Placeholder' });
  await signIn(page, trader.email);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/faq');
  await expect(page.getByRole('searchbox')).toBeVisible();
  const english = await placeholderRoom(page);
  expect(english.width, english.text).toBeLessThanOrEqual(english.room);

  await page.setViewportSize({ width: 1024, height: 800 }); // the header's switch; a phone's is in its menu
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'RU' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Вопросы и ответы' })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  const russian = await placeholderRoom(page);
  expect(russian.text).toMatch(/^Например/);
  expect(russian.width, russian.text).toBeLessThanOrEqual(russian.room);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the FAQ (${scheme})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const trader = await createVerifiedUser(request, { name: 'Axel Faq' });
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, trader.email);

    // the groups with a question open
    await page.goto('/faq#partner-withdrawal-methods-minimums');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await expect(page.getByRole('link', { name: 'Link to this question' })).toBeVisible();
    expect(await seriousViolations(page), `the groups (${scheme})`).toEqual([]);

    // results with highlighted words, one of them open
    await page.goto('/faq?q=withdrawals');
    await resultItems(page).first().getByRole('button').click();
    await expect(results(page).locator('mark').first()).toBeVisible();
    expect(await seriousViolations(page), `the results (${scheme})`).toEqual([]);

    // nothing found within a topic, with answers in other topics
    await page.goto('/faq?q=webrequest&group=partners');
    await expect(page.getByRole('button', { name: /in other topics/ })).toBeVisible();
    expect(await seriousViolations(page), `nothing found (${scheme})`).toEqual([]);
  });
}
