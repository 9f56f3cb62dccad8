import { describe, expect, it } from 'vitest';
import { compileResponse } from '../src/plugins/response-serializer.ts';
import { useTestApp } from './helpers.ts';

const responses: { route: string; status: string; schema: unknown }[] = [];
useTestApp({
  onRoute: (route) => {
    for (const [status, schema] of Object.entries(route.schema?.response ?? {}))
      responses.push({ route: `${String(route.method)} ${route.url}`, status, schema });
  },
});

describe('compiled response serialisation, route by route', () => {
  it('compiles the response schema of every route and status (an answer never finds one it cannot write)', () => {
    expect(responses.length).toBeGreaterThan(800);
    const failed = responses.flatMap(({ route, status, schema }) => {
      try {
        compileResponse(schema);
        return [];
      } catch (error) {
        return [`${route} ${status}: ${(error as Error).message}`];
      }
    });
    expect(failed).toEqual([]);
  });
});
