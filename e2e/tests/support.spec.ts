import { expect, test } from '@playwright/test';
import { createVerifiedUser, signIn, waitForMail } from '../support/app.ts';
import { ApiSession, makeOperator } from '../support/money.ts';
import { answerByApi, imageLoaded, openTicketByApi, screenshotPng } from '../support/tickets.ts';
import { seriousViolations } from '../support/axe.ts';

/**
 * Support in the browser against the real server: a trader opens a ticket with a screenshot, an
 * operator answers it in the help desk, the trader sees the answer without reloading (the
 * dialog polls) and by mail, closes the ticket and resumes it by writing; a second open ticket
 * in the department is refused with a link to the first. Then axe on every support screen, light
 * and dark.
 */

const ANSWER = 'We moved your server to a quieter host. Please check tonight and tell us.';

test('a trader opens a ticket with a screenshot, an operator answers, the trader sees it live and by mail, closes and resumes it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const operator = await createVerifiedUser(request, { name: 'Olga Operator' });
  await makeOperator(operator.email);
  const trader = await createVerifiedUser(request, { name: 'Tina Ticket' });

  await signIn(page, trader.email);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Support' })
    .click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByRole('heading', { name: 'No tickets yet' })).toBeVisible();

  // the form: a department, a subject, the text, a screenshot
  await page.getByRole('button', { name: 'New ticket' }).first().click();
  const form = page.getByRole('dialog', { name: 'New ticket' });
  await form
    .getByRole('combobox', { name: 'Department' })
    .selectOption({ label: 'Technical support' });
  await form.getByRole('textbox', { name: 'Subject' }).fill('The terminal disconnects at night');
  await form
    .getByRole('textbox', { name: 'Message' })
    .fill('MetaTrader loses the connection every night at 3:00. A screenshot is attached.');
  await expect(form.getByTestId('characters-left')).toHaveText('946 characters left');
  await form.getByLabel('Attach files').setInputFiles({
    name: 'night.png',
    mimeType: 'image/png',
    buffer: await screenshotPng(),
  });
  await expect(form.getByRole('list', { name: 'Files to send' })).toContainText('night.png');
  await form.getByRole('button', { name: 'Send the ticket' }).click();

  await expect(page).toHaveURL(/\/support\/\d+$/);
  const ticketId = Number(/\/support\/(\d+)$/.exec(page.url())![1]);
  await expect(
    page.getByRole('heading', { level: 1, name: 'The terminal disconnects at night' }),
  ).toBeVisible();
  await expect(page.getByText(`#${ticketId}`, { exact: true })).toBeVisible();
  await expect(page.getByText('New', { exact: true })).toBeVisible();
  const thread = page.getByRole('list', { name: 'Conversation' });
  const mine = thread.getByTestId('thread-user-message');
  await expect(mine).toContainText('MetaTrader loses the connection every night at 3:00.');
  // the screenshot's thumbnail: the server's re-encoded preview, fetched with the token
  const thumbnail = mine.getByRole('img', { name: 'Preview of night.png' });
  await expect(thumbnail).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => imageLoaded(thumbnail)).toBe(true);
  await expect(
    mine.getByRole('button', { name: /^Download night\.png \(\d+ kB\)$/ }),
  ).toBeVisible();

  // the operator answers in the help desk (another browser)
  const desk = await browser.newContext();
  const operatorPage = await desk.newPage();
  await signIn(operatorPage, operator.email);
  await operatorPage.goto(`/operator/support/${ticketId}`);
  await expect(
    operatorPage.getByText('MetaTrader loses the connection every night at 3:00.', {
      exact: false,
    }),
  ).toBeVisible();
  await expect
    .poll(() => imageLoaded(operatorPage.getByRole('img', { name: 'Preview of night.png' })))
    .toBe(true);
  await operatorPage.getByRole('textbox', { name: 'Reply', exact: true }).fill(ANSWER);
  await operatorPage.getByRole('button', { name: 'Send the reply' }).click();
  await expect(operatorPage.getByText('The reply has been sent')).toBeVisible();
  await desk.close();

  // the trader's open page shows it without a reload (it asks every 10 s)
  const theirs = thread.getByTestId('thread-staff-message');
  await expect(theirs).toContainText(ANSWER, { timeout: 25_000 });
  await expect(theirs).toContainText('Olga Operator');
  await expect(page.getByText('Processing', { exact: true }).first()).toBeVisible();
  const mail = await waitForMail(trader.email, (m) =>
    m.subject.includes(`a reply to your ticket #${ticketId}`),
  );
  expect(mail.text).toContain(ANSWER);
  expect(mail.text).toContain(`/support/${ticketId}`);

  // closed after a confirmation
  await page.getByRole('button', { name: 'Close ticket' }).click();
  const confirm = page.getByRole('dialog', { name: `Close ticket #${ticketId}?` });
  await confirm.getByRole('button', { name: 'Close the ticket' }).click();
  await expect(confirm).toBeHidden();
  await expect(
    page.getByText('This ticket is closed. Write a message to resume it', { exact: false }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close ticket' })).toBeHidden();
  await expect(thread.getByTestId('thread-event').last()).toContainText('The ticket was closed');

  // resumed by writing
  await page.getByRole('textbox', { name: 'Your message' }).fill('It happened again last night.');
  await page.getByRole('button', { name: 'Send and resume' }).click();
  await expect(thread.getByTestId('thread-user-message').last()).toContainText(
    'It happened again last night.',
  );
  await expect(thread.getByTestId('thread-event').last()).toContainText(
    'The ticket is open again (New)',
  );
  await expect(page.getByRole('button', { name: 'Close ticket' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Reply', exact: true })).toBeVisible();

  // the list: the ticket, open again
  await page.getByRole('link', { name: 'All tickets' }).click();
  const row = page.getByTestId('ticket-row').filter({ hasText: 'The terminal disconnects' });
  await expect(row).toContainText('Technical support');
  await expect(row).toContainText('New');

  // a second open ticket in the department is refused, with the way to the open one
  await page.goto('/support?new=technical');
  const second = page.getByRole('dialog', { name: 'New ticket' });
  await expect(second.getByRole('combobox', { name: 'Department' })).toHaveValue(/\d+/);
  await second.getByRole('textbox', { name: 'Subject' }).fill('Another question');
  await second.getByRole('textbox', { name: 'Message' }).fill('And one more thing.');
  await second.getByRole('button', { name: 'Send the ticket' }).click();
  const refusal = second.getByRole('alert');
  await expect(refusal).toContainText('You already have an open ticket in this department');
  await refusal.getByRole('link', { name: `Go to ticket #${ticketId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/support/${ticketId}$`));
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the support screens (${scheme})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const operator = await createVerifiedUser(request, { name: 'Axel Operator' });
    await makeOperator(operator.email);
    const trader = await createVerifiedUser(request, { name: 'Axel Support' });
    const ticketId = await openTicketByApi(request, trader.email, {
      department: 'billing',
      title: 'A double charge',
      text: 'I was charged twice for the same server.',
    });
    await answerByApi(request, operator.email, ticketId, 'We have refunded the second charge.');
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, trader.email);

    // the list with an answered (unread) ticket, and the navigation's count
    await page.goto('/support');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await expect(
      page.getByRole('link', { name: `#${ticketId} A double charge, new reply` }),
    ).toBeVisible();
    await expect(
      page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Support, 1 ticket with a new reply' }),
    ).toBeVisible();
    expect(await seriousViolations(page), `the list (${scheme})`).toEqual([]);

    // the form, refused field by field, with a file refused in the browser
    await page.getByRole('button', { name: 'New ticket' }).first().click();
    const form = page.getByRole('dialog', { name: 'New ticket' });
    await form.getByRole('button', { name: 'Send the ticket' }).click();
    await expect(form.getByText('Enter the subject of the ticket')).toBeVisible();
    await form.getByLabel('Attach files').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await expect(form.getByRole('alert').last()).toContainText(
      'notes.txt: A file must be a JPEG, PNG, GIF or PDF',
    );
    expect(await seriousViolations(page), `the refused form (${scheme})`).toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();

    // the ticket with the thread, the thumbnail, the answer
    await page.goto(`/support/${ticketId}`);
    await expect(page.getByTestId('thread-staff-message')).toContainText('refunded');
    await expect
      .poll(() => imageLoaded(page.getByRole('img', { name: 'Preview of screenshot.png' })))
      .toBe(true);
    expect(await seriousViolations(page), `the ticket (${scheme})`).toEqual([]);
    await page.getByRole('button', { name: 'Close ticket' }).click();
    const confirm = page.getByRole('dialog', { name: `Close ticket #${ticketId}?` });
    await expect(confirm).toBeVisible();
    expect(await seriousViolations(page), `the close confirmation (${scheme})`).toEqual([]);
    await confirm.getByRole('button', { name: 'Close the ticket' }).click();
    await expect(page.getByRole('heading', { name: 'Resume the ticket' })).toBeVisible();
    expect(await seriousViolations(page), `a closed ticket (${scheme})`).toEqual([]);

    // a phone's width
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await expect(page.getByTestId('thread-staff-message')).toBeVisible();
    expect(await seriousViolations(page), `the ticket at 375 px (${scheme})`).toEqual([]);
    await page.goto('/support');
    await expect(page.getByTestId('ticket-row')).toBeVisible();
    expect(await seriousViolations(page), `the list at 375 px (${scheme})`).toEqual([]);

    // a ticket that is not the reader's
    await page.goto('/support/999999999');
    await expect(page.getByRole('heading', { level: 1, name: 'Ticket not found' })).toBeVisible();
    expect(await seriousViolations(page), `a missing ticket (${scheme})`).toEqual([]);
  });
}

interface Letter {
  char: string;
  /** The top of its line, in whole pixels. */
  top: number;
}

/** An element's letters (spaces too) and where each stands, read in the page. */
const lettersOf = (element: HTMLElement): Letter[] => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const letters: Letter[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    for (let i = 0; i < node.textContent!.length; i += 1) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (rect) letters.push({ char: node.textContent![i]!, top: Math.round(rect.top) });
    }
  return letters;
};

