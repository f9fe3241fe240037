#!/usr/bin/env bash
# Moves the API contract into src/contract/ (scripts/refactor-contract.mjs says what moves) and
# rewrites the imports, then type-checks. For the merge: drop the branch's "mechanical: contract
# move" commit, merge the other branches, run this, commit it alone, then apply the hand-written
# follow-up (contract enums, shared errors, CLI enums from the contract).
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/refactor-contract.mjs
# prose references to the old places
git grep -l 'src/server/schemas' -- docs '*.md' src test scripts ':!scripts/refactor-contract.*' | xargs -r sed -i 's#src/server/schemas/#src/contract/#g; s#src/server/schemas#src/contract#g'
git grep -l 'server/schemas/' -- src test | xargs -r sed -i 's#server/schemas/#contract/#g'
npx tsc -p . --noEmit
echo "contract moved; commit it alone: git add -A && git commit -m 'mechanical: contract move'"
