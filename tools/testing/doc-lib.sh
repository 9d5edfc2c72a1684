# Shared by the doc checks (doc-files.sh, doc-prefixes.sh, doc-tables.sh):
# sourced, defines doc_table.
#
# doc_table DOC HEADING: the rows of the first table after the heading
# HEADING of the reStructuredText file DOC, one line each, continuation
# lines joined: ``first``  second  ...
doc_table()
{
	awk -v want="$2" '
		{ line[NR] = $0 }
		function heading(i) {
			return line[i] != "" && line[i + 1] ~ /^[-=~^]+$/ &&
			       length(line[i + 1]) == length(line[i])
		}
		function border(i) { return line[i] ~ /^=+( +=+)+$/ }
		END {
			for (i = 1; i < NR; i++)
				if (line[i] == want && heading(i))
					break
			for (i += 2; i <= NR && !border(i); i++)
				if (heading(i))
					exit
			row = ""
			for (i++; i <= NR; i++) {
				if (border(i)) {
					if (i == NR || line[i + 1] == "")
						break
				} else if (line[i] ~ /^``/) {
					if (row != "")
						print row
					row = line[i]
				} else if (row != "") {
					t = line[i]
					sub(/^ +/, "", t)
					row = row " " t
				}
			}
			if (row != "")
				print row
		}
	' "$1"
}
