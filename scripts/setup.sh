#!/usr/bin/env bash
# Installs what Imprint needs and is missing, on a fresh Debian machine or a developer's:
# the npm dependencies, a Chromium (Debian's package, when none is found and we are root),
# poppler-utils (pdftotext/pdfinfo, which the tests use to read PDFs), postgresql (the
# PostgreSQL store's tests start a throwaway cluster from its binaries) and nginx (the
# multi-node tests start it in front of the nodes, with a configuration of their own). Safe to re-run:
# each step is skipped when its result is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

# A supported Node first (scripts/node-runtime.sh): the system's when it is one, else Node 24
# installed into .node/24/ (Debian 12's Node 20 is past its end of life). It goes first on PATH
# for the rest of this script, so `npm ci` and the build run on it. Nothing the project installs
# is compiled (the store is node:sqlite; the few native packages ship N-API binaries), so the
# Node that installed node_modules does not matter to the one that runs them.
# IMPRINT_NODE_MAJOR=22|24 picks another major.
node_bin="$(bash scripts/node-runtime.sh bin "${IMPRINT_NODE_MAJOR:-}")"
export PATH="$node_bin:$PATH"
log "Node $(node -p 'process.versions.node') ($node_bin/node)"

# npm dependencies: install when node_modules is missing or older than the lock file.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi

have_browser() {
  [ -n "${IMPRINT_BROWSER:-}" ] && [ -x "${IMPRINT_BROWSER}" ] && return 0
  for b in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome-stable /usr/bin/google-chrome; do
    [ -x "$b" ] && return 0
  done
  return 1
}

apt_packages=()
have_browser || apt_packages+=(chromium)
command -v pdftotext >/dev/null 2>&1 || apt_packages+=(poppler-utils)
# A font family with wide coverage so documents without their own fonts render legibly.
[ -d /usr/share/fonts/truetype/dejavu ] || apt_packages+=(fonts-dejavu-core)
# The PostgreSQL store's tests start their own throwaway cluster from the server's binaries
# (initdb, pg_ctl, postgres); they use no server the machine may run.
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || apt_packages+=(postgresql)
# The multi-node tests run /usr/sbin/nginx as their own child process (test/helpers/nginx.ts).
[ -x /usr/sbin/nginx ] || apt_packages+=(nginx)
# docs/deploy.md's walk-through (run by test/e2e/deploy-guide.test.ts) reads JSON answers with jq
# and talks to its servers with curl.
command -v jq >/dev/null 2>&1 || apt_packages+=(jq)
command -v curl >/dev/null 2>&1 || apt_packages+=(curl)
# E-invoices (docs/einvoice.md): `imprint check --einvoice` and the tests validate with the official
# schemas (xmllint) and Schematron rules (Saxon-HE on Java); qpdf reads the PDF/A structure.
command -v xmllint >/dev/null 2>&1 || apt_packages+=(libxml2-utils)
command -v java >/dev/null 2>&1 || apt_packages+=(default-jre-headless)
[ -e /usr/share/java/Saxon-HE.jar ] || apt_packages+=(libsaxonhe-java)
command -v qpdf >/dev/null 2>&1 || apt_packages+=(qpdf)
# Forms (docs/finishing.md): the tests read the fields back with pdftk-java as well as qpdf.
command -v pdftk >/dev/null 2>&1 || apt_packages+=(pdftk-java)

if [ ${#apt_packages[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${apt_packages[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    # Installed for their binaries only: no system nginx on port 80, no PostgreSQL cluster on
    # 5432. Debian's policy-rc.d (exit 101: "action forbidden") keeps the packages' install
    # scripts from starting their services; removed after the install when this script wrote it.
    policy=/usr/sbin/policy-rc.d
    if [ ! -e "$policy" ]; then
      printf '#!/bin/sh\n# Written by Imprint scripts/setup.sh for one apt-get install; removed after it.\nexit 101\n' >"$policy"
      chmod 755 "$policy"
      trap 'rm -f "$policy"' EXIT
    fi
    apt-get update -qq
    apt-get install -y -qq "${apt_packages[@]}" >/dev/null
  else
    log "missing: ${apt_packages[*]}. Install them with your package manager (e.g. sudo apt-get install ${apt_packages[*]}),"
    log "or point Imprint at an installed Chrome/Chromium with IMPRINT_BROWSER=/path/to/chrome."
    have_browser || exit 1
  fi
fi

# The CLI runs from dist/; rebuild it when the sources (or the build script) are newer. This is
# the only build `npm test` and `npm run demo` do.
if [ ! -f dist/cli.js ] || [ -n "$(find src scripts/build.js scripts/build-web.js scripts/build-output.js package-lock.json -newer dist/cli.js -print -quit)" ]; then
  log "building the CLI"
  node scripts/build.js
fi
