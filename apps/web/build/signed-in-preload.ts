/**
 * The signed-in layout's files, listed in index.html for public/head.js: when the reader's stored
 * session says signed in, head.js starts loading them at once, beside the entry, instead of after
 * the entry has downloaded and run (on a phone's slow network, the time of the entry's download).
 * Built pages only: the dev server has no chunks to list.
 */
import type { Plugin, Rolldown } from 'vite';

/** The module whose chunk and imports make the signed-in frame (the router loads it lazily). */
export const SIGNED_IN_LAYOUT = 'src/app/layouts/signed-in-layout.tsx';
/** The id of the JSON list (`<script type="application/json">`, data only: the CSP allows it). */
export const PRELOAD_LIST_ID = 'signed-in-preload';
/** The list goes right before this tag, so that the script finds it when it runs. */
export const HEAD_SCRIPT = '<script src="/head.js"></script>';

type Bundle = Rolldown.OutputBundle;
type Chunk = Rolldown.OutputChunk & { viteMetadata?: { importedCss: Set<string> } };

const isChunk = (file: Bundle[string] | undefined): file is Chunk => file?.type === 'chunk';

/**
 * The files (relative to the output directory) that loading the chunk of `moduleId` brings in
 * beyond the entry: its own file, the chunks it imports statically, and their style sheets.
 * The entry's chunks and what they import are left out: index.html loads them already.
 */
export function preloadFilesOf(bundle: Bundle, moduleId: string): string[] {
  const chunks = Object.values(bundle).filter(isChunk);
  const start = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(moduleId));
  if (!start) throw new Error(`signed-in preload: no chunk for ${moduleId}`);

  const reach = (from: Chunk[]): Set<string> => {
    const seen = new Set<string>();
    const queue = [...from];
    for (let chunk = queue.pop(); chunk; chunk = queue.pop()) {
      if (seen.has(chunk.fileName)) continue;
      seen.add(chunk.fileName);
      for (const imported of chunk.imports) {
        const next = bundle[imported];
        if (isChunk(next)) queue.push(next);
      }
    }
    return seen;
  };
  const loaded = reach(chunks.filter((chunk) => chunk.isEntry));
  const files: string[] = [];
  for (const fileName of reach([start])) {
    if (loaded.has(fileName)) continue;
    files.push(fileName, ...((bundle[fileName] as Chunk).viteMetadata?.importedCss ?? []));
  }
  return [...new Set(files)].sort();
}

/** The list as index.html carries it: absolute paths, `<` escaped so the data cannot end the tag. */
export function preloadListTag(files: readonly string[], base: string): string {
  const json = JSON.stringify(files.map((file) => `${base}${file}`)).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${PRELOAD_LIST_ID}">${json}</script>`;
}

export function signedInPreload(): Plugin {
  let base = '/';
  return {
    name: 'tradehost-signed-in-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        if (!html.includes(HEAD_SCRIPT)) throw new Error(`index.html has no ${HEAD_SCRIPT}`);
        const tag = preloadListTag(preloadFilesOf(bundle, SIGNED_IN_LAYOUT), base);
        return html.replace(HEAD_SCRIPT, `${tag}\n    ${HEAD_SCRIPT}`);
      },
    },
  };
}
