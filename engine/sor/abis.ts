// The few functions and events the route finder reads, as human-readable ABI: the creation events
// of the factories and the views a pool state is made of.
import { parseAbi, parseAbiItem } from 'viem'

export const pairCreated = parseAbiItem(
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength)',
)
export const poolCreated = parseAbiItem(
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
)

export const v2PairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
])

export const v3PoolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function tickBitmap(int16 wordPosition) view returns (uint256)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
])

/** contracts/pools/StableSwapPool.sol */
export const stablePoolAbi = parseAbi([
  'function get_coins() view returns (address[])',
  'function get_balances() view returns (uint256[])',
  'function get_rates() view returns (uint256[])',
  'function A_precise() view returns (uint256)',
  'function fee() view returns (uint256)',
])

export const erc20MetaAbi = parseAbi([
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
])
/** MKR-style tokens return symbol() as bytes32 */
export const erc20Bytes32SymbolAbi = parseAbi(['function symbol() view returns (bytes32)'])
