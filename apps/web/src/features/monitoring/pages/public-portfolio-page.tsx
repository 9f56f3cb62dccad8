import { useParams } from 'react-router';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import { PublicPortfolio } from '../components/public-portfolio';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

/** Route module (lazy): the public page of a portfolio, signed out. */
export function Component() {
  const { t } = useMonitoringFormat();
  const { monitoringId = '' } = useParams();
  useDocumentTitle(t('portfolio.documentTitle'));
  return (
    <div className={styles.public}>
      <Page title={t('title')}>
        <PublicPortfolio monitoringId={monitoringId} />
      </Page>
    </div>
  );
}
