import { describe, expect, it } from 'vitest';
import { createAccessTokens } from '../src/modules/auth/access-token.ts';
import { fund, quickUser, useTestApp, type QuickUser } from './helpers.ts';

const t = useTestApp();

/** GET /api/user/auth for `user` until `stop()` is called: the reads of other requests. */
function flood(users: QuickUser[]) {
  let running = true;
  const done = Promise.all(
    users.map(async (user) => {
      while (running) {
        const res = await t.api.get('/api/user/auth', { token: user.token });
        expect(res.body.id).toBe(user.id);
      }
    }),
  );
  return async () => {
    running = false;
    await done;
  };
}

describe('the signed-in user, read together with other requests (db/users.ts findById)', () => {
  it('answers each of many users asking at once with their own row', async () => {
    const users = await Promise.all(
      Array.from({ length: 40 }, (_, i) => quickUser(t, { name: `Trader ${i}` })),
    );
    const answers = await Promise.all(
      users.flatMap((user) =>
        [1, 2, 3].map(async () => ({
          user,
          res: await t.api.get('/api/user/auth', { token: user.token }),
        })),
      ),
    );
    for (const { user, res } of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, email: user.email, name: user.name });
    }
  });

  it('reads a user whose id is past 32 bits (ids are bigint)', async () => {
    const id = 2 ** 33 + 7;
    await t.sql.query(
      `insert into users (id, email, name, password_hash, email_verified_at, referral_code)
       values ($1, 'far@example.com', 'Far', 'not-a-hash', now(), 'FAR00001')`,
      [id],
    );
    const tokens = createAccessTokens(t.config.jwtSecret, 3600, () => new Date());
    const { token } = await tokens.sign(id);
    const res = await t.api.get('/api/user/auth', { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, email: 'far@example.com' });
  });

  it('sees each commit made before it was asked for, while reads of the same row are on their way', async () => {
    const writer = await quickUser(t);
    const others = await Promise.all(Array.from({ length: 8 }, () => quickUser(t)));
    // other requests reading the same row (the writer's other tabs) and other rows
    const stop = flood([writer, writer, writer, ...others]);
    try {
      for (let i = 1; i <= 25; i += 1) {
        await fund(t, writer.id, 100);
        const res = await t.api.get('/api/user/auth', { token: writer.token });
        expect(res.body.balance).toBe(i);
      }
    } finally {
      await stop();
    }
  });
});
