import type { PaidResponse } from '@tradehost/contracts';
import { useId } from 'react';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetVpsRatesQuery } from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import { OrderForm } from './order-form';
import { TestServerCard } from './test-server-card';
import styles from './vps.module.css';

export interface RatesSectionProps {
  onOrdered: (result: PaidResponse) => void;
  onOpenServers: () => void;
}

/** "Order a server" (SPEC 2, VPS rates): the order of a rented server, and the free test server. */
export function RatesSection({ onOrdered, onOpenServers }: RatesSectionProps) {
  const { t } = useVpsFormat();
  const headingId = useId();
  const { data, isFetching, refetch } = useGetVpsRatesQuery();

  let content;
  if (!data && isFetching) {
    content = <LoadingState>{t('rates.loading')}</LoadingState>;
  } else if (!data) {
    content = (
      <ErrorState
        title={t('rates.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  } else {
    content = (
      <>
        {data.rates.length > 0 ? (
          <OrderForm catalogue={data} onOrdered={onOrdered} />
        ) : (
          <EmptyState title={t('rates.emptyTitle')}>{t('rates.empty')}</EmptyState>
        )}
        <TestServerCard
          trialDays={data.trial_days}
          request={data.test_request}
          onOpenServers={onOpenServers}
        />
      </>
    );
  }

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {t('tabs.rates')}
      </h2>
      {content}
    </section>
  );
}
