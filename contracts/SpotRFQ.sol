// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title SpotRFQ: settles a maker's EIP-712 signed Quote against the taker who sends it.
/// @notice The taker pays `amountIn` of tokenIn to the maker and receives `amountOut` of tokenOut.
/// The relay checks the same signature off-chain (workers/sig); the two must agree byte for byte.
contract SpotRFQ is EIP712, Ownable {
    /// @dev Field order is the spec's; workers/sig/quoteHash.ts hashes the same ten words.
    struct Quote {
        address maker;
        address taker;
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint256 amountOut;
        uint256 expiry;
        uint256 nonce;
        uint256 deadline;
    }

    bytes32 public constant QUOTE_TYPEHASH = keccak256(
        "Quote(address maker,address taker,address tokenIn,address tokenOut,uint256 amountIn,uint256 amountOut,uint256 expiry,uint256 nonce,uint256 deadline)"
    );

    /// Quote hashes that were filled or cancelled by their maker.
    mapping(bytes32 quoteHash => bool) public used;
    /// Quotes with a lower nonce are void: one transaction cancels everything a maker has signed so far.
    mapping(address maker => uint256) public minNonce;
    bool public paused;

    // The spec's revert reasons, by name.
    error InvalidSignature();
    error QuoteAlreadyUsed();
    error QuoteExpired();
    error NonceTooLow();
    error TakerMismatch();
    error ZeroAmount();
    error InvalidTokenPair();
    error Paused();
    /// Only a quote's maker may cancel it (not among the spec's fill reasons: cancel is maker-only).
    error NotMaker();

    event QuoteFilled(
        bytes32 indexed quoteHash,
        address indexed maker,
        address indexed taker,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        uint256 nonce
    );
    event QuoteCancelled(bytes32 indexed quoteHash, address indexed maker);
    event MinNonceSet(address indexed maker, uint256 minNonce);
    event PausedSet(bool paused);

    /// @param name EIP-712 domain name (`SpotRFQ` by default in deploySpotRfq); the version is always `1`.
    constructor(string memory name, address initialOwner) EIP712(name, "1") Ownable(initialOwner) {}

    /// @notice Fill `quote` as its taker. The caller pays amountIn of tokenIn and receives amountOut of tokenOut.
    function fill(Quote calldata quote, bytes calldata signature) external {
        if (paused) revert Paused();
        if (quote.amountIn == 0 || quote.amountOut == 0) revert ZeroAmount();
        if (quote.tokenIn == address(0) || quote.tokenOut == address(0) || quote.tokenIn == quote.tokenOut) {
            revert InvalidTokenPair();
        }
        if (quote.taker != address(0) && quote.taker != msg.sender) revert TakerMismatch();
        if (block.timestamp > quote.deadline) revert QuoteExpired();
        if (quote.nonce < minNonce[quote.maker]) revert NonceTooLow();

        bytes32 quoteHash = hashQuote(quote);
        if (used[quoteHash]) revert QuoteAlreadyUsed();
        // tryRecover rejects high-S and malformed signatures and never returns a zero signer without an error.
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecoverCalldata(quoteHash, signature);
        if (err != ECDSA.RecoverError.NoError || signer != quote.maker) revert InvalidSignature();

        // Effects before interactions: a token that calls back finds the quote already spent.
        used[quoteHash] = true;
        _transferFrom(quote.tokenIn, msg.sender, quote.maker, quote.amountIn);
        _transferFrom(quote.tokenOut, quote.maker, msg.sender, quote.amountOut);

        emit QuoteFilled(
            quoteHash, quote.maker, msg.sender, quote.tokenIn, quote.tokenOut, quote.amountIn, quote.amountOut, quote.nonce
        );
    }

    /// @notice Cancel quotes the caller signed. Cancelling by bare hash is not offered: anyone could
    /// then void anyone's quote, since a hash does not say who signed it.
    function cancel(Quote[] calldata quotes) external {
        for (uint256 i = 0; i < quotes.length; i++) {
            if (quotes[i].maker != msg.sender) revert NotMaker();
            bytes32 quoteHash = hashQuote(quotes[i]);
            if (!used[quoteHash]) {
                used[quoteHash] = true;
                emit QuoteCancelled(quoteHash, msg.sender);
            }
        }
    }

    /// @notice Void every quote of the caller with a nonce below `nonce`. It only rises: lowering it
    /// would revive quotes the maker already gave up on.
    function setMinNonce(uint256 nonce) external {
        if (nonce < minNonce[msg.sender]) revert NonceTooLow();
        minNonce[msg.sender] = nonce;
        emit MinNonceSet(msg.sender, nonce);
    }

    function setPaused(bool paused_) external onlyOwner {
        paused = paused_;
        emit PausedSet(paused_);
    }

    /// @notice The EIP-712 digest the maker signs for `quote`.
    function hashQuote(Quote calldata quote) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(QUOTE_TYPEHASH, quote)));
    }

    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @dev A transferFrom that tolerates tokens returning nothing, bubbles the token's own revert
    /// reason, and otherwise fails with the spec's text (OpenZeppelin 5 would raise a custom error).
    function _transferFrom(address token, address from, address to, uint256 amount) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IERC20.transferFrom, (from, to, amount)));
        if (!ok && ret.length > 0) {
            assembly ("memory-safe") {
                revert(add(ret, 32), mload(ret))
            }
        }
        bool accepted = ok && (ret.length == 0 ? token.code.length > 0 : ret.length == 32 && abi.decode(ret, (bool)));
        if (!accepted) revert("SafeERC20: low-level call failed");
    }
}
