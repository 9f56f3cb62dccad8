import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The serious and critical axe violations on the page, each as "rule: selectors".
 * A dialog fades in and a button eases its colours, so the page is judged once its short
 * animations (a second at most) have settled, not mid-fade; a toast's countdown and a spinner
 * are not waited for.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => {
          // an entrance or a colour change, not a toast's countdown nor a spinner
          const timing = animation.effect?.getComputedTiming();
          return timing !== undefined && Number(timing.endTime) <= 1_000;
        })
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}
