import { screen, within } from '@testing-library/react';
import type { VerificationResponse } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import { NOT_HOSTED } from '../test-utils';
import { Verification } from './verification';

/** On our servers since 2 March 2026 (the first equity point), the trades from 2 February. */
const VERIFIED: VerificationResponse = {
  verified: true,
  reason: null,
  since: '2026-03-02T09:00:00.000Z',
  last_hosted_at: '2026-11-30T11:55:00.000Z',
  period_from: '2026-02-02T09:00:00.000Z',
  covered: 0.64,
  checked_at: '2026-11-30T11:55:00.000Z',
  broken_from: null,
  broken_to: null,
};

function show(v: VerificationResponse, { owner = false, language = 'en' as 'en' | 'ru' } = {}) {
  return renderSignedInPage(
    [{ path: '/', element: <Verification verification={v} owner={owner} /> }],
    '/',
    'token',
    { language },
  );
}

/** An element's text, its spaces plain ones (Intl writes no-break ones in dates). */
const plain = (element: Element) => element.textContent!.replace(/\s+/g, ' ');

/** The disclosure's summary, the badge and the words beside it. */
const summary = () => screen.getByTestId('verification').querySelector('summary')!;

describe('"Verified by TradeHost"', () => {
  it('is a badge with a check, since when; it opens the share of the period covered, what it proves and what it does not', async () => {
    const { user } = show(VERIFIED);
    const badge = await screen.findByText('Verified by TradeHost');
    // not only a colour: a check icon and the words
    expect(badge).toHaveAttribute('data-status', 'verified');
    expect(badge.querySelector('svg path')).toHaveAttribute('d', 'M5 12.5l4.5 4.5L19 7.5');
    expect(summary()).toHaveTextContent(/^Verified by TradeHost since Mar 2, 2026$/);
    const details = screen.getByTestId('verification');
    expect(details).not.toHaveAttribute('open');
    await user.click(summary());
    expect(details).toHaveAttribute('open');
    const panel = within(details);
    expect(
      panel.getByText(
        'The mark covers 64% of the displayed period: the trades before Mar 2, 2026 came from the terminal’s history, sent when the publisher was first attached, and were not watched as they happened.',
      ),
    ).toBeVisible();
    expect(panel.getByRole('heading', { name: 'What the mark proves' })).toBeVisible();
    const [proves, notProves] = panel.getAllByRole('list');
    expect(within(proves!).getAllByRole('listitem').map(plain)).toEqual([
      'The publisher has run on a TradeHost server the whole time since Mar 2, 2026, never silent for longer than 10 minutes of market hours.',
      'No data for this account came from any other computer meanwhile.',
      'The deals add up to the balance the terminal reports: none is missing.',
    ]);
    expect(panel.getByRole('heading', { name: 'What it does not prove' })).toBeVisible();
    expect(within(notProves!).getAllByRole('listitem').map(plain)).toEqual([
      'That the trading password, or the account at the broker, belongs to the owner of this page.',
      'That the strategy will keep working: past results do not promise future ones.',
      'Anything of the trades before Mar 2, 2026: they add up, but nobody watched them happen.',
    ]);
    expect(panel.getByText(/^Checked up to Nov 30, 2026/)).toBeVisible();
  });

  it('covering the whole period says so, and nothing of a history before it', async () => {
    const { user } = show({ ...VERIFIED, covered: 0.999, period_from: VERIFIED.since });
    await user.click(await screen.findByText('Verified by TradeHost'));
    expect(
      screen.getByText('The mark covers the whole displayed period, from Mar 2, 2026.'),
    ).toBeVisible();
    expect(screen.queryByText(/nobody watched them/)).toBeNull();
  });

  it('never rounds a share short of the whole up to all of it; in Russian with its space', async () => {
    const { user } = show({ ...VERIFIED, covered: 0.994 }, { language: 'ru' });
    expect(summary()).toHaveTextContent(/^Подтверждено TradeHost с 2 мар\. 2026 г\.$/);
    await user.click(summary());
    expect(screen.getByText(/^Отметка охватывает 99\s% показанного периода/)).toBeVisible();
    // a no-break space: "%" never goes to the next line alone
    expect(screen.getByTestId('verification').textContent).toContain('99\u00a0%');
    expect(screen.getByRole('heading', { name: 'Чего она не подтверждает' })).toBeVisible();
  });

  it('says "less than 1%" of a run that covers a sliver of the period, never 0%', async () => {
    const { user } = show({ ...VERIFIED, covered: 0.003 });
    await user.click(await screen.findByText('Verified by TradeHost'));
    expect(screen.getByText(/^The mark covers < 1% of the displayed period/)).toBeVisible();
  });

  it('is the same on the owner’s page', async () => {
    show(VERIFIED, { owner: true });
    expect(await screen.findByText('Verified by TradeHost')).toBeVisible();
    expect(summary()).toHaveTextContent('since Mar 2, 2026');
  });
});

