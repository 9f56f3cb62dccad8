import { screen, within } from '@testing-library/react';
import type { AlertEvent, AlertSettings } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import type { Handler } from '../../../test/fetch-stub';
import { testUser } from '../../../test/fixtures';
import { openSignedIn, stubSignedInApi } from '../../../test/signed-in';
import buttonStyles from '../../../shared/ui/form/button.module.css';
import { monitoringAccount } from '../test-utils';
import common from './monitoring.module.css';

const ACCOUNT = monitoringAccount({ name: 'Main', hide_login: true, time_zone: 'Europe/Moscow' });

const SETTINGS: AlertSettings = {
  alerts_enabled: true,
  alert_email: true,
  alert_telegram: true,
  report_daily: false,
  report_weekly: true,
  report_monthly: false,
  report_email: true,
  report_telegram: true,
  rules: [
    { kind: 'drawdown', enabled: true, threshold: 20, fired_at: '2026-03-02T10:00:00.000Z' },
    { kind: 'equity_below', enabled: false, threshold: null, fired_at: null },
    { kind: 'margin_level', enabled: false, threshold: null, fired_at: null },
    { kind: 'daily_loss', enabled: false, threshold: null, fired_at: null },
    { kind: 'no_data', enabled: false, threshold: 30, fired_at: null },
    { kind: 'positions', enabled: false, threshold: null, fired_at: null },
    { kind: 'ping_above', enabled: false, threshold: null, fired_at: null },
  ],
  email: 'r@example.com',
  currency: 'USD',
  telegram: { available: false, linked: false },
};

const NO_DATA: AlertEvent = {
  id: 3,
  kind: 'no_data',
  at: '2026-03-03T12:31:00.000Z',
  value: 31,
  threshold: 30,
  details: {
    minutes: 31,
    last_data_at: '2026-03-03T12:00:00.000Z',
    publisher_ip: '203.0.113.9',
    servers: [{ id: 12, state: 'shut_down', rate: 'Trader, London', comment: '' }],
  },
  email_status: 'sent',
  telegram_status: 'skipped',
};

const PING: AlertEvent = {
  id: 4,
  kind: 'ping_above',
  at: '2026-03-03T12:40:00.000Z',
  value: 1212,
  threshold: 150,
  details: { server: 'ICMarkets-Live02', minutes: 5 },
  email_status: 'sent',
  telegram_status: 'failed',
};

const empty = { body: { data: [], meta: { page: 1, per_page: 10, total: 0 } } };

/** The account's page with its other calls answered, and the alerts' calls given. */
function stub(alerts: Record<string, Handler>, language: 'en' | 'ru' = 'en') {
  const base = `/user/monitoring/accounts/${ACCOUNT.id}`;
  return stubSignedInApi(
    {
      'GET /user/monitoring/accounts': { body: { accounts: [ACCOUNT] } },
      'GET /user/monitoring/subscriptions': { body: { subscriptions: [] } },
      [`GET ${base}/trades`]: { body: { data: [], meta: { page: 1, per_page: 20, total: 0 } } },
      [`GET ${base}/positions`]: { body: { at: null, positions: [] } },
      [`GET ${base}/chart`]: { body: { points: [] } },
      [`GET ${base}/alerts`]: { body: SETTINGS },
      [`GET ${base}/alerts/history`]: empty,
      ...Object.fromEntries(
        Object.entries(alerts).map(([key, handler]) => [key.replace('$', base), handler]),
      ),
    },
    { ...testUser, language },
  );
}

