// Runs in <head> before the first paint (a file: the CSP allows scripts from 'self' only).
// Applies the stored theme ('light' | 'dark', else the system's) and language ('en' | 'ru', else
// 'en'). Keep the keys in step with src/shared/lib/preferences.ts.
// For a reader whose stored session is signed in, starts public/intl-warm.js (the browser's date
// formatting data, off the main thread) and loads the signed-in layout's scripts
// and styles (and the home page's, at its address), which the build lists in index.html
// (build/signed-in-preload.ts): they download from the first paint on, beside the entry, rather
// than after it has run. At the home's addresses it also shows the home page's heading and lead,
// which index.html carries (data-boot="home", global.css): the reader sees them before the
// console's script has run.
/* global document, window, location */
(function () {
  var root = document.documentElement;
  var theme = null;
  var language = null;
  try {
    theme = localStorage.getItem('tradehost:theme');
    language = localStorage.getItem('tradehost:language');
  } catch {
    // storage blocked: defaults below
  }
  if (theme !== 'light' && theme !== 'dark') {
    theme =
      window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light';
  }
  if (language !== 'en' && language !== 'ru') language = 'en';
  root.setAttribute('data-theme', theme);
  root.style.colorScheme = theme;
  root.setAttribute('lang', language);
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', theme === 'dark' ? '#151c23' : '#ffffff');
})();

(function () {
  var list = document.getElementById('signed-in-preload');
  if (!list) return;
  try {
    // redux-persist's record of the auth slice (src/app/store.ts): each slice a JSON string
    var saved = JSON.parse(localStorage.getItem('persist:tradehost:auth') || 'null');
    if (!saved || JSON.parse(saved.auth).authorized !== true) return;
    // index.html's bar draws the signed-in header's menu button where that header has one
    document.documentElement.setAttribute('data-session', 'signed-in');
    // {layout: [files], home: {paths, files, en}}: the home page's files at its addresses, with
    // its English texts for an English reader (the language applied above)
    var lists = JSON.parse(list.textContent);
    var files = lists.layout;
    if (lists.home.paths.indexOf(location.pathname) !== -1) {
      // the home page's heading and lead in index.html show until the page replaces them
      document.documentElement.setAttribute('data-boot', 'home');
      files = files.concat(
        lists.home.files,
        document.documentElement.lang === 'en' ? lists.home.en : [],
      );
    }
    var preload = function (href) {
      var link = document.createElement('link');
      if (/\.css$/.test(href)) {
        // as a preload, not a style sheet: the page's loader adds the sheet and waits for it
        link.rel = 'preload';
        link.setAttribute('as', 'style');
      } else {
        link.rel = 'modulepreload';
      }
      // as the page's loader asks for them (build/signed-in-preload.ts), so the browser reuses them
      link.crossOrigin = '';
      // after what the entry asks for itself
      link.setAttribute('fetchpriority', 'low');
      link.href = href;
      document.head.appendChild(link);
    };
    // Once the first frame has painted: nothing here is needed for it, and on a slow link these
    // would share the bandwidth of index.css and the entry, which it waits for. A file the page's
    // loader has already asked for is not asked for again. Where the browser cannot report the
    // paint, they start at once. One file a task: inserting a module preload costs the main
    // thread one to five milliseconds in Chromium, and the sixteen of /vps in one go were a long
    // task at the first paint (48-82 ms under Lighthouse).
    var preloadAll = function () {
      files.forEach(function (href) {
        setTimeout(function () {
          if (!document.querySelector('link[href="' + href + '"]')) preload(href);
        }, 0);
      });
    };
    var Observer = window.PerformanceObserver;
    if (Observer && (Observer.supportedEntryTypes || []).indexOf('paint') !== -1) {
      new Observer(function (entries, self) {
        self.disconnect();
        preloadAll();
      }).observe({ type: 'paint' });
    } else {
      preloadAll();
    }
    // every signed-in page formats dates: the browser's date data loads on another thread
    // (intl-warm.js), not inside the page's first render; last, so that a browser refusing the
    // worker still gets the preloads above
    if (window.Worker) new window.Worker('/intl-warm.js', { name: document.documentElement.lang });
  } catch {
    // storage blocked or unreadable: the pages load as they are needed
  }
})();
