// libdeflate (Debian's libdeflate-dev): whole-buffer DEFLATE, two to four times as fast as zlib, writing the same
// zlib format that HDF5's deflate filter reads. Reached only through the HDF5 module's HDF5ChunkCompressor.
#ifndef BRAINBATCH_CLIBDEFLATE_SHIM_H
#define BRAINBATCH_CLIBDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
