import {
  DAY_MS,
  LATENCY_WINDOW_DAYS,
  MINUTE_MS,
  type AdminLatencyPage,
  type BrokersResponse,
  type LatencyResponse,
} from '@tradehost/contracts';
import type { ServiceDeps } from '../deps.ts';
import { latencyRepository as repo } from './latency.repository.ts';

/** Brokers whose figures an instance keeps (the least recently computed go first). */
const KEPT_BROKERS = 5_000;

/**
 * The latency map (what the order form shows beside each location) from the pings the monitored
 * terminals' publishers measured over the last LATENCY_WINDOW_DAYS: aggregates only, each of the
 * terminals of at least LATENCY_MIN_OWNERS owners (latency.repository.ts holds the rule).
 *
 * A broker's figures are computed once a minute per instance and kept for the rest of it: they
 * are made of a minute's points at the finest, so within the minute they could only differ by
 * the point or two that came meanwhile out of thousands, while the order form asks for the same
 * popular brokers again and again, and a popular broker's points are the costly ones to go
 * through (the statement sorts them). Requests that arrive while its figures are being computed
 * wait for the same statement.
 */
export function createLatencyService({ db, now }: Pick<ServiceDeps, 'db' | 'now'>) {
  const since = () => new Date(now().getTime() - LATENCY_WINDOW_DAYS * DAY_MS);
  const kept = new Map<
    string,
    { minute: number; figures: Promise<Omit<LatencyResponse, 'broker'>> }
  >();

  async function compute(broker: string): Promise<Omit<LatencyResponse, 'broker'>> {
    const from = since();
    const rows = await repo.byLocation(db, broker, from);
    return {
      since: from.toISOString(),
      locations: rows.map((r) => ({
        location: r.location,
        ping:
          r.median_ms === null || r.p90_ms === null || r.terminals === null
            ? null
            : { median_ms: r.median_ms, p90_ms: r.p90_ms, terminals: r.terminals },
      })),
    };
  }

  return {
    async latency(broker: string): Promise<LatencyResponse> {
      const minute = Math.floor(now().getTime() / MINUTE_MS);
      let entry = kept.get(broker);
      if (entry?.minute !== minute) {
        kept.delete(broker);
        if (kept.size >= KEPT_BROKERS) kept.delete(kept.keys().next().value!);
        const fresh = { minute, figures: compute(broker) };
        kept.set(broker, fresh);
        // a failure is not kept: the next request tries again
        fresh.figures.catch(() => {
          if (kept.get(broker) === fresh) kept.delete(broker);
        });
        entry = fresh;
      }
      return { broker, ...(await entry.figures) };
    },

    async brokers(query: string): Promise<BrokersResponse> {
      return { brokers: await repo.brokers(db, query) };
    },

    async page(query: {
      location?: string | undefined;
      broker?: string | undefined;
      page: number;
      per_page: number;
    }): Promise<AdminLatencyPage> {
      const from = since();
      const { rows, total } = await repo.page(
        db,
        from,
        { location: query.location, broker: query.broker },
        { limit: query.per_page, offset: (query.page - 1) * query.per_page },
      );
      return {
        data: rows,
        meta: { page: query.page, per_page: query.per_page, total },
        since: from.toISOString(),
      };
    },
  };
}

export type LatencyService = ReturnType<typeof createLatencyService>;
