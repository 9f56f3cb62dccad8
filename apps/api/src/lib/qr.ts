import QRCode from 'qrcode';

/** A QR code of `text` as an SVG data URL, for an <img> (a wallet address, the partner link). */
export async function qrDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 1, width: 200 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
