import type { Config } from '../../config.ts';
import { createDevMailbox, type DevMailbox } from './dev-mailbox.ts';
import type { Mailer } from './mailer.ts';
import { createSmtpMailer } from './smtp.ts';

export type { Mailer, MailMessage } from './mailer.ts';

/** SMTP when SMTP_URL is set; otherwise (never in production) the development mailbox. */
export function createMailer(
  config: Config,
  now?: () => Date,
): { mailer: Mailer; devMailbox: DevMailbox | undefined } {
  if (config.smtpUrl)
    return { mailer: createSmtpMailer(config.smtpUrl, config.mailFrom), devMailbox: undefined };
  if (config.isProduction) throw new Error('SMTP_URL is required in production');
  const devMailbox = createDevMailbox(now);
  return { mailer: devMailbox, devMailbox };
}
