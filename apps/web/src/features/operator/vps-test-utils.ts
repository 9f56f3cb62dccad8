/** Fixtures of the operator's VPS screens, in the shapes of the contracts (admin* schemas). */
import type {
  AdminOperation,
  AdminPromocode,
  AdminRate,
  AdminServer,
  AdminTestRequest,
  PeriodDiscount,
} from '@tradehost/contracts';

export const bob = { id: 5, email: 'bob@example.com', name: 'Bob' };
export const carol = { id: 6, email: 'carol@example.com', name: 'Carol' };
export const olga = { id: 99, email: 'olga@tradehost.test', name: 'Olga' };

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
