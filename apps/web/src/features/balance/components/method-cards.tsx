import type { PaymentMethod, PaymentMethodInfo } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../shared/lib/format-money';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import cards from '../../../shared/ui/radio-cards/radio-cards.module.css';
import styles from './method-cards.module.css';

/** Why a method cannot be chosen now, or null when it can. */
export function unavailableReason(
  method: PaymentMethodInfo,
  partnerBalance: number | undefined,
): 'unavailable' | 'noPartnerFunds' | null {
  if (!method.available) return 'unavailable';
  // crypto needs a network the provider has a wallet on
  if (method.id === 'crypto' && !method.networks?.length) return 'unavailable';
  if (method.id === 'balance' && partnerBalance !== undefined && partnerBalance < method.min) {
    return 'noPartnerFunds';
  }
  return null;
}

const ICONS: Record<PaymentMethod, string> = {
  card: 'M3 6h18v12H3zM3 10h18M7 15h4',
  ewallet: 'M4 7h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H4zM4 7l11-3v3M16 13h1',
  crypto: 'M8 6h6a3 3 0 0 1 0 6H8zM8 12h7a3 3 0 0 1 0 6H8zM8 6v12M10 4v2M10 18v2M13 4v2M13 18v2',
  balance: 'M4 12h12M12 8l4 4-4 4M20 5v14',
};

export interface MethodCardsProps {
  methods: readonly PaymentMethodInfo[];
  value: PaymentMethod | null;
  onChange: (method: PaymentMethod) => void;
  /** Dollars; the account-balance method needs at least its minimum there. */
  partnerBalance: number | undefined;
}

/**
 * The payment methods as radio cards (SPEC 9: bank card, e-wallet, crypto wallet, account
 * balance), each with its minimum; one that cannot be used now is disabled and says why.
 */
export function MethodCards({ methods, value, onChange, partnerBalance }: MethodCardsProps) {
  const { t, i18n } = useTranslation('balance');
  const name = useId();
  return (
    <fieldset className={cards.fieldset}>
      <legend className={cards.legend}>{t('methods.legend')}</legend>
      <div className={styles.grid}>
        {methods.map((method) => {
          const reason = unavailableReason(method, partnerBalance);
          const nameId = `${name}-${method.id}-name`;
          const noteId = `${name}-${method.id}-note`;
          return (
            <label
              key={method.id}
              className={`${cards.card} ${styles.card}`}
              data-disabled={reason ? true : undefined}
            >
              <input
                type="radio"
                className={cards.radio}
                name={name}
                value={method.id}
                checked={value === method.id}
                disabled={reason !== null}
                aria-labelledby={nameId}
                aria-describedby={noteId}
                onChange={() => onChange(method.id)}
              />
              <span className={styles.body}>
                <StrokeIcon className={styles.icon} strokeWidth={1.8} d={ICONS[method.id]} />
                <span id={nameId} className={styles.name}>
                  {t(`methods.${method.id}`)}
                </span>
                <span id={noteId} className={reason ? styles.reason : styles.note}>
                  {reason
                    ? t(`methods.${reason}`)
                    : t('methods.minimum', { amount: formatMoney(method.min, i18n.language) })}
                </span>
              </span>
              <span className={`${cards.check} ${styles.check}`} aria-hidden="true" />
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
