// A dev-chain transaction anvil leaves unmined is still waited out: the wait nudges the chain (waitMined).
import { strict as assert } from 'node:assert'
import { after, before, describe, it } from 'node:test'
import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { startAnvil, type Anvil } from '../../engine/devchain/anvil.js'
import { waitMined } from '../../engine/devchain/deploy/mined.js'

// anvil's well-known first dev account (test mnemonic): a local-chain key, not a secret
const ANVIL_KEY_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

describe('waiting for a dev-chain transaction', () => {
  let anvil: Anvil
  before(async () => {
    // no automine: the transaction stays in the pool, as when anvil's automine misses a ready one
    anvil = await startAnvil({ args: ['--no-mining'] })
  })
  after(async () => anvil?.stop())

  it('a transaction no block takes is mined by the nudge, and its receipt returned', async () => {
    const transport = http(anvil.rpcUrl)
    const account = privateKeyToAccount(ANVIL_KEY_0)
    const wallet = createWalletClient({ account, chain: foundry, transport })
    const pub = createPublicClient({ chain: foundry, transport, pollingInterval: 20 })
    const to = '0x000000000000000000000000000000000000dEaD'
    const before = await pub.getBlockNumber()
    const hash = await wallet.sendTransaction({ to, value: parseEther('1') })
    const receipt = await waitMined(pub, hash)
    assert.equal(receipt.status, 'success')
    assert.equal(receipt.blockNumber, before + 1n)
    assert.equal(await pub.getBalance({ address: to }), parseEther('1'))
  })
})
