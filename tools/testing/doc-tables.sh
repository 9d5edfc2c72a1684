#!/bin/bash
# Keeps the tables of Documentation/admin-guide.rst in step with the
# sources they describe, one line per difference:
#
# - "Fallback to TCP": a row (code, name) for every reason of
#   uapi/linux/smcr_reasons.h, with its value from uapi/linux/smcr.h;
# - "Sysctls": a row for every SMC_TUNABLE() and SMC_TUNABLE_ALIAS() of
#   net/smc/tunables.c, with its range and scope (an alias's range is its
#   tunable's in its unit, as smc_tunables_init() computes it);
# - "Module parameters": a row for every parameter (the SMC_TUNABLE() rows
#   and the module_param*() of net/smc/*.c) but the test_* ones; a
#   tunable's row states its default, and its range where it gives one
#   ("A to B", "A-B", "A or B"), as tunables.c has them;
# - "Test hooks": a row for every test_* parameter (the SMC_TEST_BOOL() and
#   SMC_TEST_UINT() rows of net/smc/test_hooks.c, and any module_param*()
#   named test_*); an unsigned hook's row states its maximum ("at most N")
#   as test_hooks.c has it.
#
# No table has a row for something the sources do not have. Exit 0 if all
# agree (one summary line per table), else 1.
#
#   tools/testing/doc-tables.sh [TREE]
set -euo pipefail
tree=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
doc=$tree/Documentation/admin-guide.rst
smcr_h=$tree/uapi/linux/smcr.h
reasons_h=$tree/uapi/linux/smcr_reasons.h
tunables_c=$tree/net/smc/tunables.c
nfail=0
# shellcheck source=tools/testing/doc-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/doc-lib.sh"

fail()
{
	echo "doc-tables: $*"
	nfail=$((nfail + 1))
}

# table HEADING: the rows of the first table after HEADING (doc-lib.sh)
table()
{
	doc_table "$doc" "$1"
}

# first WORD: the first column of rows, without its ``
first()
{
	sed -nE 's/^``([^`]+)``.*/\1/p'
}

# differ WHAT SOURCE-LINES TABLE-LINES: report the lines only one side
# has, and lines the table has twice
differ()
{
	local what=$1 src=$2 rows=$3 n
	while read -r n; do
		[[ -z $n ]] || fail "$what: $n has no row"
	done < <(comm -23 <(sort -u <<<"$src") <(sort -u <<<"$rows"))
	while read -r n; do
		[[ -z $n ]] || fail "$what: row $n names nothing the sources have"
	done < <(comm -13 <(sort -u <<<"$src") <(sort -u <<<"$rows"))
	while read -r n; do
		[[ -z $n ]] || fail "$what: $n has more than one row"
	done < <(sort <<<"$rows" | uniq -d)
}

# --- fallback reasons ------------------------------------------------------
before=$nfail
# "0x03010000 PEERNOSMC": the list's names with smcr.h's values
src=$(sed -nE 's/^SMC_CLC_DECL_REASON\(([A-Z0-9_]+),.*/\1/p' "$reasons_h" |
	while read -r name; do
		val=$(sed -nE "s/^#define[[:space:]]+SMC_CLC_DECL_${name}[[:space:]]+(0x[0-9a-fA-F]+).*/\\1/p" "$smcr_h")
		[[ -n $val ]] && printf '0x%08x %s\n' "$((val))" "$name" || echo "? $name"
	done)
while read -r _ name; do
	fail "reasons: $name of $reasons_h has no #define in $smcr_h"
done < <(grep '^? ' <<<"$src" || true)
while read -r name; do
	grep -q "^SMC_CLC_DECL_REASON($name," "$reasons_h" ||
		fail "reasons: SMC_CLC_DECL_$name of $smcr_h is not in $reasons_h"
done < <(sed -nE 's/^#define[[:space:]]+SMC_CLC_DECL_([A-Z0-9_]+)[[:space:]]+0x.*/\1/p' "$smcr_h")
rows=$(table "Fallback to TCP" | sed -nE 's/^``(0x[0-9a-f]+)``[[:space:]]+([A-Z0-9_]+).*/\1 \2/p')
[[ -n $rows ]] || fail "reason table: none under \"Fallback to TCP\" in $doc"
differ "reason table" "$src" "$rows"
((nfail != before)) ||
	echo "doc-tables: $(wc -l <<<"$src") fallback reasons of uapi/linux/smcr_reasons.h, each with its code and name in the reason table"

# --- sysctls ---------------------------------------------------------------
# "name min max default scope" of each SMC_TUNABLE() row
tunables=$(sed -nE 's/^SMC_TUNABLE\(([GN]),[[:space:]]*([a-z0-9_]+),[[:space:]]*([0-9]+),[[:space:]]*([0-9]+),[[:space:]]*([0-9]+),.*/\2 \3 \4 \5 \1/p' "$tunables_c")
before=$nfail
[[ -n $tunables ]] || fail "sysctl table: no SMC_TUNABLE() rows in $tunables_c"
# "name range scope", as the table writes them
src=$(while read -r name min max def scope; do
	[[ $scope == N ]] && scope=netns || scope=module
	echo "$name $min-$max $scope"
done <<<"$tunables"
sed -nE 's/^SMC_TUNABLE_ALIAS\(([a-z0-9_]+),[[:space:]]*([a-z0-9_]+),[[:space:]]*([0-9]+)\).*/\1 \2 \3/p' "$tunables_c" |
	while read -r name of scale; do
		read -r _ min max _ _ < <(grep "^$of " <<<"$tunables") ||
			{ echo "$name ?-? netns"; continue; }
		echo "$name $(((min + scale - 1) / scale))-$((max / scale)) netns"
	done)
