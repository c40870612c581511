// Signer recovery on the system's libsecp256k1 (Debian's libsecp256k1-dev): a Node-API module of one function.
//
// Why: the `secp256k1` npm package bundles the library as it was in 2019, whose modular inverses are exponentiations;
// the library since 0.2 inverts by safegcd. One recovery took 53 us through the package and takes 38 us here
// (docs/benchmarks.md 0.14.11), and recovery is nearly all of a quote's work on the signature pool's threads.
// workers/sig/recover.ts loads this when `make build` could compile it and falls back to the package otherwise;
// test/workers/sig/nativeRecover.test.ts holds the two to the same answers.
//
// recover(compact: Uint8Array(64), recid: 0|1, digest: Uint8Array(32), out: Uint8Array(65)): boolean
//   writes the signer's uncompressed public key (0x04 || x || y) into `out` and answers true, or answers false when
//   no key recovers from the signature (r or s out of range, no point for r). Arguments of another shape throw.
#include <node_api.h>
#include <pthread.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>

// One context for every thread: recovery only reads it (libsecp256k1 documents a context as safe to share for
// verification), and making it is the costly part (its tables), so it is made once, by whichever thread loads first.
static secp256k1_context *ctx;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void make_context(void) { ctx = secp256k1_context_create(SECP256K1_CONTEXT_VERIFY); }

static int bytes(napi_env env, napi_value v, size_t want, unsigned char **data) {
  napi_typedarray_type type;
  size_t length;
  void *raw;
  if (napi_get_typedarray_info(env, v, &type, &length, &raw, NULL, NULL) != napi_ok || type != napi_uint8_array ||
      length != want)
    return 0;
  *data = raw;
  return 1;
}

static napi_value recover(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4], answer;
  unsigned char *compact, *digest, *out;
  uint32_t recid;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 4 ||
      !bytes(env, argv[0], 64, &compact) || napi_get_value_uint32(env, argv[1], &recid) != napi_ok || recid > 1 ||
      !bytes(env, argv[2], 32, &digest) || !bytes(env, argv[3], 65, &out)) {
    napi_throw_type_error(env, NULL, "recover(compact[64], recid 0|1, digest[32], out[65])");
    return NULL;
  }
  secp256k1_ecdsa_recoverable_signature sig;
  secp256k1_pubkey key;
  size_t length = 65;
  int ok = secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &sig, compact, (int)recid) &&
           secp256k1_ecdsa_recover(ctx, &key, &sig, digest) &&
           secp256k1_ec_pubkey_serialize(ctx, out, &length, &key, SECP256K1_EC_UNCOMPRESSED);
  napi_get_boolean(env, ok != 0, &answer);
  return answer;
}

NAPI_MODULE_INIT() {
  pthread_once(&once, make_context);
  if (ctx == NULL) {
    napi_throw_error(env, NULL, "libsecp256k1: no context");
    return NULL;
  }
  napi_value fn;
  if (napi_create_function(env, "recover", NAPI_AUTO_LENGTH, recover, NULL, &fn) != napi_ok ||
      napi_set_named_property(env, exports, "recover", fn) != napi_ok)
    return NULL;
  return exports;
}
