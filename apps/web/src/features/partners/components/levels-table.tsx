import { PARTNER_LEVELS, type PartnerInfo, type PartnerLevel } from '@tradehost/contracts';
import { useAppSelector } from '../../../app/hooks';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { RowCards } from '../../../shared/ui/table/row-cards';
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
 * active referrals beside the clients; a level without referrals yet shows zeros. On a phone a
 * card a level, its reward at the top.
 */
export function LevelsTable({ rows, info }: { rows: PartnerLevel[]; info: PartnerInfo }) {
  const f = usePartnerFormat();
  const { t } = f;
  const isMobile = useAppSelector(selectIsMobile);
  const byLevel = new Map(rows.map((row) => [row.level, row]));
  const levels = PARTNER_LEVELS.map((level) => {
    const row = byLevel.get(level);
    return {
      level,
      name: t('levels.name', { level }),
      percent: f.percent(row?.rewardForLevel ?? info.reward_percents[level - 1] ?? 0),
      clients: f.count(row?.userCount ?? 0),
      active: f.count(info[ACTIVE[level]]),
      turnover: f.money(row?.rewardCount ?? 0),
      reward: f.money(row?.rewardSum ?? 0),
    };
  });
  if (isMobile)
    return (
      <RowCards
        labelledBy="partner-levels-title"
        cards={levels.map((level) => ({
          key: level.level,
          title: level.name,
          subtitle: t('levels.percentOf', { percent: level.percent }),
          lead: { label: t('levels.reward'), value: level.reward },
          facts: [
            { label: t('levels.clients'), value: level.clients },
            { label: t('levels.active'), value: level.active },
            { label: t('levels.turnover'), value: level.turnover },
          ],
        }))}
      />
    );
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
          {levels.map((level) => (
            <tr key={level.level}>
              <th scope="row">{level.name}</th>
              <td>{level.percent}</td>
              <td>{level.clients}</td>
              <td>{level.active}</td>
              <td>{level.turnover}</td>
              <td>{level.reward}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
