#!/usr/bin/env bash
# Starts the Chromium named by E2E_CHROMIUM (support/browser.ts) with its feature switches joined:
# Chromium keeps only the last --disable-features and the last --enable-features of its command
# line, and a launcher's own list (Playwright's, chrome-launcher's) comes before the journeys'.
# Passed on as they are, the journeys' switch would drop every feature the launcher turned off.
set -euo pipefail
args=() disabled=() enabled=()
for arg in "$@"; do
  case $arg in
    --disable-features=*) disabled+=("${arg#--disable-features=}") ;;
    --enable-features=*) enabled+=("${arg#--enable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done
joined() { local IFS=,; echo "$*"; }
if [ ${#disabled[@]} -gt 0 ]; then args+=("--disable-features=$(joined "${disabled[@]}")"); fi
if [ ${#enabled[@]} -gt 0 ]; then args+=("--enable-features=$(joined "${enabled[@]}")"); fi
exec "${E2E_CHROMIUM:?the Chromium to start (support/browser.ts sets it)}" "${args[@]}"
