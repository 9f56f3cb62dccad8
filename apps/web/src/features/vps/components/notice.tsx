import type { PaidResponse, UpgradeResponse } from '@tradehost/contracts';
import { useEffect, useRef, type ReactNode } from 'react';
import { Button, FormAlert } from '../../../shared/ui/form';
import { useVpsFormat, type VpsFormat } from '../lib/use-vps-format';
import styles from './vps.module.css';

/** A message over the servers (an order, a renewal, an upgrade), in the reader's language. */
export interface Notice {
  render: (format: VpsFormat) => ReactNode;
}

export function renewedNotice(result: PaidResponse): Notice {
  return {
    render: ({ t, date, money }) =>
      t('renew.done', {
        id: result.server.id,
        date: date(result.server.paid_until),
        charged: money(result.charged),
        balance: money(result.balance),
      }),
  };
}

export function upgradedNotice(result: UpgradeResponse): Notice {
  return {
    render: ({ t, day, money }) =>
      t('upgrade.done', {
        id: result.server.id,
        rate: result.upgrade.to_rate,
        date: day(result.upgrade.scheduled_for),
        charged: money(result.charged),
        balance: money(result.balance),
      }),
  };
}

/**
 * The notice, with a way to dismiss it. A new one takes the focus (after a closing dialog has
 * given it back), so it is read out.
 */
export function NoticeAlert({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  const format = useVpsFormat();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => ref.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [notice]);
  return (
    <FormAlert ref={ref} tone="success" className={styles.notice}>
      <div className={styles.noticeBody}>
        <p>{notice.render(format)}</p>
        <Button variant="ghost" onClick={onDismiss}>
          {format.t('dismiss')}
        </Button>
      </div>
    </FormAlert>
  );
}
