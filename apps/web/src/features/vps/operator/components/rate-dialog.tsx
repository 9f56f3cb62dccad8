import { zodResolver } from '@hookform/resolvers/zod';
import {
  errorCodeOf,
  formatCents,
  isErrorCode,
  rateInputSchema,
  type AdminRate,
} from '@tradehost/contracts';
import { useState, type RefObject } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '../../../../shared/lib/api-error';
import { Checkbox, TextField } from '../../../../shared/ui/form';
import { notify } from '../../../../shared/ui/toast/notify';
import {
  useCreateVpsRateMutation,
  useUpdateVpsRateMutation,
  type RateBody,
} from '../api/vps-operator-api';
import { toCents } from '../../../operator/lib/format';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import { Dialog } from '../../../../shared/ui/dialog/dialog';
import { FormDialogFooter } from '../../../operator/components/form-dialog-footer';
import styles from '../../../operator/components/controls.module.css';

/** What the form holds: numbers and the price as typed ("12.50", "12,5"). */
interface RateFormValues {
  name: string;
  cpu_cores: string;
  ram_gb: string;
  disk_gb: string;
  location: string;
  monthly_price: string;
  template_id: string;
  active: boolean;
}

/** What the contract's schema makes of it: whole numbers, the price in cents. */
interface RateValues {
  name: string;
  cpu_cores: number;
  ram_gb: number;
  disk_gb: number;
  location: string;
  monthly_price: number;
  template_id: string;
  active: boolean;
}

const FIELDS = [
  'name',
  'cpu_cores',
  'ram_gb',
  'disk_gb',
  'location',
  'monthly_price',
  'template_id',
  'active',
] as const;
type Field = (typeof FIELDS)[number];

const schemaResolver = zodResolver(rateInputSchema) as unknown as Resolver<
  RateFormValues,
  unknown,
  RateValues
>;

/** The contract's schema, a decimal comma taken for a point ("12,50"). */
const resolver: Resolver<RateFormValues, unknown, RateValues> = (values, context, options) =>
  schemaResolver(
    { ...values, monthly_price: values.monthly_price.trim().replace(',', '.') },
    context,
    options,
  );

/** Codes that only say "not valid": the field's own text says what it takes instead. */
const GENERIC_CODES = new Set(['VALIDATION', 'REQUIRED', 'NAME_REQUIRED', 'AMOUNT_INVALID']);

const EMPTY: RateFormValues = {
  name: '',
  cpu_cores: '',
  ram_gb: '',
  disk_gb: '',
  location: '',
  monthly_price: '',
  template_id: '',
  active: true,
};

function valuesOf(rate: AdminRate | null): RateFormValues {
  if (!rate) return EMPTY;
  return {
    name: rate.name,
    cpu_cores: String(rate.cpu_cores),
    ram_gb: String(rate.ram_gb),
    disk_gb: String(rate.disk_gb),
    location: rate.location,
    monthly_price: formatCents(toCents(rate.monthly_price)),
    template_id: rate.template_id,
    active: rate.active,
  };
}

const bodyOf = (values: RateValues): RateBody => ({
  ...values,
  monthly_price: formatCents(values.monthly_price),
});

const valuesOfRate = (rate: AdminRate): RateValues => ({
  name: rate.name,
  cpu_cores: rate.cpu_cores,
  ram_gb: rate.ram_gb,
  disk_gb: rate.disk_gb,
  location: rate.location,
  monthly_price: toCents(rate.monthly_price),
  template_id: rate.template_id,
  active: rate.active,
});

/** The fields of the rate that the form changes (an edit sends only those). */
function changesOf(rate: AdminRate, values: RateValues): Partial<RateBody> {
  const before = bodyOf(valuesOfRate(rate));
  const after = bodyOf(values);
  const changes: Partial<RateBody> = {};
  for (const field of FIELDS) {
    if (before[field] !== after[field]) Object.assign(changes, { [field]: after[field] });
  }
  return changes;
}

