import type { ReactNode } from 'react';
import { FieldMessages } from './field-messages';
import { joinIds, useFieldIds } from './field-ids';
import styles from './field.module.css';

/** What every field takes besides its control's own attributes. */
export interface FieldOwnProps {
  /** The visible label, tied to the control by htmlFor/id. */
  label: ReactNode;
  /** Help under the control, linked by aria-describedby. */
  hint?: ReactNode;
  /** The error text (already translated); sets aria-invalid and is linked by aria-describedby. */
  error?: string;
  id?: string;
  'aria-describedby'?: string;
}

/**
 * Splits a field's props into its frame's (the label, the hint, the error and the ids between
 * them) and its control's: the rest, with the id, aria-invalid and aria-describedby that tie the
 * control to the frame (what the caller gives last, as on a bare control).
 */
export function useField<P extends FieldOwnProps>({
  label,
  hint,
  error,
  id,
  'aria-describedby': describedBy,
  ...rest
}: P) {
  const ids = useFieldIds(id, Boolean(hint), Boolean(error));
  return {
    frame: { label, hint, error, ids },
    control: {
      id: ids.inputId,
      'aria-invalid': error ? (true as const) : undefined,
      'aria-describedby': joinIds(ids.describedBy, describedBy),
      ...rest,
    },
  };
}

export interface FieldFrameProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  ids: ReturnType<typeof useFieldIds>;
  /** A class for the whole field, e.g. to limit its width or span a form's columns. */
  className?: string;
  /** The control (with what belongs beside it: a toggle, an arrow, a prefix). */
  children: ReactNode;
}

/** The label above a control and its error and hint below, in the column of the form's fields. */
export function FieldFrame({ label, hint, error, ids, className, children }: FieldFrameProps) {
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={ids.inputId} className={styles.label}>
        {label}
      </label>
      {children}
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}
