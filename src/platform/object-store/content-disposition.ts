/**
 * `attachment; filename="..."` for a download. The name is the last path segment of the stored
 * file name (`../../etc/passwd` is `passwd`), its accents dropped (`año` is `ano`) and every
 * character outside letters, digits, space and `.,-_+@#&=~` made `_`: no character of a file
 * name can end the header, add a parameter or name a path.
 *
 * No `filename*=UTF-8''...` form: its apostrophes (like `(`, `)`, `*` and `!`) are encoded in the
 * presigned query differently by the AWS SDK (RFC 3986) and the embedded S3 server
 * (`encodeURIComponent`), which then refuses the signature. The exact name stays in the
 * attachment's `filename`.
 */
export function contentDisposition(filename: string): string {
  const ascii = safeFilename(filename)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .,\-_+@#&=~]/g, '_')
    .trim();
  // A name made only of marks the ASCII form drops (or of dots) still names a file.
  return `attachment; filename="${ascii === '' || /^\.+$/.test(ascii) ? 'file' : ascii}"`;
}

/**
 * The last path segment of a name, without control characters: `../../etc/passwd` is `passwd`,
 * `C:\\x\\report.pdf` is `report.pdf`; a name left empty (or only dots) is `file`.
 */
export function safeFilename(filename: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = filename.replace(/[\u0000-\u001f\u007f]/g, '');
  const last = cleaned.split(/[\\/]/).pop() ?? '';
  const trimmed = last.trim();
  return trimmed === '' || /^\.+$/.test(trimmed) ? 'file' : trimmed;
}
