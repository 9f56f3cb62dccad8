import { PARTNER_LEVELS, type PartnerSettings } from '@tradehost/contracts';
import { useId, useRef, useState } from 'react';
import { useFieldArray, useForm, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button, FormAlert, TextField } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { notify } from '../../../../shared/ui/toast/notify';
import {
  useGetPartnerSettingsQuery,
  useSavePartnerSettingsMutation,
} from '../api/partner-operator-api';
import { ListHeader } from '../../../operator/components/list-controls';
import { QueryStates } from '../../../operator/components/states';
import {
  formValuesOf,
  SETTINGS_PROBLEMS,
  settingsResolver,
  TIERS_MAX,
  type SettingsFormValues,
} from '../lib/partner-settings';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import styles from '../../../operator/components/operator.module.css';
import partnerStyles from '../components/partner.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

/** A field's refusal in words: the form's own problems, else an error code of the contracts. */
function useProblemText() {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  return (error: FieldError | undefined) => {
    const message = error?.message;
    if (!message) return undefined;
    return (SETTINGS_PROBLEMS as readonly string[]).includes(message)
      ? t(`partner.settings.errors.${message}`)
      : errorText.field(message);
  };
}

/**
 * Each level's percentage and the promocode discount tiers, saved together with one PUT. Key it
 * by the saved settings so that it starts from them.
 */
function SettingsForm({ settings }: { settings: PartnerSettings }) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const problemText = useProblemText();
  const percentsId = useId();
  const tiersId = useId();
  const [save] = useSavePartnerSettingsMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<SettingsFormValues, unknown, PartnerSettings>({
    resolver: settingsResolver,
    defaultValues: formValuesOf(settings),
  });
  const tiers = useFieldArray({ control, name: 'discount_tiers' });
  // where the focus goes when a tier's Remove goes with its row
  const addRef = useRef<HTMLButtonElement>(null);

  const onValid = async (values: PartnerSettings) => {
    setFailure(null);
    try {
      await save(values).unwrap();
      notify('success', t('partner.settings.saved'));
    } catch (error) {
      // PERCENT_INVALID, TIERS_INVALID: the API's text of the rule, in the reader's language
      setFailure(errorText.request(error));
    }
  };

  return (
    <form className={styles.section} noValidate onSubmit={handleSubmit(onValid)}>
      <section className={styles.panel} aria-labelledby={percentsId}>
        <div>
          <h3 id={percentsId} className={styles.sectionTitle}>
            {t('partner.settings.percents')}
          </h3>
          <p className={styles.lead}>{t('partner.settings.percentsLead')}</p>
        </div>
        <div className={controlStyles.discounts}>
          {PARTNER_LEVELS.map((level, index) => (
            <TextField
              key={level}
              label={t('partner.settings.level', { level })}
              inputMode="decimal"
              autoComplete="off"
              required
              error={problemText(errors.reward_percents?.[index])}
              {...register(`reward_percents.${index}`)}
            />
          ))}
        </div>
      </section>
      <section className={styles.panel} aria-labelledby={tiersId}>
        <div>
          <h3 id={tiersId} className={styles.sectionTitle}>
            {t('partner.settings.tiers')}
          </h3>
          <p className={styles.lead}>{t('partner.settings.tiersLead')}</p>
        </div>
        <ol className={partnerStyles.tiers}>
          {tiers.fields.map((field, index) => {
            const tier = t('partner.settings.tier', { number: index + 1 });
            const rowErrors = errors.discount_tiers?.[index];
            return (
              <li key={field.id} className={partnerStyles.tier}>
                <TextField
                  label={
                    <>
                      <span className="visually-hidden">{tier}:</span>{' '}
                      {t('partner.settings.activeReferrals')}
                    </>
                  }
                  hint={index === 0 ? t('partner.settings.firstTier') : undefined}
                  inputMode="numeric"
                  autoComplete="off"
                  required
                  readOnly={index === 0}
                  error={problemText(rowErrors?.active_referrals)}
                  {...register(`discount_tiers.${index}.active_referrals`)}
                />
                <TextField
                  label={
                    <>
                      <span className="visually-hidden">{tier}:</span>{' '}
                      {t('partner.settings.discount')}
                    </>
                  }
                  inputMode="numeric"
                  autoComplete="off"
                  required
                  error={problemText(rowErrors?.discount)}
                  {...register(`discount_tiers.${index}.discount`)}
                />
                {index > 0 ? (
                  <Button
                    variant="secondary"
                    className={styles.danger}
                    onClick={() => {
                      tiers.remove(index);
                      addRef.current?.focus();
                    }}
                  >
                    {t('partner.settings.removeTier', { number: index + 1 })}
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ol>
        <div>
          <Button
            ref={addRef}
            variant="secondary"
            disabled={tiers.fields.length >= TIERS_MAX}
            onClick={() => tiers.append({ active_referrals: '', discount: '' })}
          >
            {t('partner.settings.addTier')}
          </Button>
        </div>
      </section>
      <p className={styles.lead}>{t('partner.settings.note')}</p>
      {errors.root ? (
        <FormAlert tone="error">{errorText.field(errors.root.message)}</FormAlert>
      ) : null}
      {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
      <div className={styles.formActions}>
        <Button type="submit" loading={isSubmitting} loadingText={t('partner.settings.saving')}>
          {t('partner.settings.save')}
        </Button>
        {isDirty ? (
          <span className={controlStyles.small}>{t('partner.settings.unsaved')}</span>
        ) : null}
      </div>
    </form>
  );
}

/** Route module (lazy, admins only): the partner programme's percentages and discount tiers. */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('partner.settings.title'));
  const headingId = useId();
  const query = useGetPartnerSettingsQuery();
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        title={t('partner.settings.title')}
        lead={t('partner.settings.lead')}
      />
      <QueryStates result={query} isEmpty={() => false} empty={null}>
        {(settings) => <SettingsForm key={JSON.stringify(settings)} settings={settings} />}
      </QueryStates>
    </section>
  );
}
