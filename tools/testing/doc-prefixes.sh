#!/bin/bash
# Keeps the "Function prefixes" table of Documentation/architecture.rst
# true: every non-static function of net/smc/*.c is defined in the file
# of the row with the longest prefix its name starts with, every row
# names a file net/smc has, and every row is some function's. Exit 0 if
# so, else 1 with each offender.
#
#   tools/testing/doc-prefixes.sh [TREE]
#
# A definition, in kernel style, starts at column 0: its return type and
# its name followed by '(' on one line (attributes such as __init or
# __printf(2, 3) may stand among them), or the return type alone on the
# line before a line that starts with the name. Neither line starts with
# 'static' nor ends in ';'. No ctags: plain awk, as on a fresh machine.
set -euo pipefail
tree=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
doc=$tree/Documentation/architecture.rst
src=$tree/net/smc

# shellcheck source=tools/testing/doc-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/doc-lib.sh"

# the rows of the table after the "Function prefixes" heading:
# ``prefix``  ``file``
rows=$(doc_table "$doc" "Function prefixes" |
	sed -nE 's/^``([^`]+)`` +``([^`]+)``.*/\1 \2/p')
[[ -n $rows ]] || { echo "doc-prefixes: no Function prefixes table in $doc"; exit 1; }

# name file, for each non-static function definition
funcs=$(awk '
	function name_of(line,    head) {
		gsub(/__[a-z_]+\([^)]*\)/, "", line)	# __printf(2, 3), ...
		if (!match(line, /^[^(=]*[A-Za-z_][A-Za-z0-9_]*\(/))
			return ""
		head = substr(line, 1, RLENGTH - 1)
		match(head, /[A-Za-z_][A-Za-z0-9_]*$/)
		type = substr(head, 1, RSTART - 1)
		return substr(head, RSTART)
	}
	FNR == 1 { file = FILENAME; sub(/.*\//, "", file); prev = "" }
	{
		line = $0
		if (line ~ /^[A-Za-z_]/ && line !~ /^(static|typedef|extern)[ \t]/ &&
		    line !~ /;[ \t]*$/ && prev !~ /^static[A-Za-z0-9_ \t*]*$/) {
			name = name_of(line)
			if (name != "" && type ~ /[A-Za-z_]/)
				print name, file
			else if (name != "" && type == "" &&
				 prev ~ /^[A-Za-z_][A-Za-z0-9_ \t*]*$/ &&
				 prev !~ /^(typedef|extern)[ \t]/)
				print name, file	# type on the line before
		}
		prev = line
	}
' "$src"/*.c | sort -u)

rc=0
while read -r prefix file; do
	[[ -f $src/$file ]] && continue
	echo "doc-prefixes: row $prefix names $file, which net/smc does not have"
	rc=1
done <<<"$rows"

awk '
	BEGIN { n = 0 }
	FNR == NR {
		if ($1 in seen) { print "doc-prefixes: row " $1 " twice"; bad = 1 }
		seen[$1] = 1; prefix[n] = $1; file[n] = $2; n++; next
	}
	{
		best = -1
		for (i = 0; i < n; i++)
			if (index($1, prefix[i]) == 1 &&
			    (best < 0 || length(prefix[i]) > length(prefix[best])))
				best = i
		if (best < 0) {
			print $1 " in " $2 " matches no row"; bad = 1
		} else {
			used[best] = 1
			if (file[best] != $2) {
				print $1 " in " $2 ", its prefix row " prefix[best] \
				      " says " file[best]
				bad = 1
			}
		}
	}
	END {
		for (i = 0; i < n; i++)
			if (!(i in used)) {
				print "doc-prefixes: row " prefix[i] " (" file[i] \
				      ") is no function'"'"'s"
				bad = 1
			}
		exit bad
	}
' <(echo "$rows") <(echo "$funcs") || rc=1

((rc)) || echo "doc-prefixes: $(wc -l <<<"$funcs") functions of net/smc, each in the file its prefix names"
exit $rc
