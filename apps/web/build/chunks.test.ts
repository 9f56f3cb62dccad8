import { describe, expect, it } from 'vitest';
import { areaOf, rootsOf, sharedChunk, sharedChunkOf, type Area } from './chunks.ts';

const web = '/repo/apps/web';
const src = (path: string) => `${web}/src/${path}`;

const ENTRY = `${web}/index.html`;
const LOGIN = src('features/auth/pages/login-page.tsx');
const SIGNUP = src('features/auth/pages/signup-page.tsx');
const VPS = src('features/vps/pages/vps-page.tsx');
const BALANCE = src('features/balance/pages/balance-operations-page.tsx');
const ACCOUNT = src('features/monitoring/pages/account-page.tsx');
const PUBLIC_ACCOUNT = src('features/monitoring/pages/public-account-page.tsx');
const USERS = src('features/operator/pages/users-page.tsx');
const AUDIT = src('features/operator/pages/audit-page.tsx');

/**
 * A console in small: the entry lazily imports the pages; `imports` lists each module's static
 * imports.
 */
const imports: Record<string, string[]> = {
  [ENTRY]: [src('main.tsx')],
  [src('main.tsx')]: [src('app/router.tsx'), '/repo/packages/contracts/src/index.ts'],
  [src('app/router.tsx')]: [],
  '/repo/packages/contracts/src/index.ts': ['/repo/packages/contracts/src/vps.ts'],
  '/repo/packages/contracts/src/vps.ts': [],
  [LOGIN]: [src('shared/ui/form/form.tsx')],
  [SIGNUP]: [
    src('shared/api/base-api.ts'),
    '/repo/node_modules/react-hook-form/dist/index.esm.mjs',
    '/repo/node_modules/@hookform/resolvers/zod/dist/zod.mjs',
  ],
  [VPS]: [
    src('shared/ui/dialog/dialog.tsx'),
    src('shared/api/base-api.ts'),
    src('features/vps/components/rates.tsx'),
    '/repo/packages/contracts/src/vps.ts',
  ],
  [BALANCE]: [
    src('shared/ui/dialog/dialog.tsx'),
    src('shared/api/base-api.ts'),
    '/repo/node_modules/react-hook-form/dist/index.esm.mjs',
  ],
  [ACCOUNT]: [src('features/monitoring/components/charts.tsx'), src('shared/ui/table/table.tsx')],
  [PUBLIC_ACCOUNT]: [
    src('features/monitoring/components/charts.tsx'),
    src('shared/ui/table/table.tsx'),
  ],
  [USERS]: [
    src('features/operator/components/list-controls.tsx'),
    src('shared/ui/table/table.tsx'),
  ],
  [AUDIT]: [
    src('features/operator/components/list-controls.tsx'),
    '/repo/node_modules/@hookform/resolvers/zod/dist/zod.mjs',
  ],
  [src('shared/ui/dialog/dialog.tsx')]: [src('shared/ui/form/form.tsx')],
  [src('shared/ui/form/form.tsx')]: [],
  [src('shared/api/base-api.ts')]: [],
  [src('features/vps/components/rates.tsx')]: [],
  [src('features/monitoring/components/charts.tsx')]: [],
  [src('shared/ui/table/table.tsx')]: [],
  [src('features/operator/components/list-controls.tsx')]: [],
  '/repo/node_modules/react-hook-form/dist/index.esm.mjs': [],
  '/repo/node_modules/@hookform/resolvers/zod/dist/zod.mjs': [],
};
const lazy = [LOGIN, SIGNUP, VPS, BALANCE, ACCOUNT, PUBLIC_ACCOUNT, USERS, AUDIT];

function getModuleInfo(id: string) {
  if (!(id in imports)) return null;
  return {
    isEntry: id === ENTRY,
    importers: Object.keys(imports).filter((importer) => imports[importer]!.includes(id)),
    dynamicImporters: lazy.includes(id) ? [src('app/router.tsx')] : [],
  };
}

