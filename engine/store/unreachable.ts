// A DATABASE_URL the engine cannot use, said as an operator needs it: the variable, where it points (the password
// left out), what went wrong in words, and what to do. A raw `connect ECONNREFUSED 10.0.0.20:5432` names none.
export class DatabaseUnreachable extends Error {
  override name = 'DatabaseUnreachable'
}

export function databaseUnreachable(url: string, e: unknown): DatabaseUnreachable {
  const err = e as { code?: string; message?: string }
  const at = where(url)
  const why = (() => {
    switch (err.code ?? '') {
      case 'ECONNREFUSED':
        return 'connection refused: is PostgreSQL running there, and listening on TCP at that address and port?'
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return 'no such host: check the host name'
      case 'ETIMEDOUT':
      case 'CONNECT_TIMEOUT':
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return 'no answer: is the host up, and does a firewall let this machine reach the port?'
      case '28P01':
        return 'password authentication failed: check the user and password'
      case '28000':
        return 'the server refuses this user from this address (pg_hba.conf)'
      case '3D000':
        return 'the database does not exist: create it (createdb), or fix its name'
      default:
        return (err.message ?? String(e)).split('\n')[0]
    }
  })()
  const otherwise = 'or unset DATABASE_URL to run an embedded PostgreSQL under DATA_DIR'
  return new DatabaseUnreachable(`DATABASE_URL (${at}): ${why}; ${otherwise}`)
}

function where(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.host}${u.pathname}`
  } catch {
    return 'not a URL'
  }
}
