/**
 * Test helpers of the operator area: an admin session (or an operator of some roles) over the
 * real signed-in routes (the RequireAdmin guard, the layout's role checks and the lazy pages
 * included) with the API stubbed at fetch, and fixtures in the shapes of the contracts (admin*
 * schemas), the VPS screens' included.
 */
import type {
  AdminDepartment,
  AdminOperation,
  AdminPartnerNetworkNode,
  AdminPartnerSummary,
  AdminPayment,
  AdminPromocode,
  AdminRate,
  AdminServer,
  AdminTestRequest,
  AdminTicketSummary,
  Attachment,
  CannedReply,
  FaqItem,
  SupportQueue,
  TicketMessage,
  AdminUser,
  AdminWithdrawal,
  AuditEntry,
  LedgerEntry,
  MoneyApproval,
  Operator,
  OperatorRole,
  PartnerSettings,
  PeriodDiscount,
  User,
} from '@tradehost/contracts';
import { vi } from 'vitest';
import type { Handler } from '../../test/fetch-stub';
import { testUser } from '../../test/fixtures';
import { openSignedIn, stubSignedInApi } from '../../test/signed-in';

export const adminUser: User = {
  ...testUser,
  id: 99,
  email: 'olga@tradehost.test',
  name: 'Olga',
  role: 'admin',
};

/**
 * An operator holding `roles` (operator_roles), role admin as the API sends it for any operator.
 * `adminUser` has no operator_roles, as a payload from before the roles: every role is theirs.
 */
export function operatorUser(...roles: OperatorRole[]): User {
  return { ...adminUser, operator_roles: roles };
}

/** The signed-in shell's calls, an admin as the user, and the given routes. */
export function stubOperatorApi(routes: Record<string, Handler> = {}, user: User = adminUser) {
  return stubSignedInApi(routes, user);
}

export const openOperator = openSignedIn;

/**
 * The query strings of the calls to `path` (the fetch stub keys its routes by the path alone).
 * RTK Query hands fetch a Request.
 */
export function queriesTo(path: string): Record<string, string>[] {
  return vi
    .mocked(globalThis.fetch)
    .mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input)))
    .filter((url) => url.pathname === `/api${path}`)
    .map((url) => Object.fromEntries(url.searchParams));
}

export const page = <T,>(
  data: T[],
  meta: { page?: number; per_page?: number; total?: number } = {},
) => ({
  data,
  meta: { page: 1, per_page: 20, total: data.length, ...meta },
});

export const bob = { id: 5, email: 'bob@example.com', name: 'Bob' };
export const carol = { id: 6, email: 'carol@example.com', name: 'Carol' };
export const olga = { id: 99, email: 'olga@tradehost.test', name: 'Olga' };

export function cryptoPayment(overrides: Partial<AdminPayment> = {}): AdminPayment {
  return {
    id: 7,
    created_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    method: 'crypto',
    amount: 50,
    currency: 'USD',
    status: 'under_review',
    network: 'USDT-TRC20',
    wallet: 'TXYZpayerWallet1234567890abcdef',
    txid: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
    reason: null,
    paid_at: null,
    user: bob,
    reviewed_by: null,
    reviewed_at: null,
    ...overrides,
  };
}

export function adminUserRecord(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 5,
    created_at: '2024-03-01T10:00:00.000Z',
    email: 'bob@example.com',
    name: 'Bob',
    role: 'user',
    balance: 120,
    balance_partner: 15.5,
    ...overrides,
  };
}

/**
 * An operator as GET /api/admin/operators lists one: `roles` granted by Olga on 10 January 2025
 * (null: from the command line), the second factor on unless told.
 */
export function operatorRecord(
  user: { id: number; email: string; name: string },
  roles: (OperatorRole | [OperatorRole, typeof olga | null])[],
  overrides: Partial<Operator> = {},
): Operator {
  return {
    user,
    roles: roles.map((entry) => {
      const [role, grantor] = Array.isArray(entry) ? entry : [entry, olga];
      return { role, granted_by: grantor, granted_at: '2025-01-10T12:00:00.000Z' };
    }),
    second_factor: true,
    ...overrides,
  };
}

export function ledgerEntry(overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: 1,
    transaction_id: 1,
    created_at: '2025-01-10T12:00:00.000Z',
    kind: 'topup',
    account: 'balance',
    amount: 25,
    balance_after: 125,
    memo: null,
    memo_code: null,
    memo_params: null,
    ...overrides,
  };
}

export function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 1,
    created_at: '2025-01-10T12:00:00.000Z',
    actor: olga,
    action: 'payment.confirm',
    subject_type: 'payment',
    subject_id: '7',
    target_user: bob,
    details: { amount: 50, network: 'USDT-TRC20', txid: 'abc123' },
    ...overrides,
  };
}

