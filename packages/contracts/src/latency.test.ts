import { describe, expect, it } from 'vitest';
import {
  adminLatencyQuerySchema,
  BROKER_SERVER_MAX,
  brokersQuerySchema,
  latencyQuerySchema,
} from './latency.ts';

const firstCode = (result: { error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues[0]?.message;

describe('the latency map’s queries', () => {
  it('take a broker’s trade server as the terminal names it, trimmed', () => {
    expect(latencyQuerySchema.parse({ broker: ' ICMarketsSC-Live07 ' })).toEqual({
      broker: 'ICMarketsSC-Live07',
    });
    expect(brokersQuerySchema.parse({ query: 'icm' })).toEqual({ query: 'icm' });
  });

  it('refuse a missing, empty or too long name with a code that says which', () => {
    for (const query of [{}, { broker: '' }, { broker: '   ' }, { broker: 'x'.repeat(129) }])
      expect(firstCode(latencyQuerySchema.safeParse(query)), JSON.stringify(query)).toBe(
        'BROKER_SERVER_INVALID',
      );
    expect(latencyQuerySchema.safeParse({ broker: 'x'.repeat(BROKER_SERVER_MAX) }).success).toBe(
      true,
    );
    for (const query of [{}, { query: '' }, { query: 'x'.repeat(129) }])
      expect(firstCode(brokersQuerySchema.safeParse(query)), JSON.stringify(query)).toBe(
        'BROKER_QUERY_INVALID',
      );
  });

  it('page the operator’s list, narrowed by location and the start of a name', () => {
    expect(adminLatencyQuerySchema.parse({})).toEqual({ page: 1, per_page: 50 });
    expect(
      adminLatencyQuerySchema.parse({ location: 'Frankfurt', broker: 'IC', page: '2' }),
    ).toEqual({ location: 'Frankfurt', broker: 'IC', page: 2, per_page: 50 });
    expect(firstCode(adminLatencyQuerySchema.safeParse({ broker: '' }))).toBe(
      'BROKER_QUERY_INVALID',
    );
  });
});
