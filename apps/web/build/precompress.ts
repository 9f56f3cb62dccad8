/**
 * Build-time compression of the console: after Vite writes dist/, every text file the browser
 * loads (scripts, styles, HTML, SVG, JSON) gets a brotli (`.br`, quality 11) and a gzip (`.gz`,
 * level 9) sibling, kept only when smaller than the original. The API reads them into memory
 * at start-up and serves them by the request's Accept-Encoding (apps/api/src/plugins/web-console.ts),
 * so nothing is compressed per request. scripts/bundle-size.ts weighs the first view from them.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** Below this a file is sent as it is: a compressed copy would save less than a packet. */
export const PRECOMPRESS_MIN_BYTES = 1024;
/** Files worth compressing (source maps are not loaded by browsers, so they are left alone). */
export const PRECOMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The brotli and gzip forms of a file's bytes, each only when it is smaller than the original;
 * none for files under PRECOMPRESS_MIN_BYTES.
 */
export async function compressVariants(bytes: Buffer): Promise<{ br?: Buffer; gz?: Buffer }> {
  if (bytes.length < PRECOMPRESS_MIN_BYTES) return {};
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return {
    ...(br.length < bytes.length ? { br } : {}),
    ...(gz.length < bytes.length ? { gz } : {}),
  };
}

/** Every file under `dir` (relative paths), skipping dot-directories such as .vite/. */
async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(/[\\/]/).some((part) => part.startsWith('.')));
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` (and removes a
 * stale sibling a file no longer gets). Returns the files compressed, relative to `dir`.
 */
export async function precompressDir(dir: string): Promise<string[]> {
  const files = (await filesOf(dir)).filter((file) => PRECOMPRESSIBLE.test(file));
  const done: string[] = [];
  await Promise.all(
    files.map(async (file) => {
      const path = join(dir, file);
      const { br, gz } = await compressVariants(await readFile(path));
      await Promise.all([
        br ? writeFile(`${path}.br`, br) : rm(`${path}.br`, { force: true }),
        gz ? writeFile(`${path}.gz`, gz) : rm(`${path}.gz`, { force: true }),
      ]);
      if (br || gz) done.push(file);
    }),
  );
  return done.sort();
}

/** The Vite plugin: compresses the output directory once the build has written it. */
export function precompress(): Plugin {
  return {
    name: 'tradehost-precompress',
    apply: 'build',
    async writeBundle(options) {
      if (!options.dir) return;
      const files = await precompressDir(resolve(options.dir));
      this.info(`brotli and gzip copies of ${files.length} files`);
    },
  };
}
