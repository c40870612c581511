// Writes a token list (tokenlists.org format) for tokens a program deployed itself: the sandbox's venue, the
// tests' chains. What it writes is read back through the same schema check as any TOKENS_FILE.
import { writeFileSync } from 'node:fs'
import { getAddress } from 'viem'

export interface ListEntry {
  address: string
  symbol: string
  name: string
  decimals: number
}

export function writeTokenList(file: string, list: { name: string; chainId: number; tokens: ListEntry[] }): void {
  const { name, chainId, tokens } = list
  writeFileSync(
    file,
    JSON.stringify(
      {
        name,
        timestamp: new Date().toISOString(),
        version: { major: 1, minor: 0, patch: 0 },
        tokens: tokens.map(t => ({
          chainId,
          address: getAddress(t.address),
          symbol: t.symbol,
          name: t.name,
          decimals: t.decimals,
        })),
      },
      null,
      2,
    ) + '\n',
  )
}
