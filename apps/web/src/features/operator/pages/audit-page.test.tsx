import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFormatters } from '../lib/format';
import {
  adminUser,
  auditEntry,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
} from '../test-utils';

const firstPage = [
  auditEntry(),
  auditEntry({
    id: 2,
    action: 'balance.adjust',
    subject_type: 'user',
    subject_id: '5',
    details: { account: 'balance_partner', amount: -10, reason: 'Duplicate reward' },
  }),
  auditEntry({
    id: 3,
    actor: null,
    action: 'payment.mismatch',
    target_user: null,
    details: {},
  }),
];
const secondPage = [auditEntry({ id: 4, action: 'payment.reject', subject_id: '9' })];

const order = auditEntry({
  id: 10,
  actor: null,
  action: 'vps.order',
  subject_type: 'vps_server',
  subject_id: '12',
  details: {
    rate_id: 3,
    rate: 'Trader',
    location: 'London (LD4)',
    months: 3,
    price: 40.5,
    period_discount: 4.5,
    promocode: 'SPRING',
    promo_discount: 2,
    charge_id: 45,
    operation_id: 7,
  },
});
/** Entries whose details are ids, cents, moments, yes or no, known words and objects. */
const detailed = [
  order,
  auditEntry({
    id: 11,
    actor: null,
    action: 'vps.auto_renew_failed',
    subject_type: 'vps_server',
    details: { months: 1, price_cents: 1250, balance_cents: 300 },
  }),
  auditEntry({
    id: 12,
    actor: null,
    action: 'vps.revoke',
    subject_type: 'vps_server',
    details: {
      operation_id: 8,
      blocked_at: '2025-03-05T10:00:00.000Z',
      cancelled_upgrades: [4, 5],
    },
  }),
  auditEntry({
    id: 13,
    action: 'vps.rate_update',
    subject_type: 'vps_rate',
    subject_id: '3',
    target_user: null,
    details: {
      monthly_price: 15,
      active: false,
      before: { id: 3, name: 'Start', monthly_price: 12.5, active: true },
    },
  }),
  auditEntry({
    id: 14,
    action: 'vps.discounts_update',
    subject_type: 'vps_rate',
    subject_id: null,
    target_user: null,
    details: {
      before: [
        { months: 1, discount_percent: 0 },
        { months: 3, discount_percent: 5 },
      ],
    },
  }),
  auditEntry({
    id: 15,
    actor: null,
    action: 'payment.mismatch',
    details: {
      driver: 'payeer',
      expected: { amount: '10.00', currency: 'USD' },
      received: { amount: '9.00', currency: 'USD' },
      operation_id: '630437734',
    },
  }),
  auditEntry({
    id: 16,
    action: 'support.assign',
    subject_type: 'support_ticket',
    details: { title: 'Cannot log in', department_id: 2, from: null, to: 99 },
  }),
  auditEntry({
    id: 17,
    action: 'support.status',
    subject_type: 'support_ticket',
    details: { title: 'Cannot log in', department_id: 2, from: 'new', to: 'processing' },
  }),
  auditEntry({
    id: 18,
    action: 'faq.update',
    subject_type: 'faq_item',
    target_user: null,
    details: { changed: ['slug', 'question_en'] },
  }),
  auditEntry({
    id: 19,
    action: 'vps.action',
    subject_type: 'vps_server',
    details: { action: 'reboot', operation_id: 9 },
  }),
];

