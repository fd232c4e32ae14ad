// Files for the file picker, written here: an upload and a .npy (version 1) from the
// format's definition.

export type Upload = { name: string; mimeType: string; buffer: Buffer };

export const file = (name: string, buffer: Buffer | string): Upload => ({
  name,
  mimeType: 'application/octet-stream',
  buffer: typeof buffer === 'string' ? Buffer.from(buffer, 'utf8') : buffer,
});

/** A .npy file (version 1) written here from the format's definition. */
export function npy(descr: string, shape: number[], data: Buffer): Buffer {
  const dims = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${dims}, }`;
  while ((10 + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const head = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(head, 0);
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), data]);
}
