import { zodResolver } from '@hookform/resolvers/zod';
import { errorCodeOf, isErrorCode, promocodeInputSchema } from '@tradehost/contracts';
import { useState, type RefObject } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '../../../../shared/lib/api-error';
import { TextField } from '../../../../shared/ui/form';
import { notify } from '../../../../shared/ui/toast/notify';
import { useCreateVpsPromocodeMutation } from '../api/vps-operator-api';
import { codeOf, useOperatorError } from '../../../operator/lib/use-operator-error';
import { Dialog } from '../../../../shared/ui/dialog/dialog';
import { FormDialogFooter } from '../../../operator/components/form-dialog-footer';
import styles from '../../../operator/components/controls.module.css';

interface PromocodeFormValues {
  code: string;
  discount_percent: string;
}

interface PromocodeValues {
  code: string;
  discount_percent: number;
}

const FIELDS = ['code', 'discount_percent'] as const;
type Field = (typeof FIELDS)[number];

const resolver = zodResolver(promocodeInputSchema) as unknown as Resolver<
  PromocodeFormValues,
  unknown,
  PromocodeValues
>;

/** The texts of the codes that only say "not valid", by field. */
const FIELD_TEXTS: Record<Field, string> = {
  code: 'vps.promocodes.form.invalid.code',
  discount_percent: 'vps.promocodes.form.invalid.discount_percent',
};
const GENERIC_CODES = new Set(['VALIDATION', 'REQUIRED', 'PROMOCODE_INVALID', 'DISCOUNT_INVALID']);

export interface PromocodeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: RefObject<HTMLElement | null>;
}

/** A new operator's promocode: its code and its discount (1-90 %, on a 1-month rental). */
export function PromocodeDialog({ open, onOpenChange, returnFocusTo }: PromocodeDialogProps) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const [create] = useCreateVpsPromocodeMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<PromocodeFormValues, unknown, PromocodeValues>({
    resolver,
    defaultValues: { code: '', discount_percent: '' },
  });

  const message = (field: Field): string | undefined => {
    const text = errors[field]?.message;
    if (!text) return undefined;
    const code = isErrorCode(text) ? text : errorCodeOf(text);
    if (code && !GENERIC_CODES.has(code)) return errorText.field(code);
    return t(FIELD_TEXTS[field]);
  };

  const onValid = async (values: PromocodeValues) => {
    setFailure(null);
    try {
      await create(values).unwrap();
      notify(
        'success',
        t('vps.promocodes.created', { code: values.code, discount: values.discount_percent }),
      );
      onOpenChange(false);
    } catch (error) {
      if (codeOf(error) === 'PROMOCODE_TAKEN') {
        setError('code', { type: 'server', message: 'PROMOCODE_TAKEN' });
        setFocus('code');
        return;
      }
      const first = applyFieldErrors(error, FIELDS, setError);
      if (first) setFocus(first);
      else setFailure(errorText.request(error));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('vps.promocodes.form.title')}
      description={t('vps.promocodes.form.lead')}
      closeLabel={t('dialog.close')}
      busy={isSubmitting}
      returnFocusTo={returnFocusTo}
    >
      <form className={styles.dialogForm} noValidate onSubmit={handleSubmit(onValid)}>
        <TextField
          label={t('vps.promocodes.form.code')}
          hint={t('vps.promocodes.form.codeHint')}
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={32}
          error={message('code')}
          {...register('code')}
        />
        <TextField
          label={t('vps.promocodes.form.discount')}
          hint={t('vps.promocodes.form.discountHint')}
          inputMode="numeric"
          autoComplete="off"
          required
          error={message('discount_percent')}
          {...register('discount_percent')}
        />
        <FormDialogFooter
          failure={failure}
          submitting={isSubmitting}
          onCancel={() => onOpenChange(false)}
          submitLabel={t('vps.promocodes.form.submit')}
          submittingLabel={t('vps.promocodes.form.adding')}
        />
      </form>
    </Dialog>
  );
}
