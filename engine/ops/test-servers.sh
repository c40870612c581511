#!/usr/bin/env bash
# `make test` runs suites against real servers that come from Debian: nats-server (the cluster suite) and
# chromium (the console's browser suite). Each is installed here when it is missing and this machine can
# (Debian, root); elsewhere one line says what to install, and the suite that needs it fails rather than skips.
set -uo pipefail

have() {   # a binary through its env variable, then PATH, then Debian's place
  local var="$1" bin="$2" fallback="$3"
  [[ -n "${!var:-}" && -x "${!var}" ]] || command -v "$bin" >/dev/null 2>&1 || [[ -x "$fallback" ]]
}

missing=()
have NATS_SERVER_BIN nats-server /usr/sbin/nats-server || missing+=(nats-server)
have CHROME_PATH chromium /usr/bin/chromium || missing+=(chromium)
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 && -r /etc/debian_version ]] && command -v apt-get >/dev/null; then
  echo "installing Debian's ${missing[*]} for the test suites (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "${missing[@]}" >/dev/null; } \
    || echo "could not install ${missing[*]}: the suites that need them will fail (apt-get install ${missing[*]})"
else
  echo "missing ${missing[*]}: install Debian's packages (apt-get install ${missing[*]}), or set NATS_SERVER_BIN / CHROME_PATH; the suites that need them will fail"
fi
exit 0
