#!/bin/sh
# Runs every attack recipe against two skillet binaries, alternating
# (A B A B), and prints one line per run (docs/serving.md#measured).
#   bench/attack/run.sh /tmp/skillet-before /tmp/skillet-after [rounds]
set -eu
a=$1 b=$2 rounds=${3:-1}
go build -o /tmp/skillet-attack ./bench/attack
for recipe in slow-reader stalled-bodies idle-conns sessions query64k link-farm constant-writes stream-lockout team-lockout idle-flood oversize-uri oversize-id batch cache-owner big-readers big-readers-stateful churn churn-stateful churn-fits churn-fits-stateful; do
	d=10s
	case $recipe in slow-reader|constant-writes) d=20s ;; sessions) d=60s ;; stream-lockout|team-lockout|big-readers*|churn*) d=15s ;; esac
	i=0
	while [ "$i" -lt "$rounds" ]; do
		# Exit 3: the run broke the recipe's bound (printed); go on.
		/tmp/skillet-attack -bin "$a" -recipe $recipe -duration $d || [ $? -eq 3 ]
		/tmp/skillet-attack -bin "$b" -recipe $recipe -duration $d || [ $? -eq 3 ]
		i=$((i + 1))
	done
done
