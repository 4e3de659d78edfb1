#!/usr/bin/env bash
# The Node that runs Imprint's build and tests. Imprint supports Node 24 (active LTS) and
# Node 22 (maintenance LTS); a machine whose own Node is older (Debian 12 ships Node 20, past
# its end of life) gets a pinned release from the npm registry's node-<os>-<cpu> package,
# unpacked into .node/<major>/ of this checkout (git ignores it). Nothing outside the checkout
# changes: the system's node stays as it was.
#
#   bash scripts/node-runtime.sh bin [22|24]     prints the folder whose `node` is that major
#                                                 (the default: the system's when it is 22.19 or later, else 24),
#                                                 installing it first when needed
#   bash scripts/node-runtime.sh exec [22|24] -- command args...
#                                                 runs the command with that folder first on PATH, so that
#                                                 `node`, `npm` and `#!/usr/bin/env node` scripts all use it
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

# The releases the project is tested on. npm verifies each download against the registry's
# integrity hash. Raise both together with CI's figures (README, "Supported Node versions").
declare -A PINNED=([24]=24.21.0 [22]=22.23.3)
# The lowest Node the package runs on: the first version in package.json's "engines" (one place for it).
IFS=. read -r FLOOR_MAJOR FLOOR_MINOR < <(grep -oE '"node": *"[^"]*"' "$root/package.json" | grep -oE '[0-9]+\.[0-9]+' | head -1)

log() { printf '\033[1m[node]\033[0m %s\n' "$*" >&2; }

system_version() { command -v node >/dev/null 2>&1 && node -p 'process.versions.node' 2>/dev/null || true; }

supported() { # version -> 0 when it meets the floor
  local major minor
  IFS=. read -r major minor _ <<<"$1"
  [ -n "$major" ] && { [ "$major" -gt "$FLOOR_MAJOR" ] || { [ "$major" -eq "$FLOOR_MAJOR" ] && [ "$minor" -ge "$FLOOR_MINOR" ]; }; }
}

# Where a pinned major lives once installed; installs it when it is not there yet.
installed_bin() {
  local major=$1 version=${PINNED[$1]:-}
  [ -n "$version" ] || { log "no pinned Node $major (pinned: ${!PINNED[*]})"; exit 2; }
  local dir="$root/.node/$major"
  if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" -p 'process.versions.node')" = "$version" ]; then
    printf '%s\n' "$dir/bin"
    return
  fi
  local os cpu
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) log "no Node package for $(uname -s): install Node $major yourself and put it first on PATH"; exit 1 ;; esac
  case "$(uname -m)" in x86_64 | amd64) cpu=x64 ;; aarch64 | arm64) cpu=arm64 ;; *) log "no Node package for $(uname -m): install Node $major yourself and put it first on PATH"; exit 1 ;; esac
  command -v npm >/dev/null 2>&1 || { log "npm is needed to fetch Node $version (the node-$os-$cpu package)"; exit 1; }
  log "installing Node $version into .node/$major (npm registry: node-$os-$cpu@$version, about 50 MB)"
  local tmp
  tmp="$(mktemp -d)"
  # npm pack downloads and checks the tarball without running anything from it.
  (cd "$tmp" && npm pack --silent "node-$os-$cpu@$version" >/dev/null)
  rm -rf "$dir.partial"
  mkdir -p "$dir.partial"
  tar -xzf "$tmp"/node-"$os"-"$cpu"-"$version".tgz -C "$dir.partial" --strip-components=1 package/bin package/LICENSE
  rm -rf "$tmp"
  # Swapped in whole, so an interrupted download never leaves a half-written node behind.
  rm -rf "$dir"
  mv "$dir.partial" "$dir"
  printf '%s\n' "$dir/bin"
}

bin_for() { # [major] -> folder whose node is the one to use
  local want=${1:-}
  local have
  have="$(system_version)"
  if [ -z "$want" ]; then
    if [ -n "$have" ] && supported "$have"; then
      dirname "$(command -v node)"
      return
    fi
    want=24
  fi
  if [ -n "$have" ] && [ "${have%%.*}" = "$want" ] && supported "$have"; then
    dirname "$(command -v node)"
    return
  fi
  installed_bin "$want"
}

case "${1:-}" in
  bin)
    bin_for "${2:-}"
    ;;
  exec)
    shift
    major=""
    if [ "${1:-}" != "--" ]; then
      major="${1:-}"
      shift
    fi
    [ "${1:-}" = "--" ] && shift
    [ $# -gt 0 ] || { log "usage: node-runtime.sh exec [22|24] -- command args..."; exit 2; }
    dir="$(bin_for "$major")"
    export PATH="$dir:$PATH"
    exec "$@"
    ;;
  *)
    log "usage: node-runtime.sh bin [22|24] | exec [22|24] -- command args..."
    exit 2
    ;;
esac
