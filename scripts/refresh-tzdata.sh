#!/usr/bin/env bash
# Refreshes sources/tzdata/ (tzdata.zi and zone.tab) from the newest Debian `tzdata` package apt can see,
# as sources/tzdata/SOURCE.md describes: the two files are copied unmodified from its /usr/share/zoneinfo/.
# Debian, not IANA's tarball: the registries this project may reach are npm and Debian, and Debian's
# tzdata.zi is built with backzone, which the build relies on (every zone.tab zone keeps its own history).
# Never goes back to an older release. Prints what it did; exit 0 also when nothing changed.
# TZDATA_ZONEINFO=<folder holding tzdata.zi and zone.tab> takes the files from there instead of apt
# (the offline rehearsal of `npm run refresh`, test/refresh.test.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=sources/tzdata

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${TZDATA_ZONEINFO:-}" ]; then
  zoneinfo="$TZDATA_ZONEINFO"
  pkg_version="from $TZDATA_ZONEINFO"
  suite="a local folder"
else
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo   # root in CI's container; a developer may need sudo
  $sudo apt-get update -qq
  # apt-get download needs no root; it writes the .deb into the current folder.
  # (As root apt warns that the download runs unsandboxed: mktemp folders are private; harmless.)
  (cd "$tmp" && apt-get download -qq tzdata)
  deb=$(ls "$tmp"/tzdata_*.deb)
  pkg_version=$(dpkg-deb -f "$deb" Version)
  # Which archive (bookworm-security, trixie-updates, ...) the chosen version came from, for SOURCE.md.
  suite=$(apt-cache madison tzdata | awk -F'|' -v v="$pkg_version" 'index($2, v) { split($3, a, " "); print a[2]; exit }')
  suite=${suite%%/*}
  dpkg-deb -x "$deb" "$tmp/root"
  zoneinfo="$tmp/root/usr/share/zoneinfo"
fi
for f in tzdata.zi zone.tab; do
  [ -s "$zoneinfo/$f" ] || { echo "refresh-tzdata: $f missing from Debian tzdata $pkg_version" >&2; exit 1; }
done

# The release is the first line of tzdata.zi ("# version 2026f"); the build reads it from there too.
new=$(sed -n '1s/^# version //p' "$zoneinfo/tzdata.zi")
old=$(sed -n '1s/^# version //p' "$dest/tzdata.zi")
[ -n "$new" ] || { echo "refresh-tzdata: no version line in tzdata.zi of Debian tzdata $pkg_version" >&2; exit 1; }
if [ "$new" = "$old" ]; then
  echo "tzdata $old is current (Debian tzdata $pkg_version)"
  exit 0
fi
if [ "$(printf '%s\n%s\n' "$old" "$new" | sort -V | tail -n 1)" != "$new" ]; then
  echo "tzdata: Debian's newest ($new, $pkg_version) is older than ours ($old); keeping ours"
  exit 0
fi

# Temporary name, then rename: an interrupted copy never leaves half a file.
for f in tzdata.zi zone.tab; do
  cp "$zoneinfo/$f" "$dest/$f.tmp"
  mv "$dest/$f.tmp" "$dest/$f"
done
# SOURCE.md: the release everywhere it is named, and the origin line with the package and the date.
# (The date is when we copied the files: documentation, never part of the data.)
sed -i \
  -e "s/release $old/release $new/g" \
  -e "s|^- Origin: .*|- Origin: Debian package \`tzdata\` $pkg_version (${suite:-unknown suite}), the newest the build machine's apt sources carry. Retrieved $(date -u +%F) with \`apt-get download tzdata=$pkg_version\` by scripts/refresh-tzdata.sh.|" \
  "$dest/SOURCE.md"
# The build refuses sources that differ from sources/sources.lock.json: pin the new files deliberately.
npm run --silent lock:sources
echo "tzdata $old -> $new (Debian tzdata $pkg_version from ${suite:-an unknown suite})"
