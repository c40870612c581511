#!/usr/bin/env bash
# `make test` runs suites against real servers and tools that come from Debian: nats-server (the cluster
# suites), chromium (the console's browser suites), nginx (the console behind a proxy), prometheus and its
# promtool (metrics, alert rules, a live scrape), openssl (throw-away cluster certificates) and Debian's
# python3 with websockets, ecdsa and pycryptodome (the second-language maker). Each is installed here when it
# is missing and this machine can (Debian, root); elsewhere one line says what to install, and the suites that
# need it fail rather than skip.
set -uo pipefail

have() {   # a binary through its env variable, then PATH, then Debian's place
  local var="$1" bin="$2" fallback="$3"
  [[ -n "${!var:-}" && -x "${!var}" ]] || command -v "$bin" >/dev/null 2>&1 || [[ -x "$fallback" ]]
}
python_has() {   # Debian's python3 (PYTHON3_BIN first) imports the maker's modules
  local py="${PYTHON3_BIN:-/usr/bin/python3}"
  [[ -x "$py" ]] && "$py" -c "import $1" >/dev/null 2>&1
}

missing=()
have NATS_SERVER_BIN nats-server /usr/sbin/nats-server || missing+=(nats-server)
have CHROME_PATH chromium /usr/bin/chromium || missing+=(chromium)
have NGINX_BIN nginx /usr/sbin/nginx || missing+=(nginx)
have PROMETHEUS_BIN prometheus /usr/bin/prometheus || missing+=(prometheus)
have OPENSSL_BIN openssl /usr/bin/openssl || missing+=(openssl)
python_has websockets || missing+=(python3-websockets)
python_has ecdsa || missing+=(python3-ecdsa)
python_has Cryptodome.Hash.keccak || missing+=(python3-pycryptodome)
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 && -r /etc/debian_version ]] && command -v apt-get >/dev/null; then
  echo "installing Debian's ${missing[*]} for the test suites (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  # policy-rc.d 101: a package that ships a service (nginx, prometheus) must not start it here; the tests
  # start their own on loopback ports.
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; placed=1; fi
  apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "${missing[@]}" >/dev/null; } \
    || echo "could not install ${missing[*]}: the suites that need them will fail (apt-get install ${missing[*]})"
  [[ -n "${placed:-}" ]] && rm -f /usr/sbin/policy-rc.d
else
  echo "missing ${missing[*]}: install Debian's packages (apt-get install ${missing[*]}), or set NATS_SERVER_BIN / CHROME_PATH / NGINX_BIN / PROMETHEUS_BIN / OPENSSL_BIN / PYTHON3_BIN; the suites that need them will fail"
fi
exit 0
