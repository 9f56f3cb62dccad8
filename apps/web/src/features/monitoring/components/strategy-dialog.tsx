import { STRATEGY_NAME_MAX, strategyNameRequestSchema } from '@tradehost/contracts';
import { useRef, useState, type FormEvent } from 'react';
import {
  errorText,
  fieldErrorText,
  fieldErrorValue,
  hasErrorCode,
  isApiRequestError,
} from '../../../shared/lib/api-error';
import { useFailure } from '../../../shared/lib/use-failure';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, TextField } from '../../../shared/ui/form';
import { useClearStrategyNameMutation, useRenameStrategyMutation } from '../api/monitoring-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { FailureAlert } from './failure';
import styles from './monitoring.module.css';

/** The refusals of a name itself: said on the field, the others above the buttons. */
const NAME_CODES = [
  'MONITORING_STRATEGY_NAME_REQUIRED',
  'MONITORING_STRATEGY_NAME_TOO_LONG',
  'TEXT_NOT_SINGLE_LINE',
  'NAME_HAS_WEB_ADDRESS',
] as const;

/**
 * The owner names a strategy (a magic number of the account's trades) or takes its name away;
 * the name shows in place of the number in the account's analysis and trade history. The name
 * is checked as the API checks it (trimmed, one line, no web address); the API's refusals show on
 * the field or above the buttons, in the reader's language. Closes once saved.
 */
export function StrategyDialog({
  accountId,
  magic,
  name,
  onClose,
}: {
  accountId: number;
  magic: string;
  /** Its name now (null: none). */
  name: string | null;
  onClose: () => void;
}) {
  const { t } = useMonitoringFormat();
  const [rename, renaming] = useRenameStrategyMutation();
  const [clearName, clearing] = useClearStrategyNameMutation();
  const { failure, alertRef, fail, clear } = useFailure();
  const [value, setValue] = useState(name ?? '');
  const [error, setError] = useState<string | undefined>();
  const field = useRef<HTMLInputElement>(null);
  const busy = renaming.isLoading || clearing.isLoading;

  const refused = (refusal: unknown) => {
    const message = isApiRequestError(refusal) ? refusal.errors?.name?.[0] : undefined;
    const text = message
      ? fieldErrorText(t, fieldErrorValue(message))
      : NAME_CODES.some((code) => hasErrorCode(refusal, code))
        ? errorText(t, refusal)
        : undefined;
    if (text) {
      setError(text);
      field.current?.focus();
    } else fail(refusal);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    clear();
    const parsed = strategyNameRequestSchema.safeParse({ name: value });
    if (!parsed.success) {
      setError(fieldErrorText(t, parsed.error.issues[0]?.message));
      field.current?.focus();
      return;
    }
    setError(undefined);
    try {
      await rename({ id: accountId, magic, name: parsed.data.name }).unwrap();
      onClose();
    } catch (refusal) {
      refused(refusal);
    }
  };

  const remove = async () => {
    clear();
    setError(undefined);
    try {
      await clearName({ id: accountId, magic }).unwrap();
      onClose();
    } catch (refusal) {
      fail(refusal);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={t('analysis.renameTitle')}
      description={t('analysis.renameLead', { magic })}
      busy={busy}
    >
      <form className={styles.checks} onSubmit={(event) => void save(event)} noValidate>
        <TextField
          ref={field}
          label={t('analysis.nameLabel')}
          hint={t('analysis.nameHint', { max: STRATEGY_NAME_MAX })}
          maxLength={STRATEGY_NAME_MAX}
          autoComplete="off"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={error}
        />
        <FailureAlert failure={failure} alertRef={alertRef} />
        <DialogActions>
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            {t('cancel')}
          </Button>
          {name !== null ? (
            <Button
              variant="secondary"
              disabled={renaming.isLoading}
              loading={clearing.isLoading}
              onClick={() => void remove()}
            >
              {t('analysis.removeName')}
            </Button>
          ) : null}
          <Button
            type="submit"
            disabled={clearing.isLoading}
            loading={renaming.isLoading}
            loadingText={t('analysis.saving')}
          >
            {t('analysis.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