rows=$(table "Sysctls" | sed -nE 's/^``([a-z0-9_]+)``[[:space:]]+([^[:space:]]+)[[:space:]]+([^[:space:]]+).*/\1 \2 \3/p')
[[ -n $rows ]] || fail "sysctl table: none under \"Sysctls\" in $doc"
differ "sysctl table" "$(cut -d' ' -f1 <<<"$src")" "$(cut -d' ' -f1 <<<"$rows")"
while read -r name range scope; do
	want=$(grep "^$name " <<<"$src") || continue
	[[ "$name $range $scope" == "$want" ]] ||
		fail "sysctl table: $name says $range $scope, tunables.c ${want#* }"
done <<<"$rows"
((nfail != before)) ||
	echo "doc-tables: $(wc -l <<<"$src") sysctls of net/smc/tunables.c, each with its row, range and scope in the Sysctls table"

# --- module parameters and test hooks --------------------------------------
# module_param(), module_param_named() and module_param_cb() wherever they
# are in net/smc/*.c, but not in a macro's definition (a line ending in \);
# test_hooks.c's rows: SMC_TEST_BOOL(NAME, ...) and SMC_TEST_UINT(NAME, MAX,
# ...) make test_NAME ("NAME MAX" in $uint_hooks)
hook_rows=$(grep -hE '^SMC_TEST_(BOOL|UINT)\(' "$tree"/net/smc/*.c || true)
uint_hooks=$(sed -nE 's/^SMC_TEST_UINT\(([a-z0-9_]+), *([0-9]+),.*/test_\1 \2/p' <<<"$hook_rows")
params=$( (cut -d' ' -f1 <<<"$tunables"
	sed -nE 's/^SMC_TEST_(BOOL|UINT)\(([a-z0-9_]+),.*/test_\2/p' <<<"$hook_rows"
	cat "$tree"/net/smc/*.c | grep -E '^[[:space:]]*module_param(_named|_cb)?\(' |
		grep -v '\\$' |
		sed -E 's/^[[:space:]]*module_param(_named|_cb)?\([[:space:]]*([A-Za-z0-9_]+).*/\2/') | sort)
main=$(table "Module parameters")
hooks=$(table "Test hooks")
before=$nfail
[[ -n $main ]] || fail "module parameter table: none under \"Module parameters\" in $doc"
# a parameter in the other table is in the wrong one
while read -r n; do
	[[ -z $n ]] || fail "module parameter table: $n is a test hook, its row belongs in the Test hooks table"
done < <(first <<<"$main" | grep '^test_' | grep -Fxf <(echo "$params") || true)
differ "module parameter table" "$(grep -v '^test_' <<<"$params")" \
	"$(first <<<"$main" | grep -vFxf <(grep '^test_' <<<"$params") || true)"
checked=0 ranges=0
while read -r name min max def _; do
	text=$(grep "^\`\`$name\`\`" <<<"$main") || continue
	said=$(grep -oE '(^|[^[:alnum:]_])default [0-9]+' <<<"$text" | head -1 | grep -oE '[0-9]+$') || true
	if [[ -z $said ]]; then
		fail "module parameter table: $name states no default (tunables.c: $def)"
	elif [[ $said != "$def" ]]; then
		fail "module parameter table: $name says default $said, tunables.c $def"
	fi
	said=$(grep -oE '[0-9]+( to |-| or )[0-9]+' <<<"$text" | head -1 | sed -E 's/ (to|or) /-/') || true
	if [[ -n $said ]]; then
		[[ $said == "$min-$max" ]] ||
			fail "module parameter table: $name says range $said, tunables.c $min-$max"
		ranges=$((ranges + 1))
	fi
	checked=$((checked + 1))
done <<<"$tunables"
((nfail != before)) ||
	echo "doc-tables: $(grep -vc '^test_' <<<"$params") module parameters, each with its row in the Module parameters table ($checked tunables' defaults and $ranges ranges as in tunables.c)"
before=$nfail
[[ -n $hooks ]] || fail "test hooks table: none under \"Test hooks\" in $doc"
while read -r n; do
	[[ -z $n ]] || fail "test hooks table: $n is no test hook (no test_ prefix), its row belongs in the Module parameters table"
done < <(first <<<"$hooks" | grep -v '^test_' | grep -Fxf <(echo "$params") || true)
differ "test hooks table" "$(grep '^test_' <<<"$params" || true)" \
	"$(first <<<"$hooks" | grep -vFxf <(grep -v '^test_' <<<"$params") || true)"
maxes=0
while read -r name max; do
	[[ -n $name ]] || continue
	text=$(grep "^\`\`$name\`\`" <<<"$hooks") || continue
	said=$(grep -oE 'at most [0-9]+|[0-9]+ or [0-9]+ only' <<<"$text" | head -1 | grep -oE '[0-9]+( only)?$' | grep -oE '^[0-9]+') || true
	if [[ -z $said ]]; then
		fail "test hooks table: $name states no maximum (test_hooks.c: $max)"
	elif [[ $said != "$max" ]]; then
		fail "test hooks table: $name says at most $said, test_hooks.c $max"
	fi
	maxes=$((maxes + 1))
done <<<"$uint_hooks"
((nfail != before)) ||
	echo "doc-tables: $(grep -c '^test_' <<<"$params") test_* parameters, each with its row in the Test hooks table ($maxes maxima as in test_hooks.c)"
((nfail == 0))
