/**
 * The browser and the operating system a User-Agent names, in plain words ("Firefox", "Windows"),
 * for the list of sessions. Only the common ones people recognise; anything else is null (the
 * console says "unknown"). Order matters: browsers built on Chromium also say "Chrome" and
 * "Safari", Android also says "Linux", iPadOS may say "Macintosh".
 */
export interface DeviceDescription {
  browser: string | null;
  os: string | null;
}

const BROWSERS: [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\//],
  ['Opera', /\bOPR\/|\bOpera\b|\bOPiOS\//],
  ['Yandex Browser', /\bYaBrowser\//],
  ['Samsung Internet', /\bSamsungBrowser\//],
  ['Vivaldi', /\bVivaldi\//],
  ['Firefox', /\bFirefox\/|\bFxiOS\//],
  ['Chrome', /\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\//],
  ['Safari', /\bVersion\/[\d.]+.*\bSafari\//],
];

const SYSTEMS: [name: string, pattern: RegExp][] = [
  ['Windows', /\bWindows\b/],
  ['Android', /\bAndroid\b/],
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b|\bX11\b/],
];

const firstMatch = (list: [string, RegExp][], text: string) =>
  list.find(([, pattern]) => pattern.test(text))?.[0] ?? null;

export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  if (!userAgent) return { browser: null, os: null };
  return { browser: firstMatch(BROWSERS, userAgent), os: firstMatch(SYSTEMS, userAgent) };
}
