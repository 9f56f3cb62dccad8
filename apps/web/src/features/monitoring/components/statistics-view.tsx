import type { StatisticsResponse } from '@tradehost/contracts';
import { FormAlert } from '../../../shared/ui/form';
import { toneOf, useMonitoringFormat } from '../lib/use-monitoring-format';
import { Figure } from './figure';
import styles from './monitoring.module.css';

/**
 * Every figure of an account (monitoring-statistics.ts), each explained on hover: the tiles of
 * the headline figures, how the money adds up to the balance, then the trades and the ratios.
 * Money the owner hides is null: shown as a dash, and its tiles left out. A history the terminal
 * did not send whole is flagged with what to do, and the equity figures say where they start.
 */
export function StatisticsView({ s }: { s: StatisticsResponse }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const money = (amount: number | null) => f.money(amount, s.currency);
  const item = (key: string) => ({
    label: t(`figures.${key}.label`),
    explanation: t(`figures.${key}.help`),
  });
  const showsMoney = s.balance !== null;
  const profitFactor =
    s.trades.profit_factor === null && s.trades.count > 0 && s.trades.losses === 0
      ? t('figures.noLosses')
      : f.figure(s.trades.profit_factor);

  return (
    <div className={styles.section}>
      {s.history_incomplete ? (
        <FormAlert tone="warning" title={t('account.incompleteTitle')}>
          {t('account.incomplete')}
        </FormAlert>
      ) : null}
      <dl className={styles.tiles} aria-label={t('account.headline')}>
        <Figure variant="tile" {...item('gain')} tone={toneOf(s.gain)}>
          {f.percent(s.gain, true)}
        </Figure>
        <Figure variant="tile" {...item('absoluteGain')} tone={toneOf(s.absolute_gain)}>
          {f.percent(s.absolute_gain, true)}
        </Figure>
        <Figure variant="tile" {...item('monthlyGain')} tone={toneOf(s.monthly_gain)}>
          {f.percent(s.monthly_gain, true)}
        </Figure>
        <Figure variant="tile" {...item('maxDrawdown')}>
          {f.percent(s.max_drawdown)}
        </Figure>
        <Figure variant="tile" {...item('equityDrawdown')}>
          {f.percent(s.equity_drawdown)}
        </Figure>
        {showsMoney ? (
          <>
            <Figure variant="tile" {...item('balance')}>
              {money(s.balance)}
            </Figure>
            <Figure variant="tile" {...item('equity')}>
              {money(s.equity)}
            </Figure>
            <Figure variant="tile" {...item('profit')} tone={toneOf(s.profit)}>
              {money(s.profit)}
            </Figure>
          </>
        ) : null}
      </dl>
      {showsMoney || s.equity_since ? (
        <div className={styles.moneyNote}>
          {showsMoney ? (
            <p>
              {t('account.moneySum', {
                deposits: money(s.deposits),
                withdrawals: money(s.withdrawals),
                profit: money(s.profit),
                other: money(s.other_results),
                balance: money(s.balance),
              })}
            </p>
          ) : null}
          {s.equity_since ? (
            <p>{t('account.equitySince', { date: f.date(s.equity_since) })}</p>
          ) : null}
        </div>
      ) : null}

      <div className={styles.tables}>
        <section aria-labelledby="figures-trading">
          <h3 id="figures-trading" className={styles.groupTitle}>
            {t('account.trading')}
          </h3>
          <dl className={styles.figures}>
            <Figure {...item('trades')}>{s.trades.count}</Figure>
            <Figure {...item('winRate')}>{f.percent(s.trades.win_rate)}</Figure>
            <Figure {...item('profitFactor')}>{profitFactor}</Figure>
            <Figure {...item('expectancy')} tone={toneOf(s.trades.expectancy)}>
              {money(s.trades.expectancy)}
            </Figure>
            <Figure {...item('averageWin')}>{money(s.trades.average_win)}</Figure>
            <Figure {...item('averageLoss')}>{money(s.trades.average_loss)}</Figure>
            <Figure {...item('best')}>{money(s.trades.best)}</Figure>
            <Figure {...item('worst')}>{money(s.trades.worst)}</Figure>
            <Figure {...item('winStreak')}>
              {t('figures.streak', {
                count: s.trades.longest_win_streak.count,
                money: money(s.trades.longest_win_streak.money),
              })}
            </Figure>
            <Figure {...item('lossStreak')}>
              {t('figures.streak', {
                count: s.trades.longest_loss_streak.count,
                money: money(s.trades.longest_loss_streak.money),
              })}
            </Figure>
            <Figure {...item('lots')}>{f.figure(s.trades.lots)}</Figure>
            <Figure {...item('pips')}>{f.figure(s.trades.pips, 1)}</Figure>
            <Figure {...item('longsWon')}>{f.percent(s.trades.longs_won)}</Figure>
            <Figure {...item('shortsWon')}>{f.percent(s.trades.shorts_won)}</Figure>
            <Figure {...item('averageLength')}>{f.length(s.trades.average_length_sec)}</Figure>
            <Figure {...item('tradesPerWeek')}>{f.figure(s.trades.trades_per_week, 1)}</Figure>
          </dl>
        </section>
        <section aria-labelledby="figures-risk">
          <h3 id="figures-risk" className={styles.groupTitle}>
            {t('account.risk')}
          </h3>
          <dl className={styles.figures}>
            <Figure {...item('dailyGain')}>{f.percent(s.daily_gain, true)}</Figure>
            {showsMoney ? (
              <>
                <Figure {...item('deposits')}>{money(s.deposits)}</Figure>
                <Figure {...item('withdrawals')}>{money(s.withdrawals)}</Figure>
                <Figure {...item('otherResults')} tone={toneOf(s.other_results)}>
                  {money(s.other_results)}
                </Figure>
                <Figure {...item('drawdownMoney')}>{money(s.drawdown_money)}</Figure>
                <Figure {...item('absoluteDrawdown')}>{money(s.absolute_drawdown)}</Figure>
              </>
            ) : null}
            <Figure {...item('recoveryFactor')}>{f.figure(s.ratios.recovery_factor)}</Figure>
            <Figure {...item('ahpr')}>{f.figure(s.ratios.ahpr, 4)}</Figure>
            <Figure {...item('ghpr')}>{f.figure(s.ratios.ghpr, 4)}</Figure>
            <Figure {...item('sharpe')}>{f.figure(s.ratios.sharpe)}</Figure>
            <Figure {...item('zScore')}>{f.figure(s.ratios.z_score)}</Figure>
            <Figure {...item('activity')}>{f.percent(s.ratios.activity)}</Figure>
            <Figure {...item('depositLoad')}>{f.percent(s.ratios.max_deposit_load)}</Figure>
          </dl>
        </section>
      </div>
    </div>
  );
}
