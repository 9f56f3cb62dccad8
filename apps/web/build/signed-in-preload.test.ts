import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  HEAD_SCRIPT,
  homeFrameMarkup,
  homeTextsOf,
  HOME_FRAME_SLOT,
  PRELOAD_LIST_ID,
  preloadFilesOf,
  preloadListsOf,
  preloadListTag,
  signedInPreload,
  SIGNED_IN_HOME,
  SIGNED_IN_LAYOUT,
} from './signed-in-preload.ts';

interface FakeChunk {
  module?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** A bundle as rolldown hands it to the plugin: only the fields the plugin reads. */
function bundleOf(chunks: Record<string, FakeChunk>): Rolldown.OutputBundle {
  const bundle: Record<string, unknown> = {
    'assets/logo.svg': { type: 'asset', fileName: 'assets/logo.svg' },
  };
  for (const [fileName, chunk] of Object.entries(chunks)) {
    bundle[fileName] = {
      type: 'chunk',
      fileName,
      facadeModuleId: chunk.module ? `/repo/apps/web/${chunk.module}` : null,
      isEntry: chunk.isEntry ?? false,
      imports: chunk.imports ?? [],
      viteMetadata: { importedCss: new Set(chunk.css ?? []), importedAssets: new Set() },
    };
  }
  return bundle as Rolldown.OutputBundle;
}

const bundle = bundleOf({
  'assets/index-1.js': {
    module: 'index.html',
    isEntry: true,
    imports: ['assets/form-2.js'],
    css: ['assets/index-1.css'],
  },
  'assets/form-2.js': { css: ['assets/form-2.css'] },
  'assets/signed-in-layout-3.js': {
    module: SIGNED_IN_LAYOUT,
    imports: ['assets/index-1.js', 'assets/form-2.js', 'assets/common-4.js', 'assets/app-5.js'],
    css: ['assets/signed-in-layout-3.css'],
  },
  'assets/common-4.js': { imports: ['assets/index-1.js'], css: ['assets/common-4.css'] },
  'assets/app-5.js': { imports: ['assets/common-4.js'] },
  'assets/vps-page-6.js': {
    module: SIGNED_IN_HOME.page,
    imports: ['assets/app-5.js', 'assets/index-1.js'],
    css: ['assets/vps-page-6.css', 'assets/common-4.css'],
  },
  'assets/vps-7.js': { module: SIGNED_IN_HOME.englishTexts },
});

describe('preloadFilesOf', () => {
  it("lists the layout's chunk, the chunks it imports and their styles, not the entry's", () => {
    expect(preloadFilesOf(bundle, SIGNED_IN_LAYOUT)).toEqual([
      'assets/app-5.js',
      'assets/common-4.css',
      'assets/common-4.js',
      'assets/signed-in-layout-3.css',
      'assets/signed-in-layout-3.js',
    ]);
  });

  it('fails the build when the module has no chunk of its own', () => {
    expect(() => preloadFilesOf(bundle, 'src/app/layouts/gone.tsx')).toThrow(/no chunk/);
  });
});

describe('preloadListsOf', () => {
  it("gives the layout's files, and the home page's and its texts beyond them", () => {
    expect(preloadListsOf(bundle, '/')).toEqual({
      layout: preloadFilesOf(bundle, SIGNED_IN_LAYOUT).map((file) => `/${file}`),
      home: {
        paths: ['/', '/vps'],
        files: ['/assets/vps-page-6.css', '/assets/vps-page-6.js'],
        en: ['/assets/vps-7.js'],
      },
    });
  });
});

describe('preloadListTag', () => {
  it('is a JSON data block that cannot end its tag early', () => {
    const lists = {
      layout: ['/assets/a.js', '/assets/</script>.js'],
      home: { paths: ['/vps'], files: [], en: [] },
    };
    const tag = preloadListTag(lists);
    expect(tag).toBe(
      `<script type="application/json" id="${PRELOAD_LIST_ID}">` +
        '{"layout":["/assets/a.js","/assets/\\u003c/script>.js"],' +
        '"home":{"paths":["/vps"],"files":[],"en":[]}}</script>',
    );
    const json = tag.slice(tag.indexOf('>') + 1, tag.lastIndexOf('</script>'));
    expect(JSON.parse(json)).toEqual(lists);
  });
});

describe('homeTextsOf', () => {
  it("reads each language's heading and lead of the home page from the console's locales", () => {
    const texts = homeTextsOf(join(import.meta.dirname, '../src/locales'));
    expect(Object.keys(texts).sort()).toEqual(['en', 'ru']);
    expect(texts.en).toEqual({
      title: 'VPS servers',
      description: expect.stringMatching(/^Order a server/) as string,
    });
    expect(texts.ru?.title).toBe('VPS-серверы');
  });
});

describe('homeFrameMarkup', () => {
  it('holds a block per language, hidden from assistive technology, its texts escaped', () => {
    const markup = homeFrameMarkup({
      en: { title: 'VPS <servers>', description: 'Rent & run' },
      ru: { title: 'VPS-серверы', description: 'Аренда' },
    });
    expect(markup).toBe(
      '<div class="boot-home" aria-hidden="true">' +
        '<div class="boot-home-page" lang="en"><div class="boot-home-title">VPS &lt;servers&gt;</div>' +
        '<div class="boot-home-lead">Rent &amp; run</div></div>' +
        '<div class="boot-home-page" lang="ru"><div class="boot-home-title">VPS-серверы</div>' +
        '<div class="boot-home-lead">Аренда</div></div></div>',
    );
  });
});

describe('signedInPreload', () => {
  const homeTexts = { en: { title: 'VPS servers', description: 'Order a server' } };
  const transform = (html: string, withBundle = true) => {
    const plugin = signedInPreload({ homeTexts });
    (plugin.configResolved as (config: { base: string; root: string }) => void)({
      base: '/',
      root: '/repo/apps/web',
    });
    const hook = plugin.transformIndexHtml as {
      handler: (html: string, ctx: { bundle?: Rolldown.OutputBundle }) => string;
    };
    return hook.handler(html, withBundle ? { bundle } : {});
  };

  it("puts the list right before the head script, which reads it, and the home's frame in its slot", () => {
    const html = transform(
      `<head>\n    ${HEAD_SCRIPT}\n</head><div id="root"><div class="boot-bar"></div>${HOME_FRAME_SLOT}</div>`,
    );
    expect(html).toBe(
      `<head>\n    ${preloadListTag(preloadListsOf(bundle, '/'))}\n` +
        `    ${HEAD_SCRIPT}\n</head>` +
        `<div id="root"><div class="boot-bar"></div>${homeFrameMarkup(homeTexts)}</div>`,
    );
  });

  it('leaves the page alone without a bundle (the dev server), and fails without the script or the slot', () => {
    expect(transform(`<head>${HEAD_SCRIPT}</head>`, false)).toBe(`<head>${HEAD_SCRIPT}</head>`);
    expect(() => transform(`<head></head>${HOME_FRAME_SLOT}`)).toThrow(/head\.js/);
    expect(() => transform(`<head>${HEAD_SCRIPT}</head>`)).toThrow(/signed-in home/);
  });
});
