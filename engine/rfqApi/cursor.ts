// The list cursor: opaque to clients, the id of the page's last RFQ inside (base64url of "r2:<id>"). An id,
// not the row's place in the table: places count every RFQ stored, the private ones too, so two cursors would
// tell an outsider how many private RFQs were made between two public ones. The id is resolved to its place
// only if the viewer may see that RFQ; otherwise the cursor is invalid, as a made-up one is.
export type ListCursor = { afterId: string } | { beforeSeq: number }

export function encodeCursor(id: string): string {
  return Buffer.from(`r2:${id}`, 'utf8').toString('base64url')
}

/** What a cursor carries; null when it is not one of ours. Cursors of earlier versions carry a place ("r1:<seq>"). */
export function decodeCursor(cursor: string): ListCursor | null {
  if (!/^[A-Za-z0-9_-]{1,160}$/.test(cursor)) return null
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  const id = /^r2:([A-Za-z0-9_-]{1,100})$/.exec(text)?.[1]
  if (id !== undefined) return { afterId: id }
  const seq = /^r1:(\d{1,15})$/.exec(text)?.[1]
  return seq === undefined ? null : { beforeSeq: Number(seq) }
}
