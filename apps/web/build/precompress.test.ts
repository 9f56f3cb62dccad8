import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressVariants, PRECOMPRESS_MIN_BYTES, precompressDir } from './precompress.ts';

/** Text like a bundle's: repetitive, so it compresses well. */
const script = (lines: number) =>
  Buffer.from(
    Array.from(
      { length: lines },
      (_, i) => `export const value${i} = compute("item-${i}");\n`,
    ).join(''),
  );

describe('compressVariants', () => {
  it('gives brotli and gzip forms that decompress to the original and are smaller', async () => {
    const bytes = script(400);
    const { br, gz } = await compressVariants(bytes);
    expect(br).toBeDefined();
    expect(gz).toBeDefined();
    expect(brotliDecompressSync(br!).equals(bytes)).toBe(true);
    expect(gunzipSync(gz!).equals(bytes)).toBe(true);
    expect(br!.length).toBeLessThan(bytes.length / 4);
    // brotli at its best quality beats gzip on text
    expect(br!.length).toBeLessThan(gz!.length);
  });

  it('leaves small files alone', async () => {
    const small = Buffer.from('a'.repeat(PRECOMPRESS_MIN_BYTES - 1));
    expect(await compressVariants(small)).toEqual({});
    const justEnough = Buffer.from('a'.repeat(PRECOMPRESS_MIN_BYTES));
    expect(Object.keys(await compressVariants(justEnough)).sort()).toEqual(['br', 'gz']);
  });

  it('keeps no form that is not smaller than the original (incompressible bytes)', async () => {
    expect(await compressVariants(randomBytes(8 * 1024))).toEqual({});
  });
});

describe('precompressDir', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'th-precompress-'));
    await mkdir(join(dir, 'assets'));
    await mkdir(join(dir, '.vite'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes .br and .gz beside the compressible files only', async () => {
    const app = script(300);
    await writeFile(join(dir, 'index.html'), `<!doctype html>${script(50).toString()}`);
    await writeFile(join(dir, 'assets', 'app-abc123.js'), app);
    await writeFile(join(dir, 'assets', 'app-abc123.css'), script(100));
    await writeFile(join(dir, 'assets', 'tiny-abc123.js'), 'export {};');
    await writeFile(join(dir, 'assets', 'photo-abc123.png'), randomBytes(4096));
    await writeFile(join(dir, 'assets', 'random-abc123.js'), randomBytes(4096));
    await writeFile(join(dir, '.vite', 'manifest.json'), script(100));

    expect(await precompressDir(dir)).toEqual([
      join('assets', 'app-abc123.css'),
      join('assets', 'app-abc123.js'),
      'index.html',
    ]);
    const br = await readFile(join(dir, 'assets', 'app-abc123.js.br'));
    const gz = await readFile(join(dir, 'assets', 'app-abc123.js.gz'));
    expect(brotliDecompressSync(br).equals(app)).toBe(true);
    expect(gunzipSync(gz).equals(app)).toBe(true);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    for (const skipped of [
      'assets/tiny-abc123.js',
      'assets/photo-abc123.png',
      'assets/random-abc123.js',
      '.vite/manifest.json',
    ]) {
      expect(existsSync(join(dir, `${skipped}.br`))).toBe(false);
      expect(existsSync(join(dir, `${skipped}.gz`))).toBe(false);
    }
  });

  it('removes a stale copy when the file no longer gets one', async () => {
    await writeFile(join(dir, 'index.html'), '<!doctype html>');
    await writeFile(join(dir, 'index.html.br'), 'stale');
    await writeFile(join(dir, 'index.html.gz'), 'stale');
    expect(await precompressDir(dir)).toEqual([]);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(false);
    expect(existsSync(join(dir, 'index.html.gz'))).toBe(false);
  });
});
