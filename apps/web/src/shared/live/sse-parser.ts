/** One server-sent event: its name (`message` when the stream names none) and its data text. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * A parser of `text/event-stream` (the HTML standard's rules): feed it the text as it arrives,
 * in chunks cut anywhere; it calls `onMessage` for each complete event. Comments (`: ...`, the
 * heartbeats) and `id:` are skipped; `retry:` is reported to `onRetry`; CR, LF and CRLF all end
 * a line; the data of several `data:` lines is joined with newlines.
 */
export function createSseParser(
  onMessage: (message: SseMessage) => void,
  onRetry?: (ms: number) => void,
) {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  // a chunk ending in CR: an LF starting the next one belongs to the same line end
  let skipLf = false;

  function line(text: string) {
    if (text === '') {
      if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) onRetry?.(Number(value));
  }

  return {
    push(chunk: string) {
      let text = chunk;
      if (skipLf && text.startsWith('\n')) text = text.slice(1);
      skipLf = false;
      buffer += text;
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        if (end < 0) break;
        const current = buffer.slice(0, end);
        if (buffer[end] === '\r') {
          if (end + 1 === buffer.length) {
            skipLf = true;
            buffer = '';
          } else buffer = buffer.slice(buffer[end + 1] === '\n' ? end + 2 : end + 1);
        } else buffer = buffer.slice(end + 1);
        line(current);
      }
    },
  };
}
