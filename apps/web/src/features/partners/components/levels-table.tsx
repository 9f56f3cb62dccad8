import { PARTNER_LEVELS, type PartnerInfo, type PartnerLevel } from '@tradehost/contracts';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { usePartnerFormat } from '../lib/use-partner-format';
import styles from './partners.module.css';

const ACTIVE = {
  1: 'level_1_referral_active_count',
  2: 'level_2_referral_active_count',
  3: 'level_3_referral_active_count',
} as const;

/**
 * SPEC's client level stats: per level its percentage, clients, turnover and reward, with the
 * active referrals beside the clients; a level without referrals yet shows zeros.
 */
export function LevelsTable({ rows, info }: { rows: PartnerLevel[]; info: PartnerInfo }) {
  const f = usePartnerFormat();
  const { t } = f;
  const byLevel = new Map(rows.map((row) => [row.level, row]));
  return (
    <TableFrame labelledBy="partner-levels-title">
      <table
        className={`${tableStyles.table} ${styles.table}`}
        aria-labelledby="partner-levels-title"
      >
        <thead>
          <tr>
            <th scope="col">{t('levels.level')}</th>
            <th scope="col">{t('levels.percent')}</th>
            <th scope="col">{t('levels.clients')}</th>
            <th scope="col">{t('levels.active')}</th>
            <th scope="col">{t('levels.turnover')}</th>
            <th scope="col">{t('levels.reward')}</th>
          </tr>
        </thead>
        <tbody>
          {PARTNER_LEVELS.map((level) => {
            const row = byLevel.get(level);
            return (
              <tr key={level}>
                <th scope="row">{t('levels.name', { level })}</th>
                <td>{f.percent(row?.rewardForLevel ?? info.reward_percents[level - 1] ?? 0)}</td>
                <td>{f.count(row?.userCount ?? 0)}</td>
                <td>{f.count(info[ACTIVE[level]])}</td>
                <td>{f.money(row?.rewardCount ?? 0)}</td>
                <td>{f.money(row?.rewardSum ?? 0)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableFrame>
  );
}
