import { DAY_MS, localDay, REPORT_PERIODS, type ReportPeriod } from '@tradehost/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { monitoringAccounts } from '../../db/schema/index.ts';
import type { ReportJob } from './monitoring.alerts.delivery.ts';
import { lastEndedPeriod, reportFigures, type Span } from './monitoring.alerts.periods.ts';
import { alertsRepository as repo } from './monitoring.alerts.repository.ts';
import { accountStatistics } from './monitoring.statistics.ts';

/**
 * The reports' tick (every 15 minutes, so each zone's midnight is met within a quarter hour):
 * for each account with a report on, the day, week or month that ended last in its time zone,
 * if it ended within REPORT_WINDOW_MS (a report is news: a long outage skips, not floods) and
 * after the account was added, is claimed in monitoring_reports_sent (its primary key makes the
 * claim once per period, ever, across ticks, retries and instances) and handed to `send`, which
 * queues one job per channel the account chose.
 */

export const REPORT_WINDOW_MS = DAY_MS;
/** Sent reports older than this cannot be due again (the longest period and the window). */
const LOOK_BACK_MS = 40 * DAY_MS;

const FLAGS = {
  daily: 'report_daily',
  weekly: 'report_weekly',
  monthly: 'report_monthly',
} as const satisfies Record<ReportPeriod, string>;

export interface ReportsDeps {
  db: Db;
  now: () => Date;
  send(job: ReportJob, channels: { email: boolean; telegram: boolean }): Promise<void>;
}

export function createReports({ db, now, send }: ReportsDeps) {
  /** Claims and sends the reports due now; answers those it claimed. */
  async function tick(): Promise<ReportJob[]> {
    const at = now();
    const { rows: accounts } = await repo.reportAccounts(db, at);
    const sent = await repo.sentSince(db, new Date(at.getTime() - LOOK_BACK_MS));
    const claimed: ReportJob[] = [];
    for (const a of accounts) {
      const id = Number(a.id);
      const due = REPORT_PERIODS.filter((period) => a[FLAGS[period]])
        .map((period) => ({ period, span: lastEndedPeriod(period, at, a.time_zone) }))
        .filter(
          ({ period, span }) =>
            at.getTime() - span.end.getTime() <= REPORT_WINDOW_MS &&
            new Date(a.created_at).getTime() < span.end.getTime() &&
            !sent.has(`${id}/${period}/${span.start.getTime()}`),
        );
      if (due.length === 0) continue;
      // the figures of every due period from one computation over the whole history
      const [row] = await db.select().from(monitoringAccounts).where(eq(monitoringAccounts.id, id));
      if (!row) continue;
      const statistics = await accountStatistics(db, row, at);
      for (const { period, span } of due) {
        if (!(await repo.claimReport(db, id, period, span.start, at))) continue;
        const job = { accountId: id, report: reportOf(row, period, span, statistics) };
        await send(job, { email: a.report_email, telegram: a.report_telegram });
        claimed.push(job);
      }
    }
    return claimed;
  }

  return { tick };
}

function reportOf(
  account: typeof monitoringAccounts.$inferSelect,
  period: ReportPeriod,
  span: Span,
  statistics: Parameters<typeof reportFigures>[0],
): ReportJob['report'] {
  const f = reportFigures(statistics, span);
  const trade = (t: typeof f.best) => (t === null ? null : { symbol: t.symbol, result: t.result });
  return {
    account: {
      name: account.name,
      login: account.login,
      currency: account.currency,
      timeZone: account.timeZone,
    },
    period,
    firstDate: localDay(span.start.getTime(), account.timeZone),
    lastDate: localDay(span.end.getTime() - 1, account.timeZone),
    gain: f.gain,
    profit: f.profit,
    drawdown: f.drawdown,
    trades: f.trades,
    best: trade(f.best),
    worst: trade(f.worst),
    balance: f.balance,
  };
}
