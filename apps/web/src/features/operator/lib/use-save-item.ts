import { useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { applyFieldErrors, type FailingForm } from '../../../shared/lib/api-error';
import { notify } from '../../../shared/ui/toast/notify';
import { useOperatorError } from './use-operator-error';

export interface SaveItemOptions<V, F extends FieldValues> {
  /** Adds the item or updates it (the mutation's call, unwrapped: it throws the refusal). */
  save: (values: V) => Promise<unknown>;
  /** The toast once it is saved. */
  savedText: (values: V) => string;
  /** Once saved and said so: the dialog closes. */
  onSaved: () => void;
  /** The form the server's field refusals land on. */
  form: FailingForm<F>;
  /** A refusal the dialog puts in a place of its own first; true when it did. */
  refused?: (error: unknown) => boolean;
}

/**
 * The submit of an operator's add/edit dialog: saves, says so and closes; a refusal goes on its
 * fields (the focus on the first in form order), else in `failure` above the buttons.
 */
export function useSaveItem<V, F extends FieldValues>({
  save,
  savedText,
  onSaved,
  form,
  refused,
}: SaveItemOptions<V, F>) {
  const errorText = useOperatorError();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (values: V) => {
    setFailure(null);
    try {
      await save(values);
      notify('success', savedText(values));
      onSaved();
    } catch (error) {
      if (refused?.(error)) return;
      const first = applyFieldErrors(error, form.fields, form.setError);
      if (first) form.setFocus(first);
      else setFailure(errorText.request(error));
    }
  };

  return { failure, submit };
}