describe('audit log', () => {
  it('lists who did what in words, and pages through it', async () => {
    stubOperatorApi({
      'GET /admin/audit': () => {
        const current = Number(queriesTo('/admin/audit').at(-1)?.page ?? 1);
        return {
          body: page(current === 1 ? firstPage : secondPage, {
            page: current,
            per_page: 25,
            total: 26,
          }),
        };
      },
    });
    const { user } = await openOperator('/operator/audit');
    const table = await screen.findByRole('table', { name: 'Audit log' }, { timeout: 5000 });
    expect(queriesTo('/admin/audit')[0]).toEqual({ page: '1', per_page: '25' });
    const [confirm, adjust, mismatch] = within(table).getAllByRole('row').slice(1);

    expect(confirm).toHaveTextContent('Confirmed a crypto payment');
    expect(confirm).toHaveTextContent('Payment #7');
    expect(within(confirm!).getByRole('link', { name: 'olga@tradehost.test' })).toBeVisible();
    expect(within(confirm!).getByRole('link', { name: 'bob@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/5',
    );
    expect(confirm).toHaveTextContent('Amount+$50.00');
    expect(confirm).toHaveTextContent('NetworkUSDT-TRC20');

    expect(adjust).toHaveTextContent('Adjusted a balance');
    expect(adjust).toHaveTextContent('User #5');
    expect(adjust).toHaveTextContent('AccountPartner balance');
    expect(adjust).toHaveTextContent('Amount\u2212$10.00');
    expect(adjust).toHaveTextContent('ReasonDuplicate reward');

    expect(mismatch).toHaveTextContent('System');
    expect(mismatch).toHaveTextContent('Refused a payment notification');

    const pages = screen.getByRole('navigation', { name: 'Pages of the audit log' });
    expect(pages).toHaveTextContent('1–25 of 26');
    const previous = within(pages).getByRole('button', { name: 'Previous' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');
    await user.click(previous);
    expect(queriesTo('/admin/audit')).toHaveLength(1);

    const next = within(pages).getByRole('button', { name: 'Next' });
    await user.click(next);
    // the page shown stays (busy) while the next one loads: the table and the focus stay
    await waitFor(() => expect(table).toHaveTextContent('Rejected a crypto payment'));
    expect(queriesTo('/admin/audit').at(-1)).toEqual({ page: '2', per_page: '25' });
    expect(table).not.toHaveTextContent('Adjusted a balance');
    expect(pages).toHaveTextContent('26–26 of 26');
    expect(next).toHaveAttribute('aria-disabled', 'true');
    expect(next).toHaveFocus();
  });

  it('shows details in words: names, money, ids, moments, yes or no', async () => {
    stubOperatorApi({ 'GET /admin/audit': { body: page(detailed) } });
    await openOperator('/operator/audit');
    const table = await screen.findByRole('table', { name: 'Audit log' }, { timeout: 5000 });
    const [ordered, renewal, revoked, rate, discounts, mismatch, assigned, status, faq, reboot] =
      within(table).getAllByRole('row').slice(1);

    expect(ordered).toHaveTextContent('Ordered a server');
    expect(ordered).toHaveTextContent('Rate number#3');
    expect(ordered).toHaveTextContent('RateTrader');
    expect(ordered).toHaveTextContent('LocationLondon (LD4)');
    expect(ordered).toHaveTextContent('Months3');
    expect(ordered).toHaveTextContent('Price$40.50');
    expect(ordered).toHaveTextContent('Period discount$4.50');
    expect(ordered).toHaveTextContent('PromocodeSPRING');
    expect(ordered).toHaveTextContent('Promocode discount$2.00');
    expect(ordered).toHaveTextContent('Charge#45');
    expect(ordered).toHaveTextContent('Operation#7');

    // the lifecycle writes cents
    expect(renewal).toHaveTextContent('Price$12.50');
    expect(renewal).toHaveTextContent('Balance$3.00');

    // as the text reads (toHaveTextContent writes its no-break spaces as plain ones)
    const blockedAt = createFormatters('en')
      .dateTime('2025-03-05T10:00:00.000Z')
      .replace(/\s/gu, ' ');
    expect(revoked).toHaveTextContent(`Blocked${blockedAt}`);
    expect(revoked).toHaveTextContent('Cancelled upgrades#4, #5');

    expect(rate).toHaveTextContent('Price per month$15.00');
    expect(rate).toHaveTextContent('ActiveNo');
    expect(rate).toHaveTextContent(
      'BeforeNumber: #3 · Name: Start · Price per month: $12.50 · Active: Yes',
    );
    expect(discounts).toHaveTextContent(
      'Before(Months: 1 · Discount, %: 0), (Months: 3 · Discount, %: 5)',
    );

    expect(mismatch).toHaveTextContent('Payment providerpayeer');
    expect(mismatch).toHaveTextContent('Expected10.00 USD');
    expect(mismatch).toHaveTextContent('Received9.00 USD');

    expect(assigned).toHaveTextContent('Department#2');
    expect(assigned).toHaveTextContent('From—');
    expect(assigned).toHaveTextContent('To#99');
    expect(status).toHaveTextContent('FromNew');
    expect(status).toHaveTextContent('ToProcessing');

    expect(faq).toHaveTextContent('ChangedLink name, Question in English');
    expect(reboot).toHaveTextContent('CommandReboot');
    expect(table).not.toHaveTextContent(/[a-z]+_[a-z_]+/);
  });

  it('shows details in Russian', async () => {
    stubOperatorApi(
      { 'GET /admin/audit': { body: page(detailed) } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/audit', { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Журнал аудита' }, { timeout: 5000 });
    const [ordered, , , rate, , , , status, faq, reboot] = within(table)
      .getAllByRole('row')
      .slice(1);

    expect(ordered).toHaveTextContent('Заказ сервера');
    // ids as Russian writes them: '№', a no-break space, the number (a space would not do:
    // toHaveTextContent takes a no-break space for any space, so the raw text is read)
    expect(ordered!.textContent).toContain('Номер тарифа№\u00a03');
    expect(ordered).toHaveTextContent('ТарифTrader');
    expect(ordered).toHaveTextContent('РасположениеLondon (LD4)');
    expect(ordered).toHaveTextContent('Месяцев3');
    expect(ordered).toHaveTextContent('Цена40,50 $');
    expect(ordered).toHaveTextContent('Скидка за срок аренды4,50 $');
    expect(ordered).toHaveTextContent('ПромокодSPRING');
    expect(ordered).toHaveTextContent('Скидка по промокоду2,00 $');
    expect(ordered!.textContent).toContain('Списание№\u00a045');
    expect(ordered!.textContent).toContain('Операция№\u00a07');
    expect(ordered!.textContent).toContain('Сервер №\u00a012');

    expect(rate).toHaveTextContent('АктивенНет');
    expect(rate!.textContent).toContain(
      'БылоНомер: №\u00a03 · Название: Start · Цена в месяц: 12,50\u00a0$ · Активен: Да',
    );
    expect(status).toHaveTextContent('БылоНовый');
    expect(faq).toHaveTextContent('ИзмененоИмя ссылки, Вопрос на английском');
    expect(reboot).toHaveTextContent('КомандаПерезагрузка');
    expect(table).not.toHaveTextContent(/[a-z]+_[a-z_]+/);
  });

  it('reads an old value before its new one, whatever order the stored details come in', async () => {
    // PostgreSQL's jsonb keeps keys shortest first: 'to' before 'from', 'after' before 'before'
    const stored = [
      auditEntry({
        id: 30,
        action: 'support.reply',
        subject_type: 'support_ticket',
        details: { to: 'processing', from: 'new', files: 0, message_id: 4 },
      }),
      auditEntry({
        id: 31,
        action: 'vps.rate_update',
        subject_type: 'vps_rate',
        details: { after: { active: false }, before: { active: true } },
      }),
      auditEntry({
        id: 32,
        action: 'vps.extend',
        subject_type: 'vps_server',
        details: {
          ends_at: '2025-05-05T10:00:00.000Z',
          previous_ends_at: '2025-04-05T10:00:00.000Z',
        },
      }),
    ];
    stubOperatorApi({ 'GET /admin/audit': { body: page(stored) } });
    await openOperator('/operator/audit');
    const table = await screen.findByRole('table', { name: 'Audit log' }, { timeout: 5000 });
    const labels = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => Array.from(row.querySelectorAll('dt'), (dt) => dt.textContent));
    expect(labels).toEqual([
      ['From', 'To', 'Files', 'Message'],
      ['Before', 'After'],
      ['Ended before', 'Ends'],
    ]);
  });

  it('names a ticket’s department as the entry stored it, in the reader’s language; an older entry by its number', async () => {
    const entries = [
      auditEntry({
        id: 40,
        action: 'support.reply',
        subject_type: 'support_ticket',
        details: {
          title: 'Cannot log in',
          department: { id: 2, name_en: 'Billing', name_ru: 'Оплата и счета' },
          files: 0,
        },
      }),
      // written before the names were stored
      auditEntry({
        id: 41,
        action: 'support.status',
        subject_type: 'support_ticket',
        details: { title: 'Cannot log in', department_id: 3, from: 'new', to: 'processing' },
      }),
    ];
    const rows = async (table: string) => {
      const found = await screen.findByRole('table', { name: table }, { timeout: 5000 });
      return within(found)
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          Array.from(row.querySelectorAll('dl > div'), (field) => [
            field.querySelector('dt')!.textContent,
            field.querySelector('dd')!.textContent,
          ]),
        );
    };
    stubOperatorApi({ 'GET /admin/audit': { body: page(entries) } });
    const { unmount } = await openOperator('/operator/audit');
    expect(await rows('Audit log')).toEqual([
      [
        ['Title', 'Cannot log in'],
        ['Department', 'Billing'],
        ['Files', '0'],
      ],
      [
        ['Title', 'Cannot log in'],
        ['Department', '#3'],
        ['From', 'New'],
        ['To', 'Processing'],
      ],
    ]);
    unmount();

    stubOperatorApi(
      { 'GET /admin/audit': { body: page(entries) } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/audit', { language: 'ru' });
    const [reply, status] = await rows('Журнал аудита');
    expect(reply).toContainEqual(['Отдел', 'Оплата и счета']);
    expect(status).toContainEqual(['Отдел', '№\u00a03']);
  });

  it('says when the log is empty', async () => {
    stubOperatorApi({ 'GET /admin/audit': { body: page([]) } });
    await openOperator('/operator/audit');
    expect(await screen.findByText('The audit log is empty.', {}, { timeout: 5000 })).toBeVisible();
    expect(screen.queryByRole('navigation', { name: 'Pages of the audit log' })).toBeNull();
  });
});
