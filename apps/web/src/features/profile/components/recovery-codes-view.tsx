import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/lib/format-date';
import { saveFile } from '../../../shared/lib/save-file';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { Button, Checkbox } from '../../../shared/ui/form';
import factor from './second-factor.module.css';
import styles from './profile.module.css';

export const RECOVERY_CODES_FILE = 'tradehost-recovery-codes.txt';

export interface RecoveryCodesViewProps {
  /** The new set, as the API gave it: shown this once. */
  codes: string[];
  /** The account they belong to, named in the downloaded file. */
  email: string;
  /** What led here ("The authenticator app is on."), above the codes. */
  intro?: ReactNode;
  /** The user said the codes are saved: the view closes for good. */
  onDone(): void;
}

/**
 * A new set of recovery codes, shown once: copy them, download them as a text file, and say
 * they are saved before the view closes (nothing shows them again).
 */
export function RecoveryCodesView({ codes, email, intro, onDone }: RecoveryCodesViewProps) {
  const { t, i18n } = useTranslation('profile');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [createdAt] = useState(() => new Date().toISOString());
  const checkboxId = useId();

  useEffect(() => headingRef.current?.focus(), []);

  const download = () => {
    const header = t('factors.codes.fileHeader', {
      email,
      date: formatDateTime(createdAt, i18n.language),
    });
    saveFile(
      new Blob([`${header}\n\n${codes.join('\n')}\n`], { type: 'text/plain;charset=utf-8' }),
      RECOVERY_CODES_FILE,
    );
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!saved) {
      setError(t('factors.codes.savedRequired'));
      document.getElementById(checkboxId)?.focus();
      return;
    }
    onDone();
  };

  return (
    <form className={styles.form} noValidate onSubmit={onSubmit}>
      <h3 ref={headingRef} tabIndex={-1} className={factor.viewTitle}>
        {t('factors.codes.shownTitle')}
      </h3>
      {intro}
      <p className={styles.muted}>{t('factors.codes.shownLead')}</p>
      <ol className={factor.codes} aria-label={t('factors.codes.listLabel')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className={styles.actions}>
        <CopyButton
          text={codes.join('\n')}
          label={t('factors.codes.copy')}
          messages={{ copied: t('factors.codes.copied'), failed: t('factors.codes.copyFailed') }}
        />
        <Button variant="secondary" onClick={download}>
          {t('factors.codes.download')}
        </Button>
      </div>
      <Checkbox
        id={checkboxId}
        label={t('factors.codes.saved')}
        checked={saved}
        error={error}
        onChange={(event) => {
          setSaved(event.target.checked);
          if (event.target.checked) setError(undefined);
        }}
      />
      <div className={styles.actions}>
        <Button type="submit">{t('factors.codes.done')}</Button>
      </div>
    </form>
  );
}
