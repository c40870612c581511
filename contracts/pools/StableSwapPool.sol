// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20Transfer {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title StableSwapPool
/// @notice A 2- or 3-coin pool on Curve's StableSwap invariant, written for this project after the algorithm of
/// Curve's plain pools (curve-contract 3pool, with the A_PRECISION of the later factory pools):
///   A * n^n * sum(x_i) + D = A * D * n^n + D^(n+1) / (n^n * prod(x_i))
/// solved for D and for one balance by Newton iterations in integer arithmetic. Balances are normalised to 18
/// decimals by per-coin rates (10^(36 - decimals), over PRECISION), the exchange fee is taken from the output in
/// 1e10 units and stays in the pool (no admin share), and A is fixed at construction (no ramping).
/// workers/sor/stable/stableSwap.ts mirrors get_D, get_y and get_dy of this file line for line: keep them in step.
contract StableSwapPool {
    uint256 public constant A_PRECISION = 100;
    uint256 public constant PRECISION = 1e18;
    uint256 public constant FEE_DENOMINATOR = 1e10;
    uint256 public constant MAX_A = 1e6;
    uint256 public constant MAX_FEE = 5e9;

    uint256 public immutable N_COINS;
    /// @notice A * A_PRECISION, the form every computation uses
    uint256 public immutable A_precise;
    uint256 public immutable fee;

    address[] public coins;
    uint256[] public rates;
    uint256[] public balances;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    event TokenExchange(address indexed buyer, uint256 sold_id, uint256 tokens_sold, uint256 bought_id, uint256 tokens_bought);
    event AddLiquidity(address indexed provider, uint256[] token_amounts, uint256 token_supply);
    event RemoveLiquidity(address indexed provider, uint256[] token_amounts, uint256 token_supply);

    constructor(address[] memory _coins, uint256[] memory _rates, uint256 _A, uint256 _fee) {
        require(_coins.length >= 2 && _coins.length <= 3, "2 or 3 coins");
        require(_rates.length == _coins.length, "one rate per coin");
        require(_A > 0 && _A <= MAX_A, "A out of range");
        require(_fee <= MAX_FEE, "fee out of range");
        N_COINS = _coins.length;
        A_precise = _A * A_PRECISION;
        fee = _fee;
        coins = _coins;
        rates = _rates;
        balances = new uint256[](_coins.length);
    }

    function A() external view returns (uint256) {
        return A_precise / A_PRECISION;
    }

    function get_balances() external view returns (uint256[] memory) {
        return balances;
    }

    function get_rates() external view returns (uint256[] memory) {
        return rates;
    }

    function get_coins() external view returns (address[] memory) {
        return coins;
    }

    function _xp(uint256[] memory _balances) internal view returns (uint256[] memory xp) {
        xp = new uint256[](N_COINS);
        for (uint256 i = 0; i < N_COINS; i++) {
            xp[i] = rates[i] * _balances[i] / PRECISION;
        }
    }

    function get_D(uint256[] memory xp, uint256 amp) internal view returns (uint256) {
        uint256 N = N_COINS;
        uint256 S = 0;
        for (uint256 k = 0; k < N; k++) {
            S += xp[k];
        }
        if (S == 0) return 0;

        uint256 D = S;
        uint256 Ann = amp * N;
        for (uint256 _i = 0; _i < 255; _i++) {
            uint256 D_P = D;
            for (uint256 k = 0; k < N; k++) {
                D_P = D_P * D / (xp[k] * N); // reverts on an empty coin, as Curve's does
            }
            uint256 Dprev = D;
            D = (Ann * S / A_PRECISION + D_P * N) * D / ((Ann - A_PRECISION) * D / A_PRECISION + (N + 1) * D_P);
            // equality with the precision of 1
            if (D > Dprev) {
                if (D - Dprev <= 1) return D;
            } else {
                if (Dprev - D <= 1) return D;
            }
        }
        revert("D did not converge");
    }

    /// @dev the new balance of coin j in xp units when coin i's is x, holding D fixed
    function get_y(uint256 i, uint256 j, uint256 x, uint256[] memory xp) internal view returns (uint256) {
        uint256 N = N_COINS;
        require(i != j, "same coin");
        require(i < N && j < N, "coin index");

        uint256 amp = A_precise;
        uint256 D = get_D(xp, amp);
        uint256 Ann = amp * N;
        uint256 c = D;
        uint256 S_ = 0;
        uint256 _x = 0;
        for (uint256 _i = 0; _i < N; _i++) {
            if (_i == i) _x = x;
            else if (_i != j) _x = xp[_i];
            else continue;
            S_ += _x;
            c = c * D / (_x * N);
        }
        c = c * D * A_PRECISION / (Ann * N);
        uint256 b = S_ + D * A_PRECISION / Ann;
        uint256 y = D;
        for (uint256 _i = 0; _i < 255; _i++) {
            uint256 y_prev = y;
            y = (y * y + c) / (2 * y + b - D);
            // equality with the precision of 1
            if (y > y_prev) {
                if (y - y_prev <= 1) return y;
            } else {
                if (y_prev - y <= 1) return y;
            }
        }
        revert("y did not converge");
    }

    function _dy(uint256 i, uint256 j, uint256 dx) internal view returns (uint256) {
        uint256[] memory xp = _xp(balances);
        uint256 x = xp[i] + dx * rates[i] / PRECISION;
        uint256 y = get_y(i, j, x, xp);
        uint256 dy = xp[j] - y - 1; // -1 against rounding in get_y
        uint256 dy_fee = dy * fee / FEE_DENOMINATOR;
        return (dy - dy_fee) * PRECISION / rates[j];
    }

    /// @notice what exchange(i, j, dx, 0) pays now
    function get_dy(uint256 i, uint256 j, uint256 dx) external view returns (uint256) {
        return _dy(i, j, dx);
    }

    function exchange(uint256 i, uint256 j, uint256 dx, uint256 min_dy) external returns (uint256 dy) {
        dy = _dy(i, j, dx);
        require(dy >= min_dy, "slippage");
        balances[i] += dx;
        balances[j] -= dy;
        require(IERC20Transfer(coins[i]).transferFrom(msg.sender, address(this), dx), "transferFrom");
        require(IERC20Transfer(coins[j]).transfer(msg.sender, dy), "transfer");
        emit TokenExchange(msg.sender, i, dx, j, dy);
    }

    /// @notice deposits amounts (all coins on the first deposit); imbalanced deposits pay Curve's imbalance fee
    function add_liquidity(uint256[] calldata amounts, uint256 min_mint_amount) external returns (uint256 mint_amount) {
        uint256 N = N_COINS;
        require(amounts.length == N, "one amount per coin");
        uint256 amp = A_precise;
        uint256 supply = totalSupply;
        uint256[] memory old_balances = balances;
        uint256 D0 = supply > 0 ? get_D(_xp(old_balances), amp) : 0;

        uint256[] memory new_balances = new uint256[](N);
        for (uint256 i = 0; i < N; i++) {
            if (supply == 0) require(amounts[i] > 0, "initial deposit needs every coin");
            new_balances[i] = old_balances[i] + amounts[i];
        }
        uint256 D1 = get_D(_xp(new_balances), amp);
        require(D1 > D0, "D must grow");

        if (supply > 0) {
            uint256 _fee = fee * N / (4 * (N - 1));
            for (uint256 i = 0; i < N; i++) {
                uint256 ideal_balance = D1 * old_balances[i] / D0;
                uint256 difference = ideal_balance > new_balances[i] ? ideal_balance - new_balances[i] : new_balances[i] - ideal_balance;
                balances[i] = new_balances[i]; // the fee stays in the pool
                new_balances[i] -= _fee * difference / FEE_DENOMINATOR;
            }
            uint256 D2 = get_D(_xp(new_balances), amp);
            mint_amount = supply * (D2 - D0) / D0;
        } else {
            for (uint256 i = 0; i < N; i++) balances[i] = new_balances[i];
            mint_amount = D1;
        }
        require(mint_amount >= min_mint_amount, "slippage");

        for (uint256 i = 0; i < N; i++) {
            if (amounts[i] > 0) require(IERC20Transfer(coins[i]).transferFrom(msg.sender, address(this), amounts[i]), "transferFrom");
        }
        totalSupply = supply + mint_amount;
        balanceOf[msg.sender] += mint_amount;
        emit AddLiquidity(msg.sender, amounts, supply + mint_amount);
    }

    /// @notice burns LP shares for a proportional part of every balance
    function remove_liquidity(uint256 amount, uint256[] calldata min_amounts) external returns (uint256[] memory amounts) {
        uint256 N = N_COINS;
        require(min_amounts.length == N, "one amount per coin");
        uint256 supply = totalSupply;
        balanceOf[msg.sender] -= amount;
        totalSupply = supply - amount;
        amounts = new uint256[](N);
        for (uint256 i = 0; i < N; i++) {
            amounts[i] = balances[i] * amount / supply;
            require(amounts[i] >= min_amounts[i], "slippage");
            balances[i] -= amounts[i];
            require(IERC20Transfer(coins[i]).transfer(msg.sender, amounts[i]), "transfer");
        }
        emit RemoveLiquidity(msg.sender, amounts, supply - amount);
    }
}
