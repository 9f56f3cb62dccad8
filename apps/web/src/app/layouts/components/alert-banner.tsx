import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetAlertQuery } from '../../../features/auth/api/auth-api';
import { readStorage, writeStorage } from '../../../shared/lib/preferences';
import { ICON_PATHS, StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import styles from './alert-banner.module.css';

const dismissedKey = (id: number) => `tradehost:alert-dismissed:${id}`;

/** The provider's notice (GET /user/alert) in the reader's language; dismissed for the session. */
export function AlertBanner() {
  const { t, i18n } = useTranslation('common');
  const { data: alert } = useGetAlertQuery();
  const [dismissed, setDismissed] = useState<number[]>([]);
  if (!alert || dismissed.includes(alert.id) || readStorage(dismissedKey(alert.id), 'session'))
    return null;

  const text =
    i18n.language === 'ru' ? alert.text_ru || alert.text_en : alert.text_en || alert.text_ru;
  return (
    <section className={`${styles.banner} ${styles[alert.level]}`} aria-label={t('alert.label')}>
      <div className={styles.inner}>
        <StrokeIcon
          className={styles.icon}
          size={18}
          strokeWidth={1.7}
          d="M12 8v5M12 16.5v.5M10.3 3.9 2.6 17.5A2 2 0 0 0 4.3 20.5h15.4a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z"
        />
        <p className={styles.text}>{text}</p>
        <button
          type="button"
          className={styles.dismiss}
          aria-label={t('alert.dismiss')}
          onClick={() => {
            writeStorage(dismissedKey(alert.id), '1', 'session');
            setDismissed((ids) => [...ids, alert.id]);
          }}
        >
          <StrokeIcon size={18} strokeWidth={1.8} d={ICON_PATHS.close} />
        </button>
      </div>
    </section>
  );
}
