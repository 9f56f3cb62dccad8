import { expect, test, type Locator } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { createVerifiedUser, signIn } from '../support/app.ts';
import { ApiSession, makeOperator, topUpByCard } from '../support/money.ts';
import { monitoredAccount } from '../support/monitoring.ts';

/**
 * A list to choose from (a <select>) beside text inputs: the same face as theirs in either theme
 * (the browser's own select was white in the light theme beside the grey inputs, with its own
 * arrow), the theme's arrow, and the inputs' focus ring.
 */

/**
 * What a reader sees of a control, at rest or focused from the keyboard, once its styles have
 * settled: read in the same frame as a focus, a transition (even the reduced-motion 0.01 ms one)
 * still gives its starting colour, so two frames are let pass first.
 */
function look(control: Locator) {
  return control.evaluate(async (element) => {
    for (let frame = 0; frame < 2; frame += 1) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    const style = getComputedStyle(element);
    return {
      background: style.backgroundColor,
      border: `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`,
      radius: style.borderTopLeftRadius,
      height: Math.round(element.getBoundingClientRect().height),
      // (the size: a wallet address is written in a monospace face)
      font: `${style.fontSize} / ${style.lineHeight}`,
      color: style.color,
      paddingLeft: style.paddingLeft,
      outline: `${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`,
      outlineOffset: style.outlineOffset,
    };
  });
}

/**
 * The select looks like `input`, at rest and focused, and draws the theme's arrow, not the
 * browser's. An input `withPrefix` (a currency sign inside its box, as the amount's $) is padded
 * wider on the left for it: that padding alone may differ, and only to be wider.
 */
async function expectLikeInput(select: Locator, input: Locator, { withPrefix = false } = {}) {
  await expect(select).toBeVisible();
  await expect(input).toBeVisible();
  expect(await select.evaluate((element) => getComputedStyle(element).appearance)).toBe('none');
  const inputLook = async () => {
    const seen = await look(input);
    if (!withPrefix) return seen;
    const own = await look(select);
    expect(parseFloat(seen.paddingLeft)).toBeGreaterThan(parseFloat(own.paddingLeft));
    return { ...seen, paddingLeft: own.paddingLeft };
  };
  expect(await look(select)).toEqual(await inputLook());

  // the arrow: inside the select's box, at its right end, in the muted text colour
  const arrow = select.locator('xpath=following-sibling::*[@aria-hidden="true"][1]');
  await expect(arrow).toBeVisible();
  const box = (await select.boundingBox())!;
  const mark = (await arrow.boundingBox())!;
  expect(mark.x).toBeGreaterThan(box.x + box.width - 32);
  expect(mark.x + mark.width).toBeLessThan(box.x + box.width);
  expect(mark.y).toBeGreaterThan(box.y);
  expect(mark.y + mark.height).toBeLessThan(box.y + box.height);

  // under the pointer: the inputs' darker border (a feature's copy of the input style had none)
  await input.hover();
  const hoveredInput = await inputLook();
  await select.hover();
  expect(await look(select)).toEqual(hoveredInput);
  await select.page().mouse.move(0, 0);

  // focused from the keyboard: the inputs' ring and border
  await input.focus();
  const focusedInput = await inputLook();
  await select.focus();
  expect(await select.evaluate((element) => element.matches(':focus-visible'))).toBe(true);
  expect(await look(select)).toEqual(focusedInput);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`selects look like the text inputs beside them, arrow and focus ring included (${scheme})`, async ({
    page,
    request,
  }) => {
    const monitored = await monitoredAccount(request, { accountName: 'Select swing' });
    await makeOperator(monitored.user.email);
    // (no transitions: the border is measured at its colour, not on its way there)
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await signIn(page, monitored.user.email);
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);

    // the crypto top-up's request: the network beside the amount
    await page.goto('/balance-operations?tab=topup&method=crypto');
    await expectLikeInput(page.getByLabel('Network'), page.getByLabel('Amount (USD)'), {
      withPrefix: true,
    });

    // a monitored account's settings: the time zone beside the e-mail (a white list before)
    await page.goto(`/online-monitoring/${monitored.account.monitoring_id}`);
    await expectLikeInput(
      page.getByLabel('Time zone of days and months'),
      page.getByLabel('E-mail for reports and alerts'),
    );

    // the order form: "How did you hear about us?" beside the promocode
    await page.goto('/vps?tab=rates');
    const order = page.getByRole('region', { name: 'Rent a server' });
    // answered: its prompt reads muted, as a placeholder does (the test below)
    await order.getByLabel('How did you hear about us?').selectOption({ label: 'Telegram' });
    await expectLikeInput(
      order.getByLabel('How did you hear about us?'),
      order.getByLabel('Promocode (optional)'),
    );

    // the operator console's filters: a server's status beside the search (a browser's own list)
    await page.goto('/operator/vps/servers');
    await expectLikeInput(page.getByLabel('Status'), page.getByLabel('Server number or e-mail'));
  });
}

