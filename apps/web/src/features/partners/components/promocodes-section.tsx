import { zodResolver } from '@hookform/resolvers/zod';
import {
  createPromocodeSchema,
  type AvailableDiscount,
  type PartnerPromocode,
} from '@tradehost/contracts';
import { useRef, useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { fieldErrorText } from '../../../shared/lib/api-error';
import { useFailure } from '../../../shared/lib/use-failure';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { FailureAlert } from '../../../shared/ui/failure-alert/failure-alert';
import { Button, FormAlert, TextField } from '../../../shared/ui/form';
import segments from '../../../shared/ui/segments/segments.module.css';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { notify } from '../../../shared/ui/toast/notify';
import {
  useCreatePromocodeMutation,
  useDeletePromocodeMutation,
  useGetAvailableDiscountQuery,
  useGetPartnerPromocodesQuery,
} from '../api/partner-api';
import { usePartnerFormat } from '../lib/use-partner-format';
import styles from './partners.module.css';

/**
 * Promocodes: the discounts the partner may give (decided by their active first-level
 * referrals, tier by tier), a form to create one, and the list with times used and a delete
 * that asks first. A promocode gives its discount on a 1-month rental and brings the buyer into
 * the partner's network when they have no referrer yet.
 */
export function PromocodesSection() {
  const { t } = usePartnerFormat();
  const discount = useGetAvailableDiscountQuery();
  const list = useGetPartnerPromocodesQuery();

  if (discount.isError || list.isError)
    return (
      <ErrorState
        title={t('loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => {
          void discount.refetch();
          void list.refetch();
        }}
      />
    );
  if (!discount.data || !list.data) return <LoadingState>{t('loading')}</LoadingState>;
  return (
    <>
      <Tiers discount={discount.data} />
      <CreatePromocode available={discount.data.available_discounts} />
      <PromocodeList promocodes={list.data} />
    </>
  );
}

function Tiers({ discount }: { discount: AvailableDiscount }) {
  const f = usePartnerFormat();
  const { t } = f;
  const best = Math.max(0, ...discount.available_discounts);
  return (
    <section className={styles.section} aria-labelledby="partner-tiers-title">
      <h2 id="partner-tiers-title" className={styles.sectionTitle}>
        {t('promocodes.tiersTitle')}
      </h2>
      <p className={styles.muted}>
        {t('promocodes.tiersLead', {
          count: discount.active_referrals,
          discount: f.percent(best),
        })}{' '}
        {discount.next_tier
          ? t('promocodes.nextTier', {
              count: discount.next_tier.active_referrals - discount.active_referrals,
              discount: f.percent(discount.next_tier.discount),
            })
          : t('promocodes.topTier')}
      </p>
      <ol className={styles.tierList}>
        {discount.tiers.map((tier) => {
          const reached = tier.active_referrals <= discount.active_referrals;
          return (
            <li key={tier.active_referrals} className={reached ? styles.tierReached : styles.tier}>
              <span className={styles.tierDiscount}>{f.percent(tier.discount)}</span>
              <span>
                {tier.active_referrals === 0
                  ? t('promocodes.tierStart')
                  : t('promocodes.tierFrom', { count: tier.active_referrals })}
              </span>
              {reached ? <span className="visually-hidden">{t('promocodes.reached')}</span> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

const formSchema = z.object({
  name: createPromocodeSchema.shape.name,
  discount: z
    .string({ error: 'DISCOUNT_NOT_AVAILABLE' })
    .check(z.minLength(1, { error: 'DISCOUNT_NOT_AVAILABLE' })),
});
type FormValues = z.infer<typeof formSchema>;
const FIELDS = ['name', 'discount'] as const;

function CreatePromocode({ available }: { available: number[] }) {
  const f = usePartnerFormat();
  const { t } = f;
  const [create] = useCreatePromocodeMutation();
  const { failure, alertRef, fail, clear } = useFormFailure();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', discount: String(Math.max(0, ...available) || '') },
  });

  const onSubmit = async (values: FormValues) => {
    clear();
    try {
      const { promocode } = await create({
        name: values.name,
        discount: Number(values.discount),
      }).unwrap();
      reset({ name: '', discount: values.discount });
      notify('success', t('promocodes.created', { name: promocode.name }));
    } catch (error) {
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  const discountError = fieldErrorText(t, errors.discount?.message);
  return (
    <section className={styles.section} aria-labelledby="partner-create-title">
      <h2 id="partner-create-title" className={styles.sectionTitle}>
        {t('promocodes.createTitle')}
      </h2>
      <form className={styles.inlineForm} noValidate onSubmit={handleSubmit(onSubmit)}>
        {failure ? (
          <FormAlert ref={alertRef} key={failure.serial} tone="error">
            {failure.text}
          </FormAlert>
        ) : null}
        <TextField
          label={t('promocodes.name')}
          hint={t('promocodes.nameHint')}
          autoComplete="off"
          spellCheck={false}
          error={fieldErrorText(t, errors.name?.message)}
          {...register('name')}
        />
        <fieldset
          className={styles.discountField}
          aria-invalid={discountError ? true : undefined}
          aria-describedby={discountError ? 'partner-discount-error' : undefined}
        >
          <legend className={styles.legend}>{t('promocodes.discount')}</legend>
          <div className={segments.segments}>
            {available.map((value) => (
              <label key={value} className={segments.segment}>
                <input
                  type="radio"
                  value={String(value)}
                  className={segments.radio}
                  {...register('discount')}
                />
                <span className={segments.text}>{f.percent(value)}</span>
              </label>
            ))}
          </div>
          {discountError ? (
            <p id="partner-discount-error" className={styles.error}>
              {discountError}
            </p>
          ) : null}
        </fieldset>
        <div>
          <Button type="submit" loading={isSubmitting}>
            {t('promocodes.create')}
          </Button>
        </div>
      </form>
    </section>
  );
}

function PromocodeList({ promocodes }: { promocodes: PartnerPromocode[] }) {
  const f = usePartnerFormat();
  const { t } = f;
  const [deleting, setDeleting] = useState<PartnerPromocode | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  return (
    <section className={styles.section} aria-labelledby="partner-promocodes-title">
      <h2
        id="partner-promocodes-title"
        ref={headingRef}
        tabIndex={-1}
        className={styles.sectionTitle}
      >
        {t('promocodes.listTitle')}
      </h2>
      {promocodes.length === 0 ? (
        <EmptyState title={t('promocodes.emptyTitle')}>{t('promocodes.empty')}</EmptyState>
      ) : (
        <TableFrame labelledBy="partner-promocodes-title">
          <table
            className={`${tableStyles.table} ${styles.table}`}
            aria-labelledby="partner-promocodes-title"
          >
            <thead>
              <tr>
                <th scope="col">{t('promocodes.name')}</th>
                <th scope="col">{t('promocodes.discount')}</th>
                <th scope="col">{t('promocodes.timesUsed')}</th>
                <th scope="col">{t('promocodes.createdAt')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('promocodes.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {promocodes.map((promocode) => (
                <tr key={promocode.id}>
                  <th scope="row">
                    <span className={styles.codeCell}>
                      <code>{promocode.name}</code>
                      <CopyButton
                        variant="icon"
                        text={promocode.name}
                        label={t('promocodes.copy', { name: promocode.name })}
                        messages={{ copied: t('share.copied'), failed: t('share.copyFailed') }}
                      />
                    </span>
                  </th>
                  <td>{f.percent(promocode.discount)}</td>
                  <td>{f.count(promocode.times_used)}</td>
                  <td>{f.date(promocode.created_at)}</td>
                  <td className={styles.actionsCell}>
                    <Button
                      variant="secondary"
                      className={styles.rowButton}
                      aria-label={t('promocodes.deleteNamed', { name: promocode.name })}
                      onClick={() => setDeleting(promocode)}
                    >
                      {t('promocodes.delete')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}
      {deleting ? (
        <DeleteDialog
          promocode={deleting}
          onClose={() => setDeleting(null)}
          returnFocusTo={headingRef}
        />
      ) : null}
    </section>
  );
}

function DeleteDialog({
  promocode,
  onClose,
  returnFocusTo,
}: {
  promocode: PartnerPromocode;
  onClose: () => void;
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  const { t } = usePartnerFormat();
  const [remove, removing] = useDeletePromocodeMutation();
  const { failure, alertRef, fail, clear } = useFailure();
  const confirm = async () => {
    clear();
    try {
      await remove(promocode.id).unwrap();
      notify('success', t('promocodes.deleted', { name: promocode.name }));
      onClose();
    } catch (error) {
      fail(error);
    }
  };
  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={t('promocodes.deleteTitle', { name: promocode.name })}
      description={t('promocodes.deleteLead', { count: promocode.times_used })}
      busy={removing.isLoading}
      returnFocusTo={returnFocusTo}
    >
      <FailureAlert failure={failure} alertRef={alertRef} topUp={null} />
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button loading={removing.isLoading} onClick={() => void confirm()}>
          {t('promocodes.deleteConfirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