export const periods: PeriodDiscount[] = [
  { months: 1, discount_percent: 0 },
  { months: 3, discount_percent: 5 },
  { months: 6, discount_percent: 10 },
  { months: 12, discount_percent: 15 },
];

export function adminRate(overrides: Partial<AdminRate> = {}): AdminRate {
  return {
    id: 1,
    name: 'Start',
    cpu_cores: 2,
    ram_gb: 4,
    disk_gb: 60,
    location: 'London (LD4)',
    monthly_price: 12.5,
    active: true,
    template_id: 'win2022-std',
    servers: 3,
    ...overrides,
  };
}

export function adminPromocode(overrides: Partial<AdminPromocode> = {}): AdminPromocode {
  return {
    id: 1,
    code: 'WELCOME10',
    discount_percent: 10,
    active: true,
    times_used: 4,
    owner: null,
    created_at: '2025-01-10T12:00:00.000Z',
    ...overrides,
  };
}

export function testRequest(overrides: Partial<AdminTestRequest> = {}): AdminTestRequest {
  return {
    id: 3,
    created_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    status: 'under_review',
    reason: null,
    server_id: null,
    decided_at: null,
    user: bob,
    source: 'forum',
    ...overrides,
  };
}

export function adminServer(overrides: Partial<AdminServer> = {}): AdminServer {
  return {
    id: 12,
    rate: {
      id: 1,
      name: 'Start',
      cpu_cores: 2,
      ram_gb: 4,
      disk_gb: 60,
      location: 'London (LD4)',
      monthly_price: 12.5,
    },
    comment: '',
    status: 'active',
    power: 'running',
    issued_at: '2025-01-10T12:00:00.000Z',
    paid_until: '2025-02-10T12:00:00.000Z',
    auto_renew: false,
    renew_months: 1,
    is_trial: false,
    operation: null,
    last_operation: null,
    upgrade: null,
    has_credentials: true,
    failure: null,
    ping_ms: null,
    ping_terminals: 0,
    user: bob,
    machine_id: 'vm-1012',
    source: 'forum',
    ...overrides,
  };
}

export function adminOperation(overrides: Partial<AdminOperation> = {}): AdminOperation {
  return {
    id: 40,
    kind: 'reboot',
    status: 'succeeded',
    created_at: '2025-01-10T12:00:00.000Z',
    started_at: '2025-01-10T12:00:01.000Z',
    finished_at: '2025-01-10T12:01:30.000Z',
    error: null,
    server_id: 12,
    user: bob,
    actor: bob,
    attempts: 1,
    stuck: false,
    ...overrides,
  };
}

const DAY = 86_400_000;

/** A Received partner withdrawal of bob's, due in three days. */
export function adminWithdrawal(overrides: Partial<AdminWithdrawal> = {}): AdminWithdrawal {
  return {
    id: 8,
    created_at: new Date(Date.now() - 2 * DAY).toISOString(),
    amount: 25,
    method: 'USDT-TRC20',
    wallet: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    status: 'received',
    due_at: new Date(Date.now() + 3 * DAY).toISOString(),
    processed_at: null,
    payout_reference: null,
    reason: null,
    user: bob,
    overdue: false,
    processed_by: null,
    approval: null,
    ...overrides,
  };
}

/** The programme's seeded settings. */
export const partnerSettings: PartnerSettings = {
  reward_percents: [10, 5, 2],
  discount_tiers: [
    { active_referrals: 0, discount: 5 },
    { active_referrals: 5, discount: 10 },
    { active_referrals: 20, discount: 15 },
  ],
};

/** bob as a partner: referred by carol, with one referral's rewards, one of each state. */
export function partnerSummary(overrides: Partial<AdminPartnerSummary> = {}): AdminPartnerSummary {
  const reward = {
    id: 31,
    charge_id: 501,
    level: 1,
    from_user: { id: 7, email: 'dave@example.com', name: 'Dave' },
    base: 19.99,
    percent: 10,
    amount: 1.99,
    status: 'pending' as const,
    created_at: '2025-03-01T10:00:00.000Z',
    available_at: '2025-03-15T10:00:00.000Z',
  };
  return {
    user: bob,
    referral_code: 'BOB12345',
    link: 'https://tradehost.test/signup?ref=BOB12345',
    referrer: carol,
    active_referrals: [3, 1, 0],
    balances: { available: 15.5, pending: 1.99 },
    hold_days: 14,
    levels: [
      { level: 1, rewardForLevel: 12.5, userCount: 4, rewardCount: 119.99, rewardSum: 14.99 },
      { level: 2, rewardForLevel: 5, userCount: 1, rewardCount: 20, rewardSum: 1 },
      { level: 3, rewardForLevel: 2, userCount: 0, rewardCount: 0, rewardSum: 0 },
    ],
    rewards: [
      reward,
      {
        ...reward,
        id: 30,
        charge_id: 500,
        base: 50,
        amount: 5,
        status: 'cancelled',
        created_at: '2025-02-20T10:00:00.000Z',
        available_at: null,
      },
      {
        ...reward,
        id: 29,
        charge_id: 499,
        level: 2,
        from_user: { id: 8, email: 'erin@example.com', name: 'Erin' },
        base: 20,
        percent: 5,
        amount: 1,
        status: 'available',
        created_at: '2025-01-10T10:00:00.000Z',
        available_at: '2025-01-24T10:05:00.000Z',
      },
    ],
    ...overrides,
  };
}

