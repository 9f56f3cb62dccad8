import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PlaceholderPage } from '../../../shared/ui/page/page';
import styles from './ticket-page.module.css';

/** Route module (lazy): one support ticket, a placeholder until support is built. */
export function Component() {
  const { t } = useTranslation('support');
  const { ticketId = '' } = useParams();
  return (
    <div className={styles.ticket}>
      <Link to="/support" className={styles.back}>
        <span aria-hidden="true">←</span> {t('ticket.back')}
      </Link>
      <PlaceholderPage
        title={t('ticket.title', { id: ticketId })}
        description={t('ticket.description')}
      />
    </div>
  );
}
