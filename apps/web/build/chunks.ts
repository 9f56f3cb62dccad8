import type { CodeSplittingNameFunction } from 'rolldown';

/**
 * Which shared chunk a module of the console goes to (rolldown's `codeSplitting.groups` name
 * function). Left to itself the bundler makes one chunk per set of pages sharing code: the
 * signed-in /vps loaded ~30 scripts and ~15 style sheets, a round trip each on HTTP/1.1 and on a
 * phone's slow network. Here the code pages share goes by the areas of the console using it:
 *
 * - `common`: used by a signed-out page (sign-up, reset…) or by three areas or more (the API
 *   client, the contracts, forms, tables), loaded by nearly every page;
 * - `app`: shared by signed-in pages only (the layout, dialogs, the support and balance parts);
 * - `operator`: shared by the operator's pages only;
 * - `forms`: the form libraries (react-hook-form and its resolvers) where they would go to
 *   `common` or `app`: the pages with a form load them, the signed-in home (/vps) has none and
 *   does not.
 *
 * Left to the bundler (null): the entry's code (the `$initial` group takes it first), what the
 * login page imports (the first view, weighed against its budget by scripts/bundle-size.ts, loads
 * nothing more), a module of one page (it stays in that page's chunk), and what only the
 * monitoring pages share (the charts, with the public account page: not for every page).
 */

export type Area = 'entry' | 'login' | 'signed-out' | 'public' | 'operator' | 'app';
export type SharedChunk = 'common' | 'app' | 'operator' | 'forms';

/** react-hook-form and @hookform/resolvers (their code in node_modules). */
const FORM_LIBRARIES = /\/node_modules\/(react-hook-form|@hookform\/resolvers)\//;

/** The area of a chunk's root: the entry or a lazily imported module (a page, a section…). */
export function areaOf(root: string): Area {
  const path = root.replaceAll('\\', '/');
  if (/\/apps\/web\/(index\.html|src\/main\.tsx)$/.test(path)) return 'entry';
  if (path.endsWith('/src/features/auth/pages/login-page.tsx')) return 'login';
  if (path.includes('/src/features/auth/')) return 'signed-out';
  if (/\/src\/features\/(legal\/|monitoring\/pages\/public-account-page)/.test(path)) {
    return 'public';
  }
  // the operator shell (features/operator) and each domain's operator screens beside it
  // (features/<domain>/operator)
  if (/\/src\/(features\/([^/]+\/)?operator\/|app\/layouts\/require-admin)/.test(path)) {
    return 'operator';
  }
  return 'app';
}

/** The shared chunk of a module used by the roots of `areas` (the entry's already removed). */
export function sharedChunkOf(areas: ReadonlySet<Area>): SharedChunk | null {
  if (areas.has('login') || areas.size === 0) return null;
  if (areas.has('signed-out') || areas.size >= 3) return 'common';
  if (areas.has('public')) return areas.has('operator') ? 'common' : null;
  return areas.has('app') ? 'app' : 'operator';
}

type ModuleInfo = NonNullable<
  ReturnType<Parameters<CodeSplittingNameFunction>[1]['getModuleInfo']>
>;
type GetModuleInfo = (
  id: string,
) => Pick<ModuleInfo, 'isEntry' | 'importers' | 'dynamicImporters'> | null;

const isRoot = (info: NonNullable<ReturnType<GetModuleInfo>>) =>
  info.isEntry || info.dynamicImporters.length > 0;

/** The roots (entry or lazily imported modules) whose static imports reach `id`, itself included. */
export function rootsOf(id: string, getModuleInfo: GetModuleInfo): Set<string> {
  const roots = new Set<string>();
  const seen = new Set([id]);
  const queue = [id];
  for (let current = queue.pop(); current !== undefined; current = queue.pop()) {
    const info = getModuleInfo(current);
    if (!info) continue;
    if (isRoot(info)) roots.add(current);
    for (const importer of info.importers) {
      if (!seen.has(importer)) {
        seen.add(importer);
        queue.push(importer);
      }
    }
  }
  return roots;
}

/**
 * The group's name function. A root itself (a page) keeps its own chunk, and so does a module of
 * a single root. The entry is not counted: what the entry's code really uses the `$initial`
 * group has taken already, and what it only reaches through a package's index (the contracts)
 * is code for the pages.
 */
export const sharedChunk = (id: string, getModuleInfo: GetModuleInfo): SharedChunk | null => {
  const info = getModuleInfo(id);
  if (!info || isRoot(info)) return null;
  const roots = rootsOf(id, getModuleInfo);
  if (roots.size < 2) return null;
  const areas = new Set([...roots].map(areaOf));
  areas.delete('entry');
  const chunk = sharedChunkOf(areas);
  const formLibrary = FORM_LIBRARIES.test(id.replaceAll('\\', '/'));
  return formLibrary && (chunk === 'common' || chunk === 'app') ? 'forms' : chunk;
};

export const sharedChunkName: CodeSplittingNameFunction = (id, ctx) =>
  sharedChunk(id, (moduleId) => ctx.getModuleInfo(moduleId));
