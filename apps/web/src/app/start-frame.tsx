import { FullScreenSpinner } from '../shared/ui/spinner/spinner';

/**
 * What index.html painted before the console's script ran, when public/head.js showed the home
 * page's frame there (the header's bar, the home page's heading and lead; a signed-in reader at
 * the home's addresses). main.tsx keeps it before the first render replaces it, and the start's
 * fallbacks (the session's restore, the signed-in routes' first load) show it instead of the
 * spinner: what the reader already sees stays until the page itself replaces it.
 */
let kept: string | null = null;

export function keepStartFrame(doc: Document = document): void {
  kept =
    doc.documentElement.dataset.boot === 'home'
      ? (doc.getElementById('root')?.innerHTML ?? null)
      : null;
}

/** The signed-in frame has rendered: from now on the fallbacks are the spinner again. */
export function endStartFrame(doc: Document = document): void {
  kept = null;
  delete doc.documentElement.dataset.boot;
}

/** The start's fallback: the kept frame, else the full-screen spinner. */
export function StartFallback() {
  return kept === null ? (
    <FullScreenSpinner />
  ) : (
    <div data-testid="start-frame" dangerouslySetInnerHTML={{ __html: kept }} />
  );
}
