import { MANUAL_MAGIC } from '@tradehost/contracts';
import type { MonitoringFormat } from './use-monitoring-format';

/**
 * What a strategy is called: the name its owner gave it, else "Magic 12345"; the trades placed by
 * hand (magic number 0) are "Manual".
 */
export function strategyName(f: MonitoringFormat, magic: string, name: string | null): string {
  if (magic === MANUAL_MAGIC) return f.t('analysis.manual');
  return name ?? f.t('analysis.magic', { magic });
}
