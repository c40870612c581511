// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IUniswapV3PoolState {
    function tickBitmap(int16 wordPosition) external view returns (uint256);
    function ticks(int24 tick) external view returns (
        uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128,
        int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized);
}

/// @title V3PoolLens
/// @notice Reads the part of a Uniswap V3 pool's state a swap needs in two eth_calls instead of thousands:
/// the non-zero words of its tick bitmap over a range of word positions, and liquidityNet of given ticks.
contract V3PoolLens {
    function bitmapWords(address pool, int16 fromWord, int16 toWord)
        external view returns (int16[] memory positions, uint256[] memory words)
    {
        require(fromWord <= toWord, "range");
        uint256 size = uint256(int256(toWord) - int256(fromWord) + 1);
        positions = new int16[](size);
        words = new uint256[](size);
        uint256 n = 0;
        for (int256 w = fromWord; w <= toWord; w++) {
            uint256 word = IUniswapV3PoolState(pool).tickBitmap(int16(w));
            if (word != 0) {
                positions[n] = int16(w);
                words[n] = word;
                n++;
            }
        }
        assembly {
            mstore(positions, n)
            mstore(words, n)
        }
    }

    function liquidityNets(address pool, int24[] calldata tickIndexes) external view returns (int128[] memory nets) {
        nets = new int128[](tickIndexes.length);
        for (uint256 i = 0; i < tickIndexes.length; i++) {
            (, nets[i],,,,,,) = IUniswapV3PoolState(pool).ticks(tickIndexes[i]);
        }
    }
}
