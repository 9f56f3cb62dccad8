import { useParams } from 'react-router';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import { PublicAccount } from '../components/public-account';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

/** Route module (lazy): the public page of a monitoring account, signed out. */
export function Component() {
  const { t } = useMonitoringFormat();
  const { monitoringId = '' } = useParams();
  useDocumentTitle(t('public.documentTitle'));
  return (
    <div className={styles.public}>
      <Page title={t('title')}>
        <PublicAccount monitoringId={monitoringId} />
      </Page>
    </div>
  );
}
