import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every feature injects its endpoints into the one API (injectEndpoints): two endpoints of the same
 * name are one, and whichever loads first wins (an operator's "Extend" once called the user's
 * endpoint, a partner promocode form the operator's). Names are unique across the console.
 */
const featuresDir = join(import.meta.dirname, '../../features');

function apiFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return apiFiles(path);
    return /-api\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('the API’s endpoints', () => {
  it('have names unique across every feature', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    const files = apiFiles(featuresDir);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(
        /^\s+(\w+): build\.(?:query|mutation)/gm,
      )) {
        const name = match[1]!;
        const other = seen.get(name);
        if (other) clashes.push(`${name}: ${other} and ${file}`);
        else seen.set(name, file);
      }
    }
    expect(seen.size).toBeGreaterThan(50);
    expect(clashes).toEqual([]);
  });
});
