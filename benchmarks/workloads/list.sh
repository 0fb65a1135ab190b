#!/bin/bash
# Prints the workload table of docs/workloads.md (Markdown) from the declaration lines of
# the sources: `// WORKLOAD: <name> | <class> | <description>` on the first line of
# benchmarks/workloads/<name>/<name>.cu, and whether <name>_ocl.c (an OpenCL variant,
# `/* WORKLOAD-OCL: ... */`) exists beside it.
# usage: list.sh [SRCDIR]   (default: the source tree this script is in)
set -u
top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
dir="$top/benchmarks/workloads"

# field N (1-based) of a declaration line, blanks trimmed; the description keeps any '|'.
field() {
    sed -E 's/^(\/\/|\/\*) *WORKLOAD(-OCL)?: *//; s/ *\*\/ *$//' <<<"$1" |
        awk -v n="$2" -F'|' '{
            s = n < 3 ? $n : substr($0, length($1) + length($2) + 3)
            gsub(/^[ \t]+|[ \t\r]+$/, "", s); gsub(/\|/, "\\|", s); gsub(/__/, "\\_\\_", s)
            print s }'
}

echo "| workload | class | OpenCL | description |"
echo "|---|---|---|---|"
for d in "$dir"/*/; do
    name=$(basename "$d")
    [ "$name" = common ] && continue
    cu="$d$name.cu"
    ocl="$d${name}_ocl.c"
    if [ -f "$cu" ]; then
        line=$(head -n 1 "$cu")
    elif [ -f "$ocl" ]; then
        line=$(head -n 1 "$ocl")
    else
        continue
    fi
    case "$line" in *WORKLOAD*) ;; *) echo "list.sh: $name: no WORKLOAD line" >&2; continue ;; esac
    if [ ! -f "$cu" ]; then
        has="only (\`${name}_ocl\`)"
    elif [ -f "$ocl" ]; then
        has="\`${name}_ocl\`"
    else
        has="-"
    fi
    echo "| \`$name\` | $(field "$line" 2) | $has | $(field "$line" 3) |"
done
