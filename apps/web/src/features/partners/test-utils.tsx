/**
 * Test helpers of the partner page: the page signed in on a memory router (src/test/render), its
 * API stubbed at the global fetch (src/test/fetch-stub), and fixtures of the partner's figures.
 */
import type {
  AvailableDiscount,
  PartnerInfo,
  PartnerInfoData,
  PartnerNetworkNode,
  PartnerPayments,
  PartnerPromocode,
  Withdrawal,
} from '@tradehost/contracts';
import { stubFetch, type Handler } from '../../test/fetch-stub';
import { fundedUser } from '../../test/fixtures';
import { renderSignedInPage, type RenderPageOptions } from '../../test/render';
import { Component as PartnerProgramPage } from './pages/partner-program-page';

export { stubFetch, type Handler, type StubCall } from '../../test/fetch-stub';

export const INFO: PartnerInfo = {
  referral_code: 'MAXREF42',
  link: 'http://localhost/signup?ref=MAXREF42',
  link_qr_url: 'data:image/svg+xml;base64,PHN2Zy8+',
  level_1_referral_active_count: 3,
  level_2_referral_active_count: 1,
  level_3_referral_active_count: 0,
  partnerMinWithdrawal: 10,
  balances: { available: 64.2, pending: 12.5 },
  hold_days: 14,
  reward_percents: [10, 5, 2],
};

export const INFO_DATA: PartnerInfoData = {
  rewardData: [
    { date: '2026-11-20', amount: 4.5 },
    { date: '2026-11-22', amount: 8 },
  ],
  conversionData: [],
  stats: {
    clicks: 40,
    registrations: 5,
    paying_clients: 2,
    conversion: 0.125,
    turnover: 125,
    rewards_pending: 12.5,
    rewards_available: 0,
  },
};

export function node(overrides: Partial<PartnerNetworkNode> = {}): PartnerNetworkNode {
  return {
    id: 7,
    email: 'o***@example.com',
    registered_at: '2026-10-01T08:00:00.000Z',
    level: 1,
    active: true,
    referrals: 2,
    turnover: 125,
    rewards: 12.5,
    ...overrides,
  };
}

export const DISCOUNT: AvailableDiscount = {
  available_discounts: [5],
  active_referrals: 3,
  tiers: [
    { active_referrals: 0, discount: 5 },
    { active_referrals: 5, discount: 10 },
    { active_referrals: 20, discount: 15 },
  ],
  next_tier: { active_referrals: 5, discount: 10 },
};

export function promocode(overrides: Partial<PartnerPromocode> = {}): PartnerPromocode {
  return {
    id: 3,
    name: 'MAXIM5',
    discount: 5,
    times_used: 2,
    created_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

export const METHODS: PartnerPayments['data'] = [
  {
    id: 'USDT-TRC20',
    name: 'USDT (TRC-20)',
    minimum: 20,
    wallet_example: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  },
  {
    id: 'BTC',
    name: 'Bitcoin',
    minimum: 50,
    wallet_example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  },
  { id: 'PAYEER', name: 'Payeer', minimum: 10, wallet_example: 'P1000000' },
];

export function withdrawal(overrides: Partial<Withdrawal> = {}): Withdrawal {
  return {
    id: 11,
    created_at: '2026-11-23T10:00:00.000Z',
    amount: 30,
    method: 'USDT-TRC20',
    wallet: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    status: 'received',
    due_at: '2026-11-30T10:00:00.000Z',
    processed_at: null,
    payout_reference: null,
    reason: null,
    ...overrides,
  };
}

const page = <T,>(data: T[], total = data.length) => ({
  data,
  meta: { page: 1, per_page: 20, total },
});

/** The API of a partner with three active referrals and $64.20 to withdraw; `routes` replace. */
export function stubPartnerApi(routes: Record<string, Handler> = {}) {
  return stubFetch({
    'GET /user/auth': { body: fundedUser() },
    'GET /user/partner_info': { body: INFO },
    'GET /user/partner/levels': {
      body: {
        data: [
          { level: 1, rewardForLevel: 10, userCount: 4, rewardCount: 125, rewardSum: 12.5 },
          { level: 2, rewardForLevel: 5, userCount: 1, rewardCount: 0, rewardSum: 0 },
        ],
      },
    },
    'POST /user/partner/infodata': { body: INFO_DATA },
    'GET /user/partner_network/': { body: page([node()]) },
    'GET /user/balance/available_discount': { body: DISCOUNT },
    'GET /user/balance/promocodes': { body: { data: [promocode()] } },
    'GET /user/partner/payments': { body: { data: METHODS, available: 64.2, open: null } },
    ...routes,
  });
}

export { page as networkPage };

/** The partner page at `path` (e.g. /partner-program?tab=network), signed in. */
export function renderPartners(path = '/partner-program', options: RenderPageOptions = {}) {
  return renderSignedInPage(
    [{ path: '/partner-program', Component: PartnerProgramPage }],
    path,
    'partner-test-token',
    options,
  );
}