test("a step's heading that takes the focus after Enter has no ring; a control reached by the keyboard keeps its own", async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, { name: 'Rita Ring' });
  const friend = await createVerifiedUser(request, { name: 'Felix Friend' });
  await topUpByCard(request, user.email, '20');
  await signIn(page, user.email);
  const outline = (element: Locator) =>
    element.evaluate((node) => getComputedStyle(node).outlineStyle);

  // the transfer's confirmation: Enter in the form moves the focus to the step's heading
  await page.goto('/balance-operations?tab=transfer');
  await page.getByLabel('Amount (USD)').fill('5');
  await page.getByLabel("Recipient's e-mail").fill(friend.email);
  await page.getByLabel("Recipient's e-mail").press('Enter');
  const heading = page.getByRole('heading', { name: 'Confirm the transfer' });
  await expect(heading).toBeFocused();
  expect(await outline(heading)).toBe('none');

  // a tab reached with the arrow keys (tabindex -1 as well) shows where the focus is
  await page.getByRole('tab', { name: 'Transfer' }).focus();
  await page.keyboard.press('ArrowRight');
  const history = page.getByRole('tab', { name: 'History' });
  await expect(history).toBeFocused();
  expect(await outline(history)).toBe('solid');
});

test("a button's icon stands apart from its words and is centred on them (a server's login details, the history's export, copying the address)", async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, { name: 'Ivan Icon' });
  await topUpByCard(request, user.email, '20');
  const api = new ApiSession(request, user.email);
  const { rates } = await api.json<{ rates: { id: number }[] }>('GET', '/api/user/vps/rates', 200);
  await api.json('POST', '/api/user/vps/order', 201, {
    data: { rate_id: rates[0]!.id, months: 1, source: 'forum' },
    idempotencyKey: randomUUID(),
  });
  await signIn(page, user.email);

  /** The icon's box and the words' box inside the button. */
  const parts = (button: Locator) =>
    button.evaluate((element) => {
      const icon = element.querySelector('svg')!.getBoundingClientRect();
      const range = document.createRange();
      const words = Array.from(element.querySelectorAll('span')).find((span) =>
        span.textContent?.trim(),
      )!;
      range.selectNodeContents(words);
      const text = range.getBoundingClientRect();
      return {
        gap: text.left - icon.right,
        offCentre: Math.abs(icon.top + icon.height / 2 - (text.top + text.height / 2)),
      };
    });
  const expectApart = async (button: Locator) => {
    await expect(button).toBeVisible();
    const { gap, offCentre } = await parts(button);
    expect(gap, 'icon to words, px').toBeGreaterThanOrEqual(6);
    expect(offCentre, 'icon to the words’ middle, px').toBeLessThanOrEqual(1.5);
  };

  await page.goto('/vps?tab=servers');
  await expectApart(page.getByRole('button', { name: /^Show the login details of server #/ }));
  await page.goto('/balance-operations?tab=history&history=payments');
  await expectApart(page.getByRole('button', { name: 'Export CSV' }));
  // the crypto top-up's details, after its request
  await page.goto('/balance-operations?tab=topup&method=crypto');
  await page.getByLabel('Amount (USD)').fill('25');
  await page.getByRole('button', { name: 'Get the payment details' }).click();
  await expectApart(page.getByRole('button', { name: 'Copy the address' }));
});

test("a list's prompt reads in the muted colour of a placeholder, an answer in the text colour", async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, { name: 'Pia Prompt' });
  await signIn(page, user.email);
  await page.goto('/vps?tab=rates');
  const order = page.getByRole('region', { name: 'Rent a server' });
  const source = order.getByLabel('How did you hear about us?');
  const color = (element: Locator) => element.evaluate((node) => getComputedStyle(node).color);
  // the field's hint is in the muted colour, the promocode typed in the text colour
  const muted = await color(order.getByText('It helps us know where our clients come from.'));
  const promocode = order.getByLabel('Promocode (optional)');
  await promocode.fill('ANY');

  await expect(source).toHaveValue('');
  expect(await color(source)).toBe(muted);
  await source.selectOption({ label: 'Telegram' });
  expect(await color(source)).toBe(await color(promocode));
  expect(await color(source)).not.toBe(muted);
});
