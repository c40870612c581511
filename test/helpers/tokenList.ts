// A token list file for a test engine on a chain no list ships for (TOKENS_FILE), in a directory of its own.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeTokenList, type ListEntry } from '../../engine/tokens/writeList.js'

export function tempTokenList(chainId: number, tokens: ListEntry[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tokens-')), 'tokens.tokenlist.json')
  writeTokenList(file, { name: 'test list', chainId, tokens })
  return file
}
