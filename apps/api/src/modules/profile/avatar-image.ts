import { AVATAR_MAX_PIXELS, AVATAR_MIME_TYPES, AVATAR_SIDE } from '@tradehost/contracts';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';

const WEBP_QUALITY = 82;

const allowedMime = (mime: string | undefined) =>
  AVATAR_MIME_TYPES.some((allowed) => allowed === mime);

/**
 * An uploaded image as the stored avatar: a square WebP (AVATAR_SIDE, centre crop, turned the way
 * its EXIF says) without any metadata. Refuses (422) what is not a JPEG, PNG, GIF or WebP by its
 * content, whatever its name (an HTML or SVG page named .png), what has more than
 * AVATAR_MAX_PIXELS (read from the header, before a pixel is decoded) and what does not decode.
 * Only the decoded pixels go into the output, so anything hidden in the file (a script appended to
 * a valid GIF, EXIF with a location) is left behind.
 */
export async function toAvatarWebp(upload: Buffer): Promise<Buffer> {
  if (upload.length === 0) throw new AppError(422, 'AVATAR_REQUIRED');
  const type = await fileTypeFromBuffer(upload);
  if (!allowedMime(type?.mime)) throw new AppError(422, 'AVATAR_FORMAT');

  // the header only (no pixels): the size is judged here, with a code of its own
  const header = await sharp(upload, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw new AppError(422, 'AVATAR_UNREADABLE');
    });
  // libvips reads by content too: what it sees must be what the magic bytes said
  if (`image/${header.format}` !== type?.mime) throw new AppError(422, 'AVATAR_FORMAT');
  if (!header.width || !header.height) throw new AppError(422, 'AVATAR_UNREADABLE');
  if (header.width * header.height > AVATAR_MAX_PIXELS)
    throw new AppError(422, 'AVATAR_DIMENSIONS');

  try {
    // limitInputPixels again: the decoder itself refuses, whatever the header said above
    return await sharp(upload, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'warning' })
      .rotate()
      .resize(AVATAR_SIDE, AVATAR_SIDE, { fit: 'cover', position: 'centre' })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer();
  } catch {
    throw new AppError(422, 'AVATAR_UNREADABLE');
  }
}
