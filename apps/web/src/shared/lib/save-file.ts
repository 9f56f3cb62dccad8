/**
 * Hands a file made in the page (a Blob) to the browser as a download named `fileName`: a
 * temporary object URL on a temporary link with `download`, clicked, then released.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // the download has started from the URL; a later tick lets slow browsers read it first
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** The file name a Content-Disposition header gives (`attachment; filename="a.csv"`), if any. */
export function fileNameOf(contentDisposition: string | null | undefined): string | undefined {
  if (!contentDisposition) return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(contentDisposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // malformed: try the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(contentDisposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  // a name, never a path
  return name ? name.replace(/^.*[\\/]/, '') || undefined : undefined;
}
