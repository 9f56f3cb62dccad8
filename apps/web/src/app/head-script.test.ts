import { persistStore } from 'redux-persist';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenReceived, loggedOut } from '../features/auth/model/auth-slice';
import { makeStore } from './store';
// public/head.js as index.html runs it: in <head>, before the first paint
import HEAD_SCRIPT from '../../public/head.js?raw';

const LIST = ['/assets/signed-in-layout-a1.js', '/assets/common-b2.js', '/assets/app-c3.css'];
const HOME = { paths: ['/', '/vps'], files: ['/assets/vps-page-d4.js'], en: ['/assets/vps-e5.js'] };

/** Runs the script at `path`, with the lists index.html carries (build/signed-in-preload.ts). */
function runHeadScript(list: readonly string[] | null = LIST, path = '/support'): void {
  window.history.replaceState(null, '', path);
  document.head.innerHTML = list
    ? `<script type="application/json" id="signed-in-preload">${JSON.stringify({ layout: list, home: HOME })}</script>`
    : '';
  new Function(HEAD_SCRIPT)();
}

/** The session as the console itself stores it (redux-persist, src/app/store.ts). */
async function storeSession(signedIn: boolean): Promise<void> {
  const store = makeStore();
  await new Promise<void>((resolve) => persistStore(store, null, resolve));
  store.dispatch(tokenReceived({ token: 'jwt', expires: '2030-01-01T00:00:00.000Z' }));
  if (!signedIn) store.dispatch(loggedOut());
  const authorized = `\\"authorized\\":${signedIn}`;
  await expect.poll(() => localStorage.getItem('persist:tradehost:auth')).toContain(authorized);
}

/** After the tasks head.js queued (one per preloaded file) have run. */
const queuedTasks = () => new Promise((resolve) => setTimeout(resolve, 0));

const links = () =>
  [...document.head.querySelectorAll('link')].map((link) => ({
    rel: link.rel,
    as: link.getAttribute('as'),
    crossOrigin: link.getAttribute('crossorigin'),
    priority: link.getAttribute('fetchpriority'),
    href: link.getAttribute('href'),
  }));

/**
 * A browser that reports paints (PerformanceObserver's 'paint' entries; jsdom reports none): the
 * observers head.js starts, and `paint()` to deliver the first paint to them.
 */
function reportPaints() {
  const observers: { callback: () => void; type?: string; connected: boolean }[] = [];
  class PaintObserver {
    static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
    private entry: (typeof observers)[number];
    constructor(callback: (entries: unknown, observer: PaintObserver) => void) {
      this.entry = { callback: () => callback({}, this), connected: false };
      observers.push(this.entry);
    }
    observe(options: { type: string }) {
      this.entry.type = options.type;
      this.entry.connected = true;
    }
    disconnect() {
      this.entry.connected = false;
    }
  }
  vi.stubGlobal('PerformanceObserver', PaintObserver);
  return {
    observers,
    paint: () =>
      observers.filter((o) => o.connected && o.type === 'paint').forEach((o) => o.callback()),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.head.innerHTML = '';
  delete document.documentElement.dataset.boot;
  delete document.documentElement.dataset.session;
});

