import type { ComponentPropsWithRef, ReactNode } from 'react';
import { FieldMessages } from '../../../shared/ui/form/field-messages';
import { joinIds, useFieldIds } from '../../../shared/ui/form/field-ids';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import styles from './operator.module.css';

interface FieldFrameProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  id?: string;
  className?: string;
  describedBy?: string;
  /** The control, given the id, aria-invalid and aria-describedby that tie it to the frame. */
  children: (control: {
    id: string;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}

/** The label, the hint and the error around a control, in the look of the shared text fields. */
function FieldFrame({ label, hint, error, id, className, describedBy, children }: FieldFrameProps) {
  const ids = useFieldIds(id, Boolean(hint), Boolean(error));
  return (
    <div className={[fieldStyles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={ids.inputId} className={fieldStyles.label}>
        {label}
      </label>
      {children({
        id: ids.inputId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': joinIds(ids.describedBy, describedBy),
      })}
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export interface SelectFieldProps extends Omit<ComponentPropsWithRef<'select'>, 'children'> {
  label: ReactNode;
  options: readonly { value: string; label: string }[];
  hint?: ReactNode;
  error?: string;
}

/** A labelled native select, in the look of the shared text fields. */
export function SelectField({
  label,
  options,
  hint,
  error,
  id,
  className,
  'aria-describedby': describedBy,
  ...props
}: SelectFieldProps) {
  return (
    <FieldFrame {...{ label, hint, error, id, className, describedBy }}>
      {(control) => (
        <select className={`${fieldStyles.input} ${styles.select}`} {...control} {...props}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

export interface TextAreaFieldProps extends Omit<ComponentPropsWithRef<'textarea'>, 'children'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
}

/** A labelled textarea, in the look of the shared text fields. */
export function TextAreaField({
  label,
  hint,
  error,
  id,
  className,
  'aria-describedby': describedBy,
  ...props
}: TextAreaFieldProps) {
  return (
    <FieldFrame {...{ label, hint, error, id, className, describedBy }}>
      {(control) => (
        <textarea className={`${fieldStyles.input} ${styles.textarea}`} {...control} {...props} />
      )}
    </FieldFrame>
  );
}
