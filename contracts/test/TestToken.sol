// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title TestToken: an ERC20 with public mint, for SpotRFQ tests only.
/// @notice Failures carry the classic string reasons the spec quotes ("ERC20: insufficient allowance",
/// "ERC20: transfer amount exceeds balance") instead of OpenZeppelin 5's custom errors.
contract TestToken is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name, string memory symbol, uint8 decimals_) ERC20(name, symbol) {
        _decimals = decimals_;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function transfer(address to, uint256 amount) public override returns (bool) {
        require(balanceOf(msg.sender) >= amount, "ERC20: transfer amount exceeds balance");
        return super.transfer(to, amount);
    }

    function transferFrom(address from, address to, uint256 amount) public override returns (bool) {
        require(allowance(from, msg.sender) >= amount, "ERC20: insufficient allowance");
        require(balanceOf(from) >= amount, "ERC20: transfer amount exceeds balance");
        return super.transferFrom(from, to, amount);
    }
}
