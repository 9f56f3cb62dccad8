#!/usr/bin/env bash
# Starts the Chromium named by E2E_CHROMIUM (support/browser.ts) for the journeys, Lighthouse and
# the screenshots, without the pages of Chromium's own that a test's window does not need: each
# new window loads its omnibox popup as a WebUI page in a renderer of its own, and with a window
# per test that renderer and the browser's side of it were a fifth of the journeys' CPU on two
# cores (and CPU taken from a page Lighthouse audits).
# Chromium keeps only the last --disable-features and the last --enable-features of its command
# line, so the launcher's own lists (Playwright's, chrome-launcher's) and these are joined into one
# switch each: passed on as they are, a later switch would drop every feature an earlier one named.
set -euo pipefail
args=() disabled=(WebUIOmniboxPopup WebUIOmniboxAimPopup) enabled=()
for arg in "$@"; do
  case $arg in
    --disable-features=*) disabled+=("${arg#--disable-features=}") ;;
    --enable-features=*) enabled+=("${arg#--enable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done
joined() { local IFS=,; echo "$*"; }
args+=("--disable-features=$(joined "${disabled[@]}")")
if [ ${#enabled[@]} -gt 0 ]; then args+=("--enable-features=$(joined "${enabled[@]}")"); fi
exec "${E2E_CHROMIUM:?the Chromium to start (support/browser.ts sets it)}" "${args[@]}"
