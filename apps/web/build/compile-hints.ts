import type { Plugin } from 'vite';

/** V8's explicit compile hint (Chrome 136+): compile every function of the file eagerly. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** The chunks whose code runs nearly whole at a start: the entry and the signed-in frame's. */
export const EAGER_CHUNKS: readonly string[] = ['common', 'app', 'signed-in-layout'];

/**
 * Puts V8's compile hint at the top of the entry and of EAGER_CHUNKS. V8 otherwise compiles a
 * function the first time it is called, on the main thread; the hint has it compiled with the
 * file, on a background thread, while the file downloads. The hint must open the file, so it
 * goes in after Vite's own additions to the chunks (its preload list opens the entry), and the
 * source map moves one line down with the code.
 */
export function compileHints(): Plugin {
  return {
    name: 'tradehost:compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk') continue;
          if (!file.isEntry && !EAGER_CHUNKS.includes(file.name)) continue;
          file.code = `${COMPILE_HINT}\n${file.code}`;
          // the source map, by now an asset of its own beside the chunk
          const map = file.sourcemapFileName ? bundle[file.sourcemapFileName] : undefined;
          if (map?.type === 'asset' && typeof map.source === 'string') {
            const json = JSON.parse(map.source) as { mappings: string };
            map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` });
          }
        }
      },
    },
  };
}
