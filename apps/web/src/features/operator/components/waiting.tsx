import { isOverdue, useFormatters } from '../lib/format';
import styles from './operator.module.css';

/** How long something has waited ("3 hr. ago"), marked once past a day; the date on hover. */
export function Waiting({ since }: { since: string }) {
  const format = useFormatters();
  return (
    <span className={isOverdue(since) ? styles.overdue : undefined} title={format.dateTime(since)}>
      {format.age(since)}
    </span>
  );
}
