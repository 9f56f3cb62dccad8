import { HISTORY_KINDS, type HistoryKind, type PaymentMethod } from '@tradehost/contracts';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import { Tabs } from '../../../shared/ui/tabs/tabs';
import { BalanceSummary } from '../components/balance-summary';
import { HistorySection } from '../components/history-section';
import { PaymentReturnPanel } from '../components/payment-return-panel';
import { TopUpSection } from '../components/top-up-section';
import { TransferSection } from '../components/transfer-section';

export const BALANCE_TABS = ['topup', 'transfer', 'history'] as const;
export type BalanceTab = (typeof BALANCE_TABS)[number];

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

/** The ?payment=<id> the gateway sends the reader back with, when it is one. */
function paymentIdOf(value: string | null): number | null {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * Route module (lazy): balance operations (SPEC 2: top-up, transfer, and four histories). The
 * address keeps the tab (?tab=topup|transfer|history), the history (&history=payments|…) and
 * the top-up method (&method=…), so a reload or Back shows the same; ?payment=<id> shows the
 * status of a payment the reader comes back with from the gateway.
 */
export function Component() {
  const { t } = useTranslation('balance');
  useDocumentTitle(t('title'));
  const [params, setParams] = useSearchParams();
  const panelRef = useRef<HTMLDivElement>(null);

  const tab = oneOf(BALANCE_TABS, params.get('tab'), 'topup');
  const historyKind = oneOf(HISTORY_KINDS, params.get('history'), 'payments');
  const paymentId = paymentIdOf(params.get('payment'));

  /** A new address of the page: its parameters changed by `change`. */
  const update = (change: (next: URLSearchParams) => void, options?: { replace?: boolean }) => {
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      change(next);
      return next;
    }, options);
  };

  const selectTab = (next: BalanceTab) =>
    update((p) => {
      p.set('tab', next);
      if (next !== 'history') p.delete('history');
      if (next !== 'topup') p.delete('method');
    });

  const closePayment = (then?: (p: URLSearchParams) => void) => {
    update(
      (p) => {
        p.delete('payment');
        then?.(p);
      },
      { replace: true },
    );
    panelRef.current?.focus();
  };

  return (
    <Page title={t('title')} lead={t('description')}>
      <BalanceSummary />
      {paymentId !== null ? (
        <PaymentReturnPanel
          key={paymentId}
          paymentId={paymentId}
          onDismiss={() => closePayment()}
          onRetry={(method: PaymentMethod) =>
            closePayment((p) => {
              p.set('tab', 'topup');
              p.set('method', method);
              p.delete('history');
            })
          }
        />
      ) : null}
      <Tabs
        label={t('tabs.label')}
        items={BALANCE_TABS.map((value) => ({ value, label: t(`tabs.${value}`) }))}
        value={tab}
        onChange={selectTab}
        panelRef={panelRef}
      >
        {tab === 'topup' ? (
          <TopUpSection
            requestedMethod={params.get('method')}
            onMethodChange={(method) => update((p) => p.set('method', method), { replace: true })}
          />
        ) : tab === 'transfer' ? (
          <TransferSection />
        ) : (
          <HistorySection
            kind={historyKind}
            onKindChange={(kind: HistoryKind) =>
              update((p) => {
                p.set('tab', 'history');
                p.set('history', kind);
              })
            }
          />
        )}
      </Tabs>
    </Page>
  );
}