const open = (language: 'en' | 'ru' = 'en', width = 1440) =>
  openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`, { language, width });

describe('the account’s alerts', () => {
  it('shows each rule with its line, the channels, the reports and an empty history', async () => {
    stub({});
    await open();
    const section = (
      await screen.findByRole('heading', { name: 'Alerts and reports' }, { timeout: 5000 })
    ).closest('section')!;
    const view = within(section);
    expect(
      await view.findByRole('checkbox', { name: 'Drawdown from the peak reaches the line' }),
    ).toBeChecked();
    expect(view.getByRole('textbox', { name: 'Drawdown line, %' })).toHaveValue('20');
    expect(view.getByRole('textbox', { name: 'Equity line, USD' })).toHaveValue('');
    expect(view.getByRole('textbox', { name: 'No data line, minutes' })).toHaveValue('30');
    expect(
      view.getByRole('checkbox', {
        name: 'Ping to the trade server stays above the line for 5 minutes',
      }),
    ).toHaveAccessibleDescription(/a single spike does not/);
    expect(view.getByRole('textbox', { name: 'Ping line, ms' })).toHaveAttribute(
      'inputmode',
      'numeric',
    );
    expect(view.getByText(/Fired .*: waits for the account to recover/)).toBeVisible();
    expect(view.getByRole('checkbox', { name: 'By e-mail to r@example.com' })).toBeChecked();
    expect(view.getByRole('checkbox', { name: 'Weekly' })).toBeChecked();
    expect(view.getByText(/Telegram bot is not set up here/)).toBeVisible();
    expect(await view.findByText('No alerts yet.')).toBeVisible();
  });

  // both channels are stored on (SETTINGS): only a bot that can deliver shows them so
  it.each([
    {
      when: 'the bot is not set up here',
      telegram: { available: false, linked: false },
      language: 'en',
      name: 'In Telegram',
      waits: 'Unavailable: Telegram delivery is not set up',
    },
    {
      when: 'Telegram is not linked in the profile',
      telegram: { available: true, linked: false },
      language: 'ru',
      name: 'В Telegram',
      waits: 'Сначала привяжите Telegram в профиле',
    },
    {
      when: 'the bot is linked',
      telegram: { available: true, linked: true },
      language: 'en',
      name: 'In Telegram',
      waits: undefined,
    },
  ] as const)(
    'does not claim Telegram when $when unless it can deliver: off and locked, saying why',
    async ({ telegram, language, name, waits }) => {
      stub({ 'GET $/alerts': { body: { ...SETTINGS, telegram } } }, language);
      await open(language);
      const channels = await screen.findAllByRole('checkbox', { name }, { timeout: 5000 });
      expect(channels).toHaveLength(2);
      for (const channel of channels) {
        if (waits) {
          expect(channel).not.toBeChecked();
          expect(channel).toBeDisabled();
          expect(channel).toHaveAccessibleDescription(waits);
        } else {
          expect(channel).toBeChecked();
          expect(channel).toBeEnabled();
        }
      }
    },
  );

  it('saves the rules, the channels and the reports as set', async () => {
    const api = stub({
      'PATCH $/alerts': {
        body: {
          ...SETTINGS,
          report_daily: true,
          rules: SETTINGS.rules.map((r) =>
            r.kind === 'equity_below' ? { ...r, enabled: true, threshold: 950.5 } : r,
          ),
        },
      },
    });
    const { user } = await open();
    const section = within(
      (
        await screen.findByRole('heading', { name: 'Alerts and reports' }, { timeout: 5000 })
      ).closest('section')!,
    );
    await user.click(await section.findByRole('checkbox', { name: 'Equity falls below the line' }));
    await user.type(section.getByRole('textbox', { name: 'Equity line, USD' }), '950,5');
    await user.click(section.getByRole('checkbox', { name: 'Daily' }));
    await user.click(section.getByRole('button', { name: 'Save alerts and reports' }));
    expect(await section.findByText('Saved')).toBeVisible();
    const [sent] = api.callsTo('PATCH', `/user/monitoring/accounts/${ACCOUNT.id}/alerts`);
    expect(sent!.body).toMatchObject({
      alerts_enabled: true,
      // the Telegram choices locked while the bot cannot deliver are kept as stored
      alert_telegram: true,
      report_telegram: true,
      report_daily: true,
      report_weekly: true,
      rules: {
        drawdown: { enabled: true, threshold: 20 },
        equity_below: { enabled: true, threshold: 950.5 },
        no_data: { enabled: false, threshold: 30 },
        positions: { enabled: false },
      },
    });
    // rules left off without a line are not sent
    expect(sent!.body).not.toHaveProperty('rules.margin_level');
  });

  it('refuses a bad line in the reader’s language before sending, and shows the server’s field error', async () => {
    const api = stub(
      {
        'PATCH $/alerts': {
          status: 422,
          body: {
            message: 'Enter whole minutes from 5 to 1440',
            code: 'MONITORING_ALERT_MINUTES_RANGE',
            errors: { 'rules.no_data.threshold': ['Enter whole minutes from 5 to 1440'] },
          },
        },
      },
      'ru',
    );
    const { user } = await open('ru');
    const section = within(
      (
        await screen.findByRole('heading', { name: 'Оповещения и отчёты' }, { timeout: 5000 })
      ).closest('section')!,
    );
    const drawdown = await section.findByRole('textbox', { name: 'Просадка: граница, %' });
    await user.clear(drawdown);
    await user.type(drawdown, '100');
    await user.click(section.getByRole('button', { name: 'Сохранить оповещения и отчёты' }));
    expect(await section.findByText('Введите процент больше 0 и меньше 100')).toBeVisible();
    expect(drawdown).toHaveAttribute('aria-invalid', 'true');
    expect(drawdown).toHaveFocus();
    expect(api.callsTo('PATCH', `/user/monitoring/accounts/${ACCOUNT.id}/alerts`)).toHaveLength(0);

    await user.clear(drawdown);
    await user.type(drawdown, '25');
    await user.click(section.getByRole('button', { name: 'Сохранить оповещения и отчёты' }));
    expect(await section.findByText('Введите целое число минут от 5 до 1440')).toBeVisible();
    expect(section.getByRole('textbox', { name: 'Нет данных: граница, минуты' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('sets the ping line in whole milliseconds, refusing one out of range in the reader’s language', async () => {
    const api = stub({ 'PATCH $/alerts': { body: SETTINGS } }, 'ru');
    const { user } = await open('ru');
    const section = within(
      (
        await screen.findByRole('heading', { name: 'Оповещения и отчёты' }, { timeout: 5000 })
      ).closest('section')!,
    );
    await user.click(
      await section.findByRole('checkbox', {
        name: 'Пинг до торгового сервера выше границы 5 минут подряд',
      }),
    );
    const line = section.getByRole('textbox', { name: 'Пинг: граница, мс' });
    const save = section.getByRole('button', { name: 'Сохранить оповещения и отчёты' });
    for (const bad of ['5', '5001', '150,5']) {
      await user.clear(line);
      await user.type(line, bad);
      await user.click(save);
      expect(
        await section.findByText('Введите целое число миллисекунд от 10 до 5000'),
      ).toBeVisible();
      expect(line).toHaveAttribute('aria-invalid', 'true');
    }
    expect(api.callsTo('PATCH', `/user/monitoring/accounts/${ACCOUNT.id}/alerts`)).toHaveLength(0);

    await user.clear(line);
    await user.type(line, '150');
    await user.click(save);
    expect(await section.findByText('Сохранено')).toBeVisible();
    const [sent] = api.callsTo('PATCH', `/user/monitoring/accounts/${ACCOUNT.id}/alerts`);
    expect(sent!.body).toMatchObject({ rules: { ping_above: { enabled: true, threshold: 150 } } });
  });

  it('lists a ping alert with the trade server, how long and how high', async () => {
    stub(
      {
        'GET $/alerts/history': {
          body: { data: [PING], meta: { page: 1, per_page: 10, total: 1 } },
        },
      },
      'ru',
    );
    await open('ru');
    const history = (
      await screen.findByRole('heading', { name: 'История оповещений' }, { timeout: 5000 })
    ).parentElement!;
    const item = within((await within(history).findAllByRole('listitem'))[0]!);
    expect(item.getByText('Пинг')).toBeVisible();
    expect(
      item.getByText(/^Пинг до ICMarkets-Live02 выше границы 5 мин: 1\s212 мс \(граница 150 мс\)$/),
    ).toBeVisible();
    expect(item.getByText('Telegram: ошибка')).toBeVisible();
  });

  it('lists the alerts that fired, with the silent terminal’s server and each channel’s delivery', async () => {
    stub({
      'GET $/alerts/history': {
        body: { data: [NO_DATA], meta: { page: 1, per_page: 10, total: 11 } },
      },
    });
    await open('en', 375);
    const history = (
      await screen.findByRole('heading', { name: 'Alert history' }, { timeout: 5000 })
    ).parentElement!;
    const [first] = await within(history).findAllByRole('listitem');
    const item = within(first!);
    expect(item.getByText('No data')).toBeVisible();
    expect(item.getByText('No data for 31 min of market time (line 30 min)')).toBeVisible();
    expect(item.getByText('Server #12 (Trader, London): shut down')).toBeVisible();
    expect(item.getByText('E-mail: sent')).toBeVisible();
    expect(item.getByText('Telegram: not sent')).toBeVisible();
    expect(
      within(history).getByRole('navigation', { name: 'Pages of the alert history' }),
    ).toBeVisible();
  });

  it('says when the history cannot be loaded, with a retry', async () => {
    stub({
      'GET $/alerts/history': {
        status: 500,
        body: { message: 'Internal server error', code: 'INTERNAL' },
      },
    });
    await open();
    expect(
      await screen.findByText('The alert history could not be loaded', {}, { timeout: 5000 }),
    ).toBeVisible();
  });
});

describe('the account’s settings', () => {
  const settingsSection = async () =>
    within(
      (await screen.findByRole('heading', { name: 'Settings' }, { timeout: 5000 })).closest(
        'section',
      )!,
    );

  it('has the public page as a group of its own, its link inside it in the page’s font', async () => {
    stub({
      'GET /user/monitoring/accounts': { body: { accounts: [{ ...ACCOUNT, is_public: true }] } },
    });
    await open();
    const group = within((await settingsSection()).getByRole('group', { name: 'Public page' }));
    const link = group.getByRole('link', { name: /\/online-monitoring\/AbCdEfGhIjKlMnOp$/ });
    expect(link.closest('fieldset')).toHaveClass(common.group!);
    expect(link.parentElement).not.toHaveClass(common.keyBox!);
    expect(group.getByRole('button', { name: 'Copy the link' })).toBeVisible();
    expect(group.getByRole('checkbox', { name: 'Hide the account number' })).toBeChecked();
  });

  it('deletes the account as a destructive action, only once confirmed', async () => {
    const api = stub({ 'DELETE $': { status: 204 } });
    const { user } = await open();
    const section = await settingsSection();
    const remove = section.getByRole('button', {
      name: 'Remove this trading account from monitoring',
    });
    expect(remove).toHaveClass(buttonStyles.danger!);
    await user.click(remove);
    const dialog = within(
      await screen.findByRole('dialog', {
        name: 'Remove “Main” (account 5012345) from monitoring?',
      }),
    );
    const confirm = dialog.getByRole('button', { name: 'Remove' });
    expect(confirm).toHaveClass(buttonStyles.danger!);
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', `/user/monitoring/accounts/${ACCOUNT.id}`)).toHaveLength(0);
  });
});
