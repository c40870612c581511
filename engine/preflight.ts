// What a start checks before it touches anything (the data directory's lock, PostgreSQL, a port): the settings
// together (engine/ops/settings.ts) and the token list (engine/tokens/prepare.ts). main.ts runs it first; a
// start without it (tests, the sandbox, the benches) gets it from startEngine.
import type { Logger } from 'pino'
import type { Config } from './config.js'
import type { TokenList } from './tokens/tokenList.js'
import { checkSettings } from './ops/settings.js'
import { prepareTokenList } from './tokens/prepare.js'

export interface Preflight {
  tokenList: TokenList
}

export async function preflight(config: Config, log: Logger): Promise<Preflight> {
  await checkSettings(config)
  return { tokenList: await prepareTokenList(config, log) }
}
