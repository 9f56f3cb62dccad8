import { useFormatters } from '../lib/format';
import styles from './operator.module.css';

/** A signed amount: "+$25.00" in the success colour, "−$25.00" in the danger one (the sign says it too). */
export function SignedAmount({ amount }: { amount: number }) {
  const format = useFormatters();
  const tone = amount > 0 ? styles.credit : amount < 0 ? styles.debit : undefined;
  return <span className={tone}>{format.signedMoney(amount)}</span>;
}
