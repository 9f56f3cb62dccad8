import type { Language } from '@tradehost/contracts';
import { escapeHtml } from '../../lib/html.ts';

/**
 * Text a user wrote (a name, a ticket's subject and message, a server's label, a wallet, what a
 * terminal published) enters a letter through userText, which marks it: the letter's HTML shows it
 * escaped and unlinkable (no mail client turns "Unlock at https://evil.example" or
 * "www.evil.example" into a link), its plain text and subject carry it as it is (there the rules
 * of the contracts, one line and no web address in a name, are all there is).
 *
 * Templates write their paragraphs as plain text with the user's parts marked, then give each
 * paragraph to mailHtml (the HTML part) and the whole to plainText (the text part, the subject).
 * A paragraph given to mailHtml needs no escapeHtml: it escapes every part.
 */

// Private-use characters: no text of ours has them, and userText takes them out of the user's.
const OPEN = '\ue000';
const CLOSE = '\ue001';
const MARKS = /[\ue000\ue001]/g;
const MARKED = /\ue000([^\ue000\ue001]*)\ue001/g;

/** The user's `text`, marked for the letter (see above). */
export const userText = (text: string): string => `${OPEN}${text.replace(MARKS, '')}${CLOSE}`;

/** A letter's plain text or subject: the marks of userText gone. */
export const plainText = (text: string): string => text.replace(MARKS, '');

/**
 * After each character a link is found by (the dots of a domain, the colon and slashes of a
 * scheme, the at of an address), a word joiner (U+2060: no width, no line break) in an element of
 * its own: the linkers of mail clients, which read a text node at a time or stop at a character no
 * address holds, see no address; a reader sees the text unchanged.
 */
const JOINER = '&#8288;';
const BREAK = `<span>${JOINER}</span>`;
const breakLinks = (text: string, joiner: string): string =>
  escapeHtml(text).replace(/[.:/@]/g, (c) => `${c}${joiner}`);
export const unlinkable = (text: string): string => breakLinks(text, BREAK);

/** `text` escaped, the parts userText marked unlinkable with `joiner` after each link character. */
function render(text: string, joiner: string): string {
  let html = '';
  let from = 0;
  for (const match of text.matchAll(MARKED)) {
    html += escapeHtml(plainText(text.slice(from, match.index))) + breakLinks(match[1]!, joiner);
    from = match.index + match[0].length;
  }
  return html + escapeHtml(plainText(text.slice(from)));
}

/** HTML of a paragraph written as plain text: escaped, each part userText marked unlinkable. */
export const mailHtml = (text: string): string => render(text, BREAK);

/** A letter's `<title>` (its subject), which holds no elements: the bare word joiner. */
export const mailTitle = (text: string): string => render(text, JOINER);

/** "Hello Ann," / "Здравствуйте, Анна!": a letter's first line, the name marked. */
export const greeting = (language: Language, name: string): string =>
  language === 'ru' ? `Здравствуйте, ${userText(name)}!` : `Hello ${userText(name)},`;
