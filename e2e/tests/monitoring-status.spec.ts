import { expect, test, type Locator } from '@playwright/test';
import { signIn } from '../support/app.ts';
import { monitoredAccount, publishingTerminal } from '../support/monitoring.ts';

/**
 * The terminal's status line (its dot, then "Terminal connected, last data …"): on a phone the
 * words wrap, and the dot must stand by their first line, not halfway down between the lines.
 */

/** The status line's dot and the lines of its visible words, measured in the page. */
function measure(status: Locator) {
  return status.evaluate((element) => {
    const dot = element.querySelector(':scope > [aria-hidden="true"]')!.getBoundingClientRect();
    // the words are the text beside the dot, one flow with Algo Trading's state when it is off
    // (the list's cell also has a state for screen readers, not seen)
    const words = element.querySelector(':scope > span:not([aria-hidden])')!;
    const lines: DOMRect[] = [];
    const walker = document.createTreeWalker(words, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || node.parentElement?.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      lines.push(...Array.from(range.getClientRects()));
    }
    const first = lines.reduce((a, b) => (b.top < a.top ? b : a));
    return {
      dot: { width: dot.width, height: dot.height, middle: dot.top + dot.height / 2 },
      firstLineMiddle: first.top + first.height / 2,
      lines: new Set(lines.map((line) => Math.round(line.top))).size,
    };
  });
}

async function expectDotByFirstLine(status: Locator, lines: 'one' | 'several') {
  const { dot, firstLineMiddle, lines: count } = await measure(status);
  if (lines === 'several') expect(count, 'the words wrap').toBeGreaterThan(1);
  else expect(count, 'the words fit one line').toBe(1);
  // the dot keeps its size however long the words are
  expect(dot.width).toBeCloseTo(8, 0);
  expect(dot.height).toBeCloseTo(8, 0);
  expect(Math.abs(dot.middle - firstLineMiddle), 'dot to first line, px').toBeLessThanOrEqual(1);
}

test("the terminal's dot stands by the first line of its status, wrapped on a phone or not, on the account page and in the accounts list", async ({
  page,
  request,
  baseURL,
}) => {
  const monitored = await monitoredAccount(request, { accountName: 'Status swing' });
  const terminal = await publishingTerminal(baseURL!, monitored);
  await signIn(page, monitored.user.email);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/online-monitoring/${monitored.account.monitoring_id}`);
  const status = page.locator('span[data-state]');
  await expect(status).toHaveText(/^Terminal connected, last data /);
  await expectDotByFirstLine(status, 'several');

  await page.setViewportSize({ width: 1440, height: 900 });
  await expectDotByFirstLine(status, 'one');

  await page.goto('/online-monitoring/accounts');
  const cell = page.getByRole('row', { name: /Status swing/ }).locator('span[data-state="live"]');
  await expect(cell).toBeVisible();
  await expectDotByFirstLine(cell, 'one');
  await page.setViewportSize({ width: 375, height: 800 });
  await cell.scrollIntoViewIfNeeded();
  const { dot, firstLineMiddle } = await measure(cell);
  expect(dot.width).toBeCloseTo(8, 0);
  expect(Math.abs(dot.middle - firstLineMiddle), 'dot to first line, px').toBeLessThanOrEqual(1);

  // Algo Trading switched off: its words follow the sentence's, wrapping with them by the dot
  await terminal.algoTradingOff();
  await page.goto(`/online-monitoring/${monitored.account.monitoring_id}`);
  await expect(status).toHaveText(/^Terminal connected, last data .+ · Algo Trading off$/);
  await expectDotByFirstLine(status, 'several');
});
