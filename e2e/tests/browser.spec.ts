import { expect, test } from '@playwright/test';

/**
 * The journeys' Chromium (support/chromium.sh): one feature switch of each kind, holding
 * Playwright's features and the journeys' own, so that neither list drops the other.
 */
test("the journeys' Chromium turns off Playwright's features and its own unused pages", async ({
  page,
  browser,
}) => {
  await page.goto('chrome://version');
  const commandLine = await page.locator('#command_line').innerText();
  const disabled = commandLine.match(/--disable-features=\S*/g) ?? [];
  expect(disabled).toHaveLength(1);
  // one of Playwright's (a first paint held back would slow every journey) and the journeys'
  expect(disabled[0]!.split('=')[1]!.split(',')).toEqual(
    expect.arrayContaining(['PaintHolding', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']),
  );
  expect(commandLine.match(/--enable-features=\S*/g) ?? []).toHaveLength(1);
  // and the omnibox popup has no page of its own in the window
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets', { filter: [{}] })) as {
    targetInfos: Array<{ url: string }>;
  };
  expect(targetInfos.map((target) => target.url)).not.toContainEqual(
    expect.stringContaining('omnibox'),
  );
});