export interface RateDialogProps {
  /** The rate to edit; null adds a new one. */
  rate: AdminRate | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: RefObject<HTMLElement | null>;
}

/**
 * Adds a rate or edits one: name, CPU, RAM, disk, location, monthly price, the hypervisor's
 * template and whether it is on sale. The contract's schema checks it before it is sent; the
 * server's refusals land on their fields.
 */
export function RateDialog({ rate, open, onOpenChange, returnFocusTo }: RateDialogProps) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const [create] = useCreateVpsRateMutation();
  const [update] = useUpdateVpsRateMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<RateFormValues, unknown, RateValues>({
    resolver,
    defaultValues: valuesOf(rate),
  });

  const message = (field: Field): string | undefined => {
    const text = errors[field]?.message;
    if (!text) return undefined;
    const code = isErrorCode(text) ? text : errorCodeOf(text);
    if (code && !GENERIC_CODES.has(code)) return errorText.field(code);
    return t(`vps.rates.form.invalid.${field}`);
  };

  const onValid = async (values: RateValues) => {
    setFailure(null);
    try {
      if (rate) {
        const changes = changesOf(rate, values);
        if (Object.keys(changes).length > 0) {
          await update({ id: rate.id, changes }).unwrap();
          notify('success', t('vps.rates.updated', { name: values.name }));
        }
      } else {
        await create(bodyOf(values)).unwrap();
        notify('success', t('vps.rates.created', { name: values.name }));
      }
      onOpenChange(false);
    } catch (error) {
      const first = applyFieldErrors(error, FIELDS, setError);
      if (first) setFocus(first);
      else setFailure(errorText.request(error));
    }
  };

  const number = (field: 'cpu_cores' | 'ram_gb' | 'disk_gb') => (
    <TextField
      label={t(`vps.rates.form.${field}`)}
      inputMode="numeric"
      autoComplete="off"
      required
      error={message(field)}
      {...register(field)}
    />
  );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={
        rate ? t('vps.rates.form.editTitle', { name: rate.name }) : t('vps.rates.form.addTitle')
      }
      closeLabel={t('dialog.close')}
      busy={isSubmitting}
      returnFocusTo={returnFocusTo}
    >
      <form className={styles.dialogForm} noValidate onSubmit={handleSubmit(onValid)}>
        <div className={styles.wide}>
          <TextField
            label={t('vps.rates.form.name')}
            autoComplete="off"
            required
            maxLength={60}
            error={message('name')}
            {...register('name')}
          />
        </div>
        {number('cpu_cores')}
        {number('ram_gb')}
        {number('disk_gb')}
        <TextField
          label={t('vps.rates.form.monthly_price')}
          hint={t('vps.rates.form.monthlyPriceHint')}
          inputMode="decimal"
          autoComplete="off"
          required
          error={message('monthly_price')}
          {...register('monthly_price')}
        />
        <TextField
          label={t('vps.rates.form.location')}
          hint={t('vps.rates.form.locationHint')}
          autoComplete="off"
          required
          maxLength={60}
          error={message('location')}
          {...register('location')}
        />
        <TextField
          label={t('vps.rates.form.template_id')}
          hint={t('vps.rates.form.templateHint')}
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={40}
          error={message('template_id')}
          {...register('template_id')}
        />
        <div className={styles.wide}>
          <Checkbox
            label={t('vps.rates.form.active')}
            hint={t('vps.rates.form.activeHint')}
            error={message('active')}
            {...register('active')}
          />
        </div>
        <FormDialogFooter
          failure={failure}
          submitting={isSubmitting}
          onCancel={() => onOpenChange(false)}
          submitLabel={rate ? t('vps.rates.form.save') : t('vps.rates.form.add')}
          submittingLabel={t('vps.rates.form.saving')}
        />
      </form>
    </Dialog>
  );
}