test('on a phone in Russian the line under a ticket’s title goes on after its dot, not leaving the dot to end a line alone', async ({
  page,
  request,
}) => {
  const trader = await createVerifiedUser(request, { name: 'Vera Support' });
  const language = await new ApiSession(request, trader.email).call(
    'POST',
    '/api/user/change_language',
    { data: { language: 'RU' } },
  );
  expect(language.ok(), await language.text()).toBe(true);
  await openTicketByApi(request, trader.email, {
    department: 'billing',
    title: 'Двойное списание',
    text: 'Сервер продлён дважды.',
  });
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, trader.email);
  await page.goto('/support');
  const meta = page.getByTestId('ticket-row').locator('p').filter({ hasText: '·' });
  await expect(meta).toContainText('Оплата и счета');
  // the dot's line: where it stands, and where the first letter after it does
  const letters = (await meta.evaluate(lettersOf)).filter((letter) => letter.char.trim());
  const dot = letters.findIndex((letter) => letter.char === '·');
  const lines = {
    before: letters[dot - 1]!.top,
    dot: letters[dot]!.top,
    after: letters[dot + 1]!.top,
    last: letters.at(-1)!.top,
  };
  // the line does wrap at this width, after the dot
  expect(lines.last).toBeGreaterThan(lines.dot);
  expect(lines.dot).toBe(lines.before);
  expect(lines.after).toBe(lines.dot);
});

