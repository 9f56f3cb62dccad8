/** One e-mail: plain text for every client plus simple HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The port every mail driver implements. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
  /**
   * Copies a notice mailed to a user to the user's other channel (the linked Telegram chat:
   * integrations/telegram/notices.ts); `notify()` calls it. Never throws.
   */
  copyToChat?(userId: number, mail: Omit<MailMessage, 'to'>): Promise<void>;
}
