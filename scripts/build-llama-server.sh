#!/usr/bin/env bash
# Builds llama.cpp's llama-server (CPU only) once per machine, for the real-server suite (npm run test:real-server).
# The source is the git bundle that the node-llama-cpp npm package ships (llama/gitRelease.bundle): fetched with
# `npm pack` (the package's tarball only: no install, no install scripts, no prebuilt binaries), cloned, and only the
# llama-server target built. The result lives outside the checkout, keyed by the package's version:
#   ${XDG_CACHE_HOME:-~/.cache}/pal-studio/llama-server-<version>/{llama-server,ggml-vocab-qwen2.gguf,build.json}
# A cached build is reused; a concurrent run waits on a lock. About 10 minutes on 2 cores the first time.
# Prints the cache directory on its last line; exits non-zero with the reason when it cannot build.
set -euo pipefail

# The whole script is one function, read before it runs: editing the file during a build cannot derail it.
main() {

# Bump to move to a newer llama.cpp: the cache key follows it.
NODE_LLAMA_CPP_VERSION="3.22.1"

cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/pal-studio"
dest="$cache_root/llama-server-$NODE_LLAMA_CPP_VERSION"
jobs="${LLAMA_BUILD_JOBS:-2}"

if [ -x "$dest/llama-server" ] && [ -f "$dest/build.json" ]; then
  echo "$dest"
  exit 0
fi

# The compilers come from Debian's packages, installed when missing (as scripts/ensure-chromium.sh does).
missing=()
for tool in cmake git g++ make; do command -v "$tool" > /dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = "0" ] && command -v apt-get > /dev/null; then
  echo "Installing ${missing[*]} (Debian) to build llama-server..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake git g++ make > /dev/null || true
fi
for tool in cmake git g++ make npm tar flock; do
  command -v "$tool" > /dev/null || {
    echo "cannot build llama-server: '$tool' is not installed (apt-get install cmake git g++ make)" >&2
    exit 1
  }
done

mkdir -p "$cache_root"
exec 9> "$cache_root/.llama-server-$NODE_LLAMA_CPP_VERSION.lock"
echo "llama-server $NODE_LLAMA_CPP_VERSION: waiting for the build lock ($cache_root)..." >&2
flock 9
if [ -x "$dest/llama-server" ] && [ -f "$dest/build.json" ]; then # another run built it meanwhile
  echo "$dest"
  exit 0
fi

work="$(mktemp -d "$cache_root/.build-XXXXXX")"
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
echo "Building llama-server from node-llama-cpp@$NODE_LLAMA_CPP_VERSION's bundled llama.cpp into $dest (once per machine, about 10 min on 2 cores)..." >&2

(cd "$work" && npm pack "node-llama-cpp@$NODE_LLAMA_CPP_VERSION" --silent > pack.log 2>&1) || {
  cat "$work/pack.log" >&2
  echo "cannot build llama-server: npm pack node-llama-cpp@$NODE_LLAMA_CPP_VERSION failed (is the npm registry reachable?)" >&2
  exit 1
}
tar -xzf "$work/node-llama-cpp-$NODE_LLAMA_CPP_VERSION.tgz" -C "$work" package/llama/gitRelease.bundle
git clone --quiet "$work/package/llama/gitRelease.bundle" "$work/src" 2> /dev/null
commit="$(git -C "$work/src" rev-parse HEAD)"

# CPU only, static, no web UI (its prebuilt assets would be downloaded), no HTTPS, no tests or examples.
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DGGML_CUDA=OFF -DGGML_VULKAN=OFF -DGGML_METAL=OFF -DGGML_NATIVE=ON \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
  -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF \
  > "$work/cmake.log" 2>&1 || {
  tail -n 40 "$work/cmake.log" >&2
  echo "cannot build llama-server: cmake configure failed (log above)" >&2
  exit 1
}
cmake --build "$work/build" --target llama-server -j "$jobs" > "$work/build.log" 2>&1 || {
  tail -n 40 "$work/build.log" >&2
  echo "cannot build llama-server: compile failed (log above)" >&2
  exit 1
}

staged="$work/out"
mkdir -p "$staged"
cp "$work/build/bin/llama-server" "$staged/"
cp "$work/src/models/ggml-vocab-qwen2.gguf" "$staged/"
seconds=$(($(date +%s) - start))
printf '{"nodeLlamaCpp":"%s","llamaCppCommit":"%s","builtAt":"%s","buildSeconds":%d,"jobs":%d}\n' \
  "$NODE_LLAMA_CPP_VERSION" "$commit" "$(date -u +%FT%TZ)" "$seconds" "$jobs" > "$staged/build.json"
rm -rf "$dest"
mv "$staged" "$dest"
echo "llama-server built in ${seconds} s" >&2
echo "$dest"
}

main "$@"
exit $?
