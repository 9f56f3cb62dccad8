import { generate } from 'otplib';

/**
 * An operator's authenticator app (TOTP), for the journeys and the screenshots: it is turned on
 * through the API as Profile does, and its codes are computed from the secret the API shows.
 */

const STEP_S = 30;
const stepNow = () => Math.floor(Date.now() / 1000 / STEP_S);

export class Authenticator {
  /** The last 30-second step whose code was used: the server takes each step once. */
  private lastStep = 0;

  private readonly secret: string;

  constructor(secret: string) {
    this.secret = secret;
  }

  /**
   * The next code no sign-in has used yet. The server takes the step before, the current one and
   * the next, each once: when those are spent, it waits for the next step.
   */
  async nextCode(): Promise<string> {
    for (;;) {
      const step = Math.max(this.lastStep + 1, stepNow());
      if (step <= stepNow() + 1) {
        this.lastStep = step;
        return generate({ secret: this.secret, epoch: step * STEP_S });
      }
      await new Promise((done) => setTimeout(done, (stepNow() + 1) * STEP_S * 1000 - Date.now()));
    }
  }
}

/**
 * Turns on the authenticator app of the user signed in with `token` on the server at `baseUrl`,
 * as Profile does (started, then confirmed with its current code): the app, for their sign-ins.
 */
export async function turnOnAuthenticator(baseUrl: string, token: string): Promise<Authenticator> {
  const call = async (path: string, body?: unknown) => {
    const res = await fetch(new URL(path, baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  const { secret } = (await call('/api/user/factors/totp')) as { secret: string };
  const app = new Authenticator(secret);
  await call('/api/user/factors/totp/confirm', { code: await app.nextCode() });
  return app;
}
