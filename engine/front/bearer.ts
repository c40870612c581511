// The token of `Authorization: Bearer <token>`, read the same way on every door that takes one (agent keys,
// the terminal's API_KEY). The scheme is matched case-insensitively: RFC 7235 section 2.1 makes auth-scheme
// a case-insensitive token, so `bearer` and `BEARER` are the same scheme as `Bearer`.
const BEARER = /^bearer[ \t]+(\S(?:.*\S)?)[ \t]*$/i

/** The token after the scheme, or undefined when the header is absent, of another scheme, or carries no token. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1]
}
