#!/usr/bin/env bash
# Release builds link HDF5, FFTW and libdeflate statically: Debian's libhdf5 loads about forty more shared libraries
# (curl, TLS, Kerberos, LDAP …, for remote-file drivers the tools never use), which cost ~8 ms at every process
# start. This writes pkg-config files under .build/static-libs/pkgconfig that name the -dev packages' static
# archives (libhdf5.a, libfftw3.a, libdeflate.a) and prints that folder, for PKG_CONFIG_PATH. A library without a static
# archive gets no file, so pkg-config falls back to the system's shared one.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/.build/static-libs
mkdir -p "$out/pkgconfig"

# write PACKAGE LIBRARY EXTRA_LIBS: a .pc file for PACKAGE whose -l LIBRARY is the static archive.
write() {
    local package=$1 library=$2 extra=$3 dir archive=""
    local multiarch
    multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || true)
    for dir in $(pkg-config --libs-only-L "$package" | sed 's/-L//g') $(pkg-config --variable=libdir "$package") \
               "/usr/lib/$multiarch" /usr/lib; do
        if [ -f "$dir/lib$library.a" ]; then archive=$dir/lib$library.a; break; fi
    done
    if [ -z "$archive" ]; then
        echo "static-libs: no lib$library.a; release builds link the shared $package" >&2
        rm -f "$out/pkgconfig/$package.pc"
        return
    fi
    mkdir -p "$out/$package"
    ln -sf "$archive" "$out/$package/lib$library.a"
    cat > "$out/pkgconfig/$package.pc" <<PC
Name: $package
Description: $package, static archive ($archive)
Version: $(pkg-config --modversion "$package")
Cflags: $(pkg-config --cflags "$package")
Libs: -L$out/$package -l$library $extra
PC
}

write hdf5 hdf5 "-lsz -lz -lm"
write fftw3 fftw3 "-lm"
write libdeflate deflate ""
echo "$out/pkgconfig"
