import type { ComponentPropsWithRef } from 'react';
import { FieldFrame, useField, type FieldOwnProps } from './field-frame';
import styles from './field.module.css';

export interface TextAreaFieldProps
  extends FieldOwnProps, Omit<ComponentPropsWithRef<'textarea'>, 'children'> {
  /** A class for the field (label, textarea and messages), e.g. to span a form's columns. */
  className?: string;
}

/** Text of several lines, in the look of the text inputs; the reader can make it taller. */
export function TextAreaField({ className, ...props }: TextAreaFieldProps) {
  const { frame, control } = useField(props);
  return (
    <FieldFrame {...frame} className={className}>
      <textarea className={`${styles.input} ${styles.textarea}`} {...control} />
    </FieldFrame>
  );
}
