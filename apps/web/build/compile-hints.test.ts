import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, compileHints, EAGER_CHUNKS } from './compile-hints.ts';

/** A chunk as rolldown hands it to the plugin (the fields it reads), with its map as an asset. */
function chunkOf(name: string, isEntry = false) {
  const fileName = `assets/${name}-h4sh.js`;
  return {
    chunk: {
      type: 'chunk',
      name,
      fileName,
      isEntry,
      code: 'import"x";',
      sourcemapFileName: `${fileName}.map`,
    },
    map: {
      type: 'asset',
      fileName: `${fileName}.map`,
      source: JSON.stringify({ version: 3, mappings: 'AAAA' }),
    },
  };
}

function run(chunks: ReturnType<typeof chunkOf>[]) {
  const bundle: Record<string, unknown> = {};
  for (const { chunk, map } of chunks) {
    bundle[chunk.fileName] = chunk;
    bundle[map.fileName] = map;
  }
  const hook = compileHints().generateBundle as {
    handler: (options: unknown, bundle: Rolldown.OutputBundle) => void;
  };
  hook.handler({}, bundle as Rolldown.OutputBundle);
}

describe('compileHints', () => {
  it("opens the entry and the start's chunks with V8's hint, their maps a line down", () => {
    const start = [chunkOf('index', true), ...EAGER_CHUNKS.map((name) => chunkOf(name))];
    const page = chunkOf('vps-page');
    run([...start, page]);
    for (const { chunk, map } of start) {
      expect(chunk.code).toBe(`${COMPILE_HINT}\nimport"x";`);
      expect(JSON.parse(map.source)).toEqual({ version: 3, mappings: ';AAAA' });
    }
    // a page's chunk compiles as V8 decides
    expect(page.chunk.code).toBe('import"x";');
    expect(JSON.parse(page.map.source).mappings).toBe('AAAA');
  });

  it('runs after Vite has written its own lines at the top of the entry', () => {
    const hook = compileHints().generateBundle as { order?: string };
    expect(hook.order).toBe('post');
  });
});
