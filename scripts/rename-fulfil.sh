#!/usr/bin/env bash
# Applies the naming decision of docs/conventions.md: "fulfill" (American, as in the API's
# "fulfillment", `fos fulfill` and the models), never "fulfil" — in identifiers, file names,
# comments and docs. Re-runnable (a renamed tree comes out unchanged).
#
#   scripts/rename-fulfil.sh                 the whole tree (the lead, after all merges)
#   scripts/rename-fulfil.sh bench docs/x.md only these paths
set -euo pipefail
cd "$(dirname "$0")/.."
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(src test scripts bench docs README.md CONTRIBUTING.md)
# file names first (git mv keeps history), then the imports of them
for f in $(git ls-files -- "${paths[@]}" | grep -E '(^|/)([^/]*-)?fulfil[.-][^/]*$' | grep -v '^scripts/rename-fulfil\.sh$' || true); do
  base="$(basename "$f" | sed -E 's/(^|-)fulfil([.-])/\1fulfill\2/')"
  git mv "$f" "$(dirname "$f")/$base"
done
files=$(git ls-files -- "${paths[@]}" | grep -Ev '^src/generated/|\.(png|pdf|wasm)$' | xargs grep -lE '[Ff]ulfil([^l]|$)|FULFIL([^L]|$)' 2>/dev/null | grep -v '^scripts/rename-fulfil.sh$' || true)
[ -z "$files" ] || perl -pi -e 's/([Ff])ulfil(?!l)/$1ulfill/g; s/FULFIL(?![lL])/FULFILL/g' $files
echo "renamed in $(echo "$files" | grep -c . || true) files"
