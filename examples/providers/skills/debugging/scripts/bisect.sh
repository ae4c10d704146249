#!/bin/sh
git bisect run ./test.sh
