// A worker head.js starts for a signed-in reader, while the console's scripts download. The first
// Intl.DateTimeFormat a browser builds loads ICU's calendar, time-zone and date-pattern data:
// 30-80 ms of one task in Chromium here, which on /vps fell inside the servers list's first render
// (the dates of its rows). That data is the browser process's, not the page's, so building the
// same formatters here, on another thread, leaves the page's first ones at about a millisecond.
// The reader's language comes as the worker's name. Nothing is sent back; the worker ends itself.
/* global self */
try {
  var language = self.name === 'ru' ? 'ru' : 'en';
  var now = Date.now();
  // the shapes of src/shared/lib/format-money.ts and features/vps/lib/use-vps-format.ts
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(now);
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(now);
  new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' }).format(0);
  new Intl.PluralRules(language).select(1);
} finally {
  self.close();
}
