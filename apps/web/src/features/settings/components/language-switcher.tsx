import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { UI_LANGUAGES } from '../../../shared/lib/preferences';
import { languageChanged, selectLanguage } from '../model/settings-slice';
import styles from './settings-controls.module.css';

/** EN | RU as two toggle buttons in a labelled group; the current one is pressed. */
export function LanguageSwitcher() {
  const { t } = useTranslation('common');
  const dispatch = useAppDispatch();
  const current = useAppSelector(selectLanguage);
  return (
    <div className={styles.segmented} role="group" aria-label={t('language.label')}>
      {UI_LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className={styles.segment}
          aria-pressed={language === current}
          title={t(`language.${language}`)}
          onClick={() => {
            if (language !== current) dispatch(languageChanged(language));
          }}
        >
          {language.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
