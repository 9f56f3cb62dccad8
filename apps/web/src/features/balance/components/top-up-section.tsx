import { PAYMENT_METHODS, type PaymentMethod, type PaymentMethodInfo } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useBalances } from '../../auth/api/use-current-user';
import { useGetPaymentMethodsQuery } from '../api/balance-api';
import { CryptoForm } from './crypto-form';
import { DepositForm } from './deposit-form';
import { MethodCards, unavailableReason } from './method-cards';
import styles from './balance.module.css';

export interface TopUpSectionProps {
  /** The method in the address (?method=), if any. */
  requestedMethod: string | null;
  onMethodChange: (method: PaymentMethod) => void;
}

const order = (method: PaymentMethodInfo) => PAYMENT_METHODS.indexOf(method.id);

/** Top up: the method as radio cards, then the form of that method. */
export function TopUpSection({ requestedMethod, onMethodChange }: TopUpSectionProps) {
  const { t } = useTranslation('balance');
  const headingId = useId();
  const methodsQuery = useGetPaymentMethodsQuery();
  const { partner } = useBalances();
  // the card picked a moment ago, until the address (updated by a navigation) says it too: a
  // controlled radio would otherwise spring back to the old method for a frame
  const [picked, setPicked] = useState<{ method: PaymentMethod; over: string | null } | null>(null);
  const wanted = picked && picked.over === requestedMethod ? picked.method : requestedMethod;
  const pick = (method: PaymentMethod) => {
    setPicked({ method, over: requestedMethod });
    onMethodChange(method);
  };

  let content;
  if (methodsQuery.isLoading) {
    content = <LoadingState>{t('methods.loading')}</LoadingState>;
  } else if (!methodsQuery.data) {
    content = (
      <ErrorState
        title={t('methods.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void methodsQuery.refetch()}
      />
    );
  } else {
    const methods = [...methodsQuery.data.methods].sort((a, b) => order(a) - order(b));
    const usable = (method: PaymentMethodInfo) => unavailableReason(method, partner) === null;
    const chosen =
      methods.find((method) => method.id === wanted && usable(method)) ?? methods.find(usable);
    content = (
      <>
        <MethodCards
          methods={methods}
          value={chosen?.id ?? null}
          onChange={pick}
          partnerBalance={partner}
        />
        {!chosen ? (
          <p className={styles.note}>{t('methods.noneAvailable')}</p>
        ) : chosen.id === 'crypto' ? (
          <CryptoForm key={chosen.id} info={chosen} />
        ) : (
          <DepositForm key={chosen.id} method={chosen.id} info={chosen} partnerBalance={partner} />
        )}
      </>
    );
  }

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {t('topup.title')}
      </h2>
      {content}
    </section>
  );
}
