#!/usr/bin/env bash
# Copyright 2026 The Emberscope Authors
# SPDX-License-Identifier: Apache-2.0
#
# Deploys a packaged Emberscope plugin (the zip `go tool mage package` writes)
# to a development Grafana: unpacks it, copies the plugin folder into the
# instance's plugins directory (over SSH, or into a mounted volume), allows
# unsigned loading of its plugin ids, restarts Grafana or calls its reload,
# and waits until Grafana serves the new version.
#
#   scripts/deploy-dev.sh artifacts/emberscope-app-0.1.0.zip
#
# Settings come from the environment (CI passes its secrets):
#   DEPLOY_TARGET           required. Grafana's plugins directory:
#                             ssh://user@host[:port]/var/lib/grafana/plugins  (copied over SSH)
#                             /mnt/grafana-plugins or file:///mnt/grafana-plugins  (a mounted volume)
#   GRAFANA_URL             required. The instance's base URL, e.g. https://grafana-dev.example.org
#   GRAFANA_TOKEN           required. A service account token with the Admin role.
#   GRAFANA_RELOAD_URL      an address to POST to (with the token) that reloads Grafana's plugins,
#   DEPLOY_RESTART_CMD      or a command that restarts Grafana, run on the SSH host for ssh
#                           targets and here otherwise (e.g. "sudo systemctl restart grafana-server").
#                           One of the two is required.
#   GRAFANA_INI             grafana.ini on the target (on the SSH host for ssh targets): its
#                           [plugins] allow_loading_unsigned_plugins gains the plugin ids. Leave
#                           it empty when the instance sets GF_PLUGINS_ALLOW_LOADING_UNSIGNED_PLUGINS.
#   DEPLOY_SSH_KEY          ssh targets: the private key (its contents).
#   DEPLOY_SSH_KNOWN_HOSTS  ssh targets, required: the host's known_hosts line(s); hosts are never
#                           trusted blindly.
#   DEPLOY_WAIT_SECONDS     how long to wait for Grafana to serve the new version (default 120).
set -euo pipefail

die() { echo "deploy-dev: $*" >&2; exit 1; }

