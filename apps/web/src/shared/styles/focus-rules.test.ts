import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A heading (or <main>) that takes the focus after navigation or a form's step shows no ring:
 * one rule in global.css says so for every one of them. A feature's stylesheet that says it again
 * for its own heading's class (`.title:focus { outline: none }`) is a copy that drifts: the sign-in
 * card's, the legal pages' and the operator console's once did.
 */
const src = join(import.meta.dirname, '../..');

function stylesheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return stylesheets(path);
    return entry.name.endsWith('.module.css') ? [path] : [];
  });
}

describe('the focus ring of a focused heading', () => {
  it('is taken away by the global rule alone, not again by a feature for its own headings', () => {
    const files = [...stylesheets(join(src, 'features')), ...stylesheets(join(src, 'app'))];
    expect(files.length).toBeGreaterThan(20);
    const copies = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/([^{}]*:focus)\s*\{\s*outline:\s*none;?\s*\}/g)].map(
        (match) => `${relative(src, file)}: ${match[1]!.trim()}`,
      ),
    );
    expect(copies).toEqual([]);
  });
});
