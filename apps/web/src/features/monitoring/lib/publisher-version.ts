/** The publishers' current version (apps/web/public/publisher/*.mq5|.mq4, EA_VERSION). */
export const PUBLISHER_VERSION = [1, 2] as const;

/**
 * Whether a terminal's publisher (its hello's `ea_version`, "1.1.0") is older than the current
 * one: those before 1.2 stop for good on a refusal the trader can fix. Anything else (none yet,
 * the simulator's "simulator-1.0") is not a version of ours to judge.
 */
export function isOutdatedPublisher(version: string | null): boolean {
  const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(version ?? '');
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return (
    major < PUBLISHER_VERSION[0] || (major === PUBLISHER_VERSION[0] && minor < PUBLISHER_VERSION[1])
  );
}