describe('an account not verified', () => {
  it.each([
    ['not_hosted', 'the publisher does not run on a TradeHost server'],
    ['gap', 'the publisher was silent for a while'],
    ['elsewhere', 'the account was also published from another computer'],
    ['silent_now', 'nothing has come from the TradeHost server lately'],
    ['history_incomplete', 'the deals do not add up to the balance'],
  ] as const)(
    'on the public page (%s): only the plain badge and the short reason, nothing to open',
    async (reason, short) => {
      show({ ...NOT_HOSTED, reason });
      const line = await screen.findByTestId('verification');
      expect(line.tagName).toBe('P');
      expect(line).toHaveTextContent(`Not verified by the host ${short}`);
      expect(within(line).getByText('Not verified by the host')).toHaveAttribute(
        'data-status',
        reason,
      );
      expect(screen.queryByText('Verified by TradeHost')).toBeNull();
      expect(screen.queryByRole('link')).toBeNull();
    },
  );

  /** The owner's page with `v`, its disclosure opened: the panel's paragraphs. */
  async function opened(v: VerificationResponse, language: 'en' | 'ru' = 'en') {
    const { user } = show(v, { owner: true, language });
    await screen.findByTestId('verification');
    await user.click(summary());
    // the dates' spaces as plain ones (Intl writes no-break ones)
    return [...screen.getByTestId('verification').querySelectorAll('p')].map((p) =>
      p.textContent!.replace(/\s+/g, ' '),
    );
  }

  it('on the owner’s page, not hosted: why, and to run the terminal on a server of ours', async () => {
    const texts = await opened(NOT_HOSTED);
    expect(summary()).toHaveTextContent(
      /^Not verified by the host the publisher does not run on a TradeHost server$/,
    );
    expect(texts[0]).toBe(
      'The publisher of this account has not run on a TradeHost server since the account’s first data. The mark needs it there from the first data on.',
    );
    expect(texts[1]).toMatch(/^Run the terminal with the publisher on a TradeHost server\./);
    expect(screen.getByRole('link', { name: 'Your servers' })).toHaveAttribute('href', '/vps');
    expect(texts[2]).toMatch(/^The mark: the publisher ran on a TradeHost server/);
  });

  it('on the owner’s page, a gap: silent from when to when', async () => {
    const texts = await opened({
      ...NOT_HOSTED,
      reason: 'gap',
      broken_from: '2026-11-10T09:00:00.000Z',
      broken_to: '2026-11-10T10:30:00.000Z',
    });
    expect(texts[0]).toMatch(
      /^The publisher on the TradeHost server was silent from Nov 10, 2026, 9:00 AM to Nov 10, 2026, 10:30 AM, longer than 10 minutes of market hours\. A break is for good/,
    );
    expect(texts[1]).toMatch(/^Keep the terminal running on the server\./);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('on the owner’s page, published from elsewhere: from when to when (Russian)', async () => {
    const texts = await opened(
      {
        ...NOT_HOSTED,
        reason: 'elsewhere',
        broken_from: '2026-11-10T09:00:00.000Z',
        broken_to: '2026-11-12T18:00:00.000Z',
      },
      'ru',
    );
    expect(summary()).toHaveTextContent(
      'Не подтверждено хостингом счёт публиковали и с другого компьютера',
    );
    expect(texts[0]).toMatch(
      /^С 10 нояб\. 2026 г\., 09:00 по 12 нояб\. 2026 г\., 18:00 данные этого счёта приходили с компьютера вне TradeHost\./,
    );
    expect(texts[1]).toMatch(/^Публикуйте счёт только с сервера TradeHost\./);
  });

  it('on the owner’s page, silent now: since when, and to start it again', async () => {
    const texts = await opened({
      ...NOT_HOSTED,
      reason: 'silent_now',
      since: '2026-03-02T09:00:00.000Z',
      last_hosted_at: '2026-11-30T08:00:00.000Z',
    });
    expect(texts[0]).toMatch(
      /^Nothing has come from the TradeHost server since Nov 30, 2026, 8:00 AM, longer than 10 minutes of market hours\./,
    );
    expect(texts[1]).toMatch(/^Start the terminal and its publisher on the server again\./);
  });

  it('on the owner’s page, an incomplete history: to send the whole of it', async () => {
    const texts = await opened({ ...NOT_HOSTED, reason: 'history_incomplete' });
    expect(texts[0]).toMatch(/do not add up to its balance/);
    expect(texts[1]).toMatch(/^Send the whole history: in MetaTrader 4, right-click/);
    expect(texts[1]).toMatch(/The mark comes back once the deals add up\.$/);
  });
});
