import { test } from 'node:test'
import assert from 'node:assert/strict'
import { buildArtifacts, contractSources, type BuiltContract } from '../../engine/devchain/buildContracts.js'
import { loadArtifact } from '../../engine/chain/spotRfq.js'

test('a fresh compile equals the checked-in artifacts (rebuild: node dist/engine/devchain/buildContracts.js)', () => {
  const fresh = buildArtifacts()
  for (const name of Object.keys(contractSources) as BuiltContract[]) {
    const checkedIn = loadArtifact(name)
    assert.equal(checkedIn.deployedBytecode, fresh[name].deployedBytecode, `${name} deployedBytecode is stale`)
    assert.deepEqual(checkedIn, fresh[name], `${name} artifact is stale`)
  }
})

test('the SpotRFQ ABI carries the spec revert reasons by name', () => {
  const errors = loadArtifact('SpotRFQ').abi.flatMap(x => x.type === 'error' ? [x.name] : [])
  for (const name of ['InvalidSignature', 'QuoteAlreadyUsed', 'QuoteExpired', 'NonceTooLow', 'TakerMismatch', 'ZeroAmount', 'InvalidTokenPair', 'Paused']) {
    assert.ok(errors.includes(name), name)
  }
})
