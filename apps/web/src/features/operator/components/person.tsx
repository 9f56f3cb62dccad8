import type { UserRef } from '@tradehost/contracts';
import { Link } from 'react-router';
import styles from './operator.module.css';

/** A user as the operator screens show one: the e-mail (to their page) over the name. */
export function Person({ user }: { user: UserRef }) {
  return (
    <span className={styles.person}>
      <Link to={`/operator/users/${user.id}`}>{user.email}</Link>
      {user.name ? <span className={styles.muted}>{user.name}</span> : null}
    </span>
  );
}
