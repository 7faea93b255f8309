// HDF5 C library, with functions for what Swift cannot import: the H5P_DEFAULT, H5S_ALL, H5F_ACC_* and
// H5T_* macros expand to casts, calls and library globals, so each is returned from a static inline function.
#ifndef BRAINBATCH_CHDF5_SHIM_H
#define BRAINBATCH_CHDF5_SHIM_H
#include <hdf5.h>

static inline hid_t bb_H5P_DEFAULT(void) { return H5P_DEFAULT; }
static inline hid_t bb_H5S_ALL(void) { return H5S_ALL; }
static inline hsize_t bb_H5S_UNLIMITED(void) { return H5S_UNLIMITED; }
static inline unsigned bb_H5F_ACC_TRUNC(void) { return H5F_ACC_TRUNC; }
static inline unsigned bb_H5F_ACC_RDONLY(void) { return H5F_ACC_RDONLY; }
static inline size_t bb_H5T_VARIABLE(void) { return H5T_VARIABLE; }

static inline hid_t bb_H5T_NATIVE_INT8(void) { return H5T_NATIVE_INT8; }
static inline hid_t bb_H5T_NATIVE_UINT8(void) { return H5T_NATIVE_UINT8; }
static inline hid_t bb_H5T_NATIVE_INT16(void) { return H5T_NATIVE_INT16; }
static inline hid_t bb_H5T_NATIVE_UINT16(void) { return H5T_NATIVE_UINT16; }
static inline hid_t bb_H5T_NATIVE_INT32(void) { return H5T_NATIVE_INT32; }
static inline hid_t bb_H5T_NATIVE_UINT32(void) { return H5T_NATIVE_UINT32; }
static inline hid_t bb_H5T_NATIVE_INT64(void) { return H5T_NATIVE_INT64; }
static inline hid_t bb_H5T_NATIVE_UINT64(void) { return H5T_NATIVE_UINT64; }
static inline hid_t bb_H5T_NATIVE_FLOAT(void) { return H5T_NATIVE_FLOAT; }
static inline hid_t bb_H5T_NATIVE_DOUBLE(void) { return H5T_NATIVE_DOUBLE; }
static inline hid_t bb_H5T_C_S1(void) { return H5T_C_S1; }
static inline hid_t bb_H5T_STD_I8LE(void) { return H5T_STD_I8LE; }
static inline hid_t bb_H5T_STD_U8LE(void) { return H5T_STD_U8LE; }
static inline hid_t bb_H5T_STD_I32LE(void) { return H5T_STD_I32LE; }
static inline hid_t bb_H5T_STD_I64LE(void) { return H5T_STD_I64LE; }
static inline hid_t bb_H5T_IEEE_F32LE(void) { return H5T_IEEE_F32LE; }
static inline hid_t bb_H5T_IEEE_F64LE(void) { return H5T_IEEE_F64LE; }

static inline hid_t bb_H5P_FILE_CREATE(void) { return H5P_FILE_CREATE; }
static inline hid_t bb_H5P_FILE_ACCESS(void) { return H5P_FILE_ACCESS; }
static inline hid_t bb_H5P_GROUP_CREATE(void) { return H5P_GROUP_CREATE; }
static inline hid_t bb_H5P_DATASET_CREATE(void) { return H5P_DATASET_CREATE; }
static inline hid_t bb_H5P_DATASET_XFER(void) { return H5P_DATASET_XFER; }

/// Silences HDF5's automatic error stack printing; the Swift wrapper reports errors itself.
static inline void bb_H5_silence_errors(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

/// The same for the calling thread, once per thread (a thread-safe HDF5 keeps the setting per thread).
static inline void bb_H5_silence_errors_on_this_thread(void) {
    static __thread int silenced;
    if (!silenced) {
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
        silenced = 1;
    }
}
#endif
