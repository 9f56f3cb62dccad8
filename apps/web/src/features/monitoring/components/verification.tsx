import { VERIFICATION_GAP_MINUTES, type VerificationResponse } from '@tradehost/contracts';
import { Link } from 'react-router';
import { numberFormat } from '../../../shared/lib/format-money';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import { StatusBadge } from '../../../shared/ui/status-badge/status-badge';
import { useMonitoringFormat, type MonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

/** The share of the period the run covers below which the page says what it leaves out. */
const WHOLE = 0.995;

/**
 * A share as a whole percentage, never rounded to all of it or to none when it is neither: "64%",
 * "64 %" in Russian; "99%" short of the whole, "< 1%" above nothing (a run that began days ago on
 * an account with a month of history from the terminal).
 */
export function shareText(f: MonitoringFormat, share: number): string {
  const percent = (fraction: number) =>
    numberFormat(f.language, 'share', { style: 'percent', maximumFractionDigits: 0 }).format(
      fraction,
    );
  if (share > 0 && share < 0.005) return `<\u00a0${percent(0.01)}`;
  return percent(Math.min(Math.round(share * 100), share < 1 ? 99 : 100) / 100);
}

/**
 * "Verified by the host" (monitoring.verification.ts) under an account's title. Verified: a badge
 * with a check that opens what the mark rests on: since when, the share of the displayed period
 * it covers (the trades before it came from the terminal's history), what it proves and what it
 * does not. Not verified: a plain badge and the short reason; on the owner's page (`owner`) it
 * opens the reason in full, with the times and what to do.
 */
export function Verification({
  verification: v,
  owner = false,
}: {
  verification: VerificationResponse;
  owner?: boolean;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const minutes = VERIFICATION_GAP_MINUTES;

  if (!v.verified) {
    const reason = v.reason ?? 'not_hosted';
    const badge = (
      <StatusBadge tone="neutral" status={reason}>
        {t('verification.notVerified')}
      </StatusBadge>
    );
    const short = (
      <span className={styles.verificationShort}>{t(`verification.short.${reason}`)}</span>
    );
    if (!owner)
      return (
        <p className={styles.verificationLine} data-testid="verification">
          {badge} {short}
        </p>
      );
    const at = (iso: string | null) => f.dateTime(iso);
    return (
      <details className={styles.verification} data-testid="verification">
        <summary className={styles.verificationSummary}>
          {badge} {short}
          <Chevron />
        </summary>
        <div className={styles.verificationBody}>
          <p>
            {t(`verification.why.${reason}`, {
              from: at(v.broken_from),
              to: at(v.broken_to),
              at: at(v.last_hosted_at),
              minutes,
            })}
          </p>
          <p>
            {t(`verification.todo.${reason}`)}
            {reason === 'not_hosted' ? (
              <>
                {' '}
                <Link to="/vps">{t('verification.toVps')}</Link>
              </>
            ) : null}
          </p>
          <p className={styles.muted}>{t('verification.rule', { minutes })}</p>
        </div>
      </details>
    );
  }

  const since = v.since ? f.date(v.since) : f.dash;
  const whole = v.covered >= WHOLE;
  return (
    <details className={styles.verification} data-testid="verification">
      <summary className={styles.verificationSummary}>
        <StatusBadge tone="success" status="verified">
          {t('verification.verified')}
        </StatusBadge>{' '}
        <span className={styles.verificationShort}>{t('verification.since', { date: since })}</span>
        <Chevron />
      </summary>
      <div className={styles.verificationBody}>
        <p>
          {whole
            ? t('verification.coversAll', { date: v.period_from ? f.date(v.period_from) : since })
            : t('verification.covers', { share: shareText(f, v.covered), date: since })}
        </p>
        <div className={styles.verificationLists}>
          <div>
            <h3 className={styles.verificationTitle}>{t('verification.provesTitle')}</h3>
            <ul>
              <li>{t('verification.proves.hosted', { date: since, minutes })}</li>
              <li>{t('verification.proves.nowhereElse')}</li>
              <li>{t('verification.proves.balance')}</li>
            </ul>
          </div>
          <div>
            <h3 className={styles.verificationTitle}>{t('verification.notProvesTitle')}</h3>
            <ul>
              <li>{t('verification.notProves.owner')}</li>
              <li>{t('verification.notProves.future')}</li>
              {whole ? null : <li>{t('verification.notProves.history', { date: since })}</li>}
            </ul>
          </div>
        </div>
        {v.checked_at ? (
          <p className={styles.muted}>
            {t('verification.checked', { at: f.dateTime(v.checked_at) })}
          </p>
        ) : null}
      </div>
    </details>
  );
}

/** The disclosure's mark: points down when closed, up when open (the CSS turns it). */
function Chevron() {
  return <StrokeIcon className={styles.verificationChevron} size={16} d="M6 9l6 6 6-6" />;
}
