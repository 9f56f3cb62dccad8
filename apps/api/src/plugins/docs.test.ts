import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { docsPlugin } from './docs.ts';

async function appWithDocs(ui: boolean) {
  const app = Fastify();
  await app.register(docsPlugin, { publicUrl: 'https://console.example', ui });
  app.get('/api/admin/secret-route', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('the API documentation', () => {
  it('is served with its UI when told (always outside production)', async () => {
    const app = await appWithDocs(true);
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/admin/secret-route');
    await app.close();
  });

  it('maps no route for anyone without it (production unless DOCS_PUBLIC), yet is still built', async () => {
    const app = await appWithDocs(false);
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/yaml'])
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    // the document still exists for the tests that walk it (the OpenAPI fuzz test)
    expect(Object.keys(app.swagger().paths ?? {})).toContain('/api/admin/secret-route');
    await app.close();
  });
});
