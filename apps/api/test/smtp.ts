import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A delivered message, decoded from its raw MIME source. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** Mails to `address`, oldest first. */
  to(address: string): ReceivedMail[];
  /** The newest mail to `address`, waiting up to 5 s for one beyond the first `after` mails. */
  next(address: string, after?: number): Promise<ReceivedMail>;
  /**
   * Refuses the mails to `address` (every mail, without one) with a temporary failure (451 at
   * RCPT TO, so the sender's mail fails) until `accept()`.
   */
  refuse(address?: string): void;
  /** Takes every mail again. */
  accept(): void;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): Buffer {
  const bytes: number[] = [];
  const text = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    const hex = text.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(c.charCodeAt(0) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body).toString('utf8');
    default:
      return Buffer.from(body, 'latin1').toString('utf8');
  }
}

/** RFC 2047 encoded words, e.g. =?UTF-8?Q?...?= and =?UTF-8?B?...?=. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QB])\?([^?]*)\?=/gi,
      (_all, _charset: string, kind: string, data: string) =>
        kind.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(source: string): Part {
  const at = source.search(/\r?\n\r?\n/);
  const head = at === -1 ? source : source.slice(0, at);
  const body = at === -1 ? '' : source.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** Collects the text/plain and text/html leaves of a (multipart) message. */
function leaves(part: Part, found: { text: string; html: string }) {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const sections = part.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      leaves(splitPart(section.replace(/^\r?\n/, '')), found);
    }
    return;
  }
  const decoded = decodeBody(part.body, part.headers.get('content-transfer-encoding'));
  if (type.toLowerCase().startsWith('text/html')) found.html += decoded;
  else if (type.toLowerCase().startsWith('text/plain')) found.text += decoded;
}

export function parseMail(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const root = splitPart(raw);
  const found = { text: '', html: '' };
  leaves(root, found);
  const lf = (text: string) => text.replace(/\r\n/g, '\n');
  return {
    ...envelope,
    subject: decodeWords(root.headers.get('subject') ?? ''),
    text: lf(found.text),
    html: lf(found.html),
    raw,
  };
}

/** A real SMTP server on 127.0.0.1:<free port>, no auth, no TLS, keeping what it receives. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  let refused: Set<string> | 'all' = new Set();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      if (refused === 'all' || refused.has(to)) {
        const error = new Error('Mailbox busy, try again later') as Error & {
          responseCode: number;
        };
        error.responseCode = 451;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        mails.push(parseMail(Buffer.concat(chunks).toString('latin1'), { from, to }));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => mails.filter((mail) => mail.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to,
    async next(address, after = 0) {
      for (let waited = 0; waited < 5000; waited += 25) {
        const list = to(address);
        if (list.length > after) return list[list.length - 1]!;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no mail to ${address} arrived`);
    },
    refuse(address) {
      if (address === undefined) refused = 'all';
      else if (refused !== 'all') refused.add(address.toLowerCase());
    },
    accept() {
      refused = new Set();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
