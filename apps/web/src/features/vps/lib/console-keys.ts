/**
 * Text as key presses for the web console's "type" control: QEMU's VNC server has no clipboard
 * (without a guest agent nothing reaches Windows' clipboard), so a password is typed instead,
 * character by character, as X keysyms (RFC 6143 7.5.4). QEMU turns a keysym into the key of a
 * US keyboard and takes Shift from what the viewer holds, so a capital or a shifted symbol is
 * sent with Shift held around it, as a person types it.
 */

export const XK_SHIFT_L = 0xffe1;

/** The characters a US keyboard types with Shift held. */
const SHIFTED = new Set('~!@#$%^&*()_+{}|:"<>?');

export interface KeyPress {
  keysym: number;
  shift: boolean;
}

/** The keysym of a character: Latin-1 ones are their code, the others Unicode keysyms. */
export function keysymOf(character: string): number {
  const code = character.codePointAt(0) ?? 0;
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  return 0x01000000 + code;
}

/** Each character of `text` as a key press, with Shift where a US keyboard needs it. */
export function keyPresses(text: string): KeyPress[] {
  return [...text].map((character) => ({
    keysym: keysymOf(character),
    shift: (character >= 'A' && character <= 'Z') || SHIFTED.has(character),
  }));
}
