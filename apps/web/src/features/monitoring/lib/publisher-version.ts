/** The publishers' current version (apps/web/public/publisher/*.mq5|.mq4, EA_VERSION). */
export const PUBLISHER_VERSION = [1, 4, 0] as const;
/** Before this, a publisher stops for good on a refusal the trader can fix (1.2 retries). */
const RETRIES_FROM = [1, 2] as const;
/** From this on, a publisher tells each position's excursions (MAE and MFE). */
export const EXCURSIONS_FROM = [1, 4] as const;

/** A version of ours ("1.4.0", "1.4") as [major, minor], or null (none yet, the simulator's). */
function versionOf(version: string | null): readonly [number, number] | null {
  const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(version ?? '');
  return match ? [Number(match[1]), Number(match[2])] : null;
}

const before = (v: readonly [number, number], than: readonly [number, number]) =>
  v[0] < than[0] || (v[0] === than[0] && v[1] < than[1]);

/**
 * Whether a terminal's publisher (its hello's `ea_version`, "1.1.0") is older than the current
 * one: those before 1.2 stop for good on a refusal the trader can fix. Anything else (none yet,
 * the simulator's "simulator-1.0") is not a version of ours to judge.
 */
export function isOutdatedPublisher(version: string | null): boolean {
  const v = versionOf(version);
  return v !== null && before(v, RETRIES_FROM);
}

/**
 * Whether a publisher's version tells the excursions of its positions and trades (MAE/MFE):
 * 1.4 on. A trade without them closed before the trader updated it; what is not a version of
 * ours (none yet, the simulator's) is not judged: null.
 */
export function tellsExcursions(version: string | null): boolean | null {
  const v = versionOf(version);
  return v === null ? null : !before(v, EXCURSIONS_FROM);
}
