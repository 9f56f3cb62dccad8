import { zodResolver } from '@hookform/resolvers/zod';
import { changeNameRequestSchema, type ChangeNameRequest, type User } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { fieldErrorText } from '../../../shared/lib/api-error';
import { UI_LANGUAGES, type UiLanguage } from '../../../shared/lib/preferences';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { Button, FormAlert, TextField } from '../../../shared/ui/form';
import { languageChanged, selectLanguage } from '../../settings/model/settings-slice';
import { useChangeNameMutation } from '../api/profile-api';
import { ProfileSection } from './profile-section';
import styles from './profile.module.css';

const FIELDS = ['name'] as const;
const LANGUAGE_LABELS: Record<UiLanguage, 'account.english' | 'account.russian'> = {
  en: 'account.english',
  ru: 'account.russian',
};

/** The name (the sign-up rules), saved on its own. */
export function NameForm({ name }: { name: string }) {
  const { t } = useTranslation('profile');
  const [changeName] = useChangeNameMutation();
  const { failure, alertRef, fail, clear } = useFormFailure();
  const [saved, setSaved] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ChangeNameRequest>({
    resolver: zodResolver(changeNameRequestSchema),
    defaultValues: { name },
  });

  const onSubmit = async (data: ChangeNameRequest) => {
    clear();
    setSaved(false);
    try {
      const user = await changeName(data).unwrap();
      reset({ name: user.name });
      setSaved(true);
    } catch (error) {
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      {failure ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          {failure.text}
        </FormAlert>
      ) : null}
      {saved ? <FormAlert tone="success">{t('account.nameSaved')}</FormAlert> : null}
      <TextField
        label={t('account.name')}
        autoComplete="name"
        required
        error={fieldErrorText(t, errors.name?.message)}
        {...register('name', { onChange: () => setSaved(false) })}
      />
      <div className={styles.actions}>
        <Button type="submit" loading={isSubmitting} loadingText={t('account.savingName')}>
          {t('account.saveName')}
        </Button>
      </div>
    </form>
  );
}

/**
 * The language of the console and of the e-mails: the same choice as the header's switcher (the
 * app's listener saves it to the account, POST /user/change_language).
 */
export function LanguageChoice() {
  const { t } = useTranslation('profile');
  const dispatch = useAppDispatch();
  const current = useAppSelector(selectLanguage);
  const hintId = useId();
  return (
    <fieldset className={styles.fieldset} aria-describedby={hintId}>
      <legend className={styles.legend}>{t('account.language')}</legend>
      <p id={hintId} className={styles.muted}>
        {t('account.languageHint')}
      </p>
      <div className={styles.choices}>
        {UI_LANGUAGES.map((language) => (
          <label key={language} className={styles.choice} lang={language}>
            <input
              type="radio"
              name="profile-language"
              value={language}
              checked={language === current}
              onChange={() => dispatch(languageChanged(language))}
            />
            {t(LANGUAGE_LABELS[language])}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The account's name, its e-mail (shown, not editable) and its language. */
export function AccountSection({ user }: { user: User }) {
  const { t } = useTranslation('profile');
  return (
    <ProfileSection title={t('account.title')}>
      <NameForm name={user.name} />
      <dl className={styles.readonly}>
        <dt>{t('account.email')}</dt>
        <dd data-testid="profile-email">{user.email}</dd>
        <dd className={styles.muted}>{t('account.emailHint')}</dd>
      </dl>
      <LanguageChoice />
    </ProfileSection>
  );
}
