#!/usr/bin/env bash
# Formats the whole tree once with Prettier (.prettierrc.json), for the merge of parallel branches:
# run it after the last merge, commit the result alone ("mechanical: prettier --write"), then
# `npm run lint` (ESLint + prettier --check) passes and stays the guard in .ci/run.
# Re-runnable: a formatted tree comes out unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(src test scripts bench eslint.config.js vitest.config.ts vitest.pg.config.ts)
# twice: a first pass leaves a few files (comments beside reflowed calls) that a second one settles
npx prettier --write --log-level warn "${targets[@]}"
npx prettier --write --log-level warn "${targets[@]}"
npx eslint src test scripts bench
echo "formatted; commit it alone: git commit -am 'mechanical: prettier --write'"
