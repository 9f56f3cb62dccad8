import { SOURCE_OPTIONS, SOURCE_OTHER_MAX, type SourceOption } from '@tradehost/contracts';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorText } from '../../../shared/lib/api-error';
import { SelectField, TextField } from '../../../shared/ui/form';
import styles from './vps.module.css';

export interface SourceAnswer {
  source: SourceOption | '';
  other: string;
}

export const NO_ANSWER: SourceAnswer = { source: '', other: '' };

/** The answer's problem as an error code (the contracts' texts), or null when it can be sent. */
export function sourceErrors(answer: SourceAnswer): { source?: string; other?: string } {
  if (!answer.source) return { source: 'SOURCE_REQUIRED' };
  if (answer.source === 'other' && answer.other.trim().length > SOURCE_OTHER_MAX) {
    return { other: 'SOURCE_OTHER_TOO_LONG' };
  }
  return {};
}

/** The answer as the API takes it: the other text only with "Other". */
export function sourceBody(answer: SourceAnswer): { source: SourceOption; source_other?: string } {
  const source = answer.source as SourceOption;
  const other = answer.other.trim();
  return source === 'other' && other ? { source, source_other: other } : { source };
}

export interface SourceQuestionProps {
  value: SourceAnswer;
  onChange: (value: SourceAnswer) => void;
  /** Error codes (or texts) of the two fields. */
  errors?: { source?: string; other?: string };
  selectRef?: Ref<HTMLSelectElement>;
}

/** "How did you hear about us?": a list of answers; "Other" asks for the reader's own words. */
export function SourceQuestion({ value, onChange, errors = {}, selectRef }: SourceQuestionProps) {
  const { t } = useTranslation('vps');
  const error = fieldErrorText(t, errors.source);
  return (
    <div className={styles.sourceQuestion}>
      <SelectField
        ref={selectRef}
        label={t('source.label')}
        className={styles.sourceSelect}
        value={value.source}
        required
        error={error}
        hint={error ? undefined : t('source.hint')}
        onChange={(event) =>
          onChange({ ...value, source: event.target.value as SourceOption | '' })
        }
      >
        <option value="" disabled>
          {t('source.placeholder')}
        </option>
        {SOURCE_OPTIONS.map((option) => (
          <option key={option} value={option}>
            {t(`source.options.${option}`)}
          </option>
        ))}
      </SelectField>
      {value.source === 'other' ? (
        <TextField
          label={t('source.otherLabel')}
          hint={t('source.otherHint', { max: SOURCE_OTHER_MAX })}
          value={value.other}
          autoComplete="off"
          error={fieldErrorText(t, errors.other)}
          onChange={(event) => onChange({ ...value, other: event.target.value })}
        />
      ) : null}
    </div>
  );
}
