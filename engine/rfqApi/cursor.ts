// The list cursor: opaque to clients, a `seq` inside. base64url of "r1:<seq>".
export function encodeCursor(seq: number): string {
  return Buffer.from(`r1:${seq}`, 'utf8').toString('base64url')
}

/** The seq a cursor carries; null when it is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return null
  const m = /^r1:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  return m ? Number(m[1]) : null
}
