// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Multicall3Lite
/// @notice Multicall3's aggregate3 alone (same selector and ABI), for local chains that have no Multicall3:
/// many view calls in one eth_call, so they all read the state of one block. The route finder uses it when
/// MULTICALL_ADDRESS names it (engine/chain/multicall.ts).
contract Multicall3Lite {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            require(success || calls[i].allowFailure, "Multicall3: call failed");
            returnData[i] = Result(success, data);
        }
    }
}
