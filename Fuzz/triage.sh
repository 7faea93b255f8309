#!/usr/bin/env bash
# Sorts inputs on which a fuzz target crashed, timed out or ran out of memory by where it happened: runs the target
# on each again and reads the stack it prints. The first frame that is not the C or C++ library (named by its
# library, or by glibc's source path, as in `__memcpy_avx512_unaligned_erms string/../sysdeps/…`), the Swift runtime
# or the sanitizer and fuzzer runtime decides: in libhdf5 it is libhdf5's own fault ("hdf5", a corrupt file that
# the tool's child process isolates); anywhere else it is ours ("ours", a finding). One line per input:
#
#   hdf5 artifacts/FuzzMYNDHDF5/crash-… SEGV in H5F__accum_read
#   ours artifacts/FuzzMYNDHDF5/crash-… Fatal error in $s4MYND…
#
#   Fuzz/triage.sh TARGET-BINARY INPUT...
set -uo pipefail
binary=${1:?usage: Fuzz/triage.sh TARGET-BINARY INPUT...}
shift
target_path=$(realpath "$binary")
export SWIFT_BACKTRACE=enable=no
# No leak check at exit either (see -detect_leaks below).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# An allocation over 256 MB ends the replay with the allocating stack (run.sh fuzzes under the same limit): an
# out-of-memory found by the RSS check has no stack, and which code grew would otherwise be unknown.
ASAN_OPTIONS+=:${HDF5_ASAN_OPTIONS:-max_allocation_size_mb=256}
for input in "$@"; do
    report=$("$binary" -timeout=5 -rss_limit_mb=2048 -detect_leaks=0 "$input" 2>&1)
    # "SUMMARY: AddressSanitizer: SEGV (…)", "SUMMARY: libFuzzer: timeout", "… out-of-memory (malloc(…))".
    kind=$(grep -o -m1 -E 'SUMMARY: [A-Za-z]+: [^ ]+' <<<"$report" | sed -E 's/SUMMARY: [A-Za-z]+: //')
    grep -q 'Fatal error' <<<"$report" && kind="Fatal error"
    # Stack frames: "#3 0x55d0 in H5F__accum_read (/lib/x86_64-linux-gnu/libhdf5_serial.so.103+0x1234)", or
    # without a name: "#1 0x7f12 (/lib/x86_64-linux-gnu/libhdf5_serial.so.103+0x1233e4)".
    # A frame without a name inside the target itself is the sanitizer's or fuzzer's runtime (our Swift code is
    # always named): a timeout's alarm that lands there (in an allocation of libhdf5's, say) is passed over too.
    frame=$(grep -E '^ *#[0-9]+ 0x[0-9a-f]+ ' <<<"$report" \
            | grep -v -E 'libc\.so|libc\+\+|libstdc\+\+|libgcc|libswiftCore|libclang_rt|asan|sanitizer|fuzzer::|__interceptor|__libc_|abort|raise|malloc_printerr|_int_free|_int_malloc|libpthread|/nptl/|__GI_|sysdeps/| in __(mem|str|wmem)[a-z0-9_]* ' \
            | grep -v -F "($target_path+" \
            | head -1)
    function=$(sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ +(in )?([^ ]+).*/\2/' <<<"$frame")
    # glibc's stack protector ends the process before the sanitizer can print a stack ("*** stack smashing
    # detected ***"; libhdf5's H5T__bit_get_d overruns its buffer on some corrupt datatypes): where gdb is
    # installed, the function whose stack was smashed is the caller of __stack_chk_fail.
    if grep -q 'stack smashing detected' <<<"$report" && command -v gdb >/dev/null; then
        kind="stack smashing"
        frame=$(gdb -batch -ex 'set breakpoint pending on' -ex 'break __stack_chk_fail' -ex run -ex 'bt 2' \
                    --args "$binary" -timeout=5 -rss_limit_mb=2048 -detect_leaks=0 "$input" 2>/dev/null | grep -E '^#1 ')
        function=$(sed -E 's/.* in ([^ ]+) .*/\1/' <<<"$frame")
        frame=${frame/ from / (}
    fi
    if grep -q -E 'libhdf5|^ *#[0-9]+ 0x[0-9a-f]+ in H5' <<<"$frame"; then
        echo "hdf5 $input ${kind:-unknown} in $function"
    elif [ -z "$kind" ] && ! grep -q -E 'ERROR|deadly|==[0-9]+==' <<<"$report"; then
        echo "none $input (no fault when run again)"
    else
        echo "ours $input ${kind:-unknown} in ${function:-an unknown frame}"
    fi
done
