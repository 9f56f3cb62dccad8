import type { PartnerInfo } from '@tradehost/contracts';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { usePartnerFormat } from '../lib/use-partner-format';
import styles from './partners.module.css';

/** The partner link and code, each to copy, the link's QR code, and how rewards are earned. */
export function ShareCard({ info }: { info: PartnerInfo }) {
  const f = usePartnerFormat();
  const { t } = f;
  const copied = { copied: t('share.copied'), failed: t('share.copyFailed') };
  return (
    <section className={styles.share} aria-labelledby="partner-share-title">
      <div className={styles.shareText}>
        <h2 id="partner-share-title" className={styles.sectionTitle}>
          {t('share.title')}
        </h2>
        <p className={styles.muted}>
          {t('share.lead', {
            level1: f.percent(info.reward_percents[0] ?? 0),
            level2: f.percent(info.reward_percents[1] ?? 0),
            level3: f.percent(info.reward_percents[2] ?? 0),
            days: info.hold_days,
          })}
        </p>
        <dl className={styles.shareFields}>
          <div>
            <dt>{t('share.link')}</dt>
            <dd>
              <code className={styles.shareValue} data-testid="partner-link">
                {info.link}
              </code>
              <CopyButton text={info.link} label={t('share.copyLink')} messages={copied} />
            </dd>
          </div>
          <div>
            <dt>{t('share.code')}</dt>
            <dd>
              <code className={styles.shareValue} data-testid="partner-code">
                {info.referral_code}
              </code>
              <CopyButton text={info.referral_code} label={t('share.copyCode')} messages={copied} />
            </dd>
          </div>
        </dl>
      </div>
      <img
        className={styles.qr}
        src={info.link_qr_url}
        alt={t('share.qr')}
        width={160}
        height={160}
      />
    </section>
  );
}
