/**
 * Telegram's limits for a bot's messages, kept in this process: about 30 a second in all and one
 * a second to the same chat (beyond them Telegram answers 429). `take` waits for the next free
 * slot of the chat. Several instances each keep their own count; Telegram's 429 with its
 * `retry_after` (bots.ts floodWait) covers the rest.
 */
export interface ThrottleLimits {
  /** Messages per second across all chats. */
  perSecond: number;
  /** Milliseconds between two messages to one chat. */
  perChatMs: number;
}

export const TELEGRAM_LIMITS: ThrottleLimits = { perSecond: 30, perChatMs: 1000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createThrottle(limits: ThrottleLimits = TELEGRAM_LIMITS) {
  /** When each chat may be sent to next. */
  const chatFree = new Map<number, number>();
  /** The send times of the last second, oldest first. */
  const recent: number[] = [];

  function waitFor(chatId: number, at: number): number {
    while (recent.length > 0 && recent[0]! <= at - 1000) recent.shift();
    const globalWait = recent.length >= limits.perSecond ? recent[0]! + 1000 - at : 0;
    const chatWait = (chatFree.get(chatId) ?? 0) - at;
    return Math.max(globalWait, chatWait, 0);
  }

  function forgetIdleChats(at: number) {
    if (chatFree.size < 1000) return;
    for (const [chatId, free] of chatFree) if (free <= at) chatFree.delete(chatId);
  }

  return {
    /** Resolves when a message may go to `chatId`, and counts it as sent. */
    async take(chatId: number): Promise<void> {
      for (;;) {
        const at = Date.now();
        const wait = waitFor(chatId, at);
        if (wait === 0) {
          recent.push(at);
          forgetIdleChats(at);
          chatFree.set(chatId, at + limits.perChatMs);
          return;
        }
        await sleep(wait);
      }
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
