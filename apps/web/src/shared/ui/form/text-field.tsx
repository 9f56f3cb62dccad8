import type { ComponentPropsWithRef } from 'react';
import { FieldFrame, useField, type FieldOwnProps } from './field-frame';
import styles from './field.module.css';

export interface TextFieldProps
  extends FieldOwnProps, Omit<ComponentPropsWithRef<'input'>, 'children'> {
  /** Marks the label "optional" with this text (e.g. a translated "optional"). */
  optionalText?: string;
}

export function TextField({ optionalText, className, ...props }: TextFieldProps) {
  const { frame, control } = useField(props);
  return (
    <FieldFrame
      {...frame}
      label={
        <>
          {frame.label}
          {optionalText ? <span className={styles.optional}> ({optionalText})</span> : null}
        </>
      }
    >
      <input className={[styles.input, className].filter(Boolean).join(' ')} {...control} />
    </FieldFrame>
  );
}