/**
 * Where a moment's letters stand: the lines (tops) of the date's letters, up to the one plain
 * space where the line may break before the time, and of the time's.
 */
const momentLines = (letters: Letter[]) => {
  const text = letters.map((letter) => letter.char).join('');
  const split = text.lastIndexOf(' ');
  const tops = (from: number, to: number) => [
    ...new Set(
      letters
        .slice(from, to)
        .filter((letter) => letter.char.trim())
        .map((letter) => letter.top),
    ),
  ];
  return { text, date: tops(0, split), time: tops(split + 1, letters.length) };
};

test('a date never breaks inside itself: the ticket list and the help desk at 375 and 1440 px, in Russian', async ({
  page,
  browser,
  request,
}) => {
  const trader = await createVerifiedUser(request, { name: 'Vera Dates' });
  const operator = await createVerifiedUser(request, { name: 'Oleg Dates' });
  await makeOperator(operator.email);
  for (const person of [trader, operator]) {
    const language = await new ApiSession(request, person.email).call(
      'POST',
      '/api/user/change_language',
      { data: { language: 'RU' } },
    );
    expect(language.ok(), await language.text()).toBe(true);
  }
  const ticketId = await openTicketByApi(request, trader.email, {
    department: 'billing',
    title: 'Двойное списание за продление',
    text: 'Сервер продлён дважды.',
  });

  await signIn(page, trader.email);
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/support');
    const time = page.getByTestId('ticket-row').locator('time');
    await expect(time).toContainText('г.,');
    const lines = await time.evaluate(lettersOf).then(momentLines);
    expect(lines.date, `the list's date at ${width} px: ${lines.text}`).toHaveLength(1);
    expect(lines.time, `the list's time at ${width} px: ${lines.text}`).toHaveLength(1);
  }

  const desk = await (await browser.newContext()).newPage();
  await signIn(desk, operator.email);
  for (const width of [375, 1440]) {
    await desk.setViewportSize({ width, height: 800 });
    await desk.goto('/operator/support');
    const row = desk
      .getByRole(width === 375 ? 'listitem' : 'row')
      .filter({ hasText: `№ ${ticketId}` })
      .filter({ hasText: 'Двойное списание' });
    // the last activity: a table's cell, a card's value
    const cell = width === 375 ? row.locator('dd').last() : row.getByRole('cell').last();
    await expect(cell).toContainText('г.,');
    const lines = await cell.evaluate(lettersOf).then(momentLines);
    expect(lines.date, `the help desk's date at ${width} px: ${lines.text}`).toHaveLength(1);
    expect(lines.time, `the help desk's time at ${width} px: ${lines.text}`).toHaveLength(1);
    // a wide table has the room for the moment on one line
    if (width === 1440)
      expect(lines.time, `the help desk at 1440 px: ${lines.text}`).toEqual(lines.date);
  }

  // the audit log, its details and e-mails long beside it: its moments on one line at 1440 px
  await desk.goto('/operator/audit');
  const first = desk.getByRole('row').filter({ hasText: 'Двойное списание за продление' }).first();
  const when = first.getByRole('cell').first();
  await expect(when).toContainText('г.,');
  const lines = await when.evaluate(lettersOf).then(momentLines);
  expect(lines.date, `the audit log's date: ${lines.text}`).toHaveLength(1);
  expect(lines.time, `the audit log at 1440 px: ${lines.text}`).toEqual(lines.date);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the help desk and the FAQ editor (${scheme})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const operator = await createVerifiedUser(request, { name: 'Hedda Helpdesk' });
    await makeOperator(operator.email);
    const trader = await createVerifiedUser(request, { name: 'Theo Trader' });
    const title = `Slow terminal ${scheme}`;
    const ticketId = await openTicketByApi(request, trader.email, {
      department: 'technical',
      title,
      text: 'My terminal is slow since this morning.',
    });
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, operator.email);

    // the queues and the tickets
    await page.goto('/operator/support');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await expect(page.getByRole('region', { name: 'Queues' })).toBeVisible();
    const row = page.getByRole('link', { name: `#${ticketId} ${title}` });
    await expect(row).toBeVisible();
    expect(await seriousViolations(page), `the help desk (${scheme})`).toEqual([]);

    // the ticket, with an internal note in the thread
    await row.click();
    await expect(page.getByRole('heading', { name: `#${ticketId} ${title}` })).toBeVisible();
    await page.getByRole('radio', { name: 'Internal note' }).check();
    await page.getByRole('textbox', { name: 'Internal note' }).fill('Check the host load first.');
    await page.getByRole('button', { name: 'Add the note' }).click();
    await expect(page.getByRole('article', { name: /^Internal note by / })).toBeVisible();
    expect(await seriousViolations(page), `a ticket with a note (${scheme})`).toEqual([]);
    await page.getByRole('button', { name: 'Close the ticket' }).click();
    const close = page.getByRole('dialog', { name: `Close ticket #${ticketId}` });
    await expect(close).toBeVisible();
    expect(await seriousViolations(page), `the close confirmation (${scheme})`).toEqual([]);
    await close.getByRole('button', { name: 'Cancel' }).click();

    // canned replies, departments and the FAQ editor, each with its dialog
    await page.goto('/operator/support/canned');
    await page.getByRole('button', { name: 'Add a canned reply' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page), `a new canned reply (${scheme})`).toEqual([]);
    await page.goto('/operator/support/departments');
    await expect(page.getByText('Technical support').first()).toBeVisible();
    expect(await seriousViolations(page), `the departments (${scheme})`).toEqual([]);
    await page.getByRole('button', { name: 'Add a department' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page), `a new department (${scheme})`).toEqual([]);
    await page.goto('/operator/faq');
    await expect(page.getByRole('table', { name: /^Partners \(\d+ questions\)$/ })).toBeVisible();
    expect(await seriousViolations(page), `the FAQ editor (${scheme})`).toEqual([]);
    await page.getByRole('button', { name: 'Add a question' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page), `a new FAQ question (${scheme})`).toEqual([]);
  });
}