/** A first-level referral of bob's, as the operator reads it (the e-mail unmasked). */
export function partnerReferral(
  overrides: Partial<AdminPartnerNetworkNode> = {},
): AdminPartnerNetworkNode {
  return {
    id: 7,
    email: 'dave@example.com',
    registered_at: '2025-02-03T09:30:00.000Z',
    level: 1,
    active: true,
    referrals: 2,
    turnover: 119.99,
    rewards: 12,
    ...overrides,
  };
}

// ---- the help desk and the FAQ editor ----

/** The seeded departments, as the operator lists them (every operator gets their mail). */
export function adminDepartment(overrides: Partial<AdminDepartment> = {}): AdminDepartment {
  return {
    id: 1,
    code: 'technical',
    name_en: 'Technical support',
    name_ru: 'Техническая поддержка',
    position: 1,
    active: true,
    operators: [],
    ...overrides,
  };
}

export const departments: AdminDepartment[] = [
  adminDepartment(),
  adminDepartment({ id: 2, code: 'billing', name_en: 'Billing', name_ru: 'Оплата', position: 2 }),
];

export function supportQueue(overrides: Partial<SupportQueue> = {}): SupportQueue {
  const { operators: _operators, ...department } = adminDepartment();
  return {
    department,
    new_count: 2,
    processing_count: 1,
    waiting_count: 2,
    oldest_waiting_since: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    ...overrides,
  };
}

/** bob's new ticket in Technical support, waiting for an answer for three hours, nobody on it. */
export function adminTicket(overrides: Partial<AdminTicketSummary> = {}): AdminTicketSummary {
  const waiting = new Date(Date.now() - 3 * 3_600_000).toISOString();
  return {
    id: 12,
    title: 'The terminal does not connect',
    status: 'new',
    department_id: 1,
    created_at: waiting,
    updated_at: waiting,
    unread: false,
    user: bob,
    assignee: null,
    waiting_since: waiting,
    user_language: 'en',
    ...overrides,
  };
}

export function attachment(overrides: Partial<Attachment> = {}): Attachment {
  return {
    id: 70,
    file_name: 'screenshot.png',
    content_type: 'image/png',
    size_bytes: 200 * 1024,
    has_preview: true,
    width: 1280,
    height: 720,
    ...overrides,
  };
}

export function ticketMessage(overrides: Partial<TicketMessage> = {}): TicketMessage {
  return {
    id: 100,
    kind: 'message',
    author_kind: 'user',
    author_name: 'Bob',
    body: 'MetaTrader says "No connection" since this morning.',
    created_at: '2025-03-05T09:00:00.000Z',
    attachments: [],
    ...overrides,
  };
}

export function cannedReply(overrides: Partial<CannedReply> = {}): CannedReply {
  return {
    id: 4,
    title: 'Restart the terminal',
    body_en: 'Please restart the terminal and tell us whether it connects.',
    body_ru: 'Перезапустите терминал и напишите, подключается ли он.',
    updated_at: '2025-01-10T12:00:00.000Z',
    ...overrides,
  };
}

export function faqItem(overrides: Partial<FaqItem> = {}): FaqItem {
  return {
    id: 1,
    group: 'support',
    slug: 'how-to-open-a-ticket',
    position: 1,
    question_en: 'How do I open a ticket?',
    answer_en: 'Go to Support and choose New ticket.',
    question_ru: 'Как открыть обращение?',
    answer_ru: 'Откройте раздел «Поддержка» и нажмите «Новое обращение».',
    published: true,
    updated_at: '2025-01-10T12:00:00.000Z',
    ...overrides,
  };
}

/** Carol's $750 credit asked for by Bob (an operator too), waiting for a second operator. */
export function moneyApproval(overrides: Partial<MoneyApproval> = {}): MoneyApproval {
  return {
    id: 31,
    created_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    kind: 'adjustment',
    status: 'pending',
    requested_by: bob,
    user: carol,
    amount: 750,
    account: 'balance',
    reason: 'Compensation for the outage',
    withdrawal_id: null,
    reference: null,
    decided_by: null,
    decided_at: null,
    decline_reason: null,
    ...overrides,
  };
}
