/**
 * The Telegram users of the journeys: the emulator that global-setup.ts starts plays them over
 * its control API (apps/api/test/telegram-emulator.ts), and keeps what the product's bot sent.
 */

/** The bot the server talks to (TELEGRAM_BOT_TOKEN of the journeys' server). */
export const E2E_BOT = { token: '4242:e2e-bot-token', username: 'tradehost_e2e_bot' };

export interface TelegramUser {
  id: number;
  username?: string;
  first_name?: string;
  language_code?: string;
}

async function control(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${process.env.E2E_TELEGRAM_URL}/_emulator${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`the emulator answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** A Telegram user of their own per journey (a private chat's id is the user's). */
export function telegramUser(fields: Omit<TelegramUser, 'id'> = {}): TelegramUser {
  return { id: 100_000 + Math.floor(Math.random() * 1_000_000_000), first_name: 'Erin', ...fields };
}

/** The user writes `text` to the bot; the product's webhook answered with this status. */
export async function sayToBot(user: TelegramUser, text: string): Promise<number> {
  const { status } = (await control(`/chats/${user.id}/say`, { text, chat: user })) as {
    status: number;
  };
  return status;
}

/** What the bot has sent to the user's chat, oldest first (texts as Telegram shows them). */
export async function botMessages(user: TelegramUser): Promise<{ text: string }[]> {
  return (await control(`/chats/${user.id}/messages`)) as { text: string }[];
}
