import type { Server } from '@tradehost/contracts';
import { useId } from 'react';
import { Link } from 'react-router';
import { Button, buttonClassName } from '../../../shared/ui/form';
import { useVpsFormat, type VpsFormat } from '../lib/use-vps-format';
import styles from './server-sections.module.css';
import vpsStyles from './vps.module.css';

/**
 * Why the console cannot show this server's screen, or null when it can: the API gives tickets
 * for an active, running server only (a blocked one is renewed first, a shut-down one started).
 */
export function consoleBlockText(t: VpsFormat['t'], server: Server): string | null {
  if (server.status !== 'active') return t('machine.blocked');
  if (server.power === 'stopped') return t('console.stopped');
  return null;
}

/**
 * A server's page's "Web console": what it is for and the way to its page
 * (/vps/servers/:id/console); on a shut-down or blocked server the button is off, the reason under
 * it (the same reasons the console's page gives: consoleBlockText).
 */
export function ServerConsoleCard({ server }: { server: Server }) {
  const { t } = useVpsFormat();
  const reason = consoleBlockText(t, server);
  const headingId = useId();
  const reasonId = useId();
  return (
    <section className={vpsStyles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={vpsStyles.sectionTitle}>
        {t('console.title')}
      </h2>
      <p className={styles.lead}>{t('console.lead')}</p>
      <div className={styles.cardFoot}>
        {reason ? (
          <>
            <Button variant="secondary" disabled aria-describedby={reasonId}>
              {t('console.open')}
            </Button>
            <p id={reasonId} className={styles.reason}>
              {reason}
            </p>
          </>
        ) : (
          <Link
            to={`/vps/servers/${server.id}/console`}
            className={buttonClassName({ variant: 'secondary' })}
          >
            {t('console.open')}
          </Link>
        )}
      </div>
    </section>
  );
}
