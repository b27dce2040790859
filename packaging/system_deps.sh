#!/bin/sh
# The system packages Autofuse Studio needs on a fresh Debian/Ubuntu machine (the one list), and the step
# `make run`, `make test` and .ci/run take before anything else:
#   sh packaging/system_deps.sh        what the app and the test suite need (Python with venv, the Qt runtime)
#   sh packaging/system_deps.sh --ci   that plus what CI builds and tests with (compilers, cmake, ssh, CJK fonts)
# Debian/Ubuntu: dpkg-query says what is missing (milliseconds when nothing is); as root the missing packages
# are installed with apt-get, otherwise it stops with the exact install command. Elsewhere it only says which
# libraries are missing and never fails: Qt's wheels carry everything else, and other package managers differ.
# PYTHON: the interpreter the venv is made from (default python3); AUTOFUSE_SKIP_SYSTEM_DEPS=1 skips the step.
set -eu

# "package[|alternative]:soname". Alternatives: Debian 13 and Ubuntu 24.04 renamed some libraries in the
# 64-bit time_t transition. The soname is what the non-Debian check looks for (none: not checked there).
QT_RUNTIME="
libegl1:libEGL.so.1
libgl1:libGL.so.1
libxkbcommon0:libxkbcommon.so.0
libxkbcommon-x11-0:libxkbcommon-x11.so.0
libfontconfig1:libfontconfig.so.1
libfreetype6:libfreetype.so.6
libdbus-1-3:libdbus-1.so.3
libglib2.0-0t64|libglib2.0-0:libglib-2.0.so.0
libx11-xcb1:libX11-xcb.so.1
libxcb-cursor0:libxcb-cursor.so.0
libxcb-icccm4:libxcb-icccm.so.4
libxcb-keysyms1:libxcb-keysyms.so.1
libxcb-image0:libxcb-image.so.0
libxcb-render-util0:libxcb-render-util.so.0
libxcb-shape0:libxcb-shape.so.0
libxcb-xinerama0:libxcb-xinerama.so.0
libxcb-randr0:libxcb-randr.so.0
fonts-dejavu-core:
"
# Only when PYTHON cannot make a virtual environment (Debian ships venv support separately).
PYTHON_VENV="python3: python3-venv:"
# CI also builds the native kernel, runs verify-tiling builds and ssh tests, checks the desktop entry and
# bundles a CJK font.
CI_EXTRA="make: gcc: g++: cmake: python3-dev: fonts-noto-cjk: openssh-server: openssh-client: desktop-file-utils:"

[ "${AUTOFUSE_SKIP_SYSTEM_DEPS:-}" = 1 ] && exit 0
PYTHON=${PYTHON:-python3}
wanted=$QT_RUNTIME
[ "${1:-}" = --ci ] && wanted="$wanted $CI_EXTRA"
# ensurepip.version() fails when the bundled pip wheel is missing, i.e. when `-m venv` would fail.
if ! "$PYTHON" -c "import ensurepip, venv; ensurepip.version()" >/dev/null 2>&1; then
    wanted="$wanted $PYTHON_VENV"
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    [ "$(uname -s 2>/dev/null)" = Linux ] || exit 0
    ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
    known=$("$ldconfig" -p 2>/dev/null || true)
    lacking=""
    for entry in $wanted; do
        soname=${entry#*:}
        [ -n "$soname" ] || continue
        case $known in *"$soname "*) ;; *) lacking="$lacking $soname" ;; esac
    done
    [ -z "$lacking" ] || echo "Autofuse Studio needs these libraries, which this system seems to lack:$lacking;" \
        "install them with your package manager (on Debian/Ubuntu \`sh packaging/system_deps.sh\` does it)." >&2
    exit 0
fi

alternatives() {  # "a|b" -> "a b" (builtins only: the check must also run where little is installed)
    saved=$IFS; IFS='|'
    # shellcheck disable=SC2086
    set -- $1
    IFS=$saved
    echo "$@"
}

# One dpkg-query call for every name (alternatives included): "name=ii " for each installed package.
names=""
for entry in $wanted; do
    names="$names $(alternatives "${entry%%:*}")"
done
# shellcheck disable=SC2086  # word splitting of the name list is intended
installed=" $(dpkg-query -W -f='${Package}=${db:Status-Abbrev} ' $names 2>/dev/null || true)"

missing=""
for entry in $wanted; do
    choices=${entry%%:*}
    found=""
    for name in $(alternatives "$choices"); do
        case $installed in *" $name=ii "*) found=yes ;; esac
    done
    [ -n "$found" ] || missing="$missing $choices"
done
[ -n "$missing" ] || exit 0

pick() {  # the first alternative apt knows (a purely virtual name has no version to show)
    for name in $(alternatives "$1"); do
        if apt-cache show --no-all-versions "$name" >/dev/null 2>&1; then echo "$name"; return; fi
    done
    echo "${1##*|}"
}

if [ "$(id -u)" != 0 ]; then
    packages=""
    for choices in $missing; do packages="$packages $(pick "$choices")"; done
    echo "Autofuse Studio needs Debian packages that are not installed; install them with:" \
        "sudo apt-get install -y --no-install-recommends$packages" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "system_deps: installing$missing" >&2
apt-get update -qq
packages=""
for choices in $missing; do packages="$packages $(pick "$choices")"; done
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $packages >/dev/null
