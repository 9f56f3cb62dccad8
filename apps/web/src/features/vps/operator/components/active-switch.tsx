import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../shared/ui/form';
import { notify } from '../../../../shared/ui/toast/notify';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import styles from '../../../operator/components/operator.module.css';

/**
 * Switching a list's rows off and on (the rates, the promocodes; their texts under `texts`:
 * activate, deactivate, activated, deactivated, rowContext with the row's `values`). The row on
 * its way shows a busy button; the failure of the last switch is shown above the list.
 */
export function useActiveSwitch(texts: 'vps.rates' | 'vps.promocodes') {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const [switching, setSwitching] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const toggle = async (
    row: { id: number; active: boolean },
    values: Record<string, string>,
    send: (active: boolean) => Promise<unknown>,
  ) => {
    setFailure(null);
    setSwitching(row.id);
    try {
      await send(!row.active);
      notify('success', t(row.active ? `${texts}.deactivated` : `${texts}.activated`, values));
    } catch (error) {
      setFailure(errorText.request(error));
    } finally {
      setSwitching(null);
    }
  };

  return {
    failure,
    clearFailure: () => setFailure(null),
    /** The row's Deactivate (in the danger colour) or Activate; `send` takes the new state. */
    button: (
      row: { id: number; active: boolean },
      values: Record<string, string>,
      send: (active: boolean) => Promise<unknown>,
    ) => (
      <Button
        variant="secondary"
        className={row.active ? styles.danger : undefined}
        loading={switching === row.id}
        onClick={() => void toggle(row, values, send)}
      >
        {row.active ? t(`${texts}.deactivate`) : t(`${texts}.activate`)}{' '}
        <span className="visually-hidden">{t(`${texts}.rowContext`, values)}</span>
      </Button>
    ),
  };
}
