import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sse-parser';

function parse(chunks: string[]) {
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  const parser = createSseParser(
    (message) => messages.push(message),
    (ms) => retries.push(ms),
  );
  for (const chunk of chunks) parser.push(chunk);
  return { messages, retries };
}

describe('the text/event-stream parser', () => {
  it('reads named events, skips comments (heartbeats) and reports retry', () => {
    const { messages, retries } = parse([
      'retry: 3000\n: connected\n\n',
      'event: balance\ndata: {"balance":25}\n\n',
      ': heartbeat\n\n',
      'event: ticket\ndata: {"ticket_id":7,"unread":1}\n\n',
    ]);
    expect(retries).toEqual([3000]);
    expect(messages).toEqual([
      { event: 'balance', data: '{"balance":25}' },
      { event: 'ticket', data: '{"ticket_id":7,"unread":1}' },
    ]);
  });

  it('puts together events cut anywhere between chunks, with CRLF, CR or LF line ends', () => {
    const text =
      'event: server\r\ndata: {"id":1,\r\ndata: "status":"active"}\r\n\r\nevent: x\rdata: 2\r\r';
    for (let cut = 1; cut < text.length; cut += 1) {
      const { messages } = parse([text.slice(0, cut), text.slice(cut)]);
      expect(messages, `cut at ${cut}`).toEqual([
        { event: 'server', data: '{"id":1,\n"status":"active"}' },
        { event: 'x', data: '2' },
      ]);
    }
    const { messages } = parse(text.split(''));
    expect(messages).toHaveLength(2);
  });

  it('sends nothing for an event without data, or one not yet ended', () => {
    expect(parse(['event: balance\n\n', 'event: server\ndata: {}']).messages).toEqual([]);
    expect(parse(['data: plain\n\n']).messages).toEqual([{ event: 'message', data: 'plain' }]);
  });
});
