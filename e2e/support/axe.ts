import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** One rule's result in axe's answer (axe-core's own type, through the builder). */
type Result = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/**
 * The serious and critical axe violations on the page, each as "rule: selectors".
 * A dialog fades in and a button eases its colours, so the page is judged once its short
 * animations (a second at most) have settled, not mid-fade; a toast's countdown and a spinner
 * are not waited for.
 *
 * axe runs in the page itself (legacy mode) and keeps every node of its violations only: the same
 * violations as its default, in a third of the time (measured on /vps: 2.7 s to 0.9 s a check,
 * hundreds of checks in the journeys). The default opens a blank page for every check to gather
 * results across frames of other origins; the console has no frame, and a page that gets one the
 * legacy run cannot enter fails here rather than going unchecked.
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
  const { violations, incomplete } = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  const untested = incomplete.find((result) => result.id === 'frame-tested');
  if (untested)
    throw new Error(
      `axe could not enter a frame (${targets(untested)}): drop setLegacyMode to check it`,
    );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${targets(violation)}`);
}

/** The elements a result names, by their selectors. */
const targets = (result: Result) => result.nodes.map((node) => node.target.join(' ')).join(', ');
