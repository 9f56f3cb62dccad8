import { zodResolver } from '@hookform/resolvers/zod';
import { failOperationRequestSchema, REASON_MAX } from '@tradehost/contracts';
import { useMemo, useState, type ReactNode, type RefObject } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { Button, FormAlert, TextAreaField, TextField } from '../../../shared/ui/form';
import { codeOf, useOperatorError } from '../lib/use-operator-error';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import styles from './operator.module.css';

/** A decision's call: null when it settled (done, or moved on), else the failure to show. */
export type RunDecision = () => Promise<{ error: unknown } | null>;

/**
 * A row's decisions, each opening its dialog: the `primary` one (by default the first) in the
 * primary colour (Confirm, Approve, Retry), the others in the danger colour (Reject, Mark
 * failed), so a Reject left alone on a row keeps its colour; `context` names the row for screen
 * readers (a decision's own context, when it has one, instead).
 */
export function DecisionButtons<K extends string>({
  context,
  decisions,
  primary = decisions[0]?.[0],
  onStart,
}: {
  context: string;
  decisions: readonly (readonly [kind: K, label: string, context?: string])[];
  /** The decision in the primary colour, when the row offers it. */
  primary?: K;
  onStart: (kind: K, opener: HTMLElement) => void;
}) {
  return (
    <span className={styles.rowActions}>
      {decisions.map(([kind, label, own]) => (
        <Button
          key={kind}
          variant={kind === primary ? 'primary' : 'secondary'}
          className={kind === primary ? undefined : styles.danger}
          onClick={(event) => onStart(kind, event.currentTarget)}
        >
          {label} <span className="visually-hidden">{own ?? context}</span>
        </Button>
      ))}
    </span>
  );
}

interface DecisionDialogBase {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** The question, read out with the title. */
  description: string;
  /** The subject's facts under the question. */
  children?: ReactNode;
  submitLabel: string;
  submittingLabel: string;
  /** A destructive decision: the button in the danger colour. */
  danger?: boolean;
  returnFocusTo: RefObject<HTMLElement | null>;
}

/**
 * "Credit …?" / "Approve …?" / "Retry …?": Cancel (where the focus starts) and the decision's
 * button; `run` is decide() (decision.ts) with the decision's call.
 */
export function ConfirmDecisionDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  submitLabel,
  submittingLabel,
  danger = false,
  returnFocusTo,
  run,
}: DecisionDialogBase & { run: RunDecision }) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async () => {
    setFailure(null);
    setBusy(true);
    const failed = await run();
    setBusy(false);
    if (failed) setFailure(errorText.request(failed.error));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      closeLabel={t('dialog.close')}
      busy={busy}
      returnFocusTo={returnFocusTo}
    >
      {children}
      {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
      <DialogActions>
        <Button variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
          {t('dialog.cancel')}
        </Button>
        <Button
          variant={danger ? 'secondary' : 'primary'}
          className={danger ? styles.danger : undefined}
          loading={busy}
          loadingText={submittingLabel}
          onClick={() => void submit()}
        >
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

type TextValues = Record<string, string>;

/** The text a decision asks for: the body's field, its rule and how it shows. */
export interface DecisionText {
  /** The body's field ("reason", "reference"): the server's refusals of it land on the control. */
  name: string;
  /** The field's rule: the contracts' schema of it in the request body. */
  schema: z.ZodMiniType<string, string>;
  /** The server's codes that refuse the field itself. */
  codes: readonly string[];
  /** Its length at most (the hint counts up to it). */
  max: number;
  label: string;
  /** Who sees the text; the length is added after it. */
  hint: string;
  /** A few lines (a reason), or one (a reference). */
  multiline?: boolean;
}

/**
 * "Reject …?" / "Pay out …?" with the one text the decision needs (required): the field's
 * refusals, the client's or the server's, land on it, anything else above the buttons.
 */
export function TextDecisionDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  submitLabel,
  submittingLabel,
  danger = false,
  returnFocusTo,
  field,
  run,
}: DecisionDialogBase & {
  field: DecisionText;
  run: (text: string) => Promise<{ error: unknown } | null>;
}) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const [failure, setFailure] = useState<string | null>(null);
  const { name, schema } = field;
  // the body's own field and rule: { reason } or { reference }
  const resolver = useMemo(
    () => zodResolver(z.object({ [name]: schema })) as Resolver<TextValues>,
    [name, schema],
  );
  const {
    register,
    handleSubmit,
    control,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<TextValues>({ resolver, defaultValues: { [name]: '' } });
  const text = useWatch({ control, name }) ?? '';

  const onValid = async (values: TextValues) => {
    setFailure(null);
    const failed = await run(values[name] ?? '');
    if (!failed) return;
    const code = codeOf(failed.error);
    const fieldError =
      code && field.codes.includes(code)
        ? code
        : (failed.error as { errors?: Record<string, string[]> }).errors?.[name]?.[0];
    if (fieldError) {
      setError(name, { type: 'server', message: fieldError });
      setFocus(name);
    } else {
      setFailure(errorText.request(failed.error));
    }
  };

  const fieldProps = {
    label: field.label,
    hint: t('dialog.reasonHint', { hint: field.hint, length: text.length, max: field.max }),
    error: errorText.field(errors[name]?.message),
    required: true,
    autoComplete: 'off',
    ...register(name),
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      closeLabel={t('dialog.close')}
      busy={isSubmitting}
      returnFocusTo={returnFocusTo}
    >
      <form className={styles.section} noValidate onSubmit={handleSubmit(onValid)}>
        {children}
        {field.multiline ? (
          <TextAreaField rows={4} {...fieldProps} />
        ) : (
          <TextField maxLength={field.max} {...fieldProps} />
        )}
        {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
        <DialogActions>
          <Button variant="secondary" disabled={isSubmitting} onClick={() => onOpenChange(false)}>
            {t('dialog.cancel')}
          </Button>
          <Button
            type="submit"
            variant={danger ? 'secondary' : 'primary'}
            className={danger ? styles.danger : undefined}
            loading={isSubmitting}
            loadingText={submittingLabel}
          >
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

const REASON = {
  name: 'reason',
  schema: failOperationRequestSchema.shape.reason,
  codes: ['REASON_REQUIRED', 'REASON_TOO_LONG'],
  max: REASON_MAX,
  multiline: true,
} as const;

/**
 * "Reject …?" / "Fail …?" with a reason (required, at most 500 characters: the contracts' rule,
 * the same for every decision), in the danger colour unless told.
 */
export function ReasonDecisionDialog({
  danger = true,
  reasonLabel,
  reasonHint,
  ...props
}: DecisionDialogBase & {
  reasonLabel: string;
  /** Who sees the reason; the length is added after it. */
  reasonHint: string;
  run: (reason: string) => Promise<{ error: unknown } | null>;
}) {
  return (
    <TextDecisionDialog
      {...props}
      danger={danger}
      field={{ ...REASON, label: reasonLabel, hint: reasonHint }}
    />
  );
}
