// Which origin an answer allows (CORS_ORIGIN): `*`, one origin, or several, comma-separated. A browser takes
// one origin per answer, so with several the request's own Origin is echoed when it is listed, and none is
// named otherwise (the browser then refuses the read). Behind the kit's proxy the console on the API's name
// calls the terminal and the relay on theirs, so its origin sits in the list beside any other front end's.

/** the Access-Control-Allow-Origin value for a request from `origin`; null: name none */
export function allowedOrigin(setting: string, origin: string | undefined): string | null {
  if (setting === '*' || !setting.includes(',')) return setting.trim()
  const listed = setting
    .split(',')
    .map(s => s.trim().replace(/\/+$/, ''))
    .filter(Boolean)
  return origin !== undefined && listed.includes(origin) ? origin : null
}
