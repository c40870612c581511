// NATS_URL as an operator writes it: one server or several (comma-separated: a NATS cluster's servers, tried
// in turn), with the credential in the URL when the servers ask for one: `nats://TOKEN@host:4222` (a token)
// or `nats://user:password@host:4222`. The credential is taken out of the addresses, and `redacted` is what
// logs and banners print.
export interface NatsTarget {
  servers: string[]
  token?: string
  user?: string
  pass?: string
  redacted: string
}

export function parseNatsUrl(raw: string): NatsTarget {
  const target: NatsTarget = { servers: [], redacted: '' }
  const shown: string[] = []
  for (const part of raw
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)) {
    const u = new URL(part)
    const user = decodeURIComponent(u.username),
      pass = decodeURIComponent(u.password)
    if (user && pass) {
      target.user ??= user
      target.pass ??= pass
    } else if (user) target.token ??= user
    u.username = ''
    u.password = ''
    const bare = `${u.protocol}//${u.host}`
    target.servers.push(bare)
    shown.push(user ? `${u.protocol}//***@${u.host}` : bare)
  }
  target.redacted = shown.join(',')
  return target
}
