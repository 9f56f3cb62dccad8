/**
 * The signed-in layout's files, and those of the signed-in home page, listed in index.html for
 * public/head.js: when the reader's stored session says signed in, head.js starts loading them at
 * once, beside the entry, instead of after the entry has downloaded and run (on a phone's slow
 * network, the time of the entry's download). Built pages only: the dev server has no chunks.
 *
 * index.html also carries the home page's heading and lead in each language (its "frame"): for
 * the same reader at the home's addresses, head.js shows them under the header's bar while the
 * console's script downloads and runs, where the page puts them (styles in global.css).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin, Rolldown } from 'vite';

/** The module whose chunk and imports make the signed-in frame (the router loads it lazily). */
export const SIGNED_IN_LAYOUT = 'src/app/layouts/signed-in-layout.tsx';
/**
 * The signed-in home: the page at these addresses (the router's index redirects to /vps), and
 * its English texts (another language's come with the entry's start, shared/i18n).
 */
export const SIGNED_IN_HOME = {
  paths: ['/', '/vps'],
  page: 'src/features/vps/pages/vps-page.tsx',
  englishTexts: 'src/locales/en/vps.json',
} as const;
/** What head.js reads: the layout's files; the home's, for its addresses. */
export interface PreloadLists {
  layout: string[];
  home: { paths: readonly string[]; files: string[]; en: string[] };
}
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

/** The lists of a bundle, as absolute paths; the home's without what the layout brings. */
export function preloadListsOf(bundle: Bundle, base: string): PreloadLists {
  const layout = preloadFilesOf(bundle, SIGNED_IN_LAYOUT);
  const beyondLayout = (files: string[]) => files.filter((file) => !layout.includes(file));
  const absolute = (files: string[]) => files.map((file) => `${base}${file}`);
  return {
    layout: absolute(layout),
    home: {
      paths: SIGNED_IN_HOME.paths,
      files: absolute(beyondLayout(preloadFilesOf(bundle, SIGNED_IN_HOME.page))),
      en: absolute(beyondLayout(preloadFilesOf(bundle, SIGNED_IN_HOME.englishTexts))),
    },
  };
}

/** The lists as index.html carries them: `<` escaped so the data cannot end the tag. */
export function preloadListTag(lists: PreloadLists): string {
  const json = JSON.stringify(lists).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${PRELOAD_LIST_ID}">${json}</script>`;
}

/** Where index.html takes the home page's frame: in #root, after the header's bar. */
export const HOME_FRAME_SLOT = '<!-- signed-in home -->';

/** The home page's heading and lead (its `title` and `description`) in one language. */
export interface HomeTexts {
  title: string;
  description: string;
}

/** Each language's home texts, from src/locales/<language>/<the home's namespace>.json. */
export function homeTextsOf(localesDir: string): Record<string, HomeTexts> {
  const file = SIGNED_IN_HOME.englishTexts.split('/').pop()!;
  const texts: Record<string, HomeTexts> = {};
  for (const entry of readdirSync(localesDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const { title, description } = JSON.parse(
      readFileSync(join(localesDir, entry.name, file), 'utf8'),
    ) as Partial<HomeTexts>;
    if (typeof title !== 'string' || typeof description !== 'string') {
      throw new Error(`signed-in home: ${entry.name}/${file} has no title and description`);
    }
    texts[entry.name] = { title, description };
  }
  return texts;
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * The frame: one block per language (global.css shows the one of `<html lang>`), hidden from
 * assistive technology (the page itself, with its real heading, replaces it within moments).
 */
export function homeFrameMarkup(texts: Record<string, HomeTexts>): string {
  const pages = Object.entries(texts).map(
    ([language, { title, description }]) =>
      `<div class="boot-home-page" lang="${escapeHtml(language)}">` +
      `<div class="boot-home-title">${escapeHtml(title)}</div>` +
      `<div class="boot-home-lead">${escapeHtml(description)}</div></div>`,
  );
  return `<div class="boot-home" aria-hidden="true">${pages.join('')}</div>`;
}

export interface SignedInPreloadOptions {
  /** The home's texts; by default read from the project's src/locales at build time. */
  homeTexts?: Record<string, HomeTexts>;
}

export function signedInPreload(options: SignedInPreloadOptions = {}): Plugin {
  let base = '/';
  let root = '.';
  return {
    name: 'tradehost-signed-in-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        if (!html.includes(HEAD_SCRIPT)) throw new Error(`index.html has no ${HEAD_SCRIPT}`);
        if (!html.includes(HOME_FRAME_SLOT))
          throw new Error(`index.html has no ${HOME_FRAME_SLOT}`);
        const tag = preloadListTag(preloadListsOf(bundle, base));
        const frame = homeFrameMarkup(options.homeTexts ?? homeTextsOf(join(root, 'src/locales')));
        return html
          .replace(HEAD_SCRIPT, `${tag}\n    ${HEAD_SCRIPT}`)
          .replace(HOME_FRAME_SLOT, frame);
      },
    },
  };
}
