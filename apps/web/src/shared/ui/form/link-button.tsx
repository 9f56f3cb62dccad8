import type { ComponentPropsWithRef } from 'react';
import styles from './link-button.module.css';

export interface LinkButtonProps extends ComponentPropsWithRef<'button'> {
  /** Where it stands in the form's column: at its start (by default) or centred. */
  align?: 'start' | 'center';
}

/**
 * A button that reads as a link: another way to answer a form ("Use a recovery code"), not an
 * action of its own. A type="button" unless told otherwise, so it never submits the form.
 */
export function LinkButton({
  align = 'start',
  type = 'button',
  className,
  ...props
}: LinkButtonProps) {
  return (
    <button
      type={type}
      className={[styles.linkButton, styles[align], className].filter(Boolean).join(' ')}
      {...props}
    />
  );
}