describe('areaOf', () => {
  it.each<[string, Area]>([
    [ENTRY, 'entry'],
    [src('main.tsx'), 'entry'],
    [LOGIN, 'login'],
    [SIGNUP, 'signed-out'],
    [src('features/auth/components/login-form-logic.ts'), 'signed-out'],
    [src('features/legal/pages/public-offer-page.tsx'), 'public'],
    [PUBLIC_ACCOUNT, 'public'],
    [USERS, 'operator'],
    [src('features/vps/operator/pages/vps-rates-page.tsx'), 'operator'],
    [src('features/support/operator/components/reply-form.tsx'), 'operator'],
    [src('app/layouts/require-admin.tsx'), 'operator'],
    [src('app/layouts/signed-in-layout.tsx'), 'app'],
    [VPS, 'app'],
    [ACCOUNT, 'app'],
  ])('%s is in the %s area', (root, area) => {
    expect(areaOf(root)).toBe(area);
  });

  it('reads Windows paths too', () => {
    expect(areaOf('C:\\repo\\apps\\web\\src\\features\\auth\\pages\\login-page.tsx')).toBe('login');
  });
});

describe('sharedChunkOf', () => {
  it.each<[Area[], string | null]>([
    [['login', 'app'], null],
    [['login', 'signed-out', 'app', 'operator'], null],
    [['signed-out', 'app'], 'common'],
    [['app', 'operator', 'public'], 'common'],
    [['public', 'operator'], 'common'],
    [['public', 'app'], null],
    [['app'], 'app'],
    [['app', 'operator'], 'app'],
    [['operator'], 'operator'],
    [[], null],
  ])('%j shares %s', (areas, chunk) => {
    expect(sharedChunkOf(new Set(areas))).toBe(chunk);
  });
});

describe('sharedChunk', () => {
  it('finds the roots whose static imports reach a module', () => {
    expect(rootsOf(src('shared/ui/form/form.tsx'), getModuleInfo)).toEqual(
      new Set([LOGIN, VPS, BALANCE]),
    );
    expect(rootsOf(VPS, getModuleInfo)).toEqual(new Set([VPS]));
  });

  it('puts code signed-in pages share in app, and what sign-up shares with them in common', () => {
    expect(sharedChunk(src('shared/ui/dialog/dialog.tsx'), getModuleInfo)).toBe('app');
    expect(sharedChunk(src('shared/api/base-api.ts'), getModuleInfo)).toBe('common');
    expect(sharedChunk(src('shared/ui/table/table.tsx'), getModuleInfo)).toBe('common');
    expect(sharedChunk(src('features/operator/components/list-controls.tsx'), getModuleInfo)).toBe(
      'operator',
    );
  });

  it("leaves the login page's imports, pages, one page's modules and the charts to the bundler", () => {
    // the dialog goes to app, but the form it imports is the login page's too
    expect(sharedChunk(src('shared/ui/form/form.tsx'), getModuleInfo)).toBeNull();
    expect(sharedChunk(VPS, getModuleInfo)).toBeNull();
    expect(sharedChunk(src('features/vps/components/rates.tsx'), getModuleInfo)).toBeNull();
    expect(sharedChunk(src('features/monitoring/components/charts.tsx'), getModuleInfo)).toBeNull();
    expect(sharedChunk('/elsewhere/unknown.ts', getModuleInfo)).toBeNull();
  });

  it('puts the form libraries in forms, which the pages without a form (VPS) do not load', () => {
    // sign-up and the balance page: common otherwise
    expect(
      sharedChunk('/repo/node_modules/react-hook-form/dist/index.esm.mjs', getModuleInfo),
    ).toBe('forms');
    // sign-up and the operator's audit page: common otherwise
    expect(
      sharedChunk('/repo/node_modules/@hookform/resolvers/zod/dist/zod.mjs', getModuleInfo),
    ).toBe('forms');
    expect(
      rootsOf('/repo/node_modules/react-hook-form/dist/index.esm.mjs', getModuleInfo),
    ).not.toContain(VPS);
  });

  it('does not count the entry reaching a module through a package index', () => {
    // the entry imports the contracts' index, which re-exports vps.ts; only VPS uses it
    expect(rootsOf('/repo/packages/contracts/src/vps.ts', getModuleInfo)).toEqual(
      new Set([ENTRY, VPS]),
    );
    expect(sharedChunk('/repo/packages/contracts/src/vps.ts', getModuleInfo)).toBe('app');
  });
});
