import { useLayoutEffect } from 'react';
import { FullScreenSpinner } from '../shared/ui/spinner/spinner';

/**
 * What index.html painted before the console's script ran, when public/head.js showed the home
 * page's frame there (the header's bar, the home page's heading and lead; a signed-in reader at
 * the home's addresses), stays on screen until the page replaces it.
 *
 * The frame stays as the browser painted it: the console renders into an element of its own
 * after #root, and the start's fallbacks (the session's restore, the signed-in routes' first
 * load) show nothing over it. Its nodes are the ones the browser counts as the page's largest
 * paint: a node replaced before its first paint has been presented is not counted, and a copy
 * would be counted only when it paints, after the console's scripts have run. The frame goes in
 * the commit in which the last fallback gives way to a page (the signed-in layout, or /login when
 * the session could not be restored); later loads show the spinner.
 */
let frame: { root: HTMLElement; container: HTMLElement } | null = null;
/** The start's fallbacks on screen while the frame is kept. */
let fallbacks = 0;

/** Where the console renders: #root, or beside it while #root keeps the home's frame. */
export function startContainer(doc: Document = document): HTMLElement {
  const root = doc.getElementById('root')!;
  if (doc.documentElement.dataset.boot !== 'home') return root;
  const container = doc.createElement('div');
  root.after(container);
  frame = { root, container };
  return container;
}

/** The frame has given way to a page: from now on the fallbacks are the spinner. */
export function endStartFrame(doc: Document = document): void {
  if (frame) {
    frame.root.remove();
    // the console's element is #root from now on (global.css)
    frame.container.id = 'root';
  }
  frame = null;
  delete doc.documentElement.dataset.boot;
}

/** The start's fallback: nothing over the kept frame, else the full-screen spinner. */
export function StartFallback() {
  const keepsFrame = frame !== null;
  useLayoutEffect(() => {
    if (!keepsFrame) return;
    fallbacks += 1;
    return () => {
      fallbacks -= 1;
      // one fallback can give way to the next in the same commit (the restore's to the routes'
      // first load): the frame ends once the commit is done and none is left
      queueMicrotask(() => {
        if (fallbacks === 0 && frame) endStartFrame();
      });
    };
  }, [keepsFrame]);
  return keepsFrame ? null : <FullScreenSpinner />;
}
