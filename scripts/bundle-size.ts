/**
 * Gzipped bytes of what the browser loads for the first view of /login, and
 * of every route chunk, from the Vite manifest of the built console.
 * `--check` exits non-zero when the first view's JavaScript is over budget.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from './lib.ts';

export const FIRST_VIEW_JS_BUDGET = 150 * 1024;
const LOGIN_PAGE = 'src/features/auth/pages/login-page.tsx';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const dist = join(repoRoot, 'apps/web/dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  Chunk
>;
const gz = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A chunk's own file, its CSS, and every chunk it imports statically. */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const child of manifest[key]?.imports ?? []) closure(child, seen);
  return seen;
}

function weigh(keys: Iterable<string>): { js: number; css: number } {
  const files = new Set<string>();
  const css = new Set<string>();
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the manifest`);
    files.add(chunk.file);
    chunk.css?.forEach((file) => css.add(file));
  }
  const sum = (set: Set<string>) => [...set].reduce((total, file) => total + gz(file), 0);
  return { js: sum(files), css: sum(css) };
}

const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entry) throw new Error('no entry chunk in the manifest');
if (!manifest[LOGIN_PAGE]) throw new Error(`${LOGIN_PAGE} is not a chunk of its own`);

const firstView = weigh(new Set([...closure(entry), ...closure(LOGIN_PAGE)]));
console.log(`first view of /login: ${kb(firstView.js)} JS + ${kb(firstView.css)} CSS (gzip)`);
console.log(
  `budget: ${kb(FIRST_VIEW_JS_BUDGET)} JS, used ${((firstView.js / FIRST_VIEW_JS_BUDGET) * 100).toFixed(0)}%`,
);
console.log('\nroute chunks (own file + CSS, gzip):');
for (const key of Object.keys(manifest).filter((k) => manifest[k]?.isDynamicEntry)) {
  const own = weigh([key]);
  console.log(`  ${key.padEnd(60)} ${kb(own.js).padStart(9)} JS ${kb(own.css).padStart(8)} CSS`);
}

if (process.argv.includes('--check') && firstView.js > FIRST_VIEW_JS_BUDGET) {
  console.error(`\nOVER BUDGET: the first view loads ${kb(firstView.js)} of gzipped JavaScript`);
  process.exit(1);
}
