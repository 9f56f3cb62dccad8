/**
 * "№ 12" in Russian: the sign, a no-break space (U+00A0) and the number, as the console's Russian
 * texts write it, so a line never breaks between the sign and the number. English writes "#12".
 */
export const numero = (id: number | string) => `№\u00a0${id}`;
