import type { ReactNode } from 'react';
import tableStyles from './table.module.css';
import styles from './row-cards.module.css';

export interface RowCardFact {
  label: ReactNode;
  value: ReactNode;
}

export interface RowCard {
  key: string | number;
  /** What the row is ("EURUSD", "Level 1"), bold at the card's top left. */
  title: ReactNode;
  /** A few words beside the title ("Buy 0.20"). */
  subtitle?: ReactNode;
  /**
   * The figure the row is read for (a trade's result, a level's reward): at the top right,
   * larger, under its own label; none when it is hidden.
   */
  lead?: RowCardFact & { className?: string };
  /** The rest of the row, one label and value a line. */
  facts: RowCardFact[];
  /** What can be done with the row (its buttons), at the card's foot. */
  actions?: ReactNode;
}

/**
 * A table's rows on a phone (SPEC: mobile, under 768 px): a list of cards, each with its name and
 * the figure it is read for at the top, the other columns under them as label and value, so that
 * nothing scrolls sideways and the money is never a column out of sight.
 */
export function RowCards({ cards, labelledBy }: { cards: RowCard[]; labelledBy: string }) {
  return (
    <ul className={tableStyles.cards} aria-labelledby={labelledBy}>
      {cards.map((card) => (
        <li key={card.key} className={`${tableStyles.card} ${styles.card}`}>
          <div className={styles.top}>
            <p className={styles.name}>
              <span className={styles.title}>{card.title}</span>
              {card.subtitle ? <span className={styles.subtitle}>{card.subtitle}</span> : null}
            </p>
            {card.lead ? (
              <dl className={styles.lead}>
                <dt>{card.lead.label}</dt>
                <dd className={card.lead.className}>{card.lead.value}</dd>
              </dl>
            ) : null}
          </div>
          {card.facts.length > 0 ? (
            <dl className={styles.facts}>
              {card.facts.map((fact, index) => (
                <div key={index}>
                  <dt>{fact.label}</dt>
                  <dd>{fact.value}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          {card.actions ? <div className={styles.actions}>{card.actions}</div> : null}
        </li>
      ))}
    </ul>
  );
}
