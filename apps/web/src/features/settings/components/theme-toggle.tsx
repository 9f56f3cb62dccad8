import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectTheme, themeChanged } from '../model/settings-slice';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import styles from './settings-controls.module.css';

export interface ThemeToggleProps {
  /** Show "Dark theme" beside the icon (the slide-in menu); else the icon alone. */
  showLabel?: boolean;
}

/** A toggle button: pressed means the dark theme. */
export function ThemeToggle({ showLabel = false }: ThemeToggleProps) {
  const { t } = useTranslation('common');
  const dispatch = useAppDispatch();
  const dark = useAppSelector(selectTheme) === 'dark';
  const label = t('theme.dark');
  return (
    <button
      type="button"
      className={showLabel ? styles.labelledToggle : styles.iconButton}
      aria-pressed={dark}
      aria-label={showLabel ? undefined : label}
      title={showLabel ? undefined : label}
      onClick={() => dispatch(themeChanged(dark ? 'light' : 'dark'))}
    >
      <StrokeIcon className={styles.icon} size={18} strokeWidth={dark ? 1.5 : 1.6}>
        {dark ? (
          <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" fill="currentColor" />
        ) : (
          <>
            <circle cx="12" cy="12" r="4" />
            <path d="M12 2.5v2M12 19.5v2M2.5 12h2M19.5 12h2M5.3 5.3l1.4 1.4M17.3 17.3l1.4 1.4M5.3 18.7l1.4-1.4M17.3 6.7l1.4-1.4" />
          </>
        )}
      </StrokeIcon>
      {showLabel ? (
        <>
          <span className={styles.toggleText}>{label}</span>
          <span className={styles.switch} aria-hidden="true" />
        </>
      ) : null}
    </button>
  );
}
