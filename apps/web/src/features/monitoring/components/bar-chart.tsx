import styles from './analysis.module.css';

export interface Bar {
  key: string;
  /** What the bar is ("EURUSD", "09:00–10:00"): read out with its value, and beside a row's bar. */
  label: string;
  /** The label under a column, when shorter ("09", "Mon"); '' for none (every third hour). */
  axisLabel?: string;
  value: number;
  /** The value as the table writes it ("$120.00", "3 trades"). */
  valueText: string;
}

/**
 * A small bar chart of one figure per group, drawn in SVG in the theme's colours: `columns` side
 * by side (the hours, the weekdays), or `rows` one under another with their names and values
 * beside them (the symbols, the strategies). Positive values go up (right), negative ones down
 * (left) from the zero line; `signed` colours them as gains and losses, else they are all in the
 * primary colour (counts). Each bar is an image named by its label and value, and the table
 * beside the chart holds the same figures. Each bar is an SVG of its own that stretches to its
 * box, so the chart fits any width without scaling its text (which is HTML).
 */
export function BarChart({
  label,
  bars,
  layout,
  signed,
}: {
  /** The chart's accessible name ("Profit by symbol"). */
  label: string;
  bars: readonly Bar[];
  layout: 'columns' | 'rows';
  signed: boolean;
}) {
  const top = Math.max(0, ...bars.map((bar) => bar.value));
  const bottom = Math.min(0, ...bars.map((bar) => bar.value));
  const span = top - bottom || 1;
  const tone = (value: number) =>
    !signed ? styles.count : value > 0 ? styles.gain : value < 0 ? styles.loss : styles.count;
  /** A bar's length out of 100, at least a sliver when it is not zero. */
  const length = (value: number) =>
    value === 0 ? 0 : Math.max((Math.abs(value) / span) * 100, 0.8);

  if (layout === 'columns') {
    // the zero line's height from the top, out of 100
    const zero = (top / span) * 100;
    return (
      <div className={styles.columns} role="group" aria-label={label}>
        <div className={styles.plot}>
          {bars.map((bar) => {
            const size = length(bar.value);
            return (
              <svg
                key={bar.key}
                className={styles.column}
                viewBox="0 0 10 100"
                preserveAspectRatio="none"
                role="img"
                aria-label={`${bar.label}: ${bar.valueText}`}
              >
                <title>{`${bar.label}: ${bar.valueText}`}</title>
                {size > 0 ? (
                  <rect
                    className={tone(bar.value)}
                    x={1.5}
                    width={7}
                    y={bar.value > 0 ? zero - size : zero}
                    height={size}
                  />
                ) : null}
                <line
                  className={styles.zero}
                  x1={0}
                  x2={10}
                  y1={zero}
                  y2={zero}
                  vectorEffect="non-scaling-stroke"
                />
              </svg>
            );
          })}
        </div>
        <div className={styles.axis} aria-hidden="true">
          {bars.map((bar) => (
            <span key={bar.key}>{bar.axisLabel ?? bar.label}</span>
          ))}
        </div>
      </div>
    );
  }

  // the zero line's distance from the left, out of 100
  const zero = (-bottom / span) * 100;
  return (
    <div className={styles.rows} role="group" aria-label={label}>
      {bars.map((bar) => {
        const size = length(bar.value);
        return (
          <div key={bar.key} className={styles.barRow}>
            <span className={styles.barLabel} aria-hidden="true" title={bar.label}>
              {bar.label}
            </span>
            <svg
              className={styles.bar}
              viewBox="0 0 100 10"
              preserveAspectRatio="none"
              role="img"
              aria-label={`${bar.label}: ${bar.valueText}`}
            >
              <title>{`${bar.label}: ${bar.valueText}`}</title>
              {size > 0 ? (
                <rect
                  className={tone(bar.value)}
                  x={bar.value > 0 ? zero : zero - size}
                  width={size}
                  y={2}
                  height={6}
                />
              ) : null}
              <line
                className={styles.zero}
                x1={zero}
                x2={zero}
                y1={0}
                y2={10}
                vectorEffect="non-scaling-stroke"
              />
            </svg>
            <span className={styles.barValue} aria-hidden="true">
              {bar.valueText}
            </span>
          </div>
        );
      })}
    </div>
  );
}
