import type { Config } from '../config.ts';

/** How every mail, chat message and list names a server's rate: "Trader, London (LD4)". */
export const rateLabel = (rate: { name: string; location: string }) =>
  `${rate.name}, ${rate.location}`;

/** The console's servers page, the link of every VPS mail and of the silent-terminal alert. */
export const serversLink = (config: Config) => `${config.publicUrl}/vps`;
