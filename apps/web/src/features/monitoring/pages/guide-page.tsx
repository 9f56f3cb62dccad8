import { RUIN_MIN_TRADES } from '@tradehost/contracts';
import { Link } from 'react-router';
import { buttonClassName } from '../../../shared/ui/form';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import styles from '../components/monitoring.module.css';
import { useMonitoringFormat } from '../lib/use-monitoring-format';

const STEPS = ['subscribe', 'add', 'download', 'allow', 'attach', 'history', 'watch'] as const;
const FIGURES = [
  'gain',
  'absoluteGain',
  'dailyGain',
  'monthlyGain',
  'maxDrawdown',
  'equityDrawdown',
  'drawdownMoney',
  'absoluteDrawdown',
  'profit',
  'winRate',
  'profitFactor',
  'expectancy',
  'pips',
  'recoveryFactor',
  'ahpr',
  'ghpr',
  'sharpe',
  'zScore',
  'activity',
  'depositLoad',
] as const;

/** The analysis's terms, as monitoring-analysis.ts defines them. */
const ANALYSIS = ['period', 'hours', 'directions', 'strategies', 'ruin'] as const;

/**
 * Route module (lazy): how to connect a terminal, the publishers to download, every figure
 * defined, and what the analysis and the risk of ruin mean.
 */
export function Component() {
  const { t } = useMonitoringFormat();
  useDocumentTitle(`${t('guide.title')} · ${t('title')}`);
  return (
    <>
      <section className={styles.section} aria-labelledby="guide-steps">
        <h2 id="guide-steps" className={styles.sectionTitle}>
          {t('guide.stepsTitle')}
        </h2>
        <ol className={styles.steps}>
          {STEPS.map((step) => (
            <li key={step}>{t(`guide.steps.${step}`, { url: window.location.origin })}</li>
          ))}
        </ol>
        <div className={styles.row}>
          <a
            className={buttonClassName({ variant: 'primary' })}
            href="/publisher/TradeHostPublisher.mq5"
            download
          >
            {t('guide.downloadMt5')}
          </a>
          <a
            className={buttonClassName({ variant: 'secondary' })}
            href="/publisher/TradeHostPublisher.mq4"
            download
          >
            {t('guide.downloadMt4')}
          </a>
          <Link to="/online-monitoring">{t('guide.toKey')}</Link>
        </div>
        <p className={styles.muted}>{t('guide.statusLead')}</p>
      </section>
      <section className={styles.section} aria-labelledby="guide-update">
        <h2 id="guide-update" className={styles.sectionTitle}>
          {t('guide.updateTitle')}
        </h2>
        <p>{t('guide.updateLead')}</p>
        <p>{t('guide.updateAction')}</p>
      </section>
      <section className={styles.section} aria-labelledby="guide-figures">
        <h2 id="guide-figures" className={styles.sectionTitle}>
          {t('guide.figuresTitle')}
        </h2>
        <p>{t('guide.figuresLead')}</p>
        <dl className={styles.definitions}>
          {FIGURES.map((figure) => (
            <div key={figure}>
              <dt>{t(`figures.${figure}.label`)}</dt>
              <dd>{t(`figures.${figure}.help`)}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className={styles.section} aria-labelledby="guide-analysis">
        <h2 id="guide-analysis" className={styles.sectionTitle}>
          {t('guide.analysisTitle')}
        </h2>
        <p>{t('guide.analysisLead')}</p>
        <dl className={styles.definitions}>
          {ANALYSIS.map((term) => (
            <div key={term}>
              <dt>{t(`guide.analysis.${term}.label`)}</dt>
              <dd>{t(`guide.analysis.${term}.help`, { min: RUIN_MIN_TRADES })}</dd>
            </div>
          ))}
        </dl>
      </section>
    </>
  );
}
