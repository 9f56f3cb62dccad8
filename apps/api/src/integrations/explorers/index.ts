import { createEsploraExplorer } from './esplora.ts';
import type { ChainExplorer } from './port.ts';
import type { ExplorerSettings } from './settings.ts';
import { createTronGridExplorer } from './trongrid.ts';

export type { ChainExplorer, ChainLookup, ChainTransfer } from './port.ts';
export { ExplorerUnavailable } from './port.ts';
export { judge, formatUnits, parseUnits, type Expected, type Seen, type Verdict } from './judge.ts';

/** The explorers of CRYPTO_EXPLORER, by network (none when it is off). */
export function createExplorers(settings: ExplorerSettings): Map<string, ChainExplorer> {
  const explorers = new Map<string, ChainExplorer>();
  for (const { network, url } of settings.drivers) {
    const timeoutMs = settings.timeoutMs;
    explorers.set(
      network,
      network === 'USDT-TRC20'
        ? createTronGridExplorer({ baseUrl: url, apiKey: settings.tronGridApiKey, timeoutMs })
        : createEsploraExplorer({ baseUrl: url, timeoutMs }),
    );
  }
  return explorers;
}
