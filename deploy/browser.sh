#!/bin/sh
# Debian's Chromium, and a small Chinese font for its screenshots, for the memory page's browser
# tests (tests/test_web_browser.py). Playwright drives this browser; it never downloads one.
set -eu
packages=""
[ -x /usr/bin/chromium ] || packages="chromium"
fc-list :lang=zh 2>/dev/null | grep -q . || packages="$packages fonts-wqy-microhei"
[ -n "$packages" ] || exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
echo "installing Debian's $packages for the browser tests" >&2
# shellcheck disable=SC2086  # one word per package
$sudo apt-get install -y $packages || { $sudo apt-get update && $sudo apt-get install -y $packages; }
