import { parseAmountToCents } from '@tradehost/contracts';
import { GatewaySignatureError } from './port.ts';

/** Helpers the gateway drivers share to read a notification's form fields. */

/**
 * The single string values of a parsed form or JSON body. A repeated field (`a=1&a=2`, parsed
 * as an array) or a non-string is left out, so it counts as missing and never as "the first one".
 */
export function formFields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null) return {};
  return Object.fromEntries(
    Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** The named fields, or GatewaySignatureError naming the first one that is missing. */
export function requireFields<N extends string>(
  fields: Record<string, string | undefined>,
  names: readonly N[],
): Record<N, string> {
  const picked = {} as Record<N, string>;
  for (const name of names) {
    const value = fields[name];
    if (typeof value !== 'string') throw new GatewaySignatureError(`the field ${name} is missing`);
    picked[name] = value;
  }
  return picked;
}

const GATEWAY_AMOUNT = /^(\d{1,9})(?:\.(\d{1,2})(0*))?$/;

/**
 * Cents of a gateway's amount ("12.50", "100", "12.5000"): digits only, never rounded, so a
 * fraction of a cent ("12.505"), a sign, an exponent or a comma is refused (GatewaySignatureError)
 * rather than read as a nearby sum.
 */
export function parseGatewayAmount(text: string): number {
  const match = GATEWAY_AMOUNT.exec(text);
  const cents = match ? parseAmountToCents(`${match[1]}.${match[2] ?? '0'}`) : null;
  if (cents === null) throw new GatewaySignatureError(`"${text}" is not an amount`);
  return cents;
}
