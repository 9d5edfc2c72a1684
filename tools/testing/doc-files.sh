#!/bin/bash
# Keeps the "Files" table of Documentation/architecture.rst in step with
# net/smc/: every source and header file there has a row, and no row
# names a file that is gone. Exit 0 if so, else 1 with the differences.
#
#   tools/testing/doc-files.sh [TREE]
set -euo pipefail
tree=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
doc=$tree/Documentation/architecture.rst

# shellcheck source=tools/testing/doc-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/doc-lib.sh"

# the rows of the table after the "Files" heading: ``name``  text
listed=$(doc_table "$doc" Files | sed -nE 's/^``([^`]+)``.*/\1/p' | sort)
present=$(cd "$tree/net/smc" && ls -- *.c *.h | sort)

missing=$(comm -13 <(echo "$listed") <(echo "$present"))
gone=$(comm -23 <(echo "$listed") <(echo "$present"))
rc=0
[[ -z $missing ]] || { echo "doc-files: net/smc files without a row in $doc:" $missing; rc=1; }
[[ -z $gone ]] || { echo "doc-files: rows in $doc for files net/smc no longer has:" $gone; rc=1; }
((rc)) || echo "doc-files: $(wc -l <<<"$present") files of net/smc, each with a row in the Files table"
exit $rc
