#!/usr/bin/env bash
# `make build`'s native step: signer recovery on the system's libsecp256k1 (workers/sig/native/recover.c) compiled
# to dist/native/recover.node. It needs a C compiler, the Node-API headers (the node-api-headers package, a dev
# dependency, else those beside the node binary) and Debian's libsecp256k1-dev; the compiler and the library are
# installed here when missing and this machine can (Debian, root). Without them one line says so and the build goes
# on: the signature pool then recovers through the `secp256k1` npm package (workers/sig/recover.ts), ~40% more CPU a
# recovery, with the same answers.
set -uo pipefail
src=workers/sig/native/recover.c
out=dist/native/recover.node
[[ -f "$out" && "$out" -nt "$src" ]] && exit 0

headers=node_modules/node-api-headers/include
[[ -r "$headers/node_api.h" ]] || headers="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")/include/node"
missing=()
command -v cc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
[[ -r /usr/include/secp256k1_recovery.h ]] || missing+=(libsecp256k1-dev)
if [[ ${#missing[@]} -gt 0 && $(id -u) -eq 0 && -r /etc/debian_version ]] && command -v apt-get >/dev/null; then
  echo "installing Debian's ${missing[*]} for signer recovery on libsecp256k1 (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; } \
    || true
fi
why=
command -v cc >/dev/null 2>&1 || why="no C compiler (apt-get install gcc)"
[[ -z "$why" && ! -r "$headers/node_api.h" ]] && why="no Node headers at $headers"
[[ -z "$why" && ! -r /usr/include/secp256k1_recovery.h ]] && why="no libsecp256k1 (apt-get install libsecp256k1-dev)"
if [[ -z "$why" ]]; then
  mkdir -p dist/native
  if cc -O2 -shared -fPIC -Wall -I"$headers" -o "$out.tmp" "$src" -lsecp256k1 -lpthread 2>dist/native/build.log; then
    mv "$out.tmp" "$out" && rm -f dist/native/build.log
    exit 0
  fi
  why="it did not compile (dist/native/build.log)"
fi
echo "signer recovery on libsecp256k1 not built: $why; the signature pool uses the secp256k1 npm package instead"
exit 0
