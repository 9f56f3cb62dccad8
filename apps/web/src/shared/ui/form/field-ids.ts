import { useId } from 'react';

/** Ids tying a control to its label, hint and error text. */
export function useFieldIds(id: string | undefined, hasHint: boolean, hasError: boolean) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy =
    [hasError ? errorId : null, hasHint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return { inputId, hintId, errorId, describedBy };
}

/** Joins the caller's aria-describedby with the field's own ids. */
export function joinIds(...ids: (string | undefined | null | false)[]): string | undefined {
  const joined = ids.filter(Boolean).join(' ');
  return joined || undefined;
}
