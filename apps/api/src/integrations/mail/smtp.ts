import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mailer.ts';

/**
 * Transport settings added to SMTP_URL unless it sets them itself (nodemailer reads
 * options from the URL's query): pooled connections instead of a handshake per mail,
 * and timeouts so a dead server cannot hold a request for minutes.
 */
const URL_DEFAULTS = {
  pool: 'true',
  maxConnections: '3',
  connectionTimeout: '10000',
  greetingTimeout: '10000',
  socketTimeout: '20000',
};

/** Sends through the SMTP server of `SMTP_URL` (smtp://user:pass@host:587 or smtps://...:465). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const url = new URL(smtpUrl);
  for (const [key, value] of Object.entries(URL_DEFAULTS)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  }
  const transport = nodemailer.createTransport(url.toString(), { from });
  return {
    async send(message: MailMessage) {
      await transport.sendMail({ from, ...message });
    },
    async close() {
      transport.close();
    },
  };
}
