import type { FaqGroup } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClassName } from '../../../shared/ui/form';
import { supportLink } from '../lib/faq-entries';
import styles from './faq.module.css';

/**
 * "Didn't find an answer? Write to support": a new ticket in the department of `group` (the
 * best answer's or the topic chosen; technical support otherwise). The support page reads ?new=.
 */
export function ContactSupport({ group }: { group: FaqGroup | null }) {
  const { t } = useTranslation('faq');
  return (
    <section className={styles.contact} aria-labelledby="faq-contact-title">
      <div className={styles.contactText}>
        <h2 id="faq-contact-title" className={styles.contactTitle}>
          {t('contact.title')}
        </h2>
        <p className={styles.muted}>{t('contact.text')}</p>
      </div>
      <Link to={supportLink(group)} className={buttonClassName({ variant: 'primary' })}>
        {t('contact.action')}
      </Link>
    </section>
  );
}
