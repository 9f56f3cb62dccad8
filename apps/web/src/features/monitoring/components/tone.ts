import { toneOf } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

/** The class of a figure's number cell: right-aligned, green when up, red when down, else muted. */
export const numberCell = (value: number | null | undefined) =>
  `${styles.num} ${styles[toneOf(value) ?? 'muted'] ?? ''}`;
