import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createVerifiedUser, useTestApp, XHR } from './helpers.ts';
import { publisherOf } from './monitoring-fixtures.ts';

/**
 * `/api/*` answers carry `Cache-Control: no-store` (plugins/security.ts), tokens, keys and the
 * user's data first, refusals too; a route that sets its own (the avatars, public and immutable)
 * keeps it.
 */

const t = useTestApp();

describe('Cache-Control of the API', () => {
  it('no-store on the token answers, the signed-in user and a refusal', async () => {
    const user = await createVerifiedUser(t);
    const browser = t.client();
    const login = await browser.post('/api/user/auth/login', user);
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');

    t.clock.advance(2000); // a later iat gives a different JWT
    try {
      const refreshed = await browser.post('/api/user/auth/refresh-token', undefined, {
        headers: XHR,
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.headers.get('cache-control')).toBe('no-store');

      const me = await browser.get('/api/user/auth', { token: refreshed.body.token });
      expect(me.status).toBe(200);
      expect(me.headers.get('cache-control')).toBe('no-store');
    } finally {
      t.clock.advance(-2000);
    }

    for (const res of [
      await browser.post('/api/user/auth/login', { ...user, password: 'wrong password 1' }),
      await t.api.get('/api/user/auth'),
      await t.api.get('/api/no-such-route'),
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it("no-store on a monitoring key's reveal", async () => {
    const { user, subscription } = await publisherOf(t, 7_100_001);
    const key = await t.api.post(
      `/api/user/monitoring/subscriptions/${subscription}/key`,
      undefined,
      { token: user.token },
    );
    expect(key.status).toBe(200);
    expect(key.body.key).toEqual(expect.any(String));
    expect(key.headers.get('cache-control')).toBe('no-store');
  });

  it('a public, cacheable answer keeps its own: the avatar, cached for a year', async () => {
    const user = await createVerifiedUser(t);
    const { token } = (await t.client().post('/api/user/auth/login', user)).body;
    const form = new FormData();
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#2a6fd6' },
    })
      .png()
      .toBuffer();
    form.append('file', new Blob([png], { type: 'image/png' }), 'avatar.png');
    const uploaded = await fetch(`${t.url}/api/user/avatar`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    expect(uploaded.headers.get('cache-control')).toBe('no-store');
    const { photo_path: photoPath } = (await uploaded.json()) as { photo_path: string };
    const avatar = await fetch(`${t.url}${photoPath}`);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