describe('public/head.js', () => {
  it('applies the stored theme and language', () => {
    localStorage.setItem('tradehost:theme', 'dark');
    localStorage.setItem('tradehost:language', 'ru');
    runHeadScript();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.lang).toBe('ru');
  });

  it("preloads the signed-in layout's files for a stored signed-in session", async () => {
    await storeSession(true);
    runHeadScript();
    await queuedTasks();
    // scripts as module preloads, style sheets as style preloads, both in CORS mode as the
    // page's loader (Vite's) asks for them, so the browser hands it the preloaded ones; after
    // the entry's own files
    const preload = { crossOrigin: '', priority: 'low' };
    expect(links()).toEqual([
      { rel: 'modulepreload', as: null, ...preload, href: LIST[0] },
      { rel: 'modulepreload', as: null, ...preload, href: LIST[1] },
      { rel: 'preload', as: 'style', ...preload, href: LIST[2] },
    ]);
  });

  it('preloads once the first frame has painted, and not what the page has asked for already', async () => {
    await storeSession(true);
    const { observers, paint } = reportPaints();
    runHeadScript(LIST, '/vps');
    // nothing beside what the first paint waits for (index.css, the entry)
    expect(links()).toEqual([]);
    // the page's loader was quicker with one of the sheets
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = LIST[2]!;
    document.head.append(sheet);
    // the tasks head.js queues, run here one at a time
    const tasks: (() => void)[] = [];
    vi.stubGlobal('setTimeout', (task: () => void) => tasks.push(task));
    const runTasks = () => tasks.splice(0).forEach((task) => task());
    const added = () => links().map((link) => `${link.rel} ${link.href}`);
    paint();
    // one file a task, none in the paint's own: each insertion is a short task of its own
    expect(added()).toEqual([`stylesheet ${LIST[2]}`]);
    expect(tasks).toHaveLength(5);
    tasks.shift()!();
    expect(added()).toEqual([`stylesheet ${LIST[2]}`, `modulepreload ${LIST[0]}`]);
    runTasks();
    expect(added()).toEqual([
      `stylesheet ${LIST[2]}`,
      `modulepreload ${LIST[0]}`,
      `modulepreload ${LIST[1]}`,
      ...[...HOME.files, ...HOME.en].map((href) => `modulepreload ${href}`),
    ]);
    // once: the observer has let go
    expect(observers.every((observer) => !observer.connected)).toBe(true);
    paint();
    runTasks();
    expect(links()).toHaveLength(5);
  });

  it("adds the home page's files at its addresses, and its texts for an English reader", async () => {
    await storeSession(true);
    const hrefs = async (path: string) => {
      runHeadScript(LIST, path);
      await queuedTasks();
      return links().map((link) => link.href);
    };
    expect(await hrefs('/vps')).toEqual([...LIST, ...HOME.files, ...HOME.en]);
    expect(await hrefs('/')).toEqual([...LIST, ...HOME.files, ...HOME.en]);
    localStorage.setItem('tradehost:language', 'ru');
    expect(await hrefs('/vps')).toEqual([...LIST, ...HOME.files]);
    expect(await hrefs('/vps/12')).toEqual(LIST);
  });

  it("shows the home page's frame at the home's addresses for a stored signed-in session", async () => {
    const frame = () => document.documentElement.dataset.boot;
    await storeSession(true);
    runHeadScript(LIST, '/vps');
    expect(frame()).toBe('home');
    delete document.documentElement.dataset.boot;
    runHeadScript(LIST, '/');
    expect(frame()).toBe('home');
    delete document.documentElement.dataset.boot;
    // another page's address: its own page paints there, not the home's heading
    runHeadScript(LIST, '/support');
    expect(frame()).toBeUndefined();
    runHeadScript(LIST, '/vps/12');
    expect(frame()).toBeUndefined();
    // signed out, /vps becomes the sign-in page
    await storeSession(false);
    runHeadScript(LIST, '/vps');
    expect(frame()).toBeUndefined();
  });

  it('marks a stored signed-in session on every page, for the bar to draw the menu button', async () => {
    const session = () => document.documentElement.dataset.session;
    runHeadScript(LIST, '/support');
    expect(session()).toBeUndefined();
    await storeSession(true);
    runHeadScript(LIST, '/support');
    expect(session()).toBe('signed-in');
    delete document.documentElement.dataset.session;
    runHeadScript(LIST, '/vps');
    expect(session()).toBe('signed-in');
    delete document.documentElement.dataset.session;
    await storeSession(false);
    runHeadScript(LIST, '/login');
    expect(session()).toBeUndefined();
  });

  it('preloads nothing when signed out, with no stored session or no list', async () => {
    runHeadScript();
    await queuedTasks();
    expect(links()).toEqual([]);
    await storeSession(false);
    runHeadScript();
    await queuedTasks();
    expect(links()).toEqual([]);
    await storeSession(true);
    runHeadScript(null);
    await queuedTasks();
    expect(links()).toEqual([]);
  });

  it("starts the date data's worker for a stored signed-in session, in the reader's language", async () => {
    const workers: { url: string; name: string | undefined }[] = [];
    vi.stubGlobal(
      'Worker',
      class {
        constructor(url: string, options?: { name?: string }) {
          workers.push({ url, name: options?.name });
        }
      },
    );
    runHeadScript(LIST, '/vps');
    await storeSession(false);
    runHeadScript(LIST, '/vps');
    expect(workers).toEqual([]);
    await storeSession(true);
    runHeadScript(LIST, '/vps');
    localStorage.setItem('tradehost:language', 'ru');
    runHeadScript(LIST, '/support');
    expect(workers).toEqual([
      { url: '/intl-warm.js', name: 'en' },
      { url: '/intl-warm.js', name: 'ru' },
    ]);
    await queuedTasks();
    // a browser without workers, or refusing this one, still gets its preloads
    vi.stubGlobal('Worker', undefined);
    runHeadScript(LIST, '/support');
    await queuedTasks();
    expect(links().map((link) => link.href)).toEqual(LIST);
    vi.stubGlobal(
      'Worker',
      class {
        constructor() {
          throw new DOMException('refused', 'SecurityError');
        }
      },
    );
    runHeadScript(LIST, '/support');
    await queuedTasks();
    expect(links().map((link) => link.href)).toEqual(LIST);
  });

  it('survives a stored session it cannot read', () => {
    localStorage.setItem('persist:tradehost:auth', '{"auth":"not json');
    expect(() => runHeadScript()).not.toThrow();
    expect(links()).toEqual([]);
  });
});
