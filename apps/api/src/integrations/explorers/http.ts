import { ExplorerUnavailable } from './port.ts';

export interface HttpSettings {
  /** Each call's time limit. */
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Replaces the global fetch (never needed by the tests: they run real servers). */
  fetch?: typeof fetch;
}

/**
 * GET `url`: its body as text, or null when the explorer answers that there is no such thing
 * (404, or 400 for a malformed id, as Esplora does). Everything else that is not a 2xx, and any
 * failure to get an answer in time, is ExplorerUnavailable.
 */
export async function getText(url: string, settings: HttpSettings): Promise<string | null> {
  const doFetch = settings.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, {
      headers: { accept: 'application/json, text/plain', ...settings.headers },
      signal: AbortSignal.timeout(settings.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    throw new ExplorerUnavailable(`${hostOf(url)}: ${reasonOf(error)}`, { cause: error });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new ExplorerUnavailable(`${hostOf(url)}: ${reasonOf(error)}`, { cause: error });
  }
  if (response.status === 404 || response.status === 400) return null;
  if (!response.ok) throw new ExplorerUnavailable(`${hostOf(url)}: HTTP ${response.status}`);
  return text;
}

/** getText's body read as JSON (null when not found); a body that is not JSON is unavailable. */
export async function getJson(url: string, settings: HttpSettings): Promise<unknown> {
  const text = await getText(url, settings);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ExplorerUnavailable(`${hostOf(url)}: the answer is not JSON`, { cause: error });
  }
}

/** The host and path, without a query (which may carry a key). */
function hostOf(url: string): string {
  const { host, pathname } = new URL(url);
  return `${host}${pathname}`;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code ?? (error instanceof Error ? error.message : String(error));
}

/** The base URL without its trailing slashes, so paths can be appended. */
export const trimBase = (url: string) => url.replace(/\/+$/, '');
