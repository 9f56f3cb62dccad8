import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './controls.module.css';

export type Tone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';

/** A short state in a pill; the word says it, the colour only helps. */
export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`${styles.tone} ${styles[tone]}`}>{children}</span>;
}

/** On sale / withdrawn (a rate), usable / switched off (a promocode, a department). */
export function ActiveBadge({ active }: { active: boolean }) {
  const { t } = useTranslation('operator');
  return (
    <Badge tone={active ? 'success' : 'neutral'}>
      {active ? t('vps.active') : t('vps.inactive')}
    </Badge>
  );
}