[ $# -eq 1 ] || { echo "usage: $0 <plugin zip>" >&2; exit 2; }
zip=$1
[ -f "$zip" ] || die "no such file: $zip"

missing=()
for v in DEPLOY_TARGET GRAFANA_URL GRAFANA_TOKEN; do
  [ -n "${!v:-}" ] || missing+=("$v")
done
if [ -z "${GRAFANA_RELOAD_URL:-}" ] && [ -z "${DEPLOY_RESTART_CMD:-}" ]; then
  missing+=("GRAFANA_RELOAD_URL or DEPLOY_RESTART_CMD")
fi
case "${DEPLOY_TARGET:-}" in
  ssh://*) [ -n "${DEPLOY_SSH_KNOWN_HOSTS:-}" ] || missing+=("DEPLOY_SSH_KNOWN_HOSTS") ;;
esac
if [ ${#missing[@]} -gt 0 ]; then
  printf 'deploy-dev: missing settings (CI secrets): %s\n' "$(IFS=,; echo "${missing[*]}" | sed 's/,/, /g')" >&2
  echo "deploy-dev: see the top of $0 for what each one is" >&2
  exit 2
fi

for tool in unzip tar curl awk; do
  command -v "$tool" >/dev/null || die "needs $tool"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Unpack and read what is being deployed.
unzip -q "$zip" -d "$work/pkg"
tops=$(ls -A "$work/pkg")
[ "$(echo "$tops" | wc -l)" -eq 1 ] || die "$zip: want one folder (the plugin id) at the top, found: $(echo $tops)"
plugin_id=$tops
[ -f "$work/pkg/$plugin_id/plugin.json" ] || die "$zip: no $plugin_id/plugin.json"
json_field() { # file field: the first "field": "value" of a plugin.json
  awk -v f="\"$2\"" -F'"' 'index($0, f) { for (i = 1; i <= NF; i++) if ("\"" $i "\"" == f) { print $(i + 2); exit } }' "$1"
}
version=$(json_field "$work/pkg/$plugin_id/plugin.json" version)
[ -n "$version" ] || die "$zip: $plugin_id/plugin.json has no version"
ids=$(find "$work/pkg/$plugin_id" -name plugin.json | while read -r f; do json_field "$f" id; done | sort -u | paste -sd, -)
echo "deploy-dev: $plugin_id $version (plugins $ids) to $DEPLOY_TARGET"

# The swap, run where the plugins directory is: the new folder is unpacked
# beside the old one and moved into place, so Grafana never sees half a plugin.
install_script='
set -eu
dir=$1; id=$2
mkdir -p "$dir"
rm -rf "$dir/.$id.new" "$dir/.$id.old"
mkdir "$dir/.$id.new"
tar -xzf - -C "$dir/.$id.new"
if [ -d "$dir/$id" ]; then mv "$dir/$id" "$dir/.$id.old"; fi
mv "$dir/.$id.new/$id" "$dir/$id"
rm -rf "$dir/.$id.new" "$dir/.$id.old"
'

# Adds ids to [plugins] allow_loading_unsigned_plugins of an ini file,
# keeping everything else as it is (a POSIX sh script: it runs on the SSH host).
cat > "$work/allow.sh" <<'ALLOW'
set -eu
ini=$1; ids=$2
[ -f "$ini" ] || : > "$ini"
awk -v ids="$ids" '
function merge(cur,   n, a, i, seen, out) {
  n = split(cur "," ids, a, ","); out = ""
  for (i = 1; i <= n; i++) {
    gsub(/^[ \t]+|[ \t]+$/, "", a[i])
    if (a[i] != "" && !seen[a[i]]++) out = out (out == "" ? "" : ",") a[i]
  }
  return out
}
/^[ \t]*\[/ {
  if (inplugins && !done) { print "allow_loading_unsigned_plugins = " merge(""); done = 1 }
  inplugins = ($0 ~ /^[ \t]*\[plugins\]/)
}
inplugins && !done && /^[ \t]*;?[ \t]*allow_loading_unsigned_plugins[ \t]*=/ {
  line = $0; sub(/^[^=]*=[ \t]*/, "", line)
  if ($0 ~ /^[ \t]*;/) line = ""
  print "allow_loading_unsigned_plugins = " merge(line); done = 1; next
}
{ print }
END {
  if (!done) {
    if (!inplugins) print "\n[plugins]"
    print "allow_loading_unsigned_plugins = " merge("")
  }
}' "$ini" > "$ini.tmp"
cat "$ini.tmp" > "$ini"
rm -f "$ini.tmp"
ALLOW

chmod -R u+rwX,go+rX "$work/pkg/$plugin_id"
case "$DEPLOY_TARGET" in
  ssh://*)
    rest=${DEPLOY_TARGET#ssh://}
    hostport=${rest%%/*}
    dir=/${rest#*/}
    [ "$dir" != "/$rest" ] || die "DEPLOY_TARGET $DEPLOY_TARGET: no plugins directory after the host"
    port=22
    case "$hostport" in *:*) port=${hostport##*:}; hostport=${hostport%:*} ;; esac
    printf '%s\n' "$DEPLOY_SSH_KNOWN_HOSTS" > "$work/known_hosts"
    ssh_opts=(-p "$port" -o BatchMode=yes -o StrictHostKeyChecking=yes -o "UserKnownHostsFile=$work/known_hosts")
    if [ -n "${DEPLOY_SSH_KEY:-}" ]; then
      (umask 077; printf '%s\n' "$DEPLOY_SSH_KEY" > "$work/key")
      ssh_opts+=(-i "$work/key" -o IdentitiesOnly=yes)
    fi
    remote() { ssh "${ssh_opts[@]}" "$hostport" "$@"; }
    quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
    tar -C "$work/pkg" -czf - "$plugin_id" | remote "sh -c $(quote "$install_script") deploy $(quote "$dir") $(quote "$plugin_id")" \
      || die "copying to $hostport:$dir failed"
    if [ -n "${GRAFANA_INI:-}" ]; then
      remote "sh -s -- $(quote "$GRAFANA_INI") $(quote "$ids")" < "$work/allow.sh" \
        || die "allowing unsigned plugins in $hostport:$GRAFANA_INI failed"
    fi
    if [ -n "${DEPLOY_RESTART_CMD:-}" ]; then
      echo "deploy-dev: restarting Grafana on $hostport"
      remote "$DEPLOY_RESTART_CMD" < /dev/null || die "restart command failed on $hostport: $DEPLOY_RESTART_CMD"
    fi
    ;;
  *)
    dir=${DEPLOY_TARGET#file://}
    tar -C "$work/pkg" -czf - "$plugin_id" | sh -c "$install_script" deploy "$dir" "$plugin_id" \
      || die "copying to $dir failed"
    if [ -n "${GRAFANA_INI:-}" ]; then
      sh "$work/allow.sh" "$GRAFANA_INI" "$ids" || die "allowing unsigned plugins in $GRAFANA_INI failed"
    fi
    if [ -n "${DEPLOY_RESTART_CMD:-}" ]; then
      echo "deploy-dev: restarting Grafana"
      sh -c "$DEPLOY_RESTART_CMD" || die "restart command failed: $DEPLOY_RESTART_CMD"
    fi
    ;;
esac
echo "deploy-dev: copied $plugin_id to $dir"

auth=(-H "Authorization: Bearer $GRAFANA_TOKEN")
if [ -n "${GRAFANA_RELOAD_URL:-}" ]; then
  echo "deploy-dev: reloading plugins ($GRAFANA_RELOAD_URL)"
  code=$(curl -sS -o "$work/reload" -w '%{http_code}' -X POST "${auth[@]}" "$GRAFANA_RELOAD_URL") \
    || die "reload request to $GRAFANA_RELOAD_URL failed"
  case "$code" in 2??) ;; *) die "reload answered HTTP $code: $(head -c 300 "$work/reload")" ;; esac
fi

# Wait until Grafana serves the deployed version.
deadline=$(( $(date +%s) + ${DEPLOY_WAIT_SECONDS:-120} ))
settings="${GRAFANA_URL%/}/api/plugins/$plugin_id/settings"
last=""
while :; do
  code=$(curl -sS -o "$work/settings" -w '%{http_code}' "${auth[@]}" "$settings" 2>/dev/null) || code=000
  case "$code" in
    200)
      served=$(json_field "$work/settings" version)
      [ "$served" = "$version" ] && break
      last="Grafana serves $plugin_id $served, not $version" ;;
    401|403) die "Grafana refused the token (HTTP $code at $settings): GRAFANA_TOKEN needs the Admin role" ;;
    404) last="Grafana has not loaded $plugin_id (is unsigned loading allowed for $ids?)" ;;
    *) last="HTTP $code from $settings" ;;
  esac
  [ "$(date +%s)" -lt "$deadline" ] || die "gave up waiting: $last"
  sleep 2
done
echo "deploy-dev: Grafana at $GRAFANA_URL serves $plugin_id $version"
