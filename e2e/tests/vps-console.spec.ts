import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { SCREEN_COLOURS, SCREEN_LAYOUT } from '../../apps/api/src/integrations/hypervisor/rfb.ts';
import { createVerifiedUser, signIn } from '../support/app.ts';
import { ApiSession, topUpByCard } from '../support/money.ts';

/**
 * The web console in the browser against the real server: noVNC draws what the simulated
 * machine's screen serves (apps/api/src/integrations/hypervisor/rfb.ts: a blue sign-in screen with
 * a light box, a dot in its password field per character typed, a purple security screen after
 * Ctrl+Alt+Del) on its canvas, through the API's relay. The canvas is read back pixel by pixel.
 */

const CREATION = { timeout: 45_000 };
const DRAWN = { timeout: 15_000 };

type Rgb = readonly [number, number, number];

/** A new user with $20 whose server (the cheapest rate, a month) is being created. */
async function userWithServer(request: APIRequestContext, name: string) {
  const { email } = await createVerifiedUser(request, { name });
  await topUpByCard(request, email, '20');
  const api = new ApiSession(request, email);
  const { rates } = await api.json<{ rates: { id: number }[] }>('GET', '/api/user/vps/rates', 200);
  const { server } = await api.json<{ server: { id: number } }>(
    'POST',
    '/api/user/vps/order',
    201,
    { data: { rate_id: rates[0]!.id, months: 1, source: 'forum' }, idempotencyKey: randomUUID() },
  );
  return { email, api, id: server.id };
}

/**
 * The colours of the console's canvas at the machine's screen coordinates (the canvas holds the
 * machine's 800x600 picture; noVNC scales it with CSS), or null before noVNC made it.
 */
function colours(page: Page, points: readonly (readonly [number, number])[]) {
  return page.getByTestId('console-screen').evaluate((screen, at) => {
    const canvas = screen.querySelector('canvas');
    const context = canvas?.getContext('2d');
    if (!canvas || !context || canvas.width < 800) return null;
    return at.map(([x, y]) => Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3)));
  }, points);
}

const { box, field, dot, dotStep } = SCREEN_LAYOUT;
/** A point of the background, of the box, of the password field's empty end, and the dots'. */
const BACKGROUND = [10, 10] as const;
const BOX = [box.x + 5, box.y + 5] as const;
const FIELD_END = [field.x + field.w - 4, field.y + 4] as const;
const dotAt = (i: number) => [dot.x + i * dotStep + dot.size / 2, dot.y + dot.size / 2] as const;

const rgb = (colour: Rgb) => [...colour];

test('a trader opens the web console of a running server: the sign-in screen, typing and Ctrl+Alt+Del reach it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { email, api, id } = await userWithServer(request, 'Vera Viewer');
  await signIn(page, email);
  await page.goto(`/vps/servers/${id}`);
  const details = page.getByRole('region', { name: 'Server details' });
  await expect(details.getByText('Running', { exact: true })).toBeVisible(CREATION);

  const card = page.getByRole('region', { name: 'Web console' });
  const ticket = page.waitForResponse(
    (res) => res.url().endsWith(`/api/user/vps/servers/${id}/console`) && res.status() === 201,
  );
  await card.getByRole('link', { name: 'Open the console' }).click();
  await expect(page).toHaveURL(new RegExp(`/vps/servers/${id}/console$`));
  await expect(
    page.getByRole('heading', { level: 1, name: `Console of server #${id}` }),
  ).toBeVisible();
  await expect(page.getByRole('status').first()).toHaveText(
    'Connected. Click the screen to type on the server.',
    DRAWN,
  );

  // the machine's picture on the canvas: the sign-in screen, nothing typed
  const signInScreen = SCREEN_COLOURS.sign_in;
  await expect
    .poll(() => colours(page, [BACKGROUND, BOX, FIELD_END, dotAt(0)]), DRAWN)
    .toEqual([
      rgb(signInScreen.background),
      rgb(signInScreen.box),
      rgb(SCREEN_COLOURS.field),
      rgb(SCREEN_COLOURS.field),
    ]);

  // the text is typed key by key: a dot a character in the password field
  const typing = page.getByRole('textbox', { name: 'Text to type on the server' });
  await typing.fill('Pa55!');
  await page.getByRole('button', { name: 'Type' }).click();
  await expect(page.getByText('The text was typed on the server.')).toBeVisible();
  const dots = [0, 1, 2, 3, 4, 5].map(dotAt);
  await expect
    .poll(() => colours(page, dots), DRAWN)
    .toEqual([...Array(5).fill(rgb(SCREEN_COLOURS.dot)), rgb(SCREEN_COLOURS.field)]);

  // Ctrl+Alt+Del brings up the security screen
  await page.getByRole('button', { name: 'Send Ctrl+Alt+Del' }).click();
  const security = SCREEN_COLOURS.security;
  await expect
    .poll(() => colours(page, [BACKGROUND, BOX]), DRAWN)
    .toEqual([rgb(security.background), rgb(security.box)]);

  // the ticket the page used is spent: replayed, the relay refuses the socket before opening it
  const { ticket: used } = (await (await ticket).json()) as { ticket: string };
  const replay = await page.evaluate(
    ([serverId, value]) =>
      new Promise<string>((resolve) => {
        const url = `${location.origin.replace(/^http/, 'ws')}/api/user/vps/servers/${serverId}/console/socket?ticket=${encodeURIComponent(value)}`;
        const socket = new WebSocket(url);
        socket.onopen = () => resolve('opened');
        socket.onerror = () => resolve('refused');
      }),
    [id, used] as const,
  );
  expect(replay).toBe('refused');

  // and another user gets no ticket for this server: it is not theirs
  const other = await createVerifiedUser(request, { name: 'Nick Nosy' });
  const nosy = new ApiSession(request, other.email);
  const refused = await nosy.call('POST', `/api/user/vps/servers/${id}/console`);
  expect([refused.status(), (await refused.json()).code]).toEqual([404, 'SERVER_NOT_FOUND']);
  // while the owner still does
  expect((await api.call('POST', `/api/user/vps/servers/${id}/console`)).status()).toBe(201);
});
