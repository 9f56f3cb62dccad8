import { toneOf } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

/** The colour of a signed figure: green when up, red when down, else muted. */
export const toneClass = (value: number | null | undefined) =>
  styles[toneOf(value) ?? 'muted'] ?? '';

/** The class of a figure's number cell: right-aligned, coloured by its sign (toneClass). */
export const numberCell = (value: number | null | undefined) => `${styles.num} ${toneClass(value)}`;
