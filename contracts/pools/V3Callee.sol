// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IUniswapV3PoolActions {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external returns (uint256 amount0, uint256 amount1);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external returns (int256 amount0, int256 amount1);
}

interface IERC20TransferFrom {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title V3Callee
/// @notice Mints positions in and swaps against a Uniswap V3 pool, paying its callbacks from the caller's
/// tokens (the caller approves this contract). The callbacks only pay the pool the current call is talking to,
/// for the account that made the call, so an approval cannot be drained by calling them directly. Those two
/// facts live in transient storage: gone after the transaction, and no refunds to upset gas estimates.
contract V3Callee {
    address private transient activePool;
    address private transient activePayer;

    function mint(address pool, address recipient, int24 tickLower, int24 tickUpper, uint128 amount)
        external returns (uint256 amount0, uint256 amount1)
    {
        _enter(pool);
        (amount0, amount1) = IUniswapV3PoolActions(pool).mint(recipient, tickLower, tickUpper, amount, "");
        _leave();
    }

    /// @notice amountSpecified > 0 is exact input, < 0 exact output; returns the pool's own deltas
    function swap(address pool, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, address recipient)
        external returns (int256 amount0, int256 amount1)
    {
        _enter(pool);
        (amount0, amount1) = IUniswapV3PoolActions(pool).swap(recipient, zeroForOne, amountSpecified, sqrtPriceLimitX96, "");
        _leave();
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        _pay(amount0Owed, amount1Owed);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _pay(amount0Delta > 0 ? uint256(amount0Delta) : 0, amount1Delta > 0 ? uint256(amount1Delta) : 0);
    }

    function _pay(uint256 amount0, uint256 amount1) private {
        require(msg.sender == activePool && activePool != address(0), "not the active pool");
        IUniswapV3PoolActions pool = IUniswapV3PoolActions(msg.sender);
        if (amount0 > 0) require(IERC20TransferFrom(pool.token0()).transferFrom(activePayer, msg.sender, amount0), "pay token0");
        if (amount1 > 0) require(IERC20TransferFrom(pool.token1()).transferFrom(activePayer, msg.sender, amount1), "pay token1");
    }

    function _enter(address pool) private {
        require(activePool == address(0), "reentered");
        activePool = pool;
        activePayer = msg.sender;
    }

    function _leave() private {
        activePool = address(0);
        activePayer = address(0);
    }
}
