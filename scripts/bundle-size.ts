/**
 * Bytes on the wire of what the browser loads for the first view of /login, and of every route
 * chunk, from the built console: index.html and what it references, the entry's and the login
 * page's chunks (Vite manifest). A file goes as the server sends it (plugins/web-console.ts):
 * its `.br` sibling to a browser accepting brotli, its `.gz` one to gzip, itself otherwise or
 * when the build made no sibling (apps/web/build/precompress.ts). Ratios are compressed / identity.
 * `--check` exits non-zero when the first view's JavaScript is over budget as brotli on the wire,
 * or when the entry chunk holds zod: the entry is evaluated before every page, signed in or not,
 * and its contracts are constants (limits.ts, refresh-attempt.ts); the schemas, and zod with them,
 * belong to the chunks of the forms and pages that check with them. It also fails when a chunk of
 * the start (the entry and apps/web/build/compile-hints.ts's EAGER_CHUNKS) does not open with V8's
 * compile hint, which has its functions compiled off the main thread while it downloads.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { COMPILE_HINT, EAGER_CHUNKS } from '../apps/web/build/compile-hints.ts';
import { repoRoot } from './lib.ts';

/** The first view's JavaScript, as brotli on the wire (what Chromium, Firefox and Safari get). */
export const FIRST_VIEW_JS_BUDGET = 150 * 1024;
const LOGIN_PAGE = 'src/features/auth/pages/login-page.tsx';

interface Chunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const ENCODINGS = ['identity', 'gzip', 'br'] as const;
type Encoding = (typeof ENCODINGS)[number];
type Weight = Record<Encoding, number>;
const SIBLING: Record<Encoding, string> = { identity: '', gzip: '.gz', br: '.br' };

const dist = join(repoRoot, 'apps/web/dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  Chunk
>;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const none = (): Weight => ({ identity: 0, gzip: 0, br: 0 });

/** What the server sends for `file` in each encoding: the sibling when the build made one. */
function onTheWire(file: string): Weight {
  const path = join(dist, file);
  const weight = none();
  for (const encoding of ENCODINGS) {
    const sibling = `${path}${SIBLING[encoding]}`;
    weight[encoding] = statSync(existsSync(sibling) ? sibling : path).size;
  }
  return weight;
}

function sum(files: Iterable<string>): Weight {
  const total = none();
  for (const file of files) {
    const weight = onTheWire(file);
    for (const encoding of ENCODINGS) total[encoding] += weight[encoding];
  }
  return total;
}

/** A chunk's own file and CSS, and those of every chunk it imports statically. */
function closure(key: string, files = new Set<string>(), seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return files;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest`);
  files.add(chunk.file);
  chunk.css?.forEach((file) => files.add(file));
  for (const child of chunk.imports ?? []) closure(child, files, seen);
  return files;
}

/** index.html and the files of this origin it references (scripts, styles, preloads, icon). */
function page(): Set<string> {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = new Set(['index.html']);
  for (const [, file] of html.matchAll(/\b(?:src|href)="\/(?!\/)([^"?#]+)"/g)) files.add(file!);
  return files;
}

const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entry) throw new Error('no entry chunk in the manifest');
/** zod's schemas name their classes in strings that minification keeps (`$ZodType`, `$ZodObject`…). */
const entryHoldsZod = /\$Zod[A-Z]/.test(readFileSync(join(dist, manifest[entry]!.file), 'utf8'));
if (!manifest[LOGIN_PAGE]) throw new Error(`${LOGIN_PAGE} is not a chunk of its own`);
/** The start's chunks, which the build opens with V8's compile hint, and those it did not. */
const hinted = Object.values(manifest).filter(
  (chunk) => chunk.isEntry || EAGER_CHUNKS.includes(chunk.name ?? ''),
);
const unhinted = hinted
  .filter((chunk) => !readFileSync(join(dist, chunk.file), 'utf8').startsWith(`${COMPILE_HINT}\n`))
  .map((chunk) => chunk.file);

const firstView = [...new Set([...page(), ...closure(entry), ...closure(LOGIN_PAGE)])];
const kinds: [string, (file: string) => boolean][] = [
  ['JS', (file) => /\.m?js$/.test(file)],
  ['CSS', (file) => extname(file) === '.css'],
  ['HTML', (file) => extname(file) === '.html'],
  ['other', (file) => !/\.(?:m?js|css|html)$/.test(file)],
];
const ratio = (part: number, whole: number) => (whole ? (part / whole).toFixed(2) : '-');
const row = (label: string, w: Weight, width = 12) =>
  `  ${label.padEnd(width)} ${kb(w.identity).padStart(10)} ${kb(w.gzip).padStart(10)} (${ratio(w.gzip, w.identity)}) ${kb(w.br).padStart(10)} (${ratio(w.br, w.identity)})`;

console.log(`first view of /login, bytes on the wire (${firstView.length} files):`);
const header = (width = 12) =>
  `  ${''.padEnd(width)} ${'identity'.padStart(10)} ${'gzip'.padStart(10)} ${'ratio'.padStart(6)} ${'brotli'.padStart(10)} ${'ratio'.padStart(6)}`;
console.log(header());
let firstViewJs = none();
for (const [kind, test] of kinds) {
  const files = firstView.filter(test);
  if (files.length === 0) continue;
  const weight = sum(files);
  if (kind === 'JS') firstViewJs = weight;
  console.log(row(`${kind} (${files.length})`, weight));
}
console.log(row('total', sum(firstView)));
console.log(
  `budget: ${kb(FIRST_VIEW_JS_BUDGET)} of JS as brotli on the wire, used ${((firstViewJs.br / FIRST_VIEW_JS_BUDGET) * 100).toFixed(0)}%`,
);

console.log(
  `zod in the entry chunk: ${entryHoldsZod ? 'yes (it belongs to the chunks that use it)' : 'no'}`,
);

console.log(
  `compile hint atop the start's ${hinted.length} chunks: ${unhinted.length ? `missing in ${unhinted.join(', ')}` : 'yes'}`,
);

console.log('\nroute chunks (own file + CSS, bytes on the wire):');
const routes = Object.keys(manifest).filter((k) => manifest[k]?.isDynamicEntry);
const width = Math.max(...routes.map((key) => key.length));
console.log(header(width));
for (const key of routes) {
  const chunk = manifest[key]!;
  console.log(row(key, sum([chunk.file, ...(chunk.css ?? [])]), width));
}

if (process.argv.includes('--check')) {
  if (firstViewJs.br > FIRST_VIEW_JS_BUDGET) {
    console.error(
      `\nOVER BUDGET: the first view's JavaScript is ${kb(firstViewJs.br)} as brotli on the wire`,
    );
    process.exit(1);
  }
  if (entryHoldsZod) {
    console.error(
      `\nZOD IN THE ENTRY: ${manifest[entry]!.file} builds schemas before every page; import the constants it needs from a zod-free module of the contracts`,
    );
    process.exit(1);
  }
  if (hinted.length < EAGER_CHUNKS.length + 1 || unhinted.length > 0) {
    console.error(
      `\nNO COMPILE HINT: the start's chunks (the entry, ${EAGER_CHUNKS.join(', ')}) must open with ${COMPILE_HINT} (apps/web/build/compile-hints.ts); found ${hinted.length}, without it: ${unhinted.join(', ') || 'none'}`,
    );
    process.exit(1);
  }
}
