import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../form';
import segments from '../segments/segments.module.css';
import {
  customRange,
  localDay,
  PERIOD_PRESETS,
  presetRange,
  type CustomRangeError,
  type PeriodMode,
  type PeriodRange,
  type PeriodSelection,
} from './period';
import styles from './period-picker.module.css';

export interface PeriodPickerProps {
  value: PeriodSelection;
  /** A new period: what was chosen, and its range at the moment of the choice. */
  onChange: (selection: PeriodSelection, range: PeriodRange) => void;
  /** The moment the presets count back from; the clock by default. */
  now?: () => Date;
  className?: string;
}

const MODES: readonly PeriodMode[] = [...PERIOD_PRESETS, 'custom'];
const ERROR_KEYS: Record<CustomRangeError, string> = {
  'from-invalid': 'period.errors.fromInvalid',
  'to-invalid': 'period.errors.toInvalid',
  order: 'period.errors.order',
};

const clock = () => new Date();

/**
 * The calendar period picker (SPEC 2): presets All, Week, Month, Quarter, Year, and Custom with
 * two dates and Apply. A preset applies at once; the custom dates apply with the button (or
 * Enter in a date field), so a half-typed date does not reload anything. The presets are native
 * radio buttons (arrow keys move between them). The period maths are in period.ts.
 */
export function PeriodPicker({ value, onChange, now = clock, className }: PeriodPickerProps) {
  const { t } = useTranslation('controls');
  const id = useId();
  const [mode, setMode] = useState<PeriodMode>(value.preset);
  const [draft, setDraft] = useState(() =>
    value.preset === 'custom' ? { from: value.from, to: value.to } : { from: '', to: '' },
  );
  const [error, setError] = useState<CustomRangeError | null>(null);
  const errorId = `${id}-error`;

  const choose = (next: PeriodMode) => {
    setMode(next);
    setError(null);
    if (next !== 'custom') {
      onChange({ preset: next }, presetRange(next, now()));
      return;
    }
    // Custom starts from the period shown so far, up to today
    if (!draft.from && !draft.to) {
      const { from } = value.preset === 'custom' ? {} : presetRange(value.preset, now());
      setDraft({ from: from ? localDay(new Date(from)) : '', to: localDay(now()) });
    }
  };

  const apply = () => {
    const result = customRange(draft.from, draft.to);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setError(null);
    onChange({ preset: 'custom', from: draft.from, to: draft.to }, result.range);
  };

  const applyOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    apply();
  };

  const invalid = (field: 'from' | 'to') =>
    error === `${field}-invalid` || (field === 'to' && error === 'order') ? true : undefined;

  return (
    <fieldset className={[styles.picker, className].filter(Boolean).join(' ')}>
      <legend className={styles.legend}>{t('period.legend')}</legend>
      <div className={`${segments.segments} ${styles.segments}`}>
        {MODES.map((option) => (
          <label key={option} className={segments.segment}>
            <input
              type="radio"
              className={segments.radio}
              name={`${id}-period`}
              value={option}
              checked={mode === option}
              onChange={() => choose(option)}
            />
            <span className={`${segments.text} ${styles.segmentText}`}>
              {t(`period.${option}`)}
            </span>
          </label>
        ))}
      </div>
      {mode === 'custom' ? (
        <div className={styles.custom}>
          <div className={styles.dateField}>
            <label htmlFor={`${id}-from`} className={styles.dateLabel}>
              {t('period.from')}
            </label>
            <input
              id={`${id}-from`}
              type="date"
              className={styles.date}
              value={draft.from}
              max={draft.to || undefined}
              aria-invalid={invalid('from')}
              aria-describedby={invalid('from') ? errorId : undefined}
              onChange={(event) => setDraft((d) => ({ ...d, from: event.target.value }))}
              onKeyDown={applyOnEnter}
            />
          </div>
          <div className={styles.dateField}>
            <label htmlFor={`${id}-to`} className={styles.dateLabel}>
              {t('period.to')}
            </label>
            <input
              id={`${id}-to`}
              type="date"
              className={styles.date}
              value={draft.to}
              min={draft.from || undefined}
              aria-invalid={invalid('to')}
              aria-describedby={invalid('to') ? errorId : undefined}
              onChange={(event) => setDraft((d) => ({ ...d, to: event.target.value }))}
              onKeyDown={applyOnEnter}
            />
          </div>
          <Button variant="secondary" className={styles.apply} onClick={apply}>
            {t('period.apply')}
          </Button>
          {error ? (
            <p id={errorId} className={styles.error} role="alert">
              {t(ERROR_KEYS[error])}
            </p>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
